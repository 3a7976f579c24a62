"""Matrix figures of the step-by-step page: exact values, escaped labels, outlines, windows."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from viz.heatmap import EXACT
from viz.matrix import MINUS_INF, matrix_heatmap, weights_compare

MARKUP = ["<b>x</b>", '<a href="https://example.com">y</a>', "a&b", "<img src=x onerror=alert(1)>"]


def _outlines(fig):
    """The outline rectangles, as (x0, x1, y0, y1), one per highlight (two lines each)."""
    rects = {(s.x0, s.x1, s.y0, s.y1) for s in fig.layout.shapes if s.type == "rect"}
    assert len(fig.layout.shapes) == 2 * len(rects)  # dark line + light core, same place
    return rects


def test_values_are_exact_and_positions_numeric():
    rng = np.random.default_rng(0)
    m = rng.normal(size=(5, 7)).astype(np.float32)
    tokens = ["the", "cat", "saw", "the", "dog"]
    fig = matrix_heatmap(m, tokens, None, row_title="token", col_title="dimension")
    hm = fig.data[0]
    np.testing.assert_array_equal(np.asarray(hm.z, dtype=np.float32), m)
    # repeated token "the": its own row (numeric y, token only as tick text)
    assert list(hm.y) == [0, 1, 2, 3, 4]
    assert list(fig.layout.yaxis.tickvals) == [0, 1, 2, 3, 4]
    assert list(fig.layout.yaxis.ticktext) == ["the", "cat", "saw", "the", "dog"]
    assert fig.layout.yaxis.range == (4.5, -0.5)  # first token at the top
    assert f"%{{z:{EXACT}}}" in hm.hovertemplate  # full float32 precision on hover
    # hover "token 3: the": position from customdata, token from the axis' tick text (%{y})
    assert "token %{customdata}: %{y}" in hm.hovertemplate
    assert "dimension %{x}" in hm.hovertemplate  # unlabelled columns: the number itself
    cd = np.asarray(hm.customdata)
    assert cd.dtype.kind == "i"  # numbers, not per-cell strings (a list when small: viz.figure)
    assert cd.shape == (5, 7) and cd[3, 0] == 3 and cd[4, 6] == 4
    both = np.asarray(matrix_heatmap(m[:, :5], tokens, tokens).data[0].customdata)
    assert both.shape == (5, 5, 2) and both[3, 1].tolist() == [3, 1]
    assert matrix_heatmap(m).data[0].customdata is None


def test_signed_matrices_centre_a_diverging_palette_on_zero():
    m = np.array([[-1.0, 0.5], [2.0, 0.0]])
    hm = matrix_heatmap(m).data[0]
    assert hm.zmid == 0 and hm.zmin == -2.0 and hm.zmax == 2.0
    assert hm.colorscale == go.Heatmap(colorscale="RdBu_r").colorscale
    hm = matrix_heatmap(np.array([[0.2, 0.8]]), signed=False, colorscale="Viridis").data[0]
    assert hm.zmin == 0 and hm.zmax == pytest.approx(0.8) and hm.zmid is None


def test_user_labels_are_escaped_everywhere():
    m = np.arange(16, dtype=float).reshape(4, 4)
    fig = matrix_heatmap(m, MARKUP, MARKUP, title="query <b>x</b>", row_title="<i>r</i>")
    text = fig.to_json()
    for raw in ("<b>x</b>", "<a href", "<img", "<i>r"):
        assert raw not in text
    assert list(fig.layout.xaxis.ticktext)[0] == "&lt;b&gt;x&lt;/b&gt;"
    assert list(fig.layout.yaxis.ticktext)[2] == "a&amp;b"
    assert fig.layout.title.text == "query &lt;b&gt;x&lt;/b&gt;"
    assert "&lt;i&gt;r&lt;/i&gt; %{customdata[0]}: %{y}" in fig.data[0].hovertemplate


def test_label_lengths_must_fit_the_matrix():
    with pytest.raises(ValueError, match="3 rows but got 2 row labels"):
        matrix_heatmap(np.zeros((3, 2)), ["a", "b"])
    with pytest.raises(ValueError, match="2 columns but got 3 column labels"):
        matrix_heatmap(np.zeros((3, 2)), None, ["a", "b", "c"])
    with pytest.raises(ValueError, match="2-D"):
        matrix_heatmap(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="outside"):
        matrix_heatmap(np.zeros((3, 2)), highlight_row=3)


def test_highlighted_row_and_blocks():
    m = np.zeros((4, 6))
    fig = matrix_heatmap(m, list("abcd"), highlight_row=2)
    assert _outlines(fig) == {(-0.5, 5.5, 1.5, 2.5)}
    fig = matrix_heatmap(m, list("abcd"), highlight_row=0, highlight_cols=(2, 4))
    assert _outlines(fig) == {(-0.5, 5.5, -0.5, 0.5), (1.5, 3.5, -0.5, 3.5)}
    assert matrix_heatmap(m).layout.shapes == ()


def test_windows_keep_original_positions():
    """A window of a wide matrix: axes, hover and outlines use the original dimension numbers."""
    full = np.arange(8 * 512, dtype=float).reshape(8, 512)
    win = full[:, 192:256]
    fig = matrix_heatmap(win, list("abcdefgh"), col_start=192, highlight_cols=(128, 224))
    hm = fig.data[0]
    assert hm.x[0] == 192 and hm.x[-1] == 255
    assert fig.layout.xaxis.range == (191.5, 255.5)
    assert np.asarray(hm.customdata)[0, 5] == 0  # token rows carry their position
    assert "%{x}" in hm.hovertemplate
    assert hm.z[0][5] == full[0, 197]
    # the block 128..224 is clipped to the window 192..256
    assert _outlines(fig) == {(191.5, 223.5, -0.5, 7.5)}
    # rows of W_O: a block of rows outside the window draws nothing
    fig = matrix_heatmap(np.zeros((64, 64)), row_start=64, col_start=64, highlight_rows=(0, 64))
    assert fig.layout.shapes == ()
    fig = matrix_heatmap(np.zeros((64, 64)), row_start=64, col_start=64, highlight_rows=(64, 128))
    assert _outlines(fig) == {(63.5, 127.5, 63.5, 127.5)}


def test_masked_cells_are_gaps_that_say_minus_infinity():
    m = np.array([[0.25, -np.inf], [1.5, -0.125]])
    fig = matrix_heatmap(m, ["a", "b"], ["a", "b"])
    hm = fig.data[0]
    z = np.asarray(hm.z, dtype=float)
    assert np.isnan(z[0, 1]) and z[1, 0] == 1.5
    assert hm.hovertext[0][1] == MINUS_INF  # hover
    assert hm.hovertext[1][0] == "1.5" and hm.hovertext[0][0] == "0.25"
    assert "%{hovertext}" in hm.hovertemplate
    assert hm.text[0][1] == MINUS_INF and hm.text[1][1] == "-0.12"  # cell text
    assert hm.texttemplate == "%{text}"
    # the JSON the browser gets has no bare -Infinity (invalid JSON)
    json.loads(fig.to_json())


def test_values_printed_only_in_small_matrices():
    assert matrix_heatmap(np.ones((4, 4))).data[0].texttemplate == "%{z:.2f}"
    assert matrix_heatmap(np.ones((7, 16))).data[0].texttemplate is None
    assert matrix_heatmap(np.ones((2, 16)), cell_values=True).data[0].texttemplate is not None
    assert matrix_heatmap(np.ones((3, 3)), cell_values=False).data[0].texttemplate is None


def test_wide_matrices_stay_compact():
    """64 tokens x 512 dimensions: no per-cell strings in the payload."""
    tokens = [f"<t{i}>" for i in range(64)]
    fig = matrix_heatmap(np.zeros((64, 512)), tokens)
    hm = fig.data[0]
    assert hm.text is None and hm.hovertext is None and hm.texttemplate is None
    # float32 z + int16 positions, base64 (4/3), plus a little layout
    assert len(fig.to_json()) < 64 * 512 * (4 + 2) * 4 / 3 + 20_000


def test_one_dimensional_input_is_one_row():
    fig = matrix_heatmap(np.array([1.0, -2.0, 3.0]), ["v_h"])
    assert np.asarray(fig.data[0].z).shape == (1, 3)


def test_weights_compare_bars():
    uniform = np.full(4, 0.25)
    attention = np.array([0.1, 0.2, 0.3, 0.4])
    fig = weights_compare(uniform, attention, ["<b>x</b>", "is", "not", "is"], names=("n", "a"))
    assert [d.type for d in fig.data] == ["bar", "bar"]
    np.testing.assert_array_equal(fig.data[0].y, uniform)
    np.testing.assert_array_equal(fig.data[1].y, attention)
    assert list(fig.data[1].x) == [0, 1, 2, 3]  # repeated "is" keeps its own bar
    assert list(fig.layout.xaxis.ticktext)[0] == "&lt;b&gt;x&lt;/b&gt;"
    assert "key %{customdata}: %{x}" in fig.data[0].hovertemplate
    assert "<b>x" not in fig.to_json()
    with pytest.raises(ValueError, match="same length"):
        weights_compare(uniform, attention[:3], list("abcd"))
    with pytest.raises(ValueError, match="labels"):
        weights_compare(uniform, attention, list("abc"))
