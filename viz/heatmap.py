"""Attention heatmaps: numpy in, plotly Figure out.

Rows are queries, columns are keys. Axes are numeric positions with `ticktext` set to the
tokens, so a repeated token ("the cat saw the dog") keeps its own row and column.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from .axes import (
    LABEL_ALL,
    PHONE_PLOT_PX,
    X_LABEL_PX,
    Y_LABEL_PX,
    axis_anchor,
    label_step,
    tick_size,
    token_axis,
)
from .figure import axis_key, cell_axes, figure, named_colorscale, style, subplot_grid
from .labels import check_lengths, escape_label, escape_labels
from .margins import COLORBAR_BELOW_PX, MODEBAR_PX, colorbar_below, text_px

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


def _positions_in_hover(n: int, numbered: bool) -> bool:
    """Whether the hover names an axis' positions from customdata: not over LABEL_ALL labels
    (they carry them: "12: cat", `token_axis`), nor for labels that say where they are
    (numbered=False: "32–39", a block of tokens)."""
    return numbered and n <= LABEL_ALL


def _hover_positions(t_q: int, t_k: int, numbered: bool) -> bool:
    """Whether the hover reads a position of either axis from customdata."""
    return _positions_in_hover(t_q, numbered) or _positions_in_hover(t_k, numbered)


def _who(t_q: int, t_k: int, numbered: bool = True) -> str:
    """The hover's query and key: the axes' tick text, after the positions where they are not
    in it (customdata[0] and [1])."""
    query = "query %{customdata[0]}: %{y}" if _positions_in_hover(t_q, numbered) else "query %{y}"
    key = "key %{customdata[1]}: %{x}" if _positions_in_hover(t_k, numbered) else "key %{x}"
    return f"{query}<br>{key}"


def hovertemplate(
    value_label: str, fmt: str = EXACT, t_q: int = 0, t_k: int = 0, numbered: bool = True
) -> str:
    who = _who(t_q, t_k, numbered)
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
    numbered: bool = True,
) -> dict:
    """One heatmap trace (a dict) of a (Tq, Tk) matrix; hover: positions, tokens, exact value.

    The tokens come from the axes' tick text, so the axes must carry them (`token_axis`, with
    the same `numbered`). With `coloraxis`, colours come from that shared axis (zmin, zmax,
    palette unused).
    """
    matrix = np.asarray(matrix, dtype=np.float32)
    check_lengths(matrix.shape, q_tokens, k_tokens)
    if customdata is None and _hover_positions(*matrix.shape, numbered):  # else none (payload)
        customdata = _cell_positions(*matrix.shape)
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


class _Heads(NamedTuple):
    """What head_grid draws: checked weights (nh, Tq, Tk), labels, the grid, the colours."""

    weights: np.ndarray
    q_tokens: list
    k_tokens: list
    titles: list[str]
    rows: int
    cols: int
    shared_scale: bool
    colorscale: str
    value_label: str
    zmin: float | None
    numbered: bool = True
    above: Strip | None = None


class Strip(NamedTuple):
    """A small figure drawn above a one-trace head grid, in the same chart: its traces (on
    axes "x30" / "y30"), those axes' layout (without domains: the grid sets them) and its
    height in px. One chart is quicker to redraw than two (bench/ui_latency.py)."""

    data: list[dict]
    axes: dict  # {"xaxis30": {...}, "yaxis30": {...}}
    px: int
    annotations: tuple = ()  # on the strip's axes (xref "x30", yref "y30") or paper x


STRIP_AXES = ("x30", "y30")


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
    one_trace: bool = False,
    numbered: bool = True,
    above: Strip | None = None,
) -> go.Figure:
    """All heads (nh, Tq, Tk) in one figure: rows x cols of heads, each titled, with the
    tokens on its axes.

    shared_scale=True: one colour bar from 0 to the largest weight of any head, so heads are
    comparable; False: every head stretched to its own range (patterns in weak heads show).
    one_trace=False: one subplot (trace and axes) per head. True: ONE heatmap trace, heads
    separated by empty cells, each titled with its key labels under it and the query labels at
    the start of each row (`_one_trace`); the browser draws it faster (bench/plotly_draw.py; a
    heads step on the home page, bench/ui_latency.py).
    above: a `Strip` drawn above the heads in the same chart (one-trace grid only), e.g. the
    efficient page's query -> key/value groups.
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
    cols = cols or min(nh, 2)  # two heads a row: readable on a phone (390 px) and a laptop
    if above is not None and not one_trace:
        raise ValueError("a strip above the heads needs the one-trace grid")
    heads = _Heads(
        weights, q_tokens, k_tokens, titles, math.ceil(nh / cols), cols,
        shared_scale, colorscale, value_label, zmin, numbered, above,
    )  # fmt: skip
    return _one_trace(heads) if one_trace else _subplots(heads)


