"""Figures of the Reading heads page: what is drawn is what was given, read back from the figure
(segments, opacities, bars, points, hover), markup stays literal."""

from __future__ import annotations

import json
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from viz.grid import layer_head_mosaic
from viz.head_map import add_block_targets, head_importance
from viz.reading import (
    HEAD_COLORS,
    KEY_SIDE,
    MAX_LINE_HEADS,
    OPACITY_LEVELS,
    QUERY_SIDE,
    lines_view,
    query_key_figure,
    share_bars,
    token_bars,
)

MARKUP = ["<b>x</b>", '<a href="https://example.com">x</a>', "<img src=x onerror=alert(1)>"]
RAW = ("<b>", "<a ", "<img", "<span")


def _stochastic(rng, *shape):
    a = rng.random(shape) ** 4
    return a / a.sum(-1, keepdims=True)


def _alpha(color: str) -> float:
    return float(re.fullmatch(r"rgba\(\d+,\d+,\d+,([0-9.]+)\)", color).group(1))


def _rgb(color: str) -> str:
    return re.fullmatch(r"rgba\((\d+,\d+,\d+),[0-9.]+\)", color).group(1)


def _hex_rgb(hex_color: str) -> str:
    return ",".join(str(int(hex_color[i : i + 2], 16)) for i in (1, 3, 5))


def _line_segments(fig: go.Figure) -> dict[tuple[str, int, int], float]:
    """{(rgb, query, key): opacity} of every drawn line."""
    out = {}
    for tr in fig.data:
        if tr.mode != "lines" or tr.x is None or tr.x[0] is None:
            continue
        xs, ys = list(tr.x), list(tr.y)
        for k in range(0, len(xs), 3):
            assert xs[k : k + 3] == [0.0, 1.0, None] and ys[k + 2] is None
            key = (_rgb(tr.line.color), int(ys[k]), int(ys[k + 1]))
            assert key not in out, "a line drawn twice"
            out[key] = _alpha(tr.line.color)
    return out


def test_lines_view_draws_every_weight_with_its_opacity_and_colour():
    rng = np.random.default_rng(0)
    w = _stochastic(rng, 3, 6, 6)
    floor = 0.01
    fig = lines_view(w, list("abcdef"), [2, 5, 7], min_weight=floor)
    segs = _line_segments(fig)
    expected = {}
    for n, color in enumerate(HEAD_COLORS[:3]):
        for i in range(6):
            for j in range(6):
                if w[n, i, j] >= floor:
                    level = min(max(round(w[n, i, j] * OPACITY_LEVELS), 1), OPACITY_LEVELS)
                    expected[(_hex_rgb(color), i, j)] = level / OPACITY_LEVELS
    assert segs.keys() == expected.keys()
    for k, alpha in expected.items():
        assert segs[k] == pytest.approx(alpha, abs=1e-3)
    legend = [tr.name for tr in fig.data if tr.showlegend is not False and tr.mode == "lines"]
    assert legend == ["head 2", "head 5", "head 7"]
    tokens = [tr for tr in fig.data if tr.mode == "markers+text"]
    assert [list(tr.text) for tr in tokens] == [list("abcdef")] * 2
    assert [int(tr.customdata[0][0]) for tr in tokens] == [QUERY_SIDE, KEY_SIDE]
    assert fig.layout.paper_bgcolor == "rgba(0,0,0,0)"


@pytest.mark.parametrize("side", [QUERY_SIDE, KEY_SIDE])
def test_lines_view_focus_keeps_only_that_tokens_lines_and_gives_exact_weights(side):
    rng = np.random.default_rng(1)
    w = _stochastic(rng, 2, 5, 5)
    fig = lines_view(w, list("vwxyz"), [0, 1], focus=(side, 3), min_weight=0.0)
    segs = _line_segments(fig)
    assert len(segs) == 2 * 5
    for _, i, j in segs:
        assert (i if side == QUERY_SIDE else j) == 3
    other = [tr for tr in fig.data if tr.mode == "markers+text"][1 - side]
    for pos, text in enumerate(other.hovertext):
        for n in range(2):
            v = w[n, 3, pos] if side == QUERY_SIDE else w[n, pos, 3]
            assert f"head {n}: weight = {format(v, '.8g')}" in text
    focused = [tr for tr in fig.data if tr.mode == "markers+text"][side]
    assert list(focused.marker.size).index(max(focused.marker.size)) == 3


