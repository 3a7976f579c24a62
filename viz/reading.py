"""Figures of the Reading heads page: the lines view (BertViz's head view in Plotly), the
query/key map (AttentionViz), share bars, token bars, a clickable layer x head importance map,
and click targets that make any layer x head mosaic selectable.

NumPy in, Plotly Figure out. Every user-derived string (tokens) goes through `escape_label`;
numbers on hover are exact (8 significant digits); colours are the Okabe-Ito set (colour-blind
safe) and Viridis; backgrounds are transparent.

Plotly reports clicks to Streamlit only on scatter points (not heatmap cells), so everything
that can be clicked here is a scatter point whose `customdata` says what it is.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .labels import escape_label, escape_labels

EXACT = ".8g"  # hover precision: float32 to the last digit
# Okabe & Ito (2008), colour-blind safe; black replaced by grey so it shows on dark themes too
OKABE_ITO = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#F0E442",  # yellow
    "#999999",  # grey
)
HEAD_COLORS = OKABE_ITO  # the lines view draws at most this many heads at once
MAX_LINE_HEADS = len(HEAD_COLORS)
CATEGORY_COLORS = {
    "cls": "#E69F00",
    "sep": "#56B4E9",
    "punct": "#009E73",
    "prev": "#0072B2",
    "next": "#D55E00",
    "self": "#CC79A7",
}
QUERY_COLOR, KEY_COLOR = "#D55E00", "#0072B2"  # vermillion queries, blue keys
SELECTED_COLOR = "#E69F00"
OPACITY_LEVELS = 20  # line opacity is the weight, rounded to 1/20 (one trace per level)
# customdata[0] of clickable points: which column of the lines view / role in the map
QUERY_SIDE, KEY_SIDE = 0, 1


def _style(fig: go.Figure, *, height: int, title: str | None = None) -> go.Figure:
    fig.update_layout(
        height=height,
        margin={"l": 10, "r": 10, "t": 60 if title else 30, "b": 10},
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        title={"text": escape_label(title)} if title else None,
    )
    return fig


def _rgba(hex_color: str, alpha: float) -> str:
    r, g, b = (int(hex_color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha:.3g})"


def _segments(pairs: list[tuple[float, float, float, float]]) -> tuple[list, list]:
    """Line segments as one trace's x, y, separated by None."""
    xs, ys = [], []
    for x0, y0, x1, y1 in pairs:
        xs += [x0, x1, None]
        ys += [y0, y1, None]
    return xs, ys


def _opacity_traces(
    weights: np.ndarray,
    ends: np.ndarray,
    color: str,
    *,
    group: str,
    name: str,
) -> list[go.Scatter]:
    """Segments `ends` (n, 4: x0, y0, x1, y1) drawn with opacity = weight (n,), one trace per
    opacity level (a trace has one colour), none hoverable."""
    levels = np.clip(np.rint(weights * OPACITY_LEVELS), 1, OPACITY_LEVELS).astype(int)
    traces = []
    for level in np.unique(levels):
        xs, ys = _segments([tuple(e) for e in ends[levels == level]])
        traces.append(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                line={"color": _rgba(color, level / OPACITY_LEVELS), "width": 2},
                hoverinfo="skip",
                legendgroup=group,
                showlegend=False,
                name=name,
            )
        )
    return traces


def _check_square(weights: np.ndarray, tokens, what: str) -> None:
    if weights.ndim != 3 or weights.shape[1] != weights.shape[2]:
        raise ValueError(f"{what} must be (heads, T, T), got shape {weights.shape}")
    if weights.shape[-1] != len(tokens):
        raise ValueError(
            f"{what} are {weights.shape[-1]} x {weights.shape[-1]} but got {len(tokens)} tokens"
        )


# --- lines view ----------------------------------------------------------------------------


