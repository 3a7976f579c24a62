"""The pretrained page in a real Chromium: offline model, mosaic, enlarged head, controls."""

from __future__ import annotations

import urllib.parse

import pytest

from tests.helpers.browser import eventually, wait_for_app

pytestmark = pytest.mark.browser


def _wait_plots(pg, n: int) -> None:
    pg.wait_for_function(
        "(n) => document.querySelectorAll('.js-plotly-plot').length >= n",
        arg=n,
        timeout=120_000,
    )


def test_pretrained_page(app_url, page, tmp_path):
    text = "The animal didn't cross the street because it was too tired."
    page.goto(app_url + "/pretrained?text=" + urllib.parse.quote(text))
    wait_for_app(page, timeout=120_000)
    _wait_plots(page, 3)

    def drawn():  # a chart is in the page before plotly has drawn it (no layout yet)
        mosaic = page.evaluate(
            "() => { const g = document.querySelectorAll('.js-plotly-plot')[0];"
            " return {n: g.data.length, x: g._fullLayout.xaxis.ticktext,"
            " y: g._fullLayout.yaxis.ticktext}; }"
        )
        assert mosaic["n"] == 2  # the maps (one heatmap) and their click targets
        assert mosaic["x"] == [f"head {h}" for h in range(12)]
        assert mosaic["y"] == [f"layer {i}" for i in range(6)]
        ticks = page.evaluate(
            "() => document.querySelectorAll('.js-plotly-plot')[1]._fullLayout.xaxis.ticktext"
        )
        assert ticks[0] == "[CLS]" and ticks[-1] == "[SEP]" and "animal" in ticks
        assert "didn" in ticks and "'" in ticks  # WordPiece splits the apostrophe

    eventually(drawn)
    page.screenshot(path=str(tmp_path / "pretrained.png"), full_page=True)

    page.get_by_text("Hide [CLS] / [SEP]").click()
    page.wait_for_function(
        "() => { const g = document.querySelectorAll('.js-plotly-plot')[1];"
        " return g && !g._fullLayout.xaxis.ticktext.includes('[CLS]'); }",
        timeout=60_000,
    )

    def renormalised():
        sums = page.evaluate(
            "() => { const z = document.querySelectorAll('.js-plotly-plot')[1].data[0].z;"
            " return Array.from(z, r => Array.from(r).reduce((a, b) => a + b, 0)); }"
        )
        assert all(abs(s - 1) < 1e-4 for s in sums)  # renormalised rows

    eventually(renormalised)
    assert page.dialogs == []
