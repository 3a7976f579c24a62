"""Every head of a layer in one chart (`head_grid`): ONE heatmap trace whose heads are blocks of
cells, separated by empty (NaN) cells, each titled, its key labels under it and the query labels
at the start of each row of heads.

One trace is quicker for the browser to redraw than a subplot per head (README, "Where a
rerun's time goes"; bench/plotly_draw.py). The figure is built in named steps: the blocks'
geometry (`_Blocks`), the cells and their hover data (`_cells`), the trace, the trace's own axes
and the heads' titles, then the labels drawn (queries beside the rows, keys under each row of
heads, thinned on a phone), then the height.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from .a11y import HEADS, heads_meta
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
from .figure import figure, named_colorscale, style
from .hover import EXACT, cell_positions, hover_positions, who
from .labels import check_lengths, escape_label
from .margins import COLORBAR_BELOW_PX, MODEBAR_PX, colorbar_below, text_px
from .theme import DEFAULT_PALETTE

HEAD_TITLE_PX = 26  # a head's title above it
# Under the last row's key labels, one band: the key title in the middle and the colour bar at
# the left (`_trace`), at most BAR_LEN of the plot's width: the bar never reaches the title
# (viz.margins reserves one band for both)
BAR_BAND_PX = COLORBAR_BELOW_PX
BAR_LEN = 0.4
# A grid on a phone: its plot is PHONE_PLOT_PX wide, and an upright key label takes ~14 px. A
# grid's layout.meta[PHONE_X_STEP] = k > 1 says: on a phone draw every k-th key label (the chart
# is the same at every width; ui/widgets.plot hides the others with a narrow-screen style). Wide
# screens draw them all; the hover names every key.
UPRIGHT_LABEL_PX = 14
PHONE_X_STEP = "phone_x_step"
# The text of a tick in the gap between two heads: plotly.js draws no tick for "" (and the
# phone style counts the ticks drawn), so a zero-width space
GAP_TICK = "\u200b"
STRIP_GAP_PX = HEAD_TITLE_PX + 18  # between a strip above the grid and its first head titles
# The customdata of the gap cells. Not -1: int16 -1 is the bytes FF FF, whose base64 is mostly
# "/", which plotly's JSON writes as the six characters "\u002f" (a 16-head grid of 64 tokens
# was 1.5 MB, 0.6 MB of it escaped gaps).
NO_CELL = -32768
_SHOWN = {"showgrid": False, "zeroline": False}  # an overlay axis that draws labels


class Strip(NamedTuple):
    """A small figure drawn above a head grid, in the same chart: its traces (on axes "x30" /
    "y30"), those axes' layout (without domains: the grid sets them) and its height in px. One
    chart is quicker to redraw than two (bench/ui_latency.py)."""

    data: list[dict]
    axes: dict  # {"xaxis30": {...}, "yaxis30": {...}}
    px: int
    annotations: tuple = ()  # on the strip's axes (xref "x30", yref "y30") or paper x


STRIP_AXES = ("x30", "y30")


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
    q_title: str = ""
    k_title: str = ""


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
    numbered: bool = True,
    above: Strip | None = None,
    q_title: str = "query",
    k_title: str = "key",
) -> go.Figure:
    """All heads (nh, Tq, Tk) in one figure: rows x cols of heads, each titled, with the
    tokens on its axes: the query labels titled `q_title` at the left, the key labels under
    the last row titled `k_title` ("" for none; the page passes them in its language).

    shared_scale=True: one colour bar from 0 to the largest weight of any head, so heads are
    comparable; False: every block stretched to its own [zmin, max], the colour bar hidden and
    the hover reading the exact weight from customdata (patterns in weak heads show).
    numbered=False: labels that say where they are ("32–39", a block of tokens).
    above: a `Strip` drawn above the heads in the same chart, e.g. the efficient page's
    query -> key/value groups.

    Zoom works along the keys only (the rows' key axes follow the zoom; the y axes are fixed,
    for the key axes stand at fixed heights between the rows of heads).
    """
    weights = np.asarray(weights, dtype=np.float32)
    if weights.ndim != 3:
        raise ValueError(f"weights must be (heads, Tq, Tk), got shape {weights.shape}")
    k_tokens = q_tokens if k_tokens is None else k_tokens
    check_lengths(weights.shape, q_tokens, k_tokens)
    nh = weights.shape[0]
    titles = titles or [f"head {h}" for h in range(nh)]
    if len(titles) != nh:
        raise ValueError(f"{nh} heads but {len(titles)} titles")
    cols = cols or min(nh, 2)  # two heads a row: readable on a phone (390 px) and a laptop
    hd = _Heads(
        weights, q_tokens, k_tokens, titles, math.ceil(nh / cols), cols,
        shared_scale, colorscale, value_label, zmin, numbered, above, q_title, k_title,
    )  # fmt: skip
    b = _blocks(hd)
    data = [_trace(hd, b)]
    layout = _trace_axes(hd, b)
    _query_labels(hd, b, data, layout)
    _key_labels(hd, b, data, layout)
    _axis_titles(hd, layout)
    # No automargin: the margins are reserved from the labels' text (`figure`, viz/margins.py);
    # plotly.js measuring every label after each draw slowed a heads step (bench/ui_latency.py)
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")):
            axis["automargin"] = False
    plot_h = b.n_y * b.cell_px
    top = MODEBAR_PX + HEAD_TITLE_PX + 6  # the head titles below the chart's toolbar
    if hd.above is not None:
        plot_h, top = _strip_above(hd.above, data, layout, plot_h), MODEBAR_PX + 6
    height = int(plot_h + top + _x_label_px(hd.k_tokens) + BAR_BAND_PX + 10)
    # what the grid draws, for its accessible name, its table and its summary (viz/a11y.py; read
    # and left out of what is sent by ui/widgets.plot)
    heads = heads_meta(
        hd.weights, hd.q_tokens, hd.k_tokens, hd.titles, hd.value_label, hd.q_title, hd.k_title
    )
    layout.setdefault("meta", {})[HEADS] = heads
    return figure(data, style(layout, height=height, top=top))


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


class _Blocks(NamedTuple):
    """Where the heads stand in the trace: head h in row r, column c (row-major) covers the
    cells [r * step_y, + t_q) x [c * step_x, + t_k); the gaps between are empty cells, as tall
    as a head's title and key labels, and a tenth of a head wide."""

    t_q: int
    t_k: int
    head: int  # px of one head's rows
    cell_px: float  # px of one row of cells
    gap_x: int
    step_x: int
    step_y: int
    n_x: int  # columns of cells in all
    n_y: int  # rows of cells in all

    def block(self, h: int, cols: int) -> tuple[slice, slice]:
        r, c = divmod(h, cols)
        return (
            slice(r * self.step_y, r * self.step_y + self.t_q),
            slice(c * self.step_x, c * self.step_x + self.t_k),
        )


