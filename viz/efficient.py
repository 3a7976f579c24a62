"""Figures of the Efficient attention page: numpy in, plotly Figure out.

Every user-derived string (tokens, and the labels the page passes in) is escaped here.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from .axes import PHONE_PLOT_PX, token_axis
from .figure import figure, named_colorscale, style
from .heads import STRIP_AXES, Strip, head_grid
from .heatmap import heatmap_trace
from .labels import check_lengths, escape_label
from .lines import line_layout, line_trace
from .positional import QUALITATIVE
from .theme import DEFAULT_PALETTE, DISTINCT, DIVERGING

_PLAIN_AXIS = {"showgrid": False, "zeroline": False}
_MASK_SCALE = [[0.0, "rgba(128,128,128,0.12)"], [1.0, "#0072B2"]]


def grouped_heads(
    weights: np.ndarray,
    tokens,
    kv_head: list[int] | tuple[int, ...],
    *,
    titles: list[str],
    query_label: str = "query heads",
    kv_label: str = "key/value heads",
    value_label: str = "weight",
    colorscale: str = DEFAULT_PALETTE,
    q_title: str = "query",
    k_title: str = "key",
) -> go.Figure:
    """Grouped-query attention in one chart: above, the query heads (top row) joined to the
    key/value head each reads (bottom row), each group its own colour and fill (`group_marks`);
    below, every head's weights (nh, T, T) as `head_grid` draws them (its axes titled
    `q_title`, `k_title`)."""
    strip = _kv_strip(kv_head, escape_label(query_label), escape_label(kv_label))
    return head_grid(
        weights, tokens, titles=titles, value_label=value_label, colorscale=colorscale,
        above=strip, q_title=q_title, k_title=k_title,
    )  # fmt: skip


# The strip is drawn with every heads step: its lines are one trace and its nodes carry no
# numbers (the hover names each node, every head's title says its key/value head): plotly
# measures every text it draws (README, "Where a rerun's time goes").
LINK_COLOR = "rgba(128,128,128,0.55)"  # grey that reads on light and dark backgrounds
_NODE_GAP_PX = 3


def _kv_strip(kv_head, q_t: str, kv_t: str, px: int = 130) -> Strip:
    """The query heads -> key/value heads diagram, as a strip above the grid."""
    kv_head = [int(g) for g in kv_head]
    nh, n_kv = len(kv_head), max(kv_head) + 1 if kv_head else 0
    span = max(nh - 1, 1)
    kv_x = [(g + 0.5) * nh / max(n_kv, 1) - 0.5 for g in range(n_kv)]  # centred under groups
    link_x, link_y = [], []
    for h, g in enumerate(kv_head):  # query head h -> its key/value head g; None: a break
        link_x += [h, kv_x[g], None]
        link_y += [1, 0, None]
    links = {
        "type": "scatter", "x": link_x, "y": link_y, "mode": "lines",
        "line": {"color": LINK_COLOR, "width": 2}, "hoverinfo": "skip", "showlegend": False,
    }  # fmt: skip
    # nodes as big as fits a phone's plot width with a gap (16 query heads overlapped there)
    per_head = PHONE_PLOT_PX / (span + 1.4)  # px between two query heads on a phone
    q_px = int(np.clip(per_head - _NODE_GAP_PX, 6, 14))
    kv_px = int(np.clip(per_head * nh / max(n_kv, 1) - _NODE_GAP_PX, 6, 18))
    data = [
        links,
        _nodes(list(range(nh)), 1, kv_head, f"{q_t} %{{text}}<extra></extra>", "circle", q_px),
        _nodes(kv_x, 0, list(range(n_kv)), f"{kv_t} %{{text}}<extra></extra>", "square", kv_px),
    ]
    xs, ys = STRIP_AXES
    axes = {
        f"xaxis{xs[1:]}": {"visible": False, "range": [-0.7, span + 0.7], "fixedrange": True},
        f"yaxis{ys[1:]}": {"visible": False, "range": [-0.75, 1.75], "fixedrange": True},
    }
    # the rows' names at the left, above the query heads and below the key/value heads
    names = [
        {"text": text, "xref": "paper", "x": 0.0, "xanchor": "left", "yref": ys, "y": y,
         "yanchor": anchor, "showarrow": False, "font": {"size": 12}}
        for text, y, anchor in ((q_t, 1.75, "top"), (kv_t, -0.75, "bottom"))
    ]  # fmt: skip
    return Strip(data, axes, px, tuple(names))


# A group's fill past the palette's colours: the first len(DISTINCT) groups filled, the next
# ones hollow, then hollow with a dot. Issue #42: with more key/value heads than colours (up to
# MAX_HEADS = 16 against 9) KV head 9 had KV head 0's colour again; a (colour, fill) pair is
# each group's own up to len(DISTINCT) * len(GROUP_FILLS) groups.
GROUP_FILLS = ("", "-open", "-open-dot")
_OPEN_LINE_PX = 2.5  # a hollow mark's outline


def group_marks(groups, symbol: str) -> tuple[list[str], list[str]]:
    """The colour and the plotly marker symbol (`symbol` filled or hollow) of each group."""
    n = len(DISTINCT)
    if any(int(g) >= n * len(GROUP_FILLS) for g in groups):
        raise ValueError(f"at most {n * len(GROUP_FILLS)} key/value groups can be told apart")
    colours = [DISTINCT[int(g) % n] for g in groups]
    return colours, [symbol + GROUP_FILLS[int(g) // n] for g in groups]


def _nodes(x, y: float, groups, hover: str, symbol: str, size: int) -> dict:
    labels = [str(i) for i in range(len(x))]
    colours, symbols = group_marks(groups, symbol)
    return {
        "type": "scatter",
        "x": np.asarray(x, dtype=np.float64),
        "y": np.full(len(x), float(y)),
        "mode": "markers",
        "text": labels,  # for the hover
        "marker": {
            "size": size,
            "symbol": symbols if len(set(symbols)) > 1 else symbol,
            "color": colours,
            # hollow marks are drawn in their colour, as an outline (filled ones have none: it
            # would close the gap between the nodes)
            "line": {"width": [_OPEN_LINE_PX if "open" in s else 0 for s in symbols],
                     "color": colours},
        },
        "hovertemplate": hover,
        "showlegend": False,
    }


def cache_step(
    weights: np.ndarray,
    tokens,
    *,
    head_label: str = "head",
    value_label: str = "weight",
    title: str | None = None,
) -> go.Figure:
    """The new token's weights over the cache: one row per head (nh, t+1), cached tokens on x."""
    weights = np.asarray(weights, dtype=np.float32)
    nh = weights.shape[0]
    heads = [f"{head_label} {h}" for h in range(nh)]
    check_lengths(weights.shape, heads, tokens)
    hover = f"%{{y}}<br>%{{x}}<br>{escape_label(value_label)} = %{{z:.8g}}<extra></extra>"
    trace = {
        "type": "heatmap",
        "z": weights,
        "x": np.arange(weights.shape[1]),
        "y": np.arange(nh),
        "colorscale": named_colorscale(DEFAULT_PALETTE),
        "zmin": 0.0,
        "zmax": 1.0,
        "hovertemplate": hover,
    }
    layout = {"xaxis": token_axis(tokens), "yaxis": token_axis(heads, reverse=True)}
    return figure([trace], style(layout, height=max(200, 90 + 28 * nh), title=title))


