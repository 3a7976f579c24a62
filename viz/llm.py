"""The real chat model: the layer x head mosaic of attention rows at one query token, one RoPE
pair on the unit circle, a value for every head as a grid (distances, attributions)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .axes import token_axis
from .figure import figure, named_colorscale, outline, style
from .grid import mosaic_trace, written_grid
from .heatmap import DEFAULT_PALETTE, EXACT
from .labels import escape_label, escape_labels
from .margins import COLORBAR_BELOW_PX, colorbar_below
from .theme import COLORWAY as QUALITATIVE
from .theme import DIVERGING

ROW_PX = 16  # one layer's strip of heads
GRID_ROW_PX = 26  # one layer of a value grid
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
    zmax = float(np.nanmax(a)) if a.size else 1.0
    trace = mosaic_trace(z, info, hover, DEFAULT_PALETTE, zmax)
    if named:
        text = np.full((L, width), "", dtype=object)
        for c0 in starts:
            text[:, c0 : c0 + T] = escape_labels(tokens)
        trace["text"] = text
    layout = _mosaic_layout(starts, T, L, width, head_label, layer_label, selected)
    height = 110 + ROW_PX * L + COLORBAR_BELOW_PX
    return figure([trace], style(layout, height=height))


def _mosaic_layout(
    starts: list[int],
    T: int,
    L: int,
    width: int,
    head_label: str,
    layer_label: str,
    selected: tuple[int, int] | None,
) -> dict:
    """The mosaic's axes: a head number over each strip, a layer tick every five rows; the
    selected (layer, head) strip outlined."""
    nh = len(starts)
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
        layout["shapes"] = [outline(starts[h], starts[h] + T - 1, layer, layer)]
    return layout


def rope_pair(
    q: np.ndarray,
    q_rot: np.ndarray,
    k: np.ndarray,
    k_rot: np.ndarray,
    *,
    names: tuple[str, str, str, str] = ("q", "q after RoPE", "k", "k after RoPE"),
    title: str | None = None,
    height: int = 360,
) -> go.Figure:
    """One RoPE pair of a query and of a key on the unit circle: each 2-d pair as a direction
    (divided by its length, which RoPE keeps; the hover gives the real coordinates and length),
    before (dotted) and after the turn (solid)."""
    pairs = [np.asarray(p, dtype=np.float64).reshape(2) for p in (q, q_rot, k, k_rot)]
    theta = np.linspace(0.0, 2 * np.pi, 121)
    data = [
        {
            "type": "scatter",
            "x": np.cos(theta),
            "y": np.sin(theta),
            "mode": "lines",
            "line": {"color": "rgba(105,108,120,0.5)", "width": 1},
            "hoverinfo": "skip",
            "showlegend": False,
        }
    ]
    colors = (QUALITATIVE[0], QUALITATIVE[0], QUALITATIVE[1], QUALITATIVE[1])
    for p, name, color, after in zip(pairs, names, colors, (False, True, False, True)):
        length = float(np.hypot(*p))
        u = p / length if length > 0 else p
        angle = float(np.degrees(np.arctan2(p[1], p[0])))
        data.append(
            {
                "type": "scatter",
                "x": [0.0, float(u[0])],
                "y": [0.0, float(u[1])],
                "mode": "lines+markers",
                "name": escape_label(name),
                "line": {
                    "color": color,
                    "width": 3 if after else 2,
                    **({} if after else {"dash": "dot"}),
                },
                "marker": {"size": [0, 10], "color": color},
                "customdata": [[float(p[0]), float(p[1]), length, angle]] * 2,
                "hovertemplate": (
                    f"{escape_label(name)}<br>(%{{customdata[0]:.4g}}, %{{customdata[1]:.4g}})<br>"
                    "|.| = %{customdata[2]:.4g}, %{customdata[3]:.1f}°<extra></extra>"
                ),
            }
        )
    axis = {"range": [-1.15, 1.15], "zeroline": True, "showgrid": False, "tickvals": [-1, 0, 1]}
    layout = {
        "xaxis": {**axis, "constrain": "domain"},  # the circle narrows the plot, not the range
        "yaxis": {**axis, "scaleanchor": "x", "scaleratio": 1},
        "legend": {"orientation": "h", "y": -0.12},
        "showlegend": True,
    }
    return figure(data, style(layout, height=height, title=title))


def value_grid(
    values,
    *,
    layer_label: str = "layer",
    head_label: str = "head",
    value_label: str = "value",
    signed: bool = False,
    fmt: str = ".2f",
    marked: list[tuple[int, int]] | None = None,
) -> go.Figure:
    """(L, nh) values of every head as a grid of cells, the value written in each: a sequential
    scale from 0 to the largest value, or (signed) a diverging one centred on 0. `marked`: cells
    outlined (the heads a sentence names)."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2:
        raise ValueError(f"values must be (layers, heads), got {v.shape}")
    L, nh = v.shape
    finite = v[np.isfinite(v)]
    top = float(np.abs(finite).max()) if finite.size else 1.0
    top = top or 1.0
    return written_grid(
        v,
        [[format(x, fmt) if np.isfinite(x) else "" for x in row] for row in v],
        zmin=-top if signed else 0.0,
        zmax=top,
        colorscale=DIVERGING if signed else "Blues",
        layer_label=layer_label,
        head_label=head_label,
        value_label=value_label,
        exact=EXACT,
        row_px=GRID_ROW_PX,
        shapes=[outline(h, h, layer, layer) for layer, h in marked] if marked else None,
    )