HEAD_TITLE_PX = 26  # a head's title above it
# A grid on a phone: its plot is PHONE_PLOT_PX wide, and an upright key label takes ~14 px. A
# one-trace grid's layout.meta[PHONE_X_STEP] = k > 1 says: on a phone draw every k-th key label
# (the chart is the same at every width; ui/widgets.plot hides the others with a narrow-screen
# style). Wide screens draw them all; the hover names every key.
UPRIGHT_LABEL_PX = 14
PHONE_X_STEP = "phone_x_step"
# The text of a tick in the gap between two heads: plotly.js draws no tick for "" (and the
# phone style counts the ticks drawn), so a zero-width space
GAP_TICK = "\u200b"
STRIP_GAP_PX = HEAD_TITLE_PX + 18  # between a strip above the grid and its first head titles
# The customdata of a one-trace grid's gap cells. Not -1: int16 -1 is the bytes FF FF, whose
# base64 is mostly "/", which plotly's JSON writes as the six characters "\u002f" (a 16-head
# grid of 64 tokens was 1.5 MB, 0.6 MB of it escaped gaps).
NO_CELL = -32768


def head_px(t_q: int) -> int:
    """Height of one head in a grid: a few tokens stay compact, long texts get room."""
    return int(min(360, max(170, 60 + 10 * t_q)))


def _x_label_px(labels) -> int:
    """Room under a head for its key labels: flat if they fit across a head on a phone (about
    120 px), else upright (plotly turns them), as long as the longest label."""
    widths = [text_px(s, tick_size(len(labels))) for s in labels]
    if sum(w + 6 for w in widths) <= 120:
        return 34
    return 24 + int(min(100, max(widths, default=0)))


def _subplots(hd: _Heads) -> go.Figure:
    """Every head with its own axes: key labels under each head, query labels at the start of
    each row, a colour bar as tall as one head (shared scale) beside the first row."""
    nh, t_q, t_k = hd.weights.shape
    head, gap = head_px(t_q), HEAD_TITLE_PX + _x_label_px(hd.k_tokens)
    plot_h = hd.rows * head + (hd.rows - 1) * gap
    layout = subplot_grid(
        hd.rows,
        hd.cols,
        titles=escape_labels(hd.titles),
        horizontal_spacing=0.08 if hd.cols > 1 else 0.0,
        vertical_spacing=gap / plot_h if hd.rows > 1 else 0.0,
    )
    for note in layout.get("annotations", []):
        note["font"] = {"size": 13}
    positions = _hover_positions(t_q, t_k, hd.numbered)
    customdata = _cell_positions(t_q, t_k) if positions else None
    x_axis = token_axis(hd.k_tokens, numbered=hd.numbered)
    y_axis = token_axis(hd.q_tokens, reverse=True, numbered=hd.numbered)
    gmax = float(np.nanmax(hd.weights)) if hd.weights.size else 1.0
    data = []
    for h, w in enumerate(hd.weights):
        zmax = gmax if hd.shared_scale else float(np.nanmax(w)) if w.size else 1.0
        tr = heatmap_trace(
            w,
            hd.q_tokens,
            hd.k_tokens,
            zmin=hd.zmin,
            zmax=zmax,
            colorscale=hd.colorscale,
            value_label=hd.value_label,
            showscale=hd.shared_scale and h == 0,
            customdata=customdata,
            numbered=hd.numbered,
        )
        if h == 0:  # the colour bar beside the first head, as tall as one head
            tr["colorbar"] = {
                "lenmode": "pixels", "len": head, "y": 1, "yanchor": "top", "thickness": 12,
                "xpad": 6,
            }  # fmt: skip
        data.append({**tr, "name": escape_label(hd.titles[h]), **cell_axes(h)})
        layout[axis_key(h + 1)].update(x_axis)
        # query labels at the start of each row; the others keep them for the hover only
        layout[axis_key(h + 1, "y")].update(y_axis, showticklabels=h % hd.cols == 0)
    top = MODEBAR_PX + HEAD_TITLE_PX + 6  # the head titles below the chart's toolbar
    height = plot_h + top + _x_label_px(hd.k_tokens) + 10
    return figure(data, style(layout, height=height, top=top))


