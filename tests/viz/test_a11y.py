"""viz/a11y.py: what a chart shows, read from the figure itself (its accessible name's parts and
its tables), for every kind of figure the builders make."""

from __future__ import annotations

import numpy as np

import viz
from viz import a11y
from viz.grid import layer_head_mosaic
from viz.heatmap import attention_heatmap, heatmap_row
from viz.reading import lines_view

TOKENS = ["the", "<b>x</b>", "a & b", "the"]


def _weights(nh: int, t_q: int, t_k: int | None = None) -> np.ndarray:
    rng = np.random.default_rng(0)
    w = rng.random((nh, t_q, t_k or t_q))
    return w / w.sum(-1, keepdims=True)


def test_a_heatmap_is_its_matrix_with_the_tokens_as_typed():
    w = _weights(1, 4)[0]
    fig = attention_heatmap(w, TOKENS, title="Head 2", x_title="key", y_title="query")
    title, parts = a11y.describe(fig)
    assert title == "Head 2"
    (part,) = parts
    assert part.kind == a11y.HEATMAP and part.shape == (4, 4)
    assert part.row_title == "query" and part.col_title == "key" and part.value == "weight"
    # literal tokens (not escaped), repeated ones numbered so that each row keeps its own label
    assert part.rows == ["0: the", "1: <b>x</b>", "2: a & b", "3: the"] == part.cols
    np.testing.assert_allclose(part.values, w, rtol=1e-6)


def test_a_head_grid_is_every_heads_weights_not_its_mosaic():
    w = _weights(3, 4, 5)
    fig = viz.head_grid(w, TOKENS, [*TOKENS, "end"], titles=["h0", "h1", "h2"])
    assert "meta" not in fig.to_plotly_json()["layout"] or a11y.HEADS not in fig.layout.meta
    _, (part,) = a11y.describe(fig)
    assert part.kind == a11y.HEADS_KIND and part.heads == ["h0", "h1", "h2"]
    assert part.shape == (4, 5) and part.values.shape == (12, 5)
    np.testing.assert_allclose(part.values, w.reshape(12, 5), rtol=1e-6)


def test_a_mosaic_and_the_lines_view_give_their_heads():
    w = _weights(6, 3)
    _, (mosaic,) = a11y.describe(layer_head_mosaic(w.reshape(2, 3, 3, 3), tokens=["a", "b", "c"]))
    assert mosaic.heads[:2] == ["layer 0, head 0", "layer 0, head 1"] and mosaic.rows == list("abc")
    np.testing.assert_allclose(mosaic.values, w.reshape(18, 3), rtol=1e-6)
    _, (lines,) = a11y.describe(lines_view(w[:2], ["a", "b", "c"], [4, 7]))
    assert lines.heads == ["head 4", "head 7"] and lines.row_title == "query"


def test_subplots_keep_their_titles():
    w = _weights(2, 3)
    fig = heatmap_row(list(w), [list("abc")] * 2, titles=["scaled", "unscaled"],
                      horizontal_spacing=0.1, height=300)  # fmt: skip
    _, parts = a11y.describe(fig)
    assert [p.title for p in parts] == ["scaled", "unscaled"]


def test_lines_share_a_table_over_their_x_values_and_clear_click_targets_are_left_out():
    from viz.figure import figure, style

    x = [1, 2, 4]
    data = [
        {"type": "scatter", "mode": "lines", "x": x, "y": [1.0, 2.0, 3.0], "name": "measured"},
        {"type": "scatter", "mode": "lines", "x": x, "y": [1.0, 1.5, 2.0], "name": "theory"},
        {"type": "scatter", "mode": "markers", "x": [0], "y": [0],
         "marker": {"color": "rgba(0,0,0,0)"}},
    ]  # fmt: skip
    layout = {"xaxis": {"title": {"text": "d_k"}}, "yaxis": {"title": {"text": "std"}}}
    _, (part,) = a11y.describe(figure(data, style(layout, height=300, title="Spread")))
    assert part.kind == a11y.LINES and part.cols == ["measured", "theory"]
    assert part.rows == ["1", "2", "4"] and part.row_title == "d_k" and part.value == "std"
    np.testing.assert_allclose(part.values, [[1, 1], [2, 1.5], [3, 2]])


def test_a_large_table_keeps_its_first_rows_and_says_how_many_are_left_out():
    n = 600
    _, (part,) = a11y.describe(attention_heatmap(_weights(1, n)[0], [f"t{i}" for i in range(n)]))
    assert part.values.size <= a11y.MAX_CELLS and part.values.shape[0] + part.cut == n


def test_plain_reads_plotly_markup_as_text():
    assert a11y.plain("W<sub>Q</sub><sup>h</sup> &amp; &lt;b&gt;<br>x") == "WQh & <b> x"