def curves(
    x,
    ys: list[np.ndarray],
    *,
    names: list[str],
    x_title: str,
    y_title: str | None = None,
    log_y: bool = False,
    log_x: bool = False,
    integer_x: bool = False,
    dashes: list[str | None] | None = None,
    height: int = 340,
    fmt: str = ".6g",
) -> go.Figure:
    """A few curves over the same x (cache bytes over steps, reach over layers, memory over T,
    m and l over tiles)."""
    if len(ys) != len(names):
        raise ValueError(f"{len(ys)} curves but {len(names)} names")
    x = np.asarray(x)
    dashes = dashes or [None] * len(ys)
    x_t = escape_label(x_title)
    data = [
        line_trace(
            x,
            y,
            name=name,
            color=QUALITATIVE[i % len(QUALITATIVE)],
            dash=dashes[i],
            markers=len(x) <= 64,
            marker_size=6,
            hovertemplate=f"{escape_label(name)}<br>{x_t} %{{x}}<br>%{{y:{fmt}}}<extra></extra>",
        )
        for i, (y, name) in enumerate(zip(ys, names))
    ]
    yaxis = {"type": "log"} if log_y else {}
    xaxis = {"type": "log"} if log_x else {}
    if integer_x and not log_x:  # whole steps only: with "d" alone, 0.5 printed as a second "0"
        span = float(x.max() - x.min()) if x.size else 1.0
        xaxis = {"tickformat": "d", "tickmode": "linear", "tick0": 0,
                 "dtick": max(1, math.ceil(span / 10))}  # fmt: skip
    layout = line_layout(
        x_title=x_title, y_title=y_title, height=height, xaxis=xaxis, yaxis=yaxis,
        hovermode="closest",
    )
    return figure(data, layout)


def _token_matrix(
    matrix: np.ndarray,
    tokens,
    *,
    colorscale,
    zmin: float,
    zmax: float,
    value_label: str,
    fmt: str,
    title: str | None,
    x_title: str = "key",
    y_title: str = "query",
    shapes: list[dict] | None = None,
) -> go.Figure:
    """A (T, T) matrix with the tokens on both axes (as attention_heatmap), any colour scale,
    optional shapes drawn over it."""
    trace = heatmap_trace(
        matrix, tokens, tokens, zmin=zmin, zmax=zmax, value_label=value_label, fmt=fmt
    )
    trace.update(colorscale=colorscale, showscale=colorscale != _MASK_SCALE)
    layout = {
        "xaxis": {"title": {"text": escape_label(x_title)}, **token_axis(tokens)},
        "yaxis": {"title": {"text": escape_label(y_title)}, **token_axis(tokens, reverse=True)},
        "shapes": shapes,
    }
    side = max(320, min(720, 60 + 22 * len(tokens)))
    return figure([trace], style(layout, height=side, title=title))


