"""Small matrix figures for the step-by-step view: numpy in, plotly Figure out.

A matrix is drawn on numeric axes (so repeated tokens keep their own rows), with token labels as
tick text, the exact value of every cell on hover, optional values printed in small matrices, and
outlines that follow the chosen query row (or a head's block of columns) through the steps.
Cells that are -inf (masked scores) are drawn empty and say "-∞" on hover.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .axes import token_axis
from .figure import figure, named_colorscale, style
from .heatmap import DEFAULT_PALETTE, DIVERGING, EXACT
from .labels import escape_label
from .margins import COLORBAR_BELOW_PX, colorbar_below

TEXT_CELLS = 144  # print values in the cells of matrices up to this many cells ...
TEXT_COLS = 12  # ... and up to this many columns (narrower cells cannot hold "-0.12")
CELL_FMT = ".2f"
MINUS_INF = "−∞"
# Outline of a highlighted row / block: a dark line with a light core reads on every palette
# (light and dark cells, light and dark theme).
OUTLINE_DARK = "#111111"
OUTLINE_LIGHT = "#ffffff"


def _fmt(value: float, spec: str) -> str:
    if np.isnan(value):
        return ""
    if np.isinf(value):
        return MINUS_INF if value < 0 else "+∞"
    return format(float(value), spec)


def _outline(x0: float, x1: float, y0: float, y1: float) -> list[dict]:
    """Two rectangles in the same place: a dark line with a light core."""
    return [
        {
            "type": "rect",
            "x0": x0,
            "x1": x1,
            "y0": y0,
            "y1": y1,
            "line": {"color": color, "width": width},
            "fillcolor": "rgba(0,0,0,0)",
            "layer": "above",
        }
        for color, width in ((OUTLINE_DARK, 4), (OUTLINE_LIGHT, 1.5))
    ]


def matrix_heatmap(
    matrix: np.ndarray,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    *,
    row_start: int = 0,
    col_start: int = 0,
    title: str | None = None,
    row_title: str = "",
    col_title: str = "",
    value_label: str = "value",
    colorscale: str = DIVERGING,
    signed: bool = True,
    zmin: float | None = None,
    zmax: float | None = None,
    highlight_row: int | None = None,
    highlight_rows: tuple[int, int] | None = None,
    highlight_cols: tuple[int, int] | None = None,
    cell_values: bool | None = None,
    height: int | None = None,
    colorbar_below: bool = False,
) -> go.Figure:
    """A (rows, cols) matrix as a heatmap with exact values on hover.

    row_labels / col_labels: one (user-derived, escaped here) label per row / column, or None for
    plain positions. row_start / col_start: the index of the first row / column shown, when the
    matrix is a window of a larger one (axes and hover then give the original positions).
    signed=True centres a diverging palette on 0 (scores, projections); otherwise the colour
    runs from zmin (0 by default) to the largest value (weights).
    highlight_row: outline this row (an index into `matrix`, not counting row_start).
    highlight_rows / highlight_cols: outline the block [start, stop) of rows / columns.
    cell_values: print the values in the cells (None: only for small matrices).
    colorbar_below: the colour bar under the plot (one at the side takes ~130 px of a column).
    """
    m = _checked(matrix, row_labels, col_labels, highlight_row)
    n_rows, n_cols = m.shape
    finite = np.isfinite(m)
    z = np.where(finite, m, np.nan)  # -inf (masked) -> gap
    zmin, zmax = _colour_range(z[finite] if finite.any() else np.zeros(1), signed, zmin, zmax)
    if cell_values is None:
        cell_values = m.size <= TEXT_CELLS and n_cols <= TEXT_COLS
    titles = (escape_label(row_title), escape_label(col_title))
    kw, who_r, who_c = _positions(m.shape, row_labels, col_labels, row_start, col_start, titles)
    kw.update(_hover(m, finite, f"{who_r}<br>{who_c}<br>{escape_label(value_label)}"))
    if cell_values:
        kw.update(_cell_text(m, finite))
    trace = {
        "type": "heatmap",
        "z": z.astype(np.float32),
        "x": np.arange(col_start, col_start + n_cols),
        "y": np.arange(row_start, row_start + n_rows),
        "colorscale": named_colorscale(colorscale),
        "zmin": zmin,
        "zmax": zmax,
        "zmid": 0.0 if signed else None,
        "hoverongaps": True,
        "colorbar": _colorbar(n_rows, colorbar_below),
        **kw,
    }
    window = (row_start, n_rows, col_start, n_cols)
    layout = {
        "xaxis": {"title": {"text": titles[1]}, **token_axis(col_labels, n_cols, start=col_start)},
        "yaxis": {
            "title": {"text": titles[0]},
            **token_axis(row_labels, n_rows, start=row_start, reverse=True),
        },
    }
    shapes = _highlights(window, highlight_row, highlight_rows, highlight_cols)
    if shapes:
        layout["shapes"] = shapes
    auto = _auto_height(n_rows, labelled=row_labels is not None, below=colorbar_below)
    return figure([trace], style(layout, height=height or auto, title=title))


def _hover(m: np.ndarray, finite: np.ndarray, who: str) -> dict:
    """The hover after `who` (the cell's row, column and value label): the exact value, from z,
    or spelled out for every cell where a gap (-inf, masked) has no z to hover."""
    if finite.all():
        return {"hovertemplate": f"{who} = %{{z:{EXACT}}}<extra></extra>"}
    return {
        "hovertext": np.vectorize(lambda v: _fmt(v, EXACT), otypes=[object])(m),
        "hovertemplate": f"{who} = %{{hovertext}}<extra></extra>",
    }


def _colorbar(n_rows: int, below: bool) -> dict:
    """A thin colour bar beside the plot (taller than a plot of a few rows, so that its ticks
    have room), or under it, across the plot's width."""
    if below:
        return colorbar_below()
    return {"thickness": 12, "len": 1.0 if n_rows > 6 else 1.4}


def _auto_height(n_rows: int, *, labelled: bool, below: bool = False) -> int:
    """A height that gives each row room for its label (rows of dimensions need less), and
    room for a colour bar `below` the plot."""
    if not labelled and n_rows > 24:  # rows of dimensions: no labels to keep apart
        cell = 7
    else:  # a few rows get more: below the title, ticks and axis title they would be slivers
        cells = ((3, 44), (8, 30), (24, 22), (48, 14))
        cell = next((c for most, c in cells if n_rows <= most), 11)
    return max(170, min(900, 130 + cell * n_rows)) + (COLORBAR_BELOW_PX if below else 0)


def _checked(matrix, row_labels, col_labels, highlight_row) -> np.ndarray:
    """The matrix as float64 (rows, cols), a vector as one row; labels and row checked."""
    m = np.asarray(matrix, dtype=np.float64)
    if m.ndim == 1:
        m = m[None, :]
    if m.ndim != 2:
        raise ValueError(f"matrix must be 2-D, got shape {m.shape}")
    n_rows, n_cols = m.shape
    if row_labels is not None and len(row_labels) != n_rows:
        raise ValueError(f"matrix has {n_rows} rows but got {len(row_labels)} row labels")
    if col_labels is not None and len(col_labels) != n_cols:
        raise ValueError(f"matrix has {n_cols} columns but got {len(col_labels)} column labels")
    if highlight_row is not None and not 0 <= highlight_row < n_rows:
        raise ValueError(f"highlight_row {highlight_row} is outside the {n_rows} rows")
    return m


def _colour_range(vals: np.ndarray, signed: bool, zmin, zmax) -> tuple[float, float]:
    """signed: a diverging range centred on 0 (±the largest |value|); otherwise 0 (or zmin)
    to the largest value. A given zmin / zmax is kept."""
    if signed:
        bound = float(np.max(np.abs(vals))) or 1.0
        return (-bound if zmin is None else zmin), (bound if zmax is None else zmax)
    return (0.0 if zmin is None else zmin), ((float(vals.max()) or 1.0) if zmax is None else zmax)


def _positions(shape, row_labels, col_labels, row_start: int, col_start: int, titles):
    """Hover "token 3: saw": the position from customdata (a compact int16 typed array, never
    per-cell strings) and the token from the axis' tick text, which %{y} / %{x} show.
    Unlabelled axes (dimensions) show their number as it is. Returns the trace's customdata
    (in a dict, empty when no axis is labelled) and the row and column parts of the hover."""
    n_rows, n_cols = shape
    rows = np.arange(row_start, row_start + n_rows, dtype=np.int16)[:, None]
    cols = np.arange(col_start, col_start + n_cols, dtype=np.int16)[None, :]
    rt, ct = titles
    who_r, who_c = f"{rt} %{{y}}", f"{ct} %{{x}}"
    kw: dict = {}
    if row_labels is not None and col_labels is not None:
        kw["customdata"] = np.stack(np.broadcast_arrays(rows, cols), axis=-1)  # (r, c, 2)
        who_r = f"{rt} %{{customdata[0]}}: %{{y}}"
        who_c = f"{ct} %{{customdata[1]}}: %{{x}}"
    elif row_labels is not None:
        kw["customdata"] = np.broadcast_to(rows, shape).copy()  # (r, c)
        who_r = f"{rt} %{{customdata}}: %{{y}}"
    elif col_labels is not None:
        kw["customdata"] = np.broadcast_to(cols, shape).copy()
        who_c = f"{ct} %{{customdata}}: %{{x}}"
    return kw, who_r, who_c


def _cell_text(m: np.ndarray, finite: np.ndarray) -> dict:
    """The values printed in the cells (a masked cell spelled out: −∞)."""
    if finite.all():
        kw = {"texttemplate": f"%{{z:{CELL_FMT}}}"}
    else:
        text = np.vectorize(lambda v: _fmt(v, CELL_FMT), otypes=[object])(m)
        kw = {"text": text, "texttemplate": "%{text}"}
    return {**kw, "textfont": {"size": 11 if m.shape[1] <= 8 else 9}}


def _highlights(window, row, rows, cols) -> list[dict]:
    """Outlines of one row and of a block of rows / columns, clipped to the window shown
    (row_start, n_rows, col_start, n_cols)."""
    row_start, n_rows, col_start, n_cols = window
    x0, x1 = col_start - 0.5, col_start + n_cols - 0.5
    y0, y1 = row_start - 0.5, row_start + n_rows - 0.5
    shapes = []
    if row is not None:
        r = row_start + row
        shapes += _outline(x0, x1, r - 0.5, r + 0.5)
    if rows is not None:
        a, b = max(rows[0], row_start), min(rows[1], row_start + n_rows)
        if a < b:
            shapes += _outline(x0, x1, a - 0.5, b - 0.5)
    if cols is not None:
        a, b = max(cols[0], col_start), min(cols[1], col_start + n_cols)
        if a < b:
            shapes += _outline(a - 0.5, b - 0.5, y0, y1)
    return shapes


def weights_compare(
    uniform: np.ndarray,
    attention: np.ndarray,
    labels: Sequence[str],
    *,
    names: tuple[str, str] = ("naive", "attention"),
    title: str | None = None,
    x_title: str = "key",
    value_label: str = "weight",
    colors: tuple[str, str] = ("#999999", "#0072B2"),
) -> go.Figure:
    """Two weight rows over the same keys as grouped bars (exact values on hover).

    Default colours: neutral grey for the naive row, Okabe-Ito blue for attention.
    """
    uniform = np.asarray(uniform, dtype=np.float64)
    attention = np.asarray(attention, dtype=np.float64)
    if uniform.shape != attention.shape or uniform.ndim != 1:
        raise ValueError(
            f"expected two rows of the same length, got {uniform.shape}, {attention.shape}"
        )
    if len(labels) != uniform.shape[0]:
        raise ValueError(f"{uniform.shape[0]} weights but {len(labels)} labels")
    n = len(labels)
    data = [
        {
            "type": "bar",
            "x": np.arange(n),
            "y": row,
            "name": escape_label(name),
            "marker": {"color": color},
            "customdata": np.arange(n),
            "hovertemplate": f"{escape_label(x_title)} %{{customdata}}: %{{x}}<br>"
            f"{escape_label(name)}: {escape_label(value_label)} = %{{y:{EXACT}}}<extra></extra>",
        }
        for row, name, color in zip((uniform, attention), names, colors)
    ]
    layout = {
        "barmode": "group",
        "legend": {"orientation": "h", "y": 1.02, "x": 0, "yanchor": "bottom"},
        "xaxis": {"title": {"text": escape_label(x_title)}, **token_axis(labels)},
        "yaxis": {"title": {"text": escape_label(value_label)}, "rangemode": "tozero"},
    }
    return figure(data, style(layout, height=300, title=title))


__all__ = ["DEFAULT_PALETTE", "DIVERGING", "matrix_heatmap", "weights_compare"]
