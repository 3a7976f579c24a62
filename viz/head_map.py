"""Layer x head maps you can click (Reading heads, Pretrained heads): a head-importance heatmap,
and click targets that make any layer x head mosaic selectable.

Plotly reports clicks to Streamlit only on scatter points (not heatmap cells), so each clickable
place is a transparent scatter point whose `customdata` says what it is.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .figure import figure, named_colorscale, style
from .labels import escape_label
from .reading import EXACT, SELECTED_COLOR


def head_importance(
    importance: np.ndarray,
    *,
    selected: tuple[int, int] | None = None,
    layer_label: str = "layer",
    head_label: str = "head",
    value_label: str = "importance",
    hint: str = "click to show this head",
    colorscale: str = "Viridis",
) -> go.Figure:
    """(L, nh) one number per head as a heatmap; every cell is also a (transparent) scatter point
    with customdata (layer, head, value), which carries the hover (exact value) and the click.
    The `selected` head is outlined."""
    z = np.asarray(importance, dtype=np.float64)
    if z.ndim != 2 or not z.size:
        raise ValueError(f"importance must be (layers, heads), got shape {z.shape}")
    L, nh = z.shape
    data = [
        dict(
            type="heatmap",
            z=z,
            x=np.arange(nh),
            y=np.arange(L),
            colorscale=named_colorscale(colorscale),
            zmin=0.0,
            zmax=max(float(np.nanmax(z)), 1e-12),
            hoverinfo="skip",
            colorbar={"title": {"text": escape_label(value_label)}},
        )
    ]
    layer_i, head_i = np.meshgrid(np.arange(L), np.arange(nh), indexing="ij")
    height = max(260, 80 + 44 * L)
    cell_px = (height - 80) / L
    data.append(
        dict(
            type="scatter",
            x=head_i.ravel(),
            y=layer_i.ravel(),
            mode="markers",
            marker={
                "symbol": "square",
                "size": max(8, int(cell_px * 0.9)),
                "color": "rgba(0,0,0,0)",
            },
            customdata=np.column_stack([layer_i.ravel(), head_i.ravel(), z.ravel()]),
            hovertemplate=(
                f"{escape_label(layer_label)} %{{customdata[0]}}, {escape_label(head_label)} "
                f"%{{customdata[1]}}<br>{escape_label(value_label)} = %{{customdata[2]:{EXACT}}}"
                f"<br>{escape_label(hint)}<extra></extra>"
            ),
            showlegend=False,
            selected={"marker": {"opacity": 1}},
            unselected={"marker": {"opacity": 1}},
        )
    )
    fixed = {"tickmode": "array", "showgrid": False, "zeroline": False, "fixedrange": True}
    layout = {
        "xaxis": {
            "title": {"text": escape_label(head_label)},
            "tickvals": list(range(nh)),
            "range": [-0.5, nh - 0.5],
            "side": "top",
            **fixed,
        },
        "yaxis": {
            "title": {"text": escape_label(layer_label)},
            "tickvals": list(range(L)),
            "range": [L - 0.5, -0.5],
            **fixed,
        },
        "clickmode": "event+select",
        "dragmode": False,
    }
    if selected is not None:
        layer, h = selected
        box = {"x0": h - 0.5, "x1": h + 0.5, "y0": layer - 0.5, "y1": layer + 0.5}
        line = {"color": SELECTED_COLOR, "width": 3}
        layout["shapes"] = [{"type": "rect", **box, "line": line}]
    return figure(data, style(layout, height=height))


def add_block_targets(
    fig: go.Figure,
    n_rows: int,
    n_cols: int,
    block: int,
    *,
    gap: int = 1,
    row_label: str = "layer",
    col_label: str = "head",
    hint: str = "click to enlarge",
    share: float = 0.5,
) -> go.Figure:
    """Make a mosaic of n_rows x n_cols blocks of `block` cells (a `gap` of cells between them,
    as `viz.grid.layer_head_mosaic` draws them) clickable: a transparent square scatter point at
    each block's centre, about `share` of the block wide, with customdata (row, col). Outside
    the squares the heatmap's own hover (the exact weight) still shows (hoverdistance 1)."""
    if min(n_rows, n_cols, block) < 1:
        raise ValueError(f"need at least one block of one cell, got {n_rows}x{n_cols}x{block}")
    step = block + gap
    rows, cols = np.meshgrid(np.arange(n_rows), np.arange(n_cols), indexing="ij")
    height = fig.layout.height or 450
    cells = n_rows * step - gap
    block_px = (height - 70) * block / cells
    size = int(min(80, max(8, share * block_px)))
    fig.add_trace(
        dict(
            type="scatter",
            x=cols.ravel() * step + (block - 1) / 2,
            y=rows.ravel() * step + (block - 1) / 2,
            mode="markers",
            marker={"symbol": "square", "size": size, "color": "rgba(0,0,0,0)"},
            customdata=np.column_stack([rows.ravel(), cols.ravel()]),
            hovertemplate=(
                f"{escape_label(row_label)} %{{customdata[0]}}, {escape_label(col_label)} "
                f"%{{customdata[1]}}<br>{escape_label(hint)}<extra></extra>"
            ),
            showlegend=False,
            selected={"marker": {"opacity": 1}},
            unselected={"marker": {"opacity": 1}},
        )
    )
    fig.update_layout(hoverdistance=1, clickmode="event+select", dragmode=False)
    return fig


__all__ = ["add_block_targets", "head_importance"]