def mask_matrix(
    mask: np.ndarray,
    tokens,
    *,
    title: str | None = None,
    value_label: str = "visible",
    x_title: str = "key",
    y_title: str = "query",
) -> go.Figure:
    """A (T, T) boolean mask: blue where the query may look (1), grey where not (0)."""
    return _token_matrix(
        np.asarray(mask, dtype=np.float32), tokens, colorscale=_MASK_SCALE, zmin=0.0, zmax=1.0,
        value_label=value_label, fmt=".0f", title=title, x_title=x_title, y_title=y_title,
    )  # fmt: skip


def tiled_scores(
    scores: np.ndarray,
    tokens,
    *,
    block_size: int,
    row: int,
    tile: int,
    key_ranges: list[tuple[int, int]] | tuple[tuple[int, int], ...],
    title: str | None = None,
    value_label: str = "score",
) -> go.Figure:
    """One head's scaled scores with the block grid drawn over them; the tiles of the chosen
    query row's block outlined, the current one thick, the query row dotted. Masked scores
    (-inf) are left blank."""
    scores = np.asarray(scores, dtype=np.float32)
    t = scores.shape[0]
    check_lengths(scores.shape, tokens, tokens)
    finite = np.where(np.isfinite(scores), scores, np.nan)
    zmax = float(np.nanmax(np.abs(finite))) if np.isfinite(finite).any() else 1.0
    shapes = [_line(b - 0.5, -0.5, b - 0.5, t - 0.5) for b in range(block_size, t, block_size)]
    shapes += [_line(-0.5, b - 0.5, t - 0.5, b - 0.5) for b in range(block_size, t, block_size)]
    q0 = row // block_size * block_size
    q1 = min(q0 + block_size, t)
    for s, (k0, k1) in enumerate(key_ranges):
        shapes.append(_box(k0 - 0.5, k1 - 0.5, q0 - 0.5, q1 - 0.5, 4 if s == tile else 1.5))
    shapes.append(_box(-0.5, t - 0.5, row - 0.5, row + 0.5, 1, dash="dot"))
    return _token_matrix(
        finite, tokens, colorscale=named_colorscale(DIVERGING), zmin=-zmax, zmax=zmax,
        value_label=value_label, fmt=".6g", title=title, shapes=shapes,
    )  # fmt: skip


def _line(x0, y0, x1, y1) -> dict:
    return {
        "type": "line", "x0": x0, "y0": y0, "x1": x1, "y1": y1,
        "line": {"color": "rgba(128,128,128,0.7)", "width": 1},
    }  # fmt: skip


def _box(x0, x1, y0, y1, width: float, dash: str | None = None) -> dict:
    line = {"color": "#E69F00", "width": width}
    if dash:
        line["dash"] = dash
    return {"type": "rect", "x0": x0, "x1": x1, "y0": y0, "y1": y1, "line": line}


def partial_outputs(
    partial: np.ndarray,
    final: np.ndarray,
    *,
    row_labels: list[str],
    final_label: str = "plain",
    x_title: str = "dimension",
    value_label: str = "value",
    title: str | None = None,
) -> go.Figure:
    """The row's partial output after each tile (S, hs) above the plain computation's row."""
    z = np.vstack([np.asarray(partial, np.float32), np.asarray(final, np.float32)[None]])
    labels = [*row_labels, final_label]
    if len(labels) != z.shape[0]:
        raise ValueError(f"{z.shape[0]} rows but {len(labels)} labels")
    zmax = float(np.abs(z).max()) if z.size else 1.0
    hover = (
        f"%{{y}}<br>{escape_label(x_title)} %{{x}}<br>{escape_label(value_label)} = "
        "%{z:.8g}<extra></extra>"
    )
    trace = {
        "type": "heatmap",
        "z": z,
        "x": np.arange(z.shape[1]),
        "y": np.arange(z.shape[0]),
        "colorscale": named_colorscale(DIVERGING),
        "zmin": -zmax or -1.0,
        "zmax": zmax or 1.0,
        "hovertemplate": hover,
    }
    layout = {
        "xaxis": {"title": {"text": escape_label(x_title)}, **_PLAIN_AXIS},
        "yaxis": token_axis(labels, reverse=True),
    }
    return figure([trace], style(layout, height=max(220, 90 + 26 * len(labels)), title=title))


__all__ = [
    "DEFAULT_PALETTE",
    "cache_step",
    "curves",
    "grouped_heads",
    "mask_matrix",
    "partial_outputs",
    "tiled_scores",
]
