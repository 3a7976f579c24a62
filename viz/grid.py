"""Every layer and head of a model in one figure: a mosaic of small attention maps."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .a11y import HEADS, heads_meta
from .figure import figure, named_colorscale, outline, style
from .heatmap import DEFAULT_PALETTE, EXACT
from .labels import escape_label
from .margins import COLORBAR_BELOW_PX, colorbar_below


def _block_axis(label: str, n: int, t: int) -> dict:
    """One tick per block of t cells and its one-cell gap ("head 0", ...) at the block's centre."""
    return {
        "tickmode": "array",
        "tickvals": [i * (t + 1) + (t - 1) / 2 for i in range(n)],
        "ticktext": [f"{escape_label(label)} {i}" for i in range(n)],
        "showgrid": False,
        "zeroline": False,
    }


def mosaic_trace(z: np.ndarray, info: np.ndarray, hover: str, colorscale: str, zmax: float) -> dict:
    """A mosaic's one heatmap trace: blocks of cells with NaN gaps (no hover there), each cell's
    `info` as customdata, the colour bar under the mosaic, across its width (beside it, a
    phone's mosaic of square cells was ~90 px tall next to a bar of ~360 px)."""
    return {
        "type": "heatmap",
        "z": z,
        "customdata": info,
        "hovertemplate": hover,
        "colorscale": named_colorscale(colorscale),
        "zmin": 0.0,
        "zmax": zmax,
        "hoverongaps": False,
        "colorbar": colorbar_below(),
    }


def _mosaic_cells(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(L, nh, T, T) laid out as blocks with a one-cell NaN gap: the values, and each cell's
    [layer, head, query, key] (-1 in the gaps)."""
    L, nh, T, _ = a.shape
    step = T + 1
    z = np.full((L * step - 1, nh * step - 1), np.nan, dtype=np.float32)
    info = np.full(z.shape + (4,), -1, dtype=np.int16)  # (rows, cols, [layer, head, q, k])
    q_idx, k_idx = np.meshgrid(np.arange(T), np.arange(T), indexing="ij")
    for layer in range(L):
        for h in range(nh):
            r0, c0 = layer * step, h * step
            z[r0 : r0 + T, c0 : c0 + T] = a[layer, h]
            block = info[r0 : r0 + T, c0 : c0 + T]
            block[..., 0], block[..., 1] = layer, h
            block[..., 2], block[..., 3] = q_idx, k_idx
    return z, info


def layer_head_mosaic(
    attentions: np.ndarray,
    *,
    colorscale: str = DEFAULT_PALETTE,
    layer_label: str = "layer",
    head_label: str = "head",
    value_label: str = "weight",
    selected: tuple[int, int] | None = None,
    zmax: float | None = None,
    tokens=None,
) -> go.Figure:
    """(L, nh, T, T) as one heatmap trace: row blocks are layers, column blocks are heads.

    One trace (not L x nh charts): blocks are separated by a one-cell gap of NaN, hover gives
    layer, head, query and key positions and the exact weight. `tokens` (T labels, else the
    positions) label the rows and columns of its table (viz/a11y.py).
    """
    a = np.asarray(attentions, dtype=np.float32)
    if a.ndim != 4 or a.shape[2] != a.shape[3]:
        raise ValueError(f"attentions must be (layers, heads, T, T), got {a.shape}")
    L, nh, T, _ = a.shape
    step = T + 1
    z, info = _mosaic_cells(a)
    hover = (
        f"{escape_label(layer_label)} %{{customdata[0]}}, {escape_label(head_label)} "
        "%{customdata[1]}<br>query %{customdata[2]} → key %{customdata[3]}<br>"
        f"{escape_label(value_label)} = %{{z:{EXACT}}}<extra></extra>"
    )
    zmax = float(np.nanmax(a)) if zmax is None else zmax
    trace = mosaic_trace(z, info, hover, colorscale, zmax)
    layout = {
        "xaxis": {
            **_block_axis(head_label, nh, T),
            "side": "top",
            "range": [-0.5, z.shape[1] - 0.5],
        },
        "yaxis": {
            **_block_axis(layer_label, L, T),
            # the maps fill the chart: about square on a wide page (the height follows L / nh),
            # taller than wide on a phone. Square cells there left a ~130 px strip of 12 px maps
            # over ~230 px of blank, hard to tap.
            "autorange": "reversed",
        },
    }
    if selected is not None:
        layer, h = selected
        r0, c0 = layer * step, h * step
        layout["shapes"] = [outline(c0, c0 + T - 1, r0, r0 + T - 1)]
    height = max(260, int(90 + 760 * L / nh)) + COLORBAR_BELOW_PX
    labels = [str(i) for i in range(T)] if tokens is None else list(tokens)
    titles = [f"{layer_label} {i}, {head_label} {h}" for i in range(L) for h in range(nh)]
    heads = heads_meta(a.reshape(L * nh, T, T), labels, labels, titles, value_label)
    layout["meta"] = {HEADS: heads}
    return figure([trace], style(layout, height=height))


def written_grid(
    v: np.ndarray,
    text: list[list[str]],
    *,
    zmin: float,
    zmax: float,
    colorscale: str,
    layer_label: str,
    head_label: str,
    value_label: str,
    exact: str,
    row_px: int,
    title: str | None = None,
    height: int | None = None,
    shapes: list[dict] | None = None,
) -> go.Figure:
    """(L, nh) values of every head as a grid of cells with `text` written in each; hover gives
    layer, head and the value to `exact` digits. Without a `height`, every row is `row_px` tall
    whatever margins the labels and title need."""
    L, nh = v.shape
    trace = {
        "type": "heatmap",
        "z": v,
        "x": list(range(nh)),
        "y": list(range(L)),
        "zmin": zmin,
        "zmax": zmax,
        "colorscale": named_colorscale(colorscale),
        "text": text,
        "texttemplate": "%{text}",
        "hovertemplate": (
            f"{escape_label(layer_label)} %{{y}}, {escape_label(head_label)} %{{x}}: "
            f"%{{z:{exact}}}<extra>{escape_label(value_label)}</extra>"
        ),
        "showscale": False,
    }
    layout = {
        "xaxis": {"title": {"text": escape_label(head_label)}, "tickvals": list(range(nh))},
        "yaxis": {
            "title": {"text": escape_label(layer_label)},
            "tickvals": list(range(L)),
            "autorange": "reversed",
        },
    }
    if shapes:
        layout["shapes"] = shapes
    fig = figure([trace], style(layout, height=height or 90 + row_px * L, title=title))
    if height is None:
        margin = fig.layout.margin
        fig.layout.height = margin.t + margin.b + row_px * L
    return fig
