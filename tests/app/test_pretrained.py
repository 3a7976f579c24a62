"""The pretrained page through AppTest."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.app import figures, plotly_array, run_app
from tests.helpers.grid import grid_heads

PAGE = "views/pretrained.py"


def test_default_view():
    at = run_app(PAGE)
    figs = figures(at)
    assert len(figs) == 3  # mosaic, enlarged head, re-headed layer
    mosaic, enlarged, regrid = figs
    assert [d["type"] for d in mosaic["data"]] == ["heatmap", "scatter"]  # maps + click targets
    targets = plotly_array(mosaic["data"][1]["customdata"]).reshape(-1, 2)
    assert sorted(map(tuple, targets.tolist())) == [(i, h) for i in range(6) for h in range(12)]
    assert enlarged["layout"]["xaxis"]["ticktext"][0] == "[CLS]"
    assert enlarged["layout"]["xaxis"]["ticktext"][-1] == "[SEP]"
    assert [d["type"] for d in regrid["data"]].count("heatmap") == 1  # the one-trace grid
    assert len(grid_heads(regrid)) == 12
    assert len(at.dataframe[0].value) == 12
    # re-heading with the model's own 12 heads reproduces the layer exactly
    assert any("h = 12, d_k = 32" in m.value and "changes by 0.0%" in m.value for m in at.markdown)


def test_controls():
    at = run_app(
        PAGE,
        **{
            "pretrained.layer": 3,
            "pretrained.head": 7,
            "pretrained.hide_special": True,
            "pretrained.rehead_heads": 4,
        },
    )
    figs = figures(at)
    enlarged = figs[1]
    assert "[CLS]" not in enlarged["layout"]["xaxis"]["ticktext"]
    assert len(grid_heads(figs[2])) == 4
    assert any("Layer 3, head 7" in h.value for h in at.subheader)
    assert any("h = 4, d_k = 96" in m.value for m in at.markdown)


def test_sentence_pair_and_long_input():
    at = run_app(PAGE, **{"pretrained.pair": "Where do you live?"})
    text = " ".join(c.value for c in at.code)
    assert text.count("[SEP]") == 2
    long = " ".join(["word"] * 700)
    at = run_app(PAGE, **{"shared.text": long})
    assert any("700" in w.value or "702" in w.value for w in at.warning)
    assert any("first 32" in c.value for c in at.caption)


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_text(text):
    at = run_app(PAGE, **{"shared.text": text})
    assert at.info and not at.get("plotly_chart")


def test_only_special_tokens_left_when_hiding():
    at = run_app(PAGE, **{"shared.text": "\u200b", "pretrained.hide_special": True})
    assert at.info


def test_running_the_page_does_not_import_transformers(tmp_path):
    code = (
        "import sys\n"
        "from streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_file('router.py', default_timeout=120)\n"
        f"at.switch_page('{PAGE}')\n"
        "at.run()\n"
        "assert not at.exception, at.exception\n"
        "assert at.get('plotly_chart'), 'page did not render'\n"
        "bad = [m for m in ('transformers', 'sentence_transformers') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300, cwd=root)