def _blocks(hd: _Heads) -> _Blocks:
    _, t_q, t_k = hd.weights.shape
    cell_px = head_px(t_q) / max(t_q, 1)
    # rows of empty cells between two rows of heads, for a head's key labels and the next head's
    # title: the nearest whole number of rows, the cells grown (by at most 15%) to cover it
    # (rounded up, up to a row of ~24 px was blank under the labels; issue #42)
    gap_px = HEAD_TITLE_PX + _x_label_px(hd.k_tokens)
    gap_y = max(1, round(gap_px / cell_px))
    if gap_px / gap_y > 1.15 * cell_px:
        gap_y = math.ceil(gap_px / cell_px)
    cell_px = max(cell_px, gap_px / gap_y)
    head = round(cell_px * t_q)
    gap_x = max(1, round(0.1 * t_k))  # empty columns between heads side by side
    step_x, step_y = t_k + gap_x, t_q + gap_y
    return _Blocks(
        t_q, t_k, head, cell_px, gap_x, step_x, step_y,
        n_x=hd.cols * step_x - gap_x, n_y=hd.rows * step_y - gap_y,
    )  # fmt: skip


def _cells(hd: _Heads, b: _Blocks) -> tuple[np.ndarray, np.ndarray | None]:
    """z: every head's block (stretched to [0, 1] without a shared scale), NaN in the gaps.
    Hover data: [query, key] positions where the labels do not carry them, and the exact weight
    when the colours are stretched; NO_CELL in the gaps (never hovered: hoverongaps is off);
    None when the hover needs neither (payload)."""
    z = np.full((b.n_y, b.n_x), np.nan, dtype=np.float32)
    info = None
    if not hd.shared_scale:
        info = np.full(z.shape + (3,), NO_CELL, dtype=np.float32)
    elif hover_positions(b.t_q, b.t_k, hd.numbered):
        info = np.full(z.shape + (2,), NO_CELL, dtype=np.int16)
    cells = cell_positions(b.t_q, b.t_k)
    low = 0.0 if hd.zmin is None else hd.zmin
    for h, w in enumerate(hd.weights):
        block = b.block(h, hd.cols)
        if hd.shared_scale:
            z[block] = w
        else:
            top = float(np.nanmax(w)) if w.size else 1.0
            z[block] = (w - low) / (top - low) if top > low else 0.0
            info[block + (2,)] = w
        if info is not None:
            info[block + (slice(0, 2),)] = cells
    return z, info


