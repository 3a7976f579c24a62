"""head_grid: every head as a block of one heatmap trace, laid out as a grid of heads."""

from __future__ import annotations

import json

import numpy as np
import plotly.io as pio
import pytest

from tests.helpers.grid import drawn_key_labels, drawn_query_labels, key_axes
from tests.helpers.numeric import attention_weights
from viz import escape_label
from viz.heatmap import GAP_TICK, NO_CELL, head_grid


def _blocks(fig, nh, tq, tk):
    """The (nh, tq, tk) blocks of the one trace, read back through the axes' tick positions."""
    z = np.asarray(fig.data[0].z)
    xs = [v for v, t in zip(fig.layout.xaxis.tickvals, fig.layout.xaxis.ticktext) if t != GAP_TICK]
    ys = list(fig.layout.yaxis.tickvals)  # (an empty x tick lies in a gap: no column)
    cols = len(xs) // tk
    out = []
    for h in range(nh):
        r, c = divmod(h, cols)
        rows_h, cols_h = ys[r * tq : (r + 1) * tq], xs[c * tk : (c + 1) * tk]
        out.append(z[np.ix_(rows_h, cols_h)])
    return np.stack(out), z


@pytest.mark.parametrize("nh, t", [(1, 3), (4, 7), (5, 7), (8, 12), (16, 41)])
def test_every_head_is_a_block_with_exact_values(nh, t):
    w = attention_weights(nh, t, t, seed=nh)
    tokens = [f"t{i}" for i in range(t)]
    fig = head_grid(w, tokens)
    assert [d.type for d in fig.data].count("heatmap") == 1  # (and empty overlays' anchors)
    blocks, z = _blocks(fig, nh, t, t)
    np.testing.assert_array_equal(blocks, w)
    assert np.isnan(z).sum() == z.size - w.size  # everything else is an empty gap
    assert fig.data[0].hoverongaps is False
    assert fig.data[0].zmax == pytest.approx(float(w.max())) and fig.data[0].zmin == 0.0
    assert "%{z:.8g}" in fig.data[0].hovertemplate
    cols = sum(text != GAP_TICK for text in fig.layout.xaxis.ticktext) // t
    assert cols == min(nh, 2)  # two heads a row


def test_hover_positions_and_repeated_tokens():
    tokens = ["the", "cat", "saw", "the", "dog"]
    w = attention_weights(3, 5, 5)
    fig = head_grid(w, tokens)
    cd = np.asarray(fig.data[0].customdata)
    assert cd.dtype.kind == "i"  # numbers, no per-cell strings (viz.figure: a list when small)
    xs, ys = list(fig.layout.xaxis.tickvals), list(fig.layout.yaxis.tickvals)
    assert list(fig.layout.xaxis.ticktext) == tokens * 2  # one label per column of every head
    assert list(fig.layout.yaxis.ticktext) == tokens * 2  # two heads a row: two rows
    assert cd[ys[3], xs[5 + 1]].tolist() == [3, 1]  # head 1, query 3 ("the"), key 1
    assert cd[ys[0], xs[5] - 1].tolist() == [NO_CELL, NO_CELL]  # the gap between heads 0 and 1
    assert "query %{customdata[0]}: %{y}" in fig.data[0].hovertemplate


def test_per_head_scale_stretches_each_block_and_hovers_the_exact_weight():
    w = attention_weights(2, 4, 4)
    w[1] *= 0.1
    fig = head_grid(w, list("abcd"), shared_scale=False)
    blocks, _ = _blocks(fig, 2, 4, 4)
    for h in range(2):
        np.testing.assert_allclose(blocks[h], w[h] / w[h].max(), rtol=1e-6)
    cd = np.asarray(fig.data[0].customdata)
    xs, ys = list(fig.layout.xaxis.tickvals), list(fig.layout.yaxis.tickvals)
    assert cd[ys[2], xs[4 + 3], 2] == w[1, 2, 3]  # exact float32 weight
    assert "%{customdata[2]:.8g}" in fig.data[0].hovertemplate
    # issue #42: per head there was no colour bar at all. Now a bar of the share of each
    # head's own largest weight, and each title says that head's range
    assert fig.data[0].showscale is True
    assert list(fig.data[0].colorbar.ticktext) == ["0", "50%", "100%"]
    titles = [a.text for a in fig.layout.annotations]
    assert titles == [f"head {h} (0–{w[h].max():.3g})" for h in range(2)]
    shared = head_grid(w, list("abcd"))
    assert [a.text for a in shared.layout.annotations] == ["head 0", "head 1"]


