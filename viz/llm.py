"""The real chat model's heads at one query token: a layer x head mosaic of attention rows."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .figure import figure, named_colorscale, style
from .heatmap import DEFAULT_PALETTE, EXACT
from .labels import escape_label, escape_labels
from .margins import COLORBAR_BELOW_PX, colorbar_below

ROW_PX = 16  # one layer's strip of heads
HOVER_TOKENS = 64  # up to this many keys, each cell's hover names its token (2.2 MB at 430)


def query_mosaic(
    rows: np.ndarray,
    tokens,
    *,
    group: int = 1,
    layer_label: str = "layer",
    head_label: str = "head",
    key_label: str = "key",
    value_label: str = "weight",
    selected: tuple[int, int] | None = None,
) -> go.Figure:
    """(L, nh, T) attention rows of one query as one heatmap: a row per layer, and in it one
    strip of T key cells per head; a one-cell gap between heads and a three-cell gap between
    groups of `group` heads (the query heads that share a key/value head). Hover gives the layer,
    head, key position and token, and the exact weight."""
    a = np.asarray(rows, dtype=np.float32)
    if a.ndim != 3:
        raise ValueError(f"rows must be (layers, heads, keys), got {a.shape}")
    L, nh, T = a.shape
    if len(tokens) != T:
        raise ValueError(f"{len(tokens)} tokens for {T} keys")
    group = max(1, int(group))
    starts = [h * (T + 1) + (h // group) * 2 for h in range(nh)]  # first column of each head
    width = starts[-1] + T
    z = np.full((L, width), np.nan, dtype=np.float32)
    info = np.full((L, width, 2), -1, dtype=np.int16)  # [head, key]
    for h, c0 in enumerate(starts):
        z[:, c0 : c0 + T] = a[:, h]
        info[:, c0 : c0 + T, 0] = h
        info[:, c0 : c0 + T, 1] = np.arange(T)
    named = T <= HOVER_TOKENS  # each cell's token in its hover: L x nh x T strings sent
    hover = (
        f"{escape_label(layer_label)} %{{y}}, {escape_label(head_label)} %{{customdata[0]}}<br>"
        f"{escape_label(key_label)} %{{customdata[1]}}{': %{text}' if named else ''}<br>"
        f"{escape_label(value_label)} = %{{z:{EXACT}}}<extra></extra>"
    )
    trace = {
        "type": "heatmap",
        "z": z,
        "customdata": info,
        "hovertemplate": hover,
        "colorscale": named_colorscale(DEFAULT_PALETTE),
        "zmin": 0.0,
        "zmax": float(np.nanmax(a)) if a.size else 1.0,
        "hoverongaps": False,
        "colorbar": colorbar_below(),
    }
    if named:
        text = np.full((L, width), "", dtype=object)
        for c0 in starts:
            text[:, c0 : c0 + T] = escape_labels(tokens)
        trace["text"] = text
    layout = {
        "xaxis": {
            "tickmode": "array",
            "tickvals": [c0 + (T - 1) / 2 for c0 in starts],
            "ticktext": [str(h) for h in range(nh)],  # numbers: nine fit on a phone
            "title": {"text": escape_label(head_label)},
            "side": "top",
            "showgrid": False,
            "zeroline": False,
            "range": [-0.5, width - 0.5],
        },
        "yaxis": {
            "title": {"text": escape_label(layer_label)},
            "tickmode": "array",
            "tickvals": list(range(0, L, 5)),
            "autorange": "reversed",
            "showgrid": False,
            "zeroline": False,
        },
    }
    if selected is not None:
        layer, h = selected
        layout["shapes"] = [
            {
                "type": "rect",
                "x0": starts[h] - 0.5,
                "x1": starts[h] + T - 0.5,
                "y0": layer - 0.5,
                "y1": layer + 0.5,
                "line": {"color": "#E69F00", "width": 3},  # Okabe-Ito orange: seen on Viridis
            }
        ]
    height = 110 + ROW_PX * L + COLORBAR_BELOW_PX
    return figure([trace], style(layout, height=height))