def _trace(hd: _Heads, b: _Blocks) -> dict:
    """The one heatmap trace, its colour bar under the grid at the left, at most one head wide:
    beside the first row it took ~90 px of a phone's ~360 (issue #42: the heads were ~95 px
    wide, with a blank band at their right)."""
    z, info = _cells(hd, b)
    value = f"%{{z:{EXACT}}}" if hd.shared_scale else f"%{{customdata[2]:{EXACT}}}"
    hover = f"{who(b.t_q, b.t_k, hd.numbered)}<br>{escape_label(hd.value_label)} = {value}"
    gmax = float(np.nanmax(hd.weights)) if hd.weights.size else 1.0
    return {
        "type": "heatmap",
        "z": z,
        "customdata": info,
        "hovertemplate": f"{hover}<extra></extra>",
        "hoverongaps": False,
        "xgap": 0,
        "ygap": 0,
        "colorscale": named_colorscale(hd.colorscale),
        "zmin": hd.zmin if hd.shared_scale else 0.0,
        "zmax": gmax if hd.shared_scale else 1.0,
        "showscale": True,
        "colorbar": {
            **colorbar_below(), "lenmode": "fraction", "len": min(b.t_k / b.n_x, BAR_LEN),
            "x": 0.0, "xanchor": "left",
            # per head: a share of each head's own largest weight, which its title gives
            **({} if hd.shared_scale else {"tickvals": [0, 0.5, 1],
                                           "ticktext": ["0", "50%", "100%"]}),
        },
    }  # fmt: skip


def _range_note(hd: _Heads, h: int) -> str:
    """Per head (its colours stretched to its own range): that range after its title."""
    if hd.shared_scale:
        return ""
    w = hd.weights[h]
    top = float(np.nanmax(w)) if w.size else 1.0
    low = 0.0 if hd.zmin is None else hd.zmin
    return f" ({low:.3g}–{top:.3g})"


