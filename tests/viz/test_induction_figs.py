"""The Induction page's figure builders: valid Plotly (validation changes nothing), labels
escaped, data as given, mismatched inputs refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.helpers.figures import sent, validated
from viz.induction import (
    SHARE_ROW_PX,
    contribution_bars,
    control_curves,
    score_curves,
    share_grid,
    topk_bars,
)

MARKUP = "<b>x</b>"




def _builds():
    x = np.arange(5)
    run = {"step": x, "loss": np.linspace(3, 1, 5), "accuracy": np.linspace(0, 1, 5)}
    return {
        "control_curves": control_curves([run, run], total_steps=10, names=[MARKUP, "b"]),
        "score_curves": score_curves(x * 10, np.random.default_rng(0).random((5, 4)), list("abcd")),
        "share_grid": share_grid(np.full((2, 4), 0.5), title=MARKUP),
        "topk_bars": topk_bars([MARKUP, "a", "b"], [0.5, 0.3, 0.2]),
        "contribution_bars": contribution_bars([MARKUP, "h0", "h1"], [1.0, -0.5, 2.0], 2.5),
    }


@pytest.mark.parametrize("name", list(_builds()))
def test_validation_would_change_nothing_and_markup_is_escaped(name):
    fig = _builds()[name]
    checked = validated(fig)
    assert sent(checked) == sent(fig)
    spec = json.dumps(sent(fig), ensure_ascii=False)
    assert MARKUP not in spec  # every label went through escape_label
    if name != "score_curves":
        assert "&lt;b&gt;x&lt;/b&gt;" in spec


def test_contribution_bars_end_with_the_sum():
    fig = contribution_bars(["a", "b"], [1.0, -0.25], 0.75, total_label="sum")
    y = np.asarray(fig.data[0].y)
    np.testing.assert_allclose(y, [1.0, -0.25, 0.75])
    assert list(fig.layout.xaxis.ticktext) == ["a", "b", "sum"]
    assert fig.layout.xaxis.tickangle == -90  # upright: slanted ones ran together on a phone


@pytest.mark.parametrize("layers", [1, 2, 6])
def test_share_grid_gives_every_row_its_height_whatever_the_margins(layers):
    # a titled 2-layer grid was 174 px tall with 151 px of margins: rows 11 px, values unreadable
    fig = share_grid(np.full((layers, 4), 0.5), title="This 2-layer model: weight on <bos>")
    margin = fig.layout.margin
    assert fig.layout.height - margin.t - margin.b == SHARE_ROW_PX * layers


def test_share_grid_writes_each_value():
    fig = share_grid(np.array([[0.25, 1.0]]))
    assert fig.data[0].text == (("0.25", "1.00"),) or list(map(list, fig.data[0].text)) == [
        ["0.25", "1.00"]
    ]


def test_mismatched_inputs_are_refused():
    with pytest.raises(ValueError):
        score_curves(np.arange(3), np.zeros((4, 2)), ["a", "b"])
    with pytest.raises(ValueError):
        topk_bars(["a"], [0.5, 0.5])
    with pytest.raises(ValueError):
        contribution_bars(["a"], [1.0, 2.0], 3.0)
    with pytest.raises(ValueError):
        control_curves([{"step": [1], "loss": [1, 2], "accuracy": [1]}], total_steps=5, names=["a"])
    with pytest.raises(ValueError):
        share_grid(np.zeros(3))


def test_topk_bars_print_each_probability_at_the_axis_font():
    """Issue #42: the probabilities were printed in the bars, which plotly.js shrank to ~6 px on
    short bars. Each now stands beside its token, at 13 px, and none is printed in a bar."""
    fig = topk_bars(["q", "w", "<b>"], [0.971, 0.02, 0.009])
    assert "text" not in fig.data[0] or fig.data[0].text is None
    assert list(fig.layout.yaxis.ticktext) == ["q  97.1%", "w  2.0%", "&lt;b&gt;  0.9%"]
    assert fig.layout.yaxis.tickfont.size >= 12