def test_lines_view_skips_hidden_cells_and_checks_its_input():
    w = np.full((1, 3, 3), 1 / 3)
    w[0, 0, 1] = np.nan  # hidden by a filter
    segs = _line_segments(lines_view(w, list("abc"), [4]))
    assert len(segs) == 8 and (_hex_rgb(HEAD_COLORS[0]), 0, 1) not in segs
    with pytest.raises(ValueError, match="at most"):
        lines_view(np.ones((MAX_LINE_HEADS + 1, 2, 2)) / 2, list("ab"), range(MAX_LINE_HEADS + 1))
    with pytest.raises(ValueError, match="tokens"):
        lines_view(np.ones((1, 2, 2)) / 2, list("abc"), [0])
    with pytest.raises(ValueError, match="head numbers"):
        lines_view(np.ones((1, 2, 2)) / 2, list("ab"), [0, 1])
    with pytest.raises(ValueError, match="focus"):
        lines_view(np.ones((1, 2, 2)) / 2, list("ab"), [0], focus=(0, 2))


def test_query_key_figure_places_points_and_draws_a_querys_attention():
    rng = np.random.default_rng(2)
    q, k = rng.normal(size=(5, 2)), rng.normal(size=(5, 2))
    row = _stochastic(rng, 5)
    toks = ["[CLS]", "the", "cat", ".", "[SEP]"]
    fig = query_key_figure(q, k, toks, explained=(0.5, 0.25), focus=2, weights=row)
    pts = [tr for tr in fig.data if tr.mode == "markers+text"]
    np.testing.assert_array_equal(np.column_stack([pts[0].x, pts[0].y]), q)
    np.testing.assert_array_equal(np.column_stack([pts[1].x, pts[1].y]), k)
    assert [int(tr.customdata[1][0]) for tr in pts] == [QUERY_SIDE, KEY_SIDE]
    lines = [tr for tr in fig.data if tr.mode == "lines"]
    ends = []
    for tr in lines:
        xs, ys = list(tr.x), list(tr.y)
        for n in range(0, len(xs), 3):
            assert (xs[n], ys[n]) == pytest.approx(tuple(q[2]))
            ends.append((xs[n + 1], ys[n + 1]))
    assert sorted(ends) == sorted(map(tuple, k))
    for j, text in enumerate(pts[1].hovertext):
        assert f"query 2 → key {j}: weight = {format(row[j], '.8g')}" in text
    assert fig.layout.xaxis.title.text == "PC 1 (50% of the variance)"
    assert fig.layout.yaxis.scaleanchor == "x"