def _trace_axes(hd: _Heads, b: _Blocks) -> dict:
    """The layout: the trace's own axes (every token of every head for the hover, no label
    drawn) and each head's title above it."""
    x_ticks = token_axis(hd.k_tokens, numbered=hd.numbered)
    y_ticks = token_axis(hd.q_tokens, numbered=hd.numbered)
    return {
        "xaxis": {
            **x_ticks,
            "tickvals": [c * b.step_x + j for c in range(hd.cols) for j in range(b.t_k)],
            "ticktext": x_ticks["ticktext"] * hd.cols,
            "range": [-0.5, b.n_x - 0.5],
            "showticklabels": False,
            "ticks": "",
        },
        "yaxis": {
            **y_ticks,
            "tickvals": [r * b.step_y + i for r in range(hd.rows) for i in range(b.t_q)],
            "ticktext": y_ticks["ticktext"] * hd.rows,
            "range": [b.n_y - 0.5, -0.5],
            "showticklabels": False,
            "ticks": "",
            "fixedrange": True,
        },
        "annotations": [
            {
                "text": escape_label(title) + _range_note(hd, h),
                "x": (h % hd.cols) * b.step_x + (b.t_k - 1) / 2,
                "y": (h // hd.cols) * b.step_y - 0.5,
                "xref": "x",
                "yref": "y",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 13},
            }
            for h, title in enumerate(hd.titles)
        ],
    }


# Labels drawn: every k-th of a long axis, per head (thin_token_axes leaves overlays as they
# are). The trace's own axes draw them where they can (each axis drawn costs the browser a layer
# of its own, and a heads step that adds one more): the queries when no head thins them and they
# are few in all; the keys under the last row when it is full. Elsewhere an overlay axis (drawn
# because `axis_anchor` puts an empty trace on it): one beside every row, one under each other
# row of heads.


def _query_labels(hd: _Heads, b: _Blocks, data: list[dict], layout: dict) -> None:
    """The query labels at the start of each row of heads (adds to `data` and `layout`)."""
    y_show = range(0, b.t_q, label_step(b.t_q, b.head * 0.85, Y_LABEL_PX))
    if len(y_show) == b.t_q and hd.rows * b.t_q <= LABEL_ALL:
        layout["yaxis"]["showticklabels"] = True
        return
    text = layout["yaxis"]["ticktext"][: b.t_q]
    layout["yaxis2"] = {
        **_SHOWN, "tickmode": "array", "tickfont": layout["yaxis"].get("tickfont"),
        "tickvals": [r * b.step_y + i for r in range(hd.rows) for i in y_show],
        "ticktext": [text[i] for _ in range(hd.rows) for i in y_show],
        "overlaying": "y", "matches": "y", "range": [b.n_y - 0.5, -0.5], "fixedrange": True,
        "anchor": "x", "side": "left",
    }  # fmt: skip
    data.append(axis_anchor("x", "y2"))


def _axis_titles(hd: _Heads, layout: dict) -> None:
    """`q_title` on the axis that draws the query labels, `k_title` on the one that draws the
    last row's key labels (the axes' own titles: placed outside their labels, in margins that
    viz.margins reserves for them)."""
    if hd.q_title:
        y = layout["yaxis2"] if "yaxis2" in layout else layout["yaxis"]
        y["title"] = {"text": escape_label(hd.q_title)}
    if hd.k_title:
        keys = [k for k in layout if k.startswith("xaxis") and layout[k].get("overlaying")]
        last = "xaxis" if layout["xaxis"].get("showticklabels") else max(keys, key=_axis_no)
        layout[last]["title"] = {"text": escape_label(hd.k_title)}


def _axis_no(name: str) -> int:
    return int(name[5:] or 1)


def _phone_step(hd: _Heads, shown: int) -> int:
    """k: a phone draws every k-th of the `shown` key labels of a head (ui/widgets.plot), where
    they stand upright and more than a head holds there."""
    fit = max(1, int(PHONE_PLOT_PX / hd.cols * 0.9 / UPRIGHT_LABEL_PX))
    return math.ceil(shown / fit)