def test_titles_and_tokens_are_escaped():
    tokens = ["<b>x</b>", "a & b", '"q"']
    fig = head_grid(attention_weights(2, 3, 3), tokens, titles=["<i>h</i>", "h1"])
    assert [a.text for a in fig.layout.annotations] == ["&lt;i&gt;h&lt;/i&gt;", "h1"]
    assert list(fig.layout.xaxis.ticktext) == [escape_label(t) for t in tokens] * 2
    text = pio.to_json(fig)
    assert "<b>x" not in text and "<i>h" not in text and "&quot;" not in text


def test_rectangular_and_refused_inputs():
    fig = head_grid(attention_weights(2, 3, 5), ["a", "b", "c"], list("vwxyz"))
    assert list(fig.layout.yaxis.ticktext) == ["a", "b", "c"]
    assert list(fig.layout.xaxis.ticktext) == list("vwxyz") * 2
    with pytest.raises(ValueError, match="labels"):
        head_grid(attention_weights(2, 3, 3), ["a", "b"])
    with pytest.raises(ValueError, match="titles"):
        head_grid(attention_weights(2, 3, 3), list("abc"), titles=["one"])


def test_payload_at_the_page_limit_is_one_heatmap():
    w = attention_weights(16, 64, 64)
    tokens = [f"word{i}" for i in range(64)]
    sent = pio.to_json(head_grid(w, tokens))
    assert len(sent) < 1_200_000
    assert json.loads(sent)["data"][0]["type"] == "heatmap"


def _key_axes(fig) -> list[dict]:
    return key_axes(fig.to_plotly_json())


def test_every_row_of_heads_has_its_key_labels_under_it_and_only_under_its_heads():
    tq, tk = 4, 5
    fig = head_grid(attention_weights(3, tq, tk), list("abcd"), list("vwxyz"))  # rows: 2 heads, 1
    assert fig.layout.xaxis.showticklabels is False  # keys: each row on an axis of its own
    rows = _key_axes(fig)
    assert [a["ticktext"] for a in rows] == [list("vwxyz") * 2, list("vwxyz")]
    xs = list(fig.layout.xaxis.tickvals)
    assert rows[0]["tickvals"] == xs and rows[1]["tickvals"] == xs[:tk]  # no labels under nothing
    ys = list(fig.layout.yaxis.tickvals)
    n_y = fig.layout.yaxis.range[0] + 0.5  # the y range is [n_y - 0.5, -0.5]: row 0 at the top
    for r, axis in enumerate(rows):
        last_query = ys[r * tq + tq - 1]  # the block's lowest row; its lower edge at + 0.5
        assert axis["position"] == pytest.approx(1 - (last_query + 1) / n_y)
        assert axis["anchor"] == "free" and axis["range"] == list(fig.layout.xaxis.range)
        assert axis["matches"] == "x"  # a zoom along the keys moves the labels with the cells
    assert fig.layout.yaxis.fixedrange is True  # the key axes stand at fixed heights
    # the query labels at the start of every row of heads: few, drawn by the trace's own axis
    assert fig.layout.yaxis.showticklabels is True
    assert drawn_query_labels(fig.to_plotly_json()) == list("abcd") * 2
    # each overlay is drawn because an empty, silent trace lies on it
    anchors = [d for d in fig.data if d.type == "scatter"]
    assert len(anchors) == len(rows)
    assert all(len(d.x) == 0 and d.hoverinfo == "skip" for d in anchors)


def test_a_full_last_row_takes_its_key_labels_from_the_traces_own_axis():
    fig = head_grid(attention_weights(4, 3, 5), list("abc"), list("vwxyz"))
    assert fig.layout.xaxis.showticklabels is True  # under the last row: the plot's bottom
    assert drawn_key_labels(fig.to_plotly_json()) == [list("vwxyz") * 2] * 2
    assert len(_key_axes(fig)) == 1 and [d.type for d in fig.data].count("scatter") == 1


