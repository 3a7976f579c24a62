"""Attention heatmaps: numpy in, plotly Figure out.

Rows are queries, columns are keys. Axes are numeric positions with `ticktext` set to the
tokens, so a repeated token ("the cat saw the dog") keeps its own row and column.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .axes import token_axis
from .figure import axis_key, cell_axes, figure, named_colorscale, style, subplot_grid
from .heads import GAP_TICK, NO_CELL, PHONE_X_STEP, Strip, head_grid
from .hover import EXACT, cell_positions, hover_positions, hovertemplate
from .labels import check_lengths, escape_label, escape_labels
from .margins import COLORBAR_BELOW_PX, colorbar_below
from .theme import DEFAULT_PALETTE, DIVERGING, PALETTES

# a square matrix's colour bar under it: at most this long (a phone's plot is ~260 px wide)
SQUARE_BAR_PX = 240

# The names callers import from here (the head grid lives in viz/heads.py, the hover in
# viz/hover.py, the palettes in viz/theme.py)
__all__ = [
    "DEFAULT_PALETTE", "DIVERGING", "EXACT", "GAP_TICK", "NO_CELL", "PALETTES", "PHONE_X_STEP",
    "Strip", "attention_heatmap", "head_grid", "heatmap_row", "heatmap_trace", "hovertemplate",
]  # fmt: skip


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
    numbered: bool = True,
) -> dict:
    """One heatmap trace (a dict) of a (Tq, Tk) matrix; hover: positions, tokens, exact value.

    The tokens come from the axes' tick text, so the axes must carry them (`token_axis`, with
    the same `numbered`). With `coloraxis`, colours come from that shared axis (zmin, zmax,
    palette unused).
    """
    matrix = np.asarray(matrix, dtype=np.float32)
    check_lengths(matrix.shape, q_tokens, k_tokens)
    if customdata is None and hover_positions(*matrix.shape, numbered):  # else none (payload)
        customdata = cell_positions(*matrix.shape)
    tr = {
        "type": "heatmap",
        "z": matrix,
        "x": np.arange(matrix.shape[1]),
        "y": np.arange(matrix.shape[0]),
        "customdata": customdata,
        "hovertemplate": hovertemplate(value_label, fmt, *matrix.shape, numbered=numbered),
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
    colorbar: dict | None = None,
    square: bool = False,
) -> go.Figure:
    """One (Tq, Tk) matrix as a heatmap with tokens on both axes (`colorbar`: the trace's colour
    bar, e.g. `viz.margins.colorbar_below()`; `square`: square cells, the matrix at the left of
    the chart, as wide as it is tall, not the page's width, and its colour bar under it, no
    wider than it: at the chart's far right, ~450 px off on a wide page, the chart read as
    stretched across it, issue #42)."""
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
    own_bar = square and not colorbar  # under the matrix, as long as it is wide (below)
    if own_bar:
        colorbar = {**colorbar_below(), "lenmode": "pixels", "x": 0.0, "xanchor": "left"}
    if colorbar:
        trace["colorbar"] = colorbar
    layout = {
        "xaxis": {
            "title": {"text": escape_label(x_title)},
            "side": "bottom",
            **token_axis(k_tokens),
        },
        "yaxis": {"title": {"text": escape_label(y_title)}, **token_axis(q_tokens, reverse=True)},
    }
    if square:  # a head-by-head matrix stretched across a wide page read as bands
        layout["yaxis"].update(scaleanchor="x", constrain="domain")
        layout["xaxis"].update(constrain="domain", constraintoward="left")
    side = max(320, min(720, 60 + 22 * len(q_tokens)))
    height = height or side
    if own_bar:  # the bar's band comes on top of the matrix's height; an empty title takes none
        height += COLORBAR_BELOW_PX
        for axis in (layout["xaxis"], layout["yaxis"]):
            if not axis["title"]["text"]:
                del axis["title"]
    fig = figure([trace], style(layout, height=height, title=title))
    if own_bar:
        m = fig.layout.margin  # the matrix is as tall as the plot (or, on a phone, as wide)
        plot_px = fig.layout.height - m.t - m.b
        fig.data[0].colorbar.len = int(min(plot_px, SQUARE_BAR_PX))
    return fig


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
        1,
        len(mats),
        # "scaled: softmax(...)" on two lines: side by side on a phone the titles ran together
        titles=[x.replace(": ", ":<br>", 1) for x in escape_labels(titles)],
        horizontal_spacing=horizontal_spacing,
    )
    data = []
    for c, (m, lab, title) in enumerate(zip(mats, labels, titles)):
        tr = heatmap_trace(
            m, lab, lab, zmin=None, zmax=None, value_label=value_label, coloraxis="coloraxis"
        )
        data.append({**tr, "name": escape_label(title), **cell_axes(c)})
        layout[axis_key(c + 1)].update(token_axis(lab), title={"text": escape_label(x_title)})
        # the same tokens on every matrix: query labels beside the first only (the others keep
        # them for the hover), so that on a phone no label runs into the matrix on its left
        repeated = c > 0 and all(list(x) == list(labels[0]) for x in labels)
        layout[axis_key(c + 1, "y")].update(token_axis(lab, reverse=True))
        if repeated:
            layout[axis_key(c + 1, "y")]["showticklabels"] = False
    layout["yaxis"]["title"] = {"text": escape_label(y_title)}
    zmax = max(float(m.max()) for m in mats) if mats[0].size else 1.0
    layout["coloraxis"] = {
        "colorscale": named_colorscale(colorscale), "cmin": 0.0, "cmax": zmax,
        "colorbar": colorbar_below(),  # under the matrices, across the figure
    }  # fmt: skip
    return figure(data, style(layout, height=height + COLORBAR_BELOW_PX, top=70))