def test_share_bars_and_token_bars_show_their_numbers():
    rng = np.random.default_rng(3)
    s = rng.random((2, 3, 6))
    fig = share_bars(s, ("cls", "sep", "punct"), reference=0.5, reference_label="half")
    bars = [tr for tr in fig.data if tr.type == "bar"]
    assert len(bars) == 6 and [b.showlegend for b in bars].count(True) == 3
    for n, b in enumerate(bars):
        np.testing.assert_array_equal(b.y, s[n // 3, n % 3])
        assert "%{y:.8g}" in b.hovertemplate
    assert any(sh.y0 == 0.5 for sh in fig.layout.shapes)
    v = rng.random((2, 4))
    toks = ["[CLS]", *MARKUP[:2], "[SEP]"]
    fig = token_bars(v, toks, ["a", "b"])
    for n, b in enumerate(fig.data):
        np.testing.assert_array_equal(b.y, v[n])
    assert list(fig.layout.xaxis.ticktext)[1] == "&lt;b&gt;x&lt;/b&gt;"
    with pytest.raises(ValueError):
        share_bars(np.ones((2, 3, 6)), ("cls", "sep"))
    with pytest.raises(ValueError):
        token_bars(np.ones((2, 3)), list("abcd"), ["a", "b"])


def test_head_importance_cells_carry_value_and_click():
    rng = np.random.default_rng(4)
    imp = rng.random((6, 12)) * 0.1
    fig = head_importance(imp, selected=(3, 7))
    np.testing.assert_array_equal(np.asarray(fig.data[0].z), imp)
    assert fig.data[0].hoverinfo == "skip"
    cd = np.asarray(fig.data[1].customdata)
    assert cd.shape == (72, 3)
    for layer, head, value in cd:
        assert value == imp[int(layer), int(head)]
    np.testing.assert_array_equal(fig.data[1].x, cd[:, 1])  # a point on every cell
    np.testing.assert_array_equal(fig.data[1].y, cd[:, 0])
    rect = fig.layout.shapes[0]
    assert (rect.x0, rect.y0) == (6.5, 2.5)


def test_block_targets_sit_on_the_mosaics_blocks():
    a = _stochastic(np.random.default_rng(5), 2, 3, 4, 4)
    fig = add_block_targets(layer_head_mosaic(a), 2, 3, 4, hint="<b>go</b>")
    heat, targets = fig.data
    assert heat.type == "heatmap" and targets.type == "scatter"
    z = np.asarray(heat.z)
    for (row, col), x, y in zip(targets.customdata, targets.x, targets.y):
        # the target's centre lies in the block of that layer and head, in the middle
        block = z[row * 5 : row * 5 + 4, col * 5 : col * 5 + 4]
        np.testing.assert_array_equal(block, a[row, col].astype(np.float32))
        assert (x, y) == (col * 5 + 1.5, row * 5 + 1.5)
    assert fig.layout.hoverdistance == 1
    assert "&lt;b&gt;go&lt;/b&gt;" in targets.hovertemplate


@pytest.mark.parametrize("markup", MARKUP)
def test_markup_tokens_stay_literal_everywhere(markup):
    toks = ["[CLS]", markup, "[SEP]"]
    w = np.full((2, 3, 3), 1 / 3)
    figs = [
        lines_view(w, toks, [0, 1], focus=(QUERY_SIDE, 1)),
        query_key_figure(np.eye(3, 2), np.eye(3, 2), toks, focus=1, weights=w[0, 1]),
        token_bars(np.ones((1, 3)), toks, [markup]),
        share_bars(np.ones((2, 1, 2)), ("cls",), category_names=[markup]),
        head_importance(np.ones((2, 2)), value_label=markup),
    ]
    for fig in figs:
        spec = json.dumps(fig.to_plotly_json(), default=str)
        assert not any(tag in spec for tag in RAW)
        assert "&quot;" not in spec


def test_share_bars_legend_stands_under_the_axis_title_not_on_it():
    """Issue #42: the legend (y = -0.2 of the plot) overlapped the x-axis title "layer" on the
    Weights vs norms and Over a corpus views. It is anchored to the chart's foot now, in a
    bottom margin that holds the tick labels, the title and the legend's rows on a phone."""
    from viz.reading import legend_room, share_bars

    shares = np.random.default_rng(0).random((2, 3, 6))
    fig = share_bars(shares, ["cls", "sep", "punct"], category_names=["[CLS]", "[SEP]", "punct"])
    legend = fig.layout.legend
    assert (legend.yref, legend.y, legend.yanchor) == ("container", 0, "bottom")
    assert fig.layout.margin.b >= legend_room(["[CLS]", "[SEP]", "punct"]) >= 24 + 34 + 22
    many = [f"category number {i}" for i in range(6)]
    assert legend_room(many) >= legend_room(many[:1]) + 3 * 22  # more rows on a phone
    assert all("<br>" in a.text for a in fig.layout.annotations if len(a.text) > 14)
