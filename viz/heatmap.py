"""Attention heatmaps: numpy in, plotly Figure out.

Rows are queries, columns are keys. Axes are numeric positions with `ticktext` set to the
tokens, so a repeated token ("the cat saw the dog") keeps its own row and column.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from .axes import token_axis
from .figure import axis_key, cell_axes, figure, named_colorscale, style, subplot_grid
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
) -> dict:
    """One heatmap trace (a dict) of a (Tq, Tk) matrix; hover: positions, tokens, exact value.

    The tokens come from the axes' tick text, so the axes must carry them (`token_axis`).
    With `coloraxis`, colours come from that shared axis (zmin, zmax, palette unused).
    """
    matrix = np.asarray(matrix, dtype=np.float32)
    check_lengths(matrix.shape, q_tokens, k_tokens)
    tr = {
        "type": "heatmap",
        "z": matrix,
        "x": np.arange(matrix.shape[1]),
        "y": np.arange(matrix.shape[0]),
        "customdata": _cell_positions(*matrix.shape) if customdata is None else customdata,
        "hovertemplate": hovertemplate(value_label, fmt),
        "xgap": 0,
        "ygap": 0,
    }
    if coloraxis:
        tr["coloraxis"] = coloraxis
    else:
        tr.update(
            colorscale=named_colorscale(colorscale), zmin=zmin, zmax=zmax, showscale=showscale
        )
    return tr


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
    trace = heatmap_trace(
        matrix,
        q_tokens,
        k_tokens,
        zmin=zmin,
        zmax=zmax,
        colorscale=colorscale,
        value_label=value_label,
        fmt=fmt,
    )
    layout = {
        "xaxis": {
            "title": {"text": escape_label(x_title)},
            "side": "bottom",
            **token_axis(k_tokens),
        },
        "yaxis": {"title": {"text": escape_label(y_title)}, **token_axis(q_tokens, reverse=True)},
    }
    side = max(320, min(720, 60 + 22 * len(q_tokens)))
    return figure([trace], style(layout, height=height or side, title=title))


def _heads(weights, q_tokens, k_tokens, titles, cols):
    """Checked (nh, Tq, Tk) weights, key tokens, titles and the grid (rows, cols) of heads."""
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
    return weights, k_tokens, titles, math.ceil(nh / cols), cols


def _row_height(cols: int, t_q: int, t_k: int) -> int:
    """Pixels per row of heads: about square cells in a ~900 px wide main column, where a
    head is ~800/cols wide."""
    return max(int(min(800 / cols, 40 + 28 * t_q) * t_q / max(t_k, 1)) + 70, 200)


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
    (head_mosaic draws the same in one trace, which the browser draws several times faster.)
    """
    weights, k_tokens, titles, rows, cols = _heads(weights, q_tokens, k_tokens, titles, cols)
    nh, t_q, t_k = weights.shape
    layout = subplot_grid(
        rows,
        cols,
        titles=escape_labels(titles),
        horizontal_spacing=0.36 / cols if cols > 1 else 0.0,
        vertical_spacing=min(0.25 / rows, 0.12) if rows > 1 else 0.0,
    )
    customdata = _cell_positions(t_q, t_k)
    x_axis, y_axis = token_axis(k_tokens), token_axis(q_tokens, reverse=True)
    gmax = float(np.nanmax(weights)) if weights.size else 1.0
    data = []
    for h in range(nh):
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
        data.append({**tr, "name": escape_label(titles[h]), **cell_axes(h)})
        layout[axis_key(h + 1)].update(x_axis)
        layout[axis_key(h + 1, "y")].update(y_axis)
    return figure(data, style(layout, height=60 + rows * _row_height(cols, t_q, t_k)))