def lines_view(
    weights: np.ndarray,
    tokens: Sequence[str],
    heads: Sequence[int],
    *,
    focus: tuple[int, int] | None = None,
    min_weight: float = 0.005,
    head_label: str = "head",
    value_label: str = "weight",
    query_title: str = "query",
    key_title: str = "key",
    hint: str = "click to show only this token's lines",
) -> go.Figure:
    """BertViz's head view: queries in the left column, keys in the right, a line from query i to
    key j with opacity = weight, one colour per head (at most `MAX_LINE_HEADS`).

    `weights` (H, T, T), one matrix per head in `heads` (their numbers, for the legend); NaN
    cells (hidden by a filter) and weights under `min_weight` (invisible anyway) are not drawn.
    `focus` = (QUERY_SIDE, i) draws only query i's lines, (KEY_SIDE, j) only the lines into key
    j; the tokens on the other side then give each head's exact weight on hover. Tokens are
    scatter points with customdata (side, position), so a click can select one.
    """
    w = np.asarray(weights, dtype=np.float64)
    _check_square(w, tokens, "weights")
    H, T, _ = w.shape
    if len(heads) != H:
        raise ValueError(f"{H} matrices but {len(heads)} head numbers")
    if H > MAX_LINE_HEADS:
        raise ValueError(f"the lines view draws at most {MAX_LINE_HEADS} heads, got {H}")
    if focus is not None and (focus[0] not in (QUERY_SIDE, KEY_SIDE) or not 0 <= focus[1] < T):
        raise ValueError(f"focus must be (0 or 1, a position below {T}), got {focus}")
    toks = escape_labels(tokens)
    fig = go.Figure()
    qi, kj = np.meshgrid(np.arange(T), np.arange(T), indexing="ij")  # (T, T) each
    for n, (h, color) in enumerate(zip(heads, HEAD_COLORS)):
        m = w[n]
        drawn = np.isfinite(m) & (m >= min_weight)
        if focus is not None:
            side, pos = focus
            drawn &= (qi == pos) if side == QUERY_SIDE else (kj == pos)
        name = f"{escape_label(head_label)} {h}"
        ends = np.stack([np.zeros(drawn.sum()), qi[drawn], np.ones(drawn.sum()), kj[drawn]], 1)
        fig.add_traces(_opacity_traces(m[drawn], ends, color, group=f"h{h}", name=name))
        fig.add_trace(  # the legend entry of the head (toggles all its lines)
            go.Scatter(
                x=[None],
                y=[None],
                mode="lines",
                line={"color": color, "width": 3},
                name=name,
                legendgroup=f"h{h}",
            )
        )
    value = escape_label(value_label)

    def token_hover(side: int) -> list[str]:
        word = escape_label(query_title if side == QUERY_SIDE else key_title)
        out = []
        for i, tok in enumerate(toks):
            text = f"{word} {i}: {tok}"
            if focus is not None and focus[0] != side:
                pos = focus[1]
                for n, h in enumerate(heads):
                    v = w[n, pos, i] if side == KEY_SIDE else w[n, i, pos]
                    shown = "–" if not np.isfinite(v) else format(v, EXACT)
                    text += f"<br>{escape_label(head_label)} {h}: {value} = {shown}"
            else:
                text += f"<br>{escape_label(hint)}"
            out.append(text)
        return out

    for side, x, where in ((QUERY_SIDE, 0.0, "middle left"), (KEY_SIDE, 1.0, "middle right")):
        focused = [focus is not None and focus == (side, i) for i in range(T)]
        fig.add_trace(
            go.Scatter(
                x=np.full(T, x),
                y=np.arange(T),
                mode="markers+text",
                text=toks,
                textposition=where,
                textfont={"size": 12 if T <= 32 else 10},
                marker={
                    "size": [13 if f else 8 for f in focused],
                    "color": [SELECTED_COLOR if f else "#999999" for f in focused],
                    "line": {"width": 0},
                },
                customdata=np.stack([np.full(T, side), np.arange(T)], 1),
                hovertext=token_hover(side),
                hovertemplate="%{hovertext}<extra></extra>",
                showlegend=False,
                name=escape_label(query_title if side == QUERY_SIDE else key_title),
            )
        )
    fig.update_xaxes(
        range=[-0.55, 1.55],
        tickmode="array",
        tickvals=[0, 1],
        ticktext=[escape_label(query_title), escape_label(key_title)],
        side="top",
        showgrid=False,
        zeroline=False,
        fixedrange=True,
    )
    fig.update_yaxes(
        range=[T - 0.5, -0.5], visible=False, showgrid=False, zeroline=False, fixedrange=True
    )
    fig.update_layout(
        legend={"orientation": "h", "yanchor": "top", "y": -0.01, "x": 0.5, "xanchor": "center"},
        clickmode="event+select",
        dragmode=False,
    )
    fig = _style(fig, height=max(320, 110 + (22 if T <= 32 else 16) * T))
    fig.update_layout(margin={"b": 40})  # room for the legend below
    return fig


# --- query / key map --------------------------------------------------------------------------


