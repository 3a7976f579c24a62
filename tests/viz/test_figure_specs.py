"""The builders write figures as plain dicts without graph_objects validation (viz/figure.py):
validating every builder's output must change nothing, and the subplot grid must be the one
make_subplots draws."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from tests.helpers.figures import sent, validated
from viz import grid, heatmap, matrix, positional, scaling, transformer
from viz.figure import (
    STREAMLIT_PLACEHOLDERS,
    cell_axes,
    figure,
    named_colorscale,
    streamlit_safe,
    subplot_grid,
)

MARKUP = ["<b>x</b>", "a & b", '"q"']


def _softmax(rng, *shape):
    e = np.exp(rng.normal(size=shape))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


def _builds():
    rng = np.random.default_rng(1)
    toks = ["the", *MARKUP, "the"]
    n = len(toks)
    a = _softmax(rng, n, n)
    masked = rng.normal(size=(n, n))
    masked[np.triu_indices(n, 1)] = -np.inf
    pe = rng.uniform(-1, 1, size=(12, 8))
    d_k = np.array([1, 2, 4, 8, 16])
    two = np.abs(rng.normal(size=(2, 5)))
    taus = np.array([0.25, 0.5, 1.0, 2.0, 4.0])
    k = np.arange(-5, 6)
    return {
        "head_grid": lambda: heatmap.head_grid(
            _softmax(rng, 5, n, n), toks, titles=MARKUP + ["a", "b"]
        ),
        "head_grid per head": lambda: heatmap.head_grid(
            _softmax(rng, 3, 2, n), toks[:2], toks, shared_scale=False, colorscale="Magma"
        ),
        "attention_heatmap": lambda: heatmap.attention_heatmap(a, toks, title=MARKUP[0], zmin=None),
        "layer_head_mosaic": lambda: grid.layer_head_mosaic(
            _softmax(rng, 2, 3, 4, 4), selected=(1, 2), layer_label=MARKUP[0]
        ),
        "matrix_heatmap": lambda: matrix.matrix_heatmap(
            rng.normal(size=(n, 12)),
            toks,
            None,
            col_start=4,
            highlight_row=1,
            highlight_cols=(6, 9),
            title=MARKUP[1],
        ),
        "matrix_heatmap masked": lambda: matrix.matrix_heatmap(masked, toks, toks, signed=False),
        "matrix_heatmap plain": lambda: matrix.matrix_heatmap(
            rng.normal(size=(30, 30)), row_start=30, col_start=30, highlight_rows=(32, 40)
        ),
        "weights_compare": lambda: matrix.weights_compare(np.full(n, 1 / n), a[0], toks, title="t"),
        "encoding_curves": lambda: positional.encoding_curves(pe, [0, 3], names=MARKUP[:2]),
        "encoding_heatmap": lambda: positional.encoding_heatmap(pe),
        "wavelength_chart": lambda: positional.wavelength_chart(
            np.geomspace(6, 9000, 4), n_positions=12
        ),
        "similarity_heatmap": lambda: positional.similarity_heatmap(pe @ pe.T),
        "offset_profiles": lambda: positional.offset_profiles(
            [(k, np.cos(k))], names=["p"], closed_form=(k, np.cos(k))
        ),
        "layout_comparison": lambda: positional.layout_comparison(pe, pe[:, ::-1]),
        "shuffle_panel": lambda: positional.shuffle_panel(a.T, toks[::-1], title=MARKUP[0], zmax=1),
        "permutation_figure": lambda: positional.permutation_figure(np.eye(n), toks, toks),
        "std_figure": lambda: scaling.std_figure(
            d_k, np.sqrt(d_k), np.sqrt(d_k), np.ones(5), np.ones(5)
        ),
        "histogram_figure": lambda: scaling.histogram_figure(
            rng.normal(size=50), rng.normal(size=50)
        ),
        "saturation_figure": lambda: scaling.saturation_figure(d_k, two, two, two, (0.1, 0.2, 0.3)),
        "heatmap_pair": lambda: scaling.heatmap_pair(a, a.T, toks, titles=("s", "u")),
        "temperature_figure": lambda: scaling.temperature_figure(
            taus, taus, taus, [(1.0, 0.5, 0.5, MARKUP[0])]
        ),
        "block_diagram": lambda: transformer.block_diagram(
            False, 2, {k: MARKUP[0] for k in transformer.DIAGRAM_LABELS}, {"enc.self_attn"}
        ),
        "block_diagram pre-norm": lambda: transformer.block_diagram(
            True, 6, {k: k for k in transformer.DIAGRAM_LABELS}, {"dec.final_norm"}, title="t"
        ),
    }




@pytest.mark.parametrize("name", list(_builds()))
def test_validation_would_change_nothing(name):
    fig = _builds()[name]()
    assert isinstance(fig, go.Figure)
    checked = validated(fig)  # raises on any invalid property or value
    assert sent(checked) == sent(fig)
    assert None not in [v for tr in sent(fig)["data"] for v in tr.values()]
    # no colour Streamlit's chart component would swap for another (Magma's zero went lilac)
    text = fig.to_json().lower()
    assert not [c for c in STREAMLIT_PLACEHOLDERS if f'"{c}"' in text]


def test_an_invalid_property_is_caught_by_that_check():
    fig = figure([{"type": "heatmap", "z": [[1.0]], "colour": "red"}], {})
    with pytest.raises(ValueError, match="colour"):
        go.Figure(fig.to_dict())


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 2), (1, 3), (2, 4), (3, 3), (4, 4), (8, 2)])
@pytest.mark.parametrize("spacing", [None, (0.0, 0.0), (0.09, 0.03)])
def test_subplot_grid_is_make_subplots(rows, cols, spacing):
    h, v = spacing or (None, None)
    titles = [f"t{i}" for i in range(rows * cols - 1)] + [""]
    ref = make_subplots(
        rows=rows, cols=cols, subplot_titles=titles, horizontal_spacing=h, vertical_spacing=v
    )
    ours = subplot_grid(rows, cols, titles=titles, horizontal_spacing=h, vertical_spacing=v)
    ref_layout = ref.to_dict()["layout"]
    ref_layout.pop("template")
    assert json.loads(json.dumps(ours)) == ref_layout
    last = rows * cols - 1
    ref.add_trace(go.Scatter(x=[0]), row=rows, col=cols)
    assert {k: ref.data[0][k] for k in ("xaxis", "yaxis")} == cell_axes(last)


def test_named_colorscale_is_what_validation_stores():
    """... but for a colour Streamlit would swap (Magma's #000004, viz.figure.streamlit_safe)."""
    for name in ("Viridis", "RdBu_r", "Magma", "Blues", "Cividis"):
        stored = go.Heatmap(colorscale=name).to_plotly_json()["colorscale"]
        assert named_colorscale(name) == [[v, streamlit_safe(c)] for v, c in stored]
    assert named_colorscale("Magma")[0] == [0.0, "#010004"]
    scale = named_colorscale("Viridis")
    scale[0][1] = "#000000"  # a caller's change does not leak into the next figure
    assert named_colorscale("Viridis")[0][1] == "#440154"