def head_mosaic(
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
    """head_grid's picture (the same arguments, rows x cols of heads, tokens on every row and
    under every column of heads) as ONE heatmap trace on one pair of axes.

    Heads are blocks separated by empty (NaN) cells; each head's title sits above its block.
    Plotly draws one trace with two axes several times faster than nh subplots with 2 nh
    axes (bench/plotly_draw.py). Hover: positions, tokens and the exact weight.
    shared_scale=False stretches every head to its own [zmin, max] (the colours of each block
    are the head's own); the colour bar is hidden, as in head_grid, and the hover reads the
    exact weight from customdata.
    """
    weights, k_tokens, titles, rows, cols = _heads(weights, q_tokens, k_tokens, titles, cols)
    nh, t_q, t_k = weights.shape
    row_px = _row_height(cols, t_q, t_k)
    cell_px = max(1.0, (row_px - 70) / max(t_q, 1))
    gap = max(1, math.ceil(20 / cell_px))  # empty rows above a block: room for its title
    step_x, step_y = t_k + 1, t_q + gap
    z = np.full((rows * step_y - gap, cols * step_x - 1), np.nan, dtype=np.float32)
    # hover data: [query, key] positions, and the exact weight when the colours are stretched
    info = np.full(z.shape + (2,), -1, dtype=np.int16)
    if not shared_scale:
        info = np.full(z.shape + (3,), -1, dtype=np.float32)
    cells = _cell_positions(t_q, t_k)
    low = 0.0 if zmin is None else zmin
    for h in range(nh):
        r, c = divmod(h, cols)
        rows_h, cols_h = slice(r * step_y, r * step_y + t_q), slice(c * step_x, c * step_x + t_k)
        w = weights[h]
        if shared_scale:
            z[rows_h, cols_h] = w
        else:
            top = float(np.nanmax(w)) if w.size else 1.0
            z[rows_h, cols_h] = (w - low) / (top - low) if top > low else 0.0
            info[rows_h, cols_h, 2] = w
        info[rows_h, cols_h, :2] = cells
    value = f"%{{z:{EXACT}}}" if shared_scale else f"%{{customdata[2]:{EXACT}}}"
    who = "query %{customdata[0]}: %{y}<br>key %{customdata[1]}: %{x}"
    trace = {
        "type": "heatmap",
        "z": z,
        "customdata": info,
        "hovertemplate": f"{who}<br>{escape_label(value_label)} = {value}<extra></extra>",
        "hoverongaps": False,
        "xgap": 0,
        "ygap": 0,
        "colorscale": named_colorscale(colorscale),
        "zmin": zmin if shared_scale else 0.0,
        "zmax": (float(np.nanmax(weights)) if weights.size else 1.0) if shared_scale else 1.0,
        "showscale": shared_scale,
    }
    x_ticks, y_ticks = token_axis(k_tokens), token_axis(q_tokens)
    layout = {
        "xaxis": {
            **x_ticks,
            "tickvals": [c * step_x + j for c in range(cols) for j in range(t_k)],
            "ticktext": x_ticks["ticktext"] * cols,
            "range": [-0.5, z.shape[1] - 0.5],
        },
        "yaxis": {
            **y_ticks,
            "tickvals": [r * step_y + i for r in range(rows) for i in range(t_q)],
            "ticktext": y_ticks["ticktext"] * rows,
            "range": [z.shape[0] - 0.5, -0.5],
        },
        "annotations": [
            {
                "text": escape_label(title),
                "x": (h % cols) * step_x + (t_k - 1) / 2,
                "y": (h // cols) * step_y - 0.5,
                "xref": "x",
                "yref": "y",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 14},
            }
            for h, title in enumerate(titles)
        ],
    }
    return figure([trace], style(layout, height=60 + rows * row_px))


def heatmap_row(
    matrices,
    labels,
    *,
    titles,
    value_label: str = "weight",
    x_title: str = "key",
    y_title: str = "query",
    colorscale: str = DEFAULT_PALETTE,
    horizontal_spacing: float,
    height: int,
) -> go.Figure:
    """Square weight matrices side by side on one shared colour scale [0, largest].

    labels[i]: the tokens of matrices[i] (rows and columns alike); titles[i] above it.
    """
    mats = [np.asarray(m, dtype=np.float32) for m in matrices]
    if not len(mats) == len(labels) == len(titles):
        raise ValueError(f"{len(mats)} matrices, {len(labels)} label lists, {len(titles)} titles")
    for m, lab in zip(mats, labels):
        check_lengths(m.shape, lab, lab)
    layout = subplot_grid(
        1, len(mats), titles=escape_labels(titles), horizontal_spacing=horizontal_spacing
    )
    data = []
    for c, (m, lab, title) in enumerate(zip(mats, labels, titles)):
        tr = heatmap_trace(
            m, lab, lab, zmin=None, zmax=None, value_label=value_label, coloraxis="coloraxis"
        )
        data.append({**tr, "name": escape_label(title), **cell_axes(c)})
        layout[axis_key(c + 1)].update(token_axis(lab), title={"text": escape_label(x_title)})
        layout[axis_key(c + 1, "y")].update(token_axis(lab, reverse=True))
    layout["yaxis"]["title"] = {"text": escape_label(y_title)}
    zmax = max(float(m.max()) for m in mats) if mats[0].size else 1.0
    layout["coloraxis"] = {"colorscale": named_colorscale(colorscale), "cmin": 0.0, "cmax": zmax}
    return figure(data, style(layout, height=height))