def _one_trace(hd: _Heads) -> go.Figure:
    """Heads as blocks of one heatmap trace on one pair of axes, laid out as `_subplots` lays
    out its heads: each head titled, its key labels under it and the query labels at the start
    of each row of heads, the colour bar as tall as one head. Blocks are separated by empty
    (NaN) cells. The trace's own axes keep every tick for the hover; they draw the labels where
    one axis can (see below), and elsewhere an overlay axis does: under each other row of heads,
    and beside the rows when a head's queries are thinned (`axis_anchor` makes plotly.js draw
    each). With per-head
    colours (not shared_scale) every block is stretched to its own [zmin, max], the colour bar is
    hidden (as with subplots) and the hover reads the exact weight from customdata.

    Zoom works along the keys only (the rows' key axes follow the zoom; the y axes are fixed,
    for the key axes stand at fixed heights between the rows of heads).

    One trace is quicker for the browser than a subplot per head: plotly.js alone redraws a
    grid going from 4 to 8 heads in ~50 ms against ~83 ms; a heads step on the home page
    (bench/ui_latency.py) ~1.75x the floor page against ~2.05x."""
    nh, t_q, t_k = hd.weights.shape
    head = head_px(t_q)  # px of one head's rows, as in `_subplots`
    cell_px = head / max(t_q, 1)
    gap_y = max(1, math.ceil((HEAD_TITLE_PX + _x_label_px(hd.k_tokens)) / cell_px))
    gap_x = max(1, round(0.1 * t_k))  # empty columns between heads side by side
    step_x, step_y = t_k + gap_x, t_q + gap_y
    n_y, n_x = hd.rows * step_y - gap_y, hd.cols * step_x - gap_x
    z = np.full((n_y, n_x), np.nan, dtype=np.float32)
    # hover data: [query, key] positions where the labels do not carry them, and the exact
    # weight when the colours are stretched; NO_CELL in the gaps (never hovered: hoverongaps is
    # off); none at all when the hover needs neither (payload)
    info = None
    if not hd.shared_scale:
        info = np.full(z.shape + (3,), NO_CELL, dtype=np.float32)
    elif _hover_positions(t_q, t_k, hd.numbered):
        info = np.full(z.shape + (2,), NO_CELL, dtype=np.int16)
    cells = _cell_positions(t_q, t_k)
    low = 0.0 if hd.zmin is None else hd.zmin
    for h, w in enumerate(hd.weights):
        r, c = divmod(h, hd.cols)
        block = (slice(r * step_y, r * step_y + t_q), slice(c * step_x, c * step_x + t_k))
        if hd.shared_scale:
            z[block] = w
        else:
            top = float(np.nanmax(w)) if w.size else 1.0
            z[block] = (w - low) / (top - low) if top > low else 0.0
            info[block + (2,)] = w
        if info is not None:
            info[block + (slice(0, 2),)] = cells
    value = f"%{{z:{EXACT}}}" if hd.shared_scale else f"%{{customdata[2]:{EXACT}}}"
    who = _who(t_q, t_k, hd.numbered)
    gmax = float(np.nanmax(hd.weights)) if hd.weights.size else 1.0
    trace = {
        "type": "heatmap",
        "z": z,
        "customdata": info,
        "hovertemplate": f"{who}<br>{escape_label(hd.value_label)} = {value}<extra></extra>",
        "hoverongaps": False,
        "xgap": 0,
        "ygap": 0,
        "colorscale": named_colorscale(hd.colorscale),
        "zmin": hd.zmin if hd.shared_scale else 0.0,
        "zmax": gmax if hd.shared_scale else 1.0,
        "showscale": hd.shared_scale,
        # beside the first row, as tall as one head
        "colorbar": {
            "lenmode": "pixels", "len": head, "y": 1, "yanchor": "top", "thickness": 12,
            "xpad": 6,
        },
    }  # fmt: skip
    x_ticks = token_axis(hd.k_tokens, numbered=hd.numbered)
    y_ticks = token_axis(hd.q_tokens, numbered=hd.numbered)
    x_vals = [c * step_x + j for c in range(hd.cols) for j in range(t_k)]
    y_vals = [r * step_y + i for r in range(hd.rows) for i in range(t_q)]
    layout = {
        "xaxis": {  # the trace's own axes: every token for the hover, no label drawn
            **x_ticks,
            "tickvals": x_vals,
            "ticktext": x_ticks["ticktext"] * hd.cols,
            "range": [-0.5, n_x - 0.5],
            "showticklabels": False,
            "ticks": "",
        },
        "yaxis": {
            **y_ticks,
            "tickvals": y_vals,
            "ticktext": y_ticks["ticktext"] * hd.rows,
            "range": [n_y - 0.5, -0.5],
            "showticklabels": False,
            "ticks": "",
            "fixedrange": True,
        },
        "annotations": [
            {
                "text": escape_label(title),
                "x": (h % hd.cols) * step_x + (t_k - 1) / 2,
                "y": (h // hd.cols) * step_y - 0.5,
                "xref": "x",
                "yref": "y",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 13},
            }
            for h, title in enumerate(hd.titles)
        ],
    }
    data = [trace]
    # Labels drawn: every k-th of a long axis, per head (thin_token_axes leaves overlays as they
    # are). The trace's own axes draw them where they can (each axis drawn costs the browser a
    # layer of its own, and a heads step that adds one more): the queries when no head thins
    # them and they are few in all; the keys under the last row when it is full. Elsewhere an
    # overlay axis: one beside every row, one under each other row of heads.
    x_show = range(0, t_k, label_step(t_k, PHONE_PLOT_PX / hd.cols, X_LABEL_PX))
    y_show = range(0, t_q, label_step(t_q, head * 0.85, Y_LABEL_PX))
    shown = {"showgrid": False, "zeroline": False}
    # labels that do not lie flat stand upright, as `_x_label_px` and the thinning count them
    # (left to plotly, long ones on a phone were slanted and ran into each other)
    x_angle = {} if _x_label_px(hd.k_tokens) <= 34 else {"tickangle": -90}
    phone_k = 1  # a phone draws every k-th key label (ui/widgets.plot)
    if x_angle:  # upright labels past what a head holds on a phone: every k-th there only
        fit = max(1, int(PHONE_PLOT_PX / hd.cols * 0.9 / UPRIGHT_LABEL_PX))
        phone_k = math.ceil(len(x_show) / fit)
        layout["meta"] = {PHONE_X_STEP: phone_k}

    def key_ticks(in_row: int, show) -> tuple[list[float], list[str]]:
        """A row's key labels: `show` under each of its heads. The phone style draws every
        k-th tick of a row (it counts them across the row's heads), so each head but the last
        is followed by invisible ticks (GAP_TICK) in the gap: every head starts at a k-th tick and
        shows the same tokens (the second head of a row showed the other half)."""
        pad = (-len(show)) % phone_k
        vals, text = [], []
        for c in range(in_row):
            vals += [c * step_x + j for j in show]
            text += [x_ticks["ticktext"][j] for j in show]
            if c < in_row - 1:
                edge = c * step_x + t_k - 0.5  # the gap's left edge
                vals += [edge + gap_x * (i + 1) / (pad + 1) for i in range(pad)]
                text += [GAP_TICK] * pad
        return vals, text

    if len(y_show) == t_q and hd.rows * t_q <= LABEL_ALL:
        layout["yaxis"]["showticklabels"] = True
    else:
        layout["yaxis2"] = {
            **shown, "tickmode": "array", "tickfont": y_ticks.get("tickfont"),
            "tickvals": [r * step_y + i for r in range(hd.rows) for i in y_show],
            "ticktext": [y_ticks["ticktext"][i] for _ in range(hd.rows) for i in y_show],
            "overlaying": "y", "matches": "y", "range": [n_y - 0.5, -0.5], "fixedrange": True,
            "anchor": "x", "side": "left",
        }  # fmt: skip
        data.append(axis_anchor("x", "y2"))
    rows = hd.rows
    if nh % hd.cols == 0 and len(x_show) == t_k and hd.cols * t_k <= LABEL_ALL:
        layout["xaxis"]["showticklabels"] = True  # under the last row
        layout["xaxis"].update(x_angle)
        # (the invisible ticks lie in the gaps, which the hover never reads)
        layout["xaxis"]["tickvals"], layout["xaxis"]["ticktext"] = key_ticks(hd.cols, range(t_k))
        rows -= 1
    for r in range(rows):  # key labels under each row of heads, only under its heads
        in_row = min(hd.cols, nh - r * hd.cols)
        vals, text = key_ticks(in_row, x_show)
        layout[f"xaxis{r + 2}"] = {
            **shown, "tickmode": "array", "tickfont": x_ticks.get("tickfont"),
            "tickvals": vals, "ticktext": text,
            "overlaying": "x", "matches": "x", "range": [-0.5, n_x - 0.5], "side": "bottom",
            **x_angle,
            "anchor": "free",
            "position": 1.0 - (r * step_y + t_q) / n_y,
        }  # fmt: skip
        data.append(axis_anchor(f"x{r + 2}", "y"))
    # No automargin: the margins are reserved from the labels' text (`figure`, viz/margins.py)
    # and plotly.js measuring every label after each draw cost a grid's heads step ~20 ms
    # (bench/ui_latency.py --pages efficient: 1.64-1.78x the floor -> 1.56-1.57x)
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")):
            axis["automargin"] = False
    plot_h = n_y * cell_px
    top = MODEBAR_PX + HEAD_TITLE_PX + 6  # the head titles below the chart's toolbar
    if hd.above is not None:
        plot_h, top = _strip_above(hd.above, data, layout, plot_h), MODEBAR_PX + 6
    height = int(plot_h + top + _x_label_px(hd.k_tokens) + 10)
    return figure(data, style(layout, height=height, top=top))


def _strip_above(strip: Strip, data: list[dict], layout: dict, grid_px: float) -> float:
    """Put `strip` above the grid of `data` / `layout` (changed here): the grid keeps its px,
    every paper-y of it (its y domain, the key rows' positions, the colour bar) is scaled into
    the lower part. Returns the new plot height in px."""
    plot_px = grid_px + STRIP_GAP_PX + strip.px
    f = grid_px / plot_px  # the grid's share of the plot's height
    layout["yaxis"]["domain"] = [0.0, f]
    for key, axis in layout.items():
        if key.startswith("xaxis") and isinstance(axis, dict) and "position" in axis:
            axis["position"] *= f
    data[0]["colorbar"]["y"] = f
    xs, ys = STRIP_AXES
    layout.update(strip.axes)
    layout[f"yaxis{ys[1:]}"]["domain"] = [1.0 - strip.px / plot_px, 1.0]
    layout[f"yaxis{ys[1:]}"]["anchor"] = xs
    layout[f"xaxis{xs[1:]}"]["anchor"] = ys
    layout["annotations"] = [*layout.get("annotations", []), *strip.annotations]
    data.extend({**tr, "xaxis": xs, "yaxis": ys} for tr in strip.data)
    return plot_px


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