VECTOR_ROW_PX = 44  # one vector's row in vector_rows


def vector_rows(
    values,
    names: list[str],
    col_labels=None,
    *,
    col_start: int = 0,
    col_title: str = "",
    value_label: str = "value",
    signed: bool = True,
    colorscale: str = DIVERGING,
    title: str | None = None,
) -> go.Figure:
    """A few vectors (rows, n) over the same columns as one heatmap, each row VECTOR_ROW_PX
    tall whatever the number of columns: a diverging scale centred on 0 (signed) or a
    sequential one from 0. -inf (a masked score) is a gap. Exact values on hover."""
    v = np.atleast_2d(np.asarray(values, dtype=np.float64))
    rows, n = v.shape
    if len(names) != rows:
        raise ValueError(f"{len(names)} names for {rows} rows")
    finite = np.isfinite(v)
    top = float(np.abs(v[finite]).max()) if finite.any() else 1.0
    top = top or 1.0
    hover_col = "%{x}: %{customdata}" if col_labels is not None else "%{x}"
    trace = {
        "type": "heatmap",
        "z": np.where(finite, v, np.nan).astype(np.float32),
        "x": np.arange(col_start, col_start + n),
        "y": np.arange(rows),
        "colorscale": named_colorscale(colorscale),
        "zmin": -top if signed else 0.0,
        "zmax": top,
        "hoverongaps": False,
        "hovertemplate": (
            f"%{{y}}<br>{escape_label(col_title)} {hover_col}<br>"
            f"{escape_label(value_label)} = %{{z:{EXACT}}}<extra></extra>"
        ),
        "colorbar": colorbar_below(),
    }
    if signed:
        trace["zmid"] = 0.0
    if col_labels is not None:
        if len(col_labels) != n:
            raise ValueError(f"{len(col_labels)} column labels for {n} columns")
        trace["customdata"] = np.array([escape_labels(col_labels)] * rows, dtype=object)
    layout = {
        "xaxis": {
            "title": {"text": escape_label(col_title)},
            **token_axis(col_labels, n, start=col_start),
        },
        "yaxis": {
            "tickmode": "array",
            "tickvals": list(range(rows)),
            "ticktext": escape_labels(names),
            "autorange": "reversed",
            "showgrid": False,
            "zeroline": False,
        },
    }
    labelled = col_labels is not None
    height = 110 + (70 if labelled else 0) + VECTOR_ROW_PX * rows + COLORBAR_BELOW_PX
    return figure([trace], style(layout, height=height, title=title))