def test_long_axes_draw_every_kth_label_per_head_and_the_colour_bar_is_at_most_one_head_wide():
    t = 60  # over LABEL_ALL: labels numbered, every k-th drawn
    tokens = [f"w{i}" for i in range(t)]
    fig = head_grid(attention_weights(8, t, t), tokens)
    rows = _key_axes(fig)
    assert len(rows) == 4
    first = rows[0]["ticktext"][: len(rows[0]["ticktext"]) // 2]  # under head 0
    assert first[0] == "0: w0" and 1 < len(first) < t
    step = int(first[1].split(":")[0])
    assert first == [f"{i}: w{i}" for i in range(0, t, step)]
    assert rows[0]["ticktext"] == first * 2  # the same labels under head 1
    assert len(fig.layout.xaxis.ticktext) == 2 * t  # the hover still names every key
    bar = fig.data[0].colorbar
    # under the grid at the left (beside it, it took ~90 px of a phone's width: issue #42)
    assert bar.orientation == "h" and bar.lenmode == "fraction" and bar.len <= 0.5


def _titles(layout: dict) -> dict[str, str]:
    """{axis name: its title's text} of every axis with a title text."""
    axes = {k: a for k, a in layout.items() if k[1:5] == "axis" and isinstance(a, dict)}
    return {k: a["title"]["text"] for k, a in axes.items() if (a.get("title") or {}).get("text")}


@pytest.mark.parametrize("nh", [1, 3, 4, 16])
def test_axes_are_titled_query_and_key_in_the_language_passed(nh):
    """Issue #42: the grid had no axis titles. The query labels' axis is titled q_title, the
    axis of the last row's key labels k_title (escaped; the page passes them in its language);
    no other axis has a title, and the margins hold them."""
    tokens = ["I", "want", "to", "live", "in", "Europe", "."]
    fig = head_grid(attention_weights(nh, 7, 7), tokens, q_title="查询", k_title="key <b>")
    layout = fig.to_plotly_json()["layout"]
    titled = _titles(layout)
    assert sorted(titled.values()) == ["key &lt;b&gt;", "查询"]
    (y,) = [k for k, v in titled.items() if v == "查询"]
    (x,) = [k for k, v in titled.items() if v != "查询"]
    assert layout[y].get("showticklabels", True) and layout[y].get("ticktext")  # the queries'
    axis = layout[x]
    assert axis.get("showticklabels", True) and axis.get("ticktext")  # draws key labels
    bottom = min(a.get("position", 0.0) for k, a in layout.items() if k.startswith("xaxis"))
    assert axis.get("position", 0.0) == bottom  # under the last row
    m = layout["margin"]
    assert m["l"] >= 44 + 20 and m["b"] >= 44  # the titles' room beside and under the labels
    plain = head_grid(attention_weights(nh, 7, 7), tokens, q_title="", k_title="")
    assert _titles(plain.to_plotly_json()["layout"]) == {}


def test_on_a_phone_the_heads_take_the_width_the_colour_bar_took():
    """Issue #42, 390 px: the colour bar beside the first row reserved ~90 px of a ~360 px chart
    and the heads stood in ~200 px with a blank band at their right. It lies under the grid now,
    at the left, at most 40% of the width (the key title in the middle of the same band), and
    the right margin is only the last key label's overhang."""
    tokens = ["I", "want", "to", "live", "in", "Europe", "."]
    fig = head_grid(attention_weights(4, 7, 7), tokens)
    bar = fig.data[0].colorbar
    assert bar.orientation == "h" and bar.xanchor == "left" and bar.x == 0 and bar.len <= 0.4
    assert fig.layout.margin.r <= 30
    phone_w = 358  # the chart's width on a 390 px phone
    plot_w = phone_w - fig.layout.margin.l - fig.layout.margin.r
    assert plot_w >= 0.6 * phone_w


def test_the_gap_between_rows_of_heads_is_not_rounded_up_to_a_blank_row():
    """The empty rows between two rows of heads hold a head's key labels and the next head's
    title: their nearest whole number, the cells grown (<= 15%) to cover it; rounded up, a row
    of ~24 px stayed blank (issue #42)."""
    from viz.heads import HEAD_TITLE_PX, _x_label_px, head_px

    tokens = ["I", "want", "to", "live", "in", "Europe", "."]
    fig = head_grid(attention_weights(4, 7, 7), tokens)
    layout = fig.layout
    n_y = layout.yaxis.range[0] + 0.5
    plot_px = layout.height - layout.margin.t - layout.margin.b
    cell = plot_px / n_y
    gap_rows = n_y - 2 * 7
    need = HEAD_TITLE_PX + _x_label_px(tokens)
    assert need <= gap_rows * cell < need + 0.5 * cell
    assert cell <= 1.15 * head_px(7) / 7 + 1e-9
