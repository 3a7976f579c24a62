"""Presentation mode on a figure (viz/present.py): every font 1.5x, margins with them, square
heatmap cells."""

from __future__ import annotations

import numpy as np

import viz
from viz.present import BAR_BAND_PX, MIN_TICK, PHONE_CHART_PX, SCALE, projector


def test_fonts_margins_and_square_cells():
    fig = viz.attention_heatmap(np.full((3, 3), 1 / 3), ["a", "b", "c"], title="t")
    data, layout = fig._data, fig._layout
    before_ticks = layout["xaxis"].get("tickfont", {}).get("size", 12)
    before_y = layout["yaxis"].get("tickfont", {}).get("size", 12)
    before_margin = dict(layout.get("margin", {}))
    projector(data, layout)
    assert layout["xaxis"]["tickfont"]["size"] == max(MIN_TICK, round(before_ticks * SCALE, 1))
    assert layout["yaxis"]["tickfont"]["size"] == max(MIN_TICK, round(before_y * SCALE, 1))
    assert layout["font"]["size"] >= 18 and layout["title"]["font"]["size"] >= 24
    # the left margin grows by what the grown labels need more (1.5x left a phone no plot), the
    # right one loses the colour bar, which goes under the plot (its band at the bottom)
    assert before_margin["l"] < layout["margin"]["l"] < round(before_margin["l"] * SCALE)
    assert layout["margin"]["r"] <= before_margin["r"] - 80
    assert layout["margin"]["b"] == round(before_margin["b"] * SCALE) + BAR_BAND_PX
    bar = data[0]["colorbar"]
    assert (bar["orientation"], bar["xanchor"], bar["lenmode"]) == ("h", "left", "pixels")
    heat = [d for d in data if d.get("type") == "heatmap"][0]
    y_key = "yaxis" + (heat.get("yaxis") or "y")[1:]
    assert layout[y_key]["scaleanchor"] == (heat.get("xaxis") or "x")
    assert layout[y_key]["scaleratio"] == 1


def test_a_head_grid_is_squared_and_its_titles_grow():
    w = np.random.default_rng(0).dirichlet(np.ones(4), size=(2, 4))  # (2, 4, 4)
    fig = viz.head_grid(w, list("abcd"), titles=["head 0", "head 1"])
    sizes = [a.get("font", {}).get("size", 12) for a in fig._layout.get("annotations", [])]
    projector(fig._data, fig._layout)
    after = [a["font"]["size"] for a in fig._layout["annotations"]]
    assert after == [round(s * SCALE, 1) for s in sizes]
    assert any("scaleanchor" in v for k, v in fig._layout.items() if k.startswith("yaxis"))
    # the squared heads at the left, above their colour bar (at the left under the grid)
    assert fig._layout["xaxis"]["constraintoward"] == "left"


TOKENS = ["I", "want", "to", "live", "in", "Europe", "."]


def test_a_mean_heatmap_leaves_a_phone_half_its_width():
    """The home page's mean view at 390 px: 1.5x margins (162 px) and the colour bar beside the
    plot (195 px) took all of a 358 px chart."""
    fig = viz.attention_heatmap(np.full((7, 7), 1 / 7), TOKENS, x_title="key", y_title="query")
    projector(fig._data, fig._layout)
    m = fig._layout["margin"]
    assert m["l"] + m["r"] <= PHONE_CHART_PX / 2, m
    assert fig._data[0]["colorbar"]["len"] <= PHONE_CHART_PX - m["l"] - m["r"]  # no longer


def test_a_head_grids_key_label_axes_follow_its_squared_cells():
    """The key labels under the first row of heads stood at a fixed share of the plot's height
    (anchor "free"): squared on a phone, the cells shrank and the labels lay on the second row.
    Each label axis is anchored to a hidden y axis from the top of the plot down to its place,
    on the trace's scale and squared with it, so that plotly.js shrinks both alike."""
    w = np.random.default_rng(0).dirichlet(np.ones(7), size=(4, 7))  # 2 rows of 2 heads
    fig = viz.head_grid(w, TOKENS)
    layout = fig._layout
    axes = {k: v for k, v in layout.items() if k.startswith("xaxis")}
    positions = {k: v["position"] for k, v in axes.items() if v.get("anchor") == "free"}
    assert positions
    projector(fig._data, layout)
    y = layout["yaxis"]
    y_scale = abs(y["range"][0] - y["range"][1])  # data units per plot height (its domain: 1)
    assert y["constraintoward"] == "top"
    for key, pos in positions.items():
        x = layout[key]
        helper = layout["yaxis" + x["anchor"][1:]]
        assert "position" not in x and helper["visible"] is False
        assert helper["domain"] == [pos, 1.0] and helper["range"][1] == y["range"][1]
        span = abs(helper["range"][0] - helper["range"][1]) / (1.0 - pos)
        assert abs(span - y_scale) < 1e-9  # the same data units per px as the cells
        assert (helper["scaleanchor"], helper["constraintoward"]) == ("x", "top")
        # drawn: an empty trace on the label axis and its hidden y axis
        on = [(d.get("xaxis"), d.get("yaxis")) for d in fig._data]
        assert ("x" + key[5:], x["anchor"]) in on


def test_a_long_token_by_dimension_map_keeps_its_own_aspect():
    """Square cells on 7 x 64 made rows 7 px high and their token labels ran together (issue
    #42's 1280 x 720 screenshot of Step, view 0); a square map is still squared."""
    fig = viz.attention_heatmap(np.zeros((7, 64)), list("abcdefg"), [str(i) for i in range(64)])
    projector(fig._data, fig._layout)
    assert not any("scaleanchor" in v for k, v in fig._layout.items() if k.startswith("yaxis"))


def test_the_diagrams_box_labels_keep_their_size():
    """The box labels are inside boxes that do not grow: grown, they ran out of them."""
    from viz.diagram import DIAGRAM_LABELS, block_diagram

    fig = block_diagram(False, 2, {k: k for k in DIAGRAM_LABELS}, set())
    boxed = [a for a in fig._layout["annotations"] if a.get("name")]
    before = [a["font"]["size"] for a in boxed]
    projector(fig._data, fig._layout)
    assert boxed and [a["font"]["size"] for a in boxed] == before


def test_the_lines_views_token_labels_grow_with_the_height():
    from viz.reading import lines_view

    w = np.random.default_rng(0).dirichlet(np.ones(4), size=(2, 4))  # (heads, T, T)
    fig = lines_view(w, list("abcd"), heads=[0, 1])
    before = [d["textfont"]["size"] for d in fig._data if d.get("textfont")]
    projector(fig._data, fig._layout)
    after = [d["textfont"]["size"] for d in fig._data if d.get("textfont")]
    assert before and after == [round(s * 1.25, 1) for s in before]
