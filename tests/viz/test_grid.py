import numpy as np
import pytest

from viz.grid import layer_head_mosaic


def test_mosaic_is_one_trace_with_every_block():
    rng = np.random.default_rng(0)
    a = rng.random((6, 12, 7, 7)).astype(np.float32)
    fig = layer_head_mosaic(a, selected=(2, 5))
    assert len(fig.data) == 1
    z = np.asarray(fig.data[0].z)
    assert z.shape == (6 * 8 - 1, 12 * 8 - 1)
    for layer in (0, 2, 5):
        for h in (0, 5, 11):
            block = z[layer * 8 : layer * 8 + 7, h * 8 : h * 8 + 7]
            np.testing.assert_array_equal(block, a[layer, h])
            cd = np.asarray(fig.data[0].customdata)
            assert list(cd[layer * 8 + 3, h * 8 + 4]) == [layer, h, 3, 4]
    assert np.isnan(z[7, :]).all() and np.isnan(z[:, 7]).all()  # gaps between blocks
    assert list(fig.layout.xaxis.ticktext) == [f"head {h}" for h in range(12)]
    assert list(fig.layout.yaxis.ticktext) == [f"layer {i}" for i in range(6)]
    rect = fig.layout.shapes[0]
    assert (rect.x0, rect.y0) == (5 * 8 - 0.5, 2 * 8 - 0.5)
    assert "%{z:.8g}" in fig.data[0].hovertemplate


def test_mosaic_labels_escaped_and_shape_checked():
    a = np.ones((1, 2, 3, 3), dtype=np.float32) / 3
    fig = layer_head_mosaic(a, layer_label="<b>L</b>")
    assert fig.layout.yaxis.ticktext[0] == "&lt;b&gt;L&lt;/b&gt; 0"
    with pytest.raises(ValueError):
        layer_head_mosaic(np.ones((2, 3, 3)))


def test_mosaic_colour_bar_lies_under_it_and_the_mosaic_fills_the_chart():
    # beside a phone's mosaic (square cells) the bar stood ~4 times as tall as the mosaic; with
    # square cells under it a phone's mosaic was a ~130 px strip over ~230 px of blank (issue
    # #42): the maps fill the chart's height at every width
    fig = layer_head_mosaic(np.full((6, 12, 5, 5), 0.2, dtype=np.float32))
    bar = fig.data[0].colorbar
    assert bar.orientation == "h" and bar.yref == "container" and bar.y == 0.0
    y = fig.layout.yaxis
    assert y.scaleanchor is None and y.constrain is None
    assert fig.layout.margin.b >= 56  # the bar's room (viz/margins.py)