def query_key_figure(
    queries: np.ndarray,
    keys: np.ndarray,
    tokens: Sequence[str],
    *,
    explained: Sequence[float] = (0.0, 0.0),
    focus: int | None = None,
    weights: np.ndarray | None = None,
    query_label: str = "query",
    key_label: str = "key",
    queries_name: str = "queries",
    keys_name: str = "keys",
    value_label: str = "weight",
    axis_label: str = "PC {n} ({share:.0%} of the variance)",
    hint: str = "click to draw this query's attention",
) -> go.Figure:
    """One head's queries (T, 2) and keys (T, 2) in one plane, coloured by role, labelled by
    token. With `focus` = i and `weights` (T,) (query i's attention), lines from query i to every
    key with opacity = weight, and the exact weight on each key's hover. Query points carry
    customdata (QUERY_SIDE, i) for click selection, key points (KEY_SIDE, j)."""
    qs, ks = np.asarray(queries, dtype=np.float64), np.asarray(keys, dtype=np.float64)
    T = len(tokens)
    if qs.shape != (T, 2) or ks.shape != (T, 2):
        raise ValueError(
            f"queries and keys must be ({T}, 2) for {T} tokens, got {qs.shape} and {ks.shape}"
        )
    if focus is not None and not 0 <= focus < T:
        raise ValueError(f"focus must be a query position below {T}, got {focus}")
    row = None
    if focus is not None and weights is not None:
        row = np.asarray(weights, dtype=np.float64)
        if row.shape != (T,):
            raise ValueError(f"weights must be ({T},), got {row.shape}")
    toks = escape_labels(tokens)
    fig = go.Figure()
    if row is not None:
        drawn = np.isfinite(row) & (row > 0)
        ends = np.column_stack(
            [np.full(drawn.sum(), qs[focus, 0]), np.full(drawn.sum(), qs[focus, 1]), ks[drawn]]
        )
        fig.add_traces(_opacity_traces(row[drawn], ends, QUERY_COLOR, group="lines", name=""))
    q_word, k_word = escape_label(query_label), escape_label(key_label)
    value = escape_label(value_label)
    q_hover = [f"{q_word} {i}: {tok}<br>{escape_label(hint)}" for i, tok in enumerate(toks)]
    k_hover = []
    for j, tok in enumerate(toks):
        text = f"{k_word} {j}: {tok}"
        if row is not None:
            v = row[j]
            text += f"<br>{q_word} {focus} → {k_word} {j}: {value} = "
            text += "–" if not np.isfinite(v) else format(v, EXACT)
        k_hover.append(text)
    for side, pts, color, symbol, name, hover in (
        (QUERY_SIDE, qs, QUERY_COLOR, "circle", queries_name, q_hover),
        (KEY_SIDE, ks, KEY_COLOR, "diamond", keys_name, k_hover),
    ):
        focused = [side == QUERY_SIDE and i == focus for i in range(T)]
        fig.add_trace(
            go.Scatter(
                x=pts[:, 0],
                y=pts[:, 1],
                mode="markers+text",
                text=toks,
                textposition="top center",
                textfont={"size": 11, "color": color},
                marker={
                    "color": color,
                    "symbol": symbol,
                    "size": [15 if f else 9 for f in focused],
                    "line": {"width": [2 if f else 0 for f in focused], "color": SELECTED_COLOR},
                },
                customdata=np.stack([np.full(T, side), np.arange(T)], 1),
                hovertext=hover,
                hovertemplate="%{hovertext}<br>(%{x:.4g}, %{y:.4g})<extra></extra>",
                name=escape_label(name),
            )
        )
    fig.update_xaxes(
        title_text=escape_label(axis_label.format(n=1, share=float(explained[0]))),
        zeroline=False,
        showgrid=False,
    )
    fig.update_yaxes(
        title_text=escape_label(axis_label.format(n=2, share=float(explained[1]))),
        zeroline=False,
        showgrid=False,
        scaleanchor="x",
    )
    fig.update_layout(
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        clickmode="event+select",
    )
    return _style(fig, height=560)


# --- bars ------------------------------------------------------------------------------------


def share_bars(
    shares: np.ndarray,
    categories: Sequence[str],
    *,
    category_names: Sequence[str] | None = None,
    panel_titles: Sequence[str] = ("weights", "value norms"),
    layer_label: str = "layer",
    value_label: str = "share",
    reference: float | None = None,
    reference_label: str = "",
) -> go.Figure:
    """Per layer, the share of attention on each category, one panel per measure.

    `shares` (M, C, L): M measures (weights, value norms), C categories (ids from
    `mha_core.reading.CATEGORIES`, coloured by id), L layers. A dashed line at `reference`
    (e.g. 0.5 for "more than half"), if given."""
    s = np.asarray(shares, dtype=np.float64)
    if s.ndim != 3 or s.shape[0] != len(panel_titles) or s.shape[1] != len(categories):
        raise ValueError(
            f"shares must be ({len(panel_titles)} measures, {len(categories)} categories, "
            f"layers), got {s.shape}"
        )
    names = list(categories if category_names is None else category_names)
    M, C, L = s.shape
    fig = make_subplots(
        rows=1,
        cols=M,
        shared_yaxes=True,
        subplot_titles=escape_labels(panel_titles),
        horizontal_spacing=0.06,
    )
    layer = escape_label(layer_label)
    for m in range(M):
        for c, cat in enumerate(categories):
            name = escape_label(names[c])
            fig.add_trace(
                go.Bar(
                    x=np.arange(L),
                    y=s[m, c],
                    name=name,
                    legendgroup=cat,
                    showlegend=m == 0,
                    marker={"color": CATEGORY_COLORS.get(cat, OKABE_ITO[c % len(OKABE_ITO)])},
                    hovertemplate=(
                        f"{escape_label(panel_titles[m])}<br>{name}, {layer} %{{x}}<br>"
                        f"{escape_label(value_label)} = %{{y:{EXACT}}}<extra></extra>"
                    ),
                ),
                row=1,
                col=m + 1,
            )
        fig.update_xaxes(
            title_text=layer, tickmode="array", tickvals=list(range(L)), row=1, col=m + 1
        )
    top = float(np.nanmax(s)) if s.size and np.isfinite(s).any() else 1.0
    fig.update_yaxes(range=[0, max(top, reference or 0.0) * 1.08 or 1.0], showgrid=False)
    fig.update_yaxes(title_text=escape_label(value_label), row=1, col=1)
    if reference is not None:
        fig.add_hline(
            y=reference,
            line={"dash": "dash", "color": "#999999", "width": 1},
            annotation_text=escape_label(reference_label),
            annotation_position="top left",
        )
    fig.update_layout(barmode="group", legend={"orientation": "h", "y": -0.2})
    return _style(fig, height=380)


