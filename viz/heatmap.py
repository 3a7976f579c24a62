"""Attention heatmaps: numpy in, plotly Figure out.

Rows are queries, columns are keys. Axes are numeric positions with `ticktext` set to the
tokens, so a repeated token ("the cat saw the dog") keeps its own row and column.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .labels import check_lengths, escape_label, escape_labels

# Perceptually uniform and colour-blind safe; readable on light and dark backgrounds.
PALETTES = ("Viridis", "Cividis", "Magma", "Blues")
DEFAULT_PALETTE = "Viridis"
DIVERGING = "RdBu_r"  # for signed values (scores, encodings); blue/red is colour-blind safe

# Hover: exact to float32 precision (8 significant digits)
EXACT = ".8g"


def _cell_positions(t_q: int, t_k: int) -> np.ndarray:
    """(Tq, Tk, 2) query and key position of every cell, for the hover text.

    Numbers, not token strings: Plotly sends them as a compact typed array, and `%{y}` /
    `%{x}` already show the axis' tick text (the escaped token) in the hover.
    """
    out = np.empty((t_q, t_k, 2), dtype=np.int16)
    out[:, :, 0] = np.arange(t_q)[:, None]
    out[:, :, 1] = np.arange(t_k)[None, :]
    return out


def hovertemplate(value_label: str, fmt: str = EXACT) -> str:
    who = "query %{customdata[0]}: %{y}<br>key %{customdata[1]}: %{x}"
    return f"{who}<br>{escape_label(value_label)} = %{{z:{fmt}}}<extra></extra>"


def heatmap_trace(
    matrix: np.ndarray,
    q_tokens,
    k_tokens,
    *,
    zmin: float | None,
    zmax: float | None,
    colorscale: str = DEFAULT_PALETTE,
    value_label: str = "weight",
    showscale: bool = True,
    coloraxis: str | None = None,
    customdata: np.ndarray | None = None,
    fmt: str = EXACT,
) -> go.Heatmap:
    """One heatmap trace of a (Tq, Tk) matrix; hover: positions, tokens, exact value.

    The tokens come from the axes' tick text, so the axes must carry them (`_axis_ticks`).
    """
    matrix = np.asarray(matrix, dtype=np.float32)
    check_lengths(matrix.shape, q_tokens, k_tokens)
    if customdata is None:
        customdata = _cell_positions(*matrix.shape)
    kw = {"coloraxis": coloraxis} if coloraxis else {"colorscale": colorscale, "zmin": zmin}
    if not coloraxis:
        kw.update(zmax=zmax, showscale=showscale)
    return go.Heatmap(
        z=matrix,
        x=np.arange(matrix.shape[1]),
        y=np.arange(matrix.shape[0]),
        customdata=customdata,
        hovertemplate=hovertemplate(value_label, fmt),
        xgap=0,
        ygap=0,
        **kw,
    )


def _axis_ticks(tokens) -> dict:
    n = len(tokens)
    return {
        "tickmode": "array",
        "tickvals": list(range(n)),
        "ticktext": escape_labels(tokens),
        "range": [-0.5, n - 0.5],
        "showgrid": False,
        "zeroline": False,
        "automargin": True,
        "tickfont": {"size": 11 if n <= 24 else 9 if n <= 48 else 7},
    }


def _y_axis_ticks(tokens) -> dict:
    ax = _axis_ticks(tokens)
    ax["range"] = [len(tokens) - 0.5, -0.5]  # first query at the top
    return ax


def style(fig: go.Figure, *, height: int, title: str | None = None) -> go.Figure:
    """Transparent background so the page theme (light or dark) shows through."""
    fig.update_layout(
        height=height,
        margin={"l": 10, "r": 10, "t": 60 if title else 30, "b": 10},
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        title={"text": escape_label(title)} if title else None,
    )
    return fig


def attention_heatmap(
    matrix: np.ndarray,
    q_tokens,
    k_tokens=None,
    *,
    title: str | None = None,
    colorscale: str = DEFAULT_PALETTE,
    zmin: float | None = 0.0,
    zmax: float | None = None,
    value_label: str = "weight",
    x_title: str = "key",
    y_title: str = "query",
    height: int | None = None,
    fmt: str = EXACT,
) -> go.Figure:
    """One (Tq, Tk) matrix as a heatmap with tokens on both axes."""
    k_tokens = q_tokens if k_tokens is None else k_tokens
    matrix = np.asarray(matrix, dtype=np.float32)
    if zmax is None:
        zmax = float(np.nanmax(matrix)) if matrix.size else 1.0
    fig = go.Figure(
        heatmap_trace(
            matrix,
            q_tokens,
            k_tokens,
            zmin=zmin,
            zmax=zmax,
            colorscale=colorscale,
            value_label=value_label,
            fmt=fmt,
        )
    )
    fig.update_xaxes(title_text=escape_label(x_title), side="bottom", **_axis_ticks(k_tokens))
    fig.update_yaxes(title_text=escape_label(y_title), **_y_axis_ticks(q_tokens))
    side = max(320, min(720, 60 + 22 * len(q_tokens)))
    return style(fig, height=height or side, title=title)


def head_grid(
    weights: np.ndarray,
    q_tokens,
    k_tokens=None,
    *,
    titles: list[str] | None = None,
    shared_scale: bool = True,
    colorscale: str = DEFAULT_PALETTE,
    cols: int | None = None,
    value_label: str = "weight",
    zmin: float | None = 0.0,
) -> go.Figure:
    """All heads (nh, Tq, Tk) in one figure, one subplot each.

    shared_scale=True: one colour bar from 0 to the largest weight of any head, so heads are
    comparable; False: every head stretched to its own range (patterns in weak heads show).
    """
    weights = np.asarray(weights, dtype=np.float32)
    if weights.ndim != 3:
        raise ValueError(f"weights must be (heads, Tq, Tk), got shape {weights.shape}")
    k_tokens = q_tokens if k_tokens is None else k_tokens
    check_lengths(weights.shape, q_tokens, k_tokens)
    nh, t_q, t_k = weights.shape
    titles = titles or [f"head {h}" for h in range(nh)]
    if len(titles) != nh:
        raise ValueError(f"{nh} heads but {len(titles)} titles")
    longest = max(t_q, t_k)
    auto = 4 if longest <= 10 else 3 if longest <= 20 else 2 if longest <= 40 else 1
    cols = cols or min(nh, auto)
    rows = math.ceil(nh / cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=escape_labels(titles),
        horizontal_spacing=0.36 / cols if cols > 1 else 0.0,
        vertical_spacing=min(0.25 / rows, 0.12) if rows > 1 else 0.0,
    )
    customdata = _cell_positions(t_q, t_k)
    gmax = float(np.nanmax(weights)) if weights.size else 1.0
    for h in range(nh):
        r, c = divmod(h, cols)
        zmax = gmax if shared_scale else float(np.nanmax(weights[h])) if weights[h].size else 1.0
        tr = heatmap_trace(
            weights[h],
            q_tokens,
            k_tokens,
            zmin=zmin,
            zmax=zmax,
            colorscale=colorscale,
            value_label=value_label,
            showscale=shared_scale and h == 0,
            customdata=customdata,
        )
        tr.update(name=escape_label(titles[h]))
        fig.add_trace(tr, row=r + 1, col=c + 1)
        fig.update_xaxes(_axis_ticks(k_tokens), row=r + 1, col=c + 1)
        fig.update_yaxes(_y_axis_ticks(q_tokens), row=r + 1, col=c + 1)
    # about square cells in a ~900 px wide main column: a subplot is ~800/cols wide
    per_row = int(min(800 / cols, 40 + 28 * t_q) * t_q / max(t_k, 1)) + 70
    return style(fig, height=60 + rows * max(per_row, 200))
