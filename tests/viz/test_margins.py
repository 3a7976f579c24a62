"""Margins reserved for labels, titles and colour bars (viz/margins.py)."""

from __future__ import annotations

import numpy as np

import viz
from viz import matrix
from viz.margins import COLORBAR_BELOW_PX, reserve_margins, text_px


def _axes(y_labels, x_labels=None, **extra) -> dict:
    layout = {"yaxis": {"ticktext": y_labels}, "margin": {"l": 10, "r": 10, "t": 30, "b": 10}}
    if x_labels is not None:
        layout["xaxis"] = {"ticktext": x_labels}
    return {**layout, **extra}


def test_longer_labels_get_a_wider_left_margin_and_margins_never_shrink():
    short = reserve_margins([], _axes(["a", "b"]))["margin"]
    long = reserve_margins([], _axes(["a", "supercalifragilistic"]))["margin"]
    assert long["l"] > short["l"] >= 10
    assert long["l"] >= text_px("supercalifragilistic", 12)
    wide = reserve_margins([], {**_axes(["a"]), "margin": {"l": 500}})["margin"]
    assert wide["l"] == 500  # a larger margin asked for is kept


def test_escaped_text_is_measured_as_drawn_and_cjk_is_wider():
    assert text_px("&lt;b&gt;", 12) == text_px("<b>", 12)
    assert text_px("注意力", 12) > text_px("abc", 12)


def test_x_labels_that_cannot_lie_flat_are_reserved_upright():
    few = reserve_margins([], _axes(["a"], ["cat", "dog"]))["margin"]["b"]
    many = [f"token_number_{i}" for i in range(64)]
    crowded = reserve_margins([], _axes(["a"], many))["margin"]["b"]
    assert crowded > few
    assert crowded >= text_px("token_number_10", 12)
    top = reserve_margins([], _axes(["a"], many, xaxis={"ticktext": many, "side": "top"}))
    assert top["margin"]["t"] >= text_px("token_number_10", 12)


def test_colour_bar_reserves_the_right_margin_unless_hidden_or_shared():
    heat = {"type": "heatmap"}
    assert reserve_margins([heat], _axes(["a"]))["margin"]["r"] > 100
    hidden = {"type": "heatmap", "showscale": False}
    assert reserve_margins([hidden], _axes(["a"]))["margin"]["r"] == 10
    shared = {"type": "heatmap", "coloraxis": "coloraxis"}
    layout = _axes(["a"], coloraxis={"cmin": 0})
    assert reserve_margins([shared], layout)["margin"]["r"] > 100


def test_builders_fit_the_margins_once():
    """viz.figure fits the margins where a figure is built; fitting its finished spec again
    changes nothing (so the page does not do it a second time)."""
    w = np.random.default_rng(0).random((2, 3, 3)).astype(np.float32)
    tokens = ["the", "extraordinarily", "cat"]
    grid = viz.head_grid(w, tokens)
    m = grid.layout.margin
    assert m.l >= text_px("extraordinarily", 11) and m.b >= COLORBAR_BELOW_PX  # the bar below
    spec = grid.to_plotly_json()
    assert reserve_margins(spec["data"], spec["layout"])["margin"] == spec["layout"]["margin"]


def test_a_colour_bar_below_takes_the_bottom_margin_not_the_side():
    m = np.arange(12.0).reshape(3, 4)
    side = matrix.matrix_heatmap(m).layout
    below = matrix.matrix_heatmap(m, colorbar_below=True).layout
    assert below.margin.r < side.margin.r  # the plot keeps the width a side bar took
    assert below.margin.b > side.margin.b
    assert below.height > side.height  # and the plot its height
    assert below.to_plotly_json() and viz.matrix.matrix_heatmap(m, colorbar_below=True).data[
        0
    ].colorbar.orientation == "h"


def test_subplot_titles_of_the_top_row_sit_below_the_toolbar():
    from viz.figure import subplot_grid
    from viz.margins import MODEBAR_PX

    grid = subplot_grid(1, 4, titles=[f"head {h}" for h in range(4)])
    top = reserve_margins([], {**grid, "margin": {"t": 30}})["margin"]["t"]
    assert top >= MODEBAR_PX + 20  # the title's text starts under the toolbar's ~30 px
    plain = reserve_margins([], {"margin": {"t": 30}})["margin"]["t"]
    assert plain == 30


def test_head_titles_of_the_one_trace_grid_sit_below_the_toolbar():
    from viz.margins import MODEBAR_PX

    fig = viz.head_grid(np.full((4, 3, 3), 1 / 3), ["a", "b", "c"])
    assert fig.layout.margin.t >= MODEBAR_PX + 20