def token_bars(
    values: np.ndarray,
    tokens: Sequence[str],
    series: Sequence[str],
    *,
    value_label: str = "share",
    x_title: str = "input token",
    title: str | None = None,
) -> go.Figure:
    """`values` (S, T): S series over the T tokens, grouped bars; tokens as tick text at numeric
    positions (a repeated token keeps its own bar), exact value on hover."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2 or v.shape != (len(series), len(tokens)):
        raise ValueError(f"values must be ({len(series)}, {len(tokens)}), got {v.shape}")
    toks = escape_labels(tokens)
    fig = go.Figure()
    for n, name in enumerate(series):
        fig.add_trace(
            go.Bar(
                x=np.arange(len(tokens)),
                y=v[n],
                name=escape_label(name),
                marker={"color": OKABE_ITO[(n * 3) % len(OKABE_ITO)]},
                hovertext=[f"{i}: {tok}" for i, tok in enumerate(toks)],
                hovertemplate=(
                    f"{escape_label(name)}<br>%{{hovertext}}<br>"
                    f"{escape_label(value_label)} = %{{y:{EXACT}}}<extra></extra>"
                ),
            )
        )
    T = len(tokens)
    fig.update_xaxes(
        title_text=escape_label(x_title),
        tickmode="array",
        tickvals=list(range(T)),
        ticktext=toks,
        tickfont={"size": 11 if T <= 24 else 9 if T <= 48 else 7},
        range=[-0.5, T - 0.5],
        showgrid=False,
    )
    fig.update_yaxes(title_text=escape_label(value_label), rangemode="tozero", showgrid=False)
    fig.update_layout(barmode="group", legend={"orientation": "h", "yanchor": "bottom", "y": 1.02})
    return _style(fig, height=340, title=title)


# --- layer x head maps you can click ------------------------------------------------------------


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
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=np.arange(nh),
            y=np.arange(L),
            colorscale=colorscale,
            zmin=0.0,
            zmax=max(float(np.nanmax(z)), 1e-12),
            hoverinfo="skip",
            colorbar={"title": {"text": escape_label(value_label)}},
        )
    )
    layer_i, head_i = np.meshgrid(np.arange(L), np.arange(nh), indexing="ij")
    height = max(260, 80 + 44 * L)
    cell_px = (height - 80) / L
    fig.add_trace(
        go.Scatter(
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
    fig.update_xaxes(
        title_text=escape_label(head_label),
        tickmode="array",
        tickvals=list(range(nh)),
        range=[-0.5, nh - 0.5],
        side="top",
        showgrid=False,
        zeroline=False,
        fixedrange=True,
    )
    fig.update_yaxes(
        title_text=escape_label(layer_label),
        tickmode="array",
        tickvals=list(range(L)),
        range=[L - 0.5, -0.5],
        showgrid=False,
        zeroline=False,
        fixedrange=True,
    )
    if selected is not None:
        layer, h = selected
        fig.add_shape(
            type="rect",
            x0=h - 0.5,
            x1=h + 0.5,
            y0=layer - 0.5,
            y1=layer + 0.5,
            line={"color": SELECTED_COLOR, "width": 3},
        )
    fig.update_layout(clickmode="event+select", dragmode=False)
    return _style(fig, height=height)


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
        go.Scatter(
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


__all__ = [
    "CATEGORY_COLORS",
    "HEAD_COLORS",
    "KEY_SIDE",
    "MAX_LINE_HEADS",
    "QUERY_SIDE",
    "add_block_targets",
    "head_importance",
    "lines_view",
    "query_key_figure",
    "share_bars",
    "token_bars",
]
