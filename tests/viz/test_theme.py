"""viz/theme.py: every figure carries its own style (no template), and its text reads on the
light and on the dark page."""

from __future__ import annotations

import re

import numpy as np

import viz
from tests.helpers.figures import contrast, lightness, sample_scale, sent
from viz import theme
from viz.figure import STREAMLIT_PLACEHOLDERS, figure, named_colorscale

# Streamlit's page backgrounds as Chromium computes them: light, dark (1.67), dark (earlier)
PAGES = ("#FFFFFF", "rgb(23, 22, 20)", "#0E1117")


def test_contrast_is_the_wcag_ratio():
    assert abs(contrast("#FFFFFF", "#000000") - 21.0) < 1e-9
    assert abs(contrast("#777777", "#FFFFFF") - 4.48) < 0.01  # the known grey of 4.5:1


def test_text_reads_on_the_light_and_the_dark_page():
    # the figure's own grey on the light page, the dark theme's (ui/a11y.py) on the dark ones
    assert contrast(theme.TEXT, PAGES[0]) >= 4.5
    for page in PAGES[1:]:
        assert contrast(theme.TEXT_DARK, page) >= 4.5, page
    assert contrast("#444444", PAGES[1]) < 4.0  # plotly's own text colour would not (dark)
    assert contrast(theme.HOVER_TEXT, theme.HOVER_BG) >= 7.0


def test_a_figure_goes_out_with_no_template_and_the_style_on_every_axis():
    w = np.random.default_rng(0).dirichlet(np.ones(5), size=(4, 5))
    layout = sent(viz.head_grid(w, list("abcde"), titles=list("wxyz")))["layout"]
    assert "template" not in layout
    assert layout["font"]["color"] == theme.TEXT and layout["font"]["family"] == theme.FONT
    axes = {k: v for k, v in layout.items() if re.fullmatch(r"[xy]axis\d*", k)}
    assert len(axes) >= 2
    for name, axis in axes.items():
        assert axis["tickfont"]["color"] == theme.TEXT, name
        # the grid reserves its margins from its labels: its own value wins over the style's
        assert axis["automargin"] is False, name
        # as a template did: no tick marks and no minor grid unless a chart asks for them
        assert "tickcolor" not in axis and "minor" not in axis, name
    plain = sent(figure([{"type": "heatmap", "z": [[0.0, 1.0]]}], {}))["layout"]
    for name in ("xaxis", "yaxis"):
        assert plain[name]["automargin"] is True, name
        assert plain[name]["tickfont"]["color"] == theme.TEXT, name
        assert "tickcolor" not in plain[name] and "minor" not in plain[name], name


def test_own_values_win_and_axes_only_traces_name_are_styled():
    fig = figure(
        [{"type": "scatter", "x": [0, 1], "y": [0, 1], "xaxis": "x3", "yaxis": "y3"}],
        {"font": {"size": 20}, "xaxis3": {"title": {"text": "t"}, "showgrid": True}},
    )
    layout = sent(fig)["layout"]
    assert layout["font"]["size"] == 20 and layout["font"]["color"] == theme.TEXT
    assert layout["xaxis3"]["showgrid"] is True and layout["xaxis3"]["title"]["text"] == "t"
    assert layout["xaxis3"]["title"]["standoff"] == 20
    assert layout["yaxis3"]["gridcolor"] == theme.LINES  # no layout entry: made for the trace
    assert "title" not in layout  # no chart title where the figure has none


def test_a_titled_figure_and_a_shared_colour_axis_get_their_style():
    fig = figure(
        [{"type": "heatmap", "z": [[0.0, 1.0]], "coloraxis": "coloraxis"}],
        {"title": {"text": "T"}, "coloraxis": {"cmin": 0}},
    )
    layout = sent(fig)["layout"]
    assert layout["title"]["text"] == "T" and layout["title"]["font"]["color"] == theme.TEXT
    assert layout["coloraxis"]["colorbar"]["thickness"] == theme.COLORBAR["thickness"]


def test_no_mark_colour_vanishes_on_either_page():
    """The strip's and the curves' colours: Okabe & Ito's black was a node lost on the dark page
    (1.2:1 there), as white would be on the light one."""
    from viz.positional import QUALITATIVE
    from viz.reading import OKABE_ITO as READING
    from viz.train import OKABE_ITO

    for palette in (QUALITATIVE, OKABE_ITO, READING, theme.COLORWAY, theme.DISTINCT):
        for colour in palette:
            assert min(contrast(colour, page) for page in PAGES) > 1.25, colour


def test_every_palette_is_monotonic_in_lightness_and_free_of_streamlit_placeholders():
    """Issue #42: Magma's first colour, #000004, is one Streamlit's chart component replaces in
    the figure's text (with #ab63fa, lilac): every exact zero (a causal mask's triangle) was
    drawn brighter than a weight of 0.05. Every palette's scale, sampled at 201 points as
    plotly.js interpolates it, rises (or falls) in CIE L* from one end to the other, and none
    of its colours is one Streamlit swaps."""
    for name in (*theme.PALETTES, theme.DIVERGING, "Blues", "Blues_r"):
        scale = named_colorscale(name)
        assert not {c.lower() for _, c in scale} & STREAMLIT_PLACEHOLDERS, name
        if name == theme.DIVERGING:
            continue  # dark, light, dark: monotonic on each half (checked below)
        ls = np.array([lightness(c) for c in sample_scale(scale)])
        steps = np.diff(ls) * np.sign(ls[-1] - ls[0])
        assert steps.min() > -1e-6, (name, int(np.argmin(steps)), ls[:5])
        assert abs(ls[-1] - ls[0]) > 50, name
    ls = np.array([lightness(c) for c in sample_scale(named_colorscale(theme.DIVERGING))])
    mid = int(np.argmax(ls))
    assert np.diff(ls[: mid + 1]).min() > -1e-6 and np.diff(ls[mid:]).max() < 1e-6


def test_head_and_group_colours_are_distinct_up_to_eight_or_more():
    """Issue #42: the efficient page's groups repeated their 7 colours (KV head 7 = KV head 0),
    and the lines view's 8 heads blended into grey. Both take 8+ distinct colours of one
    colour-blind-safe set, no grey among them."""
    from viz.efficient import grouped_heads
    from viz.reading import HEAD_COLORS

    assert len(set(theme.DISTINCT)) == len(theme.DISTINCT) >= 9
    assert len(set(HEAD_COLORS)) == len(HEAD_COLORS) >= 8
    for colour in theme.DISTINCT:
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        assert max(r, g, b) - min(r, g, b) > 40, colour  # no grey
    w = np.full((8, 8, 4, 4), 0.25)
    fig = grouped_heads(w[:, 0], list("abcd"), list(range(8)), titles=list("01234567"))
    kv = [
        tr
        for tr in fig.data
        if tr.type == "scatter"
        and tr.marker
        and isinstance(tr.marker.color, (list, tuple))
        and len(tr.marker.color) == 8
    ]
    assert kv and all(len(set(tr.marker.color)) == 8 for tr in kv)