def _key_ticks(b: _Blocks, labels: list[str], in_row: int, show, phone_k: int):
    """A row's key labels: `show` under each of its heads. The phone style draws every k-th
    tick of a row (it counts them across the row's heads), so each head but the last is
    followed by invisible ticks (GAP_TICK) in the gap: every head starts at a k-th tick and
    shows the same tokens (the second head of a row showed the other half)."""
    pad = (-len(show)) % phone_k
    vals, text = [], []
    for c in range(in_row):
        vals += [c * b.step_x + j for j in show]
        text += [labels[j] for j in show]
        if c < in_row - 1:
            edge = c * b.step_x + b.t_k - 0.5  # the gap's left edge
            vals += [edge + b.gap_x * (i + 1) / (pad + 1) for i in range(pad)]
            text += [GAP_TICK] * pad
    return vals, text


def _key_labels(hd: _Heads, b: _Blocks, data: list[dict], layout: dict) -> None:
    """The key labels under each row of heads, only under its heads (adds to `data` and
    `layout`); upright where they do not lie flat, as `_x_label_px` counts them (left to
    plotly, long ones on a phone were slanted and ran into each other)."""
    nh, t_k = hd.weights.shape[0], b.t_k
    labels = layout["xaxis"]["ticktext"][:t_k]
    x_show = range(0, t_k, label_step(t_k, PHONE_PLOT_PX / hd.cols, X_LABEL_PX))
    x_angle = {} if _x_label_px(hd.k_tokens) <= 34 else {"tickangle": -90}
    phone_k = 1
    if x_angle:  # upright labels past what a head holds on a phone: every k-th there only
        phone_k = _phone_step(hd, len(x_show))
        layout.setdefault("meta", {})[PHONE_X_STEP] = phone_k
    rows = hd.rows
    if nh % hd.cols == 0 and len(x_show) == t_k and hd.cols * t_k <= LABEL_ALL:
        axis = layout["xaxis"]  # under the last row
        axis["showticklabels"] = True
        axis.update(x_angle)
        # (the invisible ticks lie in the gaps, which the hover never reads)
        axis["tickvals"], axis["ticktext"] = _key_ticks(b, labels, hd.cols, range(t_k), phone_k)
        rows -= 1
    for r in range(rows):
        vals, text = _key_ticks(b, labels, min(hd.cols, nh - r * hd.cols), x_show, phone_k)
        layout[f"xaxis{r + 2}"] = {
            **_SHOWN, "tickmode": "array", "tickfont": layout["xaxis"].get("tickfont"),
            "tickvals": vals, "ticktext": text,
            "overlaying": "x", "matches": "x", "range": [-0.5, b.n_x - 0.5], "side": "bottom",
            **x_angle,
            "anchor": "free",
            "position": 1.0 - (r * b.step_y + b.t_q) / b.n_y,
        }  # fmt: skip
        data.append(axis_anchor(f"x{r + 2}", "y"))


def _strip_above(strip: Strip, data: list[dict], layout: dict, grid_px: float) -> float:
    """Put `strip` above the grid of `data` / `layout` (changed here): the grid keeps its px,
    every paper-y of it (its y domain, the key rows' positions) is scaled into the lower part
    (the colour bar stays at the chart's foot). Returns the new plot height in px."""
    plot_px = grid_px + STRIP_GAP_PX + strip.px
    f = grid_px / plot_px  # the grid's share of the plot's height
    layout["yaxis"]["domain"] = [0.0, f]
    for key, axis in layout.items():
        if key.startswith("xaxis") and isinstance(axis, dict) and "position" in axis:
            axis["position"] *= f
    xs, ys = STRIP_AXES
    layout.update(strip.axes)
    layout[f"yaxis{ys[1:]}"]["domain"] = [1.0 - strip.px / plot_px, 1.0]
    layout[f"yaxis{ys[1:]}"]["anchor"] = xs
    layout[f"xaxis{xs[1:]}"]["anchor"] = ys
    layout["annotations"] = [*layout.get("annotations", []), *strip.annotations]
    data.extend({**tr, "xaxis": xs, "yaxis": ys} for tr in strip.data)
    return plot_px
