"""Figures of the Reading heads page: the lines view (BertViz's head view in Plotly), the
query/key map (AttentionViz), share bars and token bars; the clickable layer x head maps are in
viz/head_map.py.

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

from .a11y import HEADS, heads_meta
from .figure import axis_key, cell_axes, figure, style, subplot_grid
from .labels import escape_label, escape_labels, two_lines
from .margins import MODEBAR_PX, legend_below, legend_room
from .theme import DISTINCT

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
HEAD_COLORS = DISTINCT[:8]  # the lines view draws at most this many heads at once
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
) -> list[dict]:
    """Segments `ends` (n, 4: x0, y0, x1, y1) drawn with opacity = weight (n,), one trace per
    opacity level (a trace has one colour), none hoverable."""
    levels = np.clip(np.rint(weights * OPACITY_LEVELS), 1, OPACITY_LEVELS).astype(int)
    traces = []
    for level in np.unique(levels):
        xs, ys = _segments([tuple(e) for e in ends[levels == level]])
        traces.append(
            dict(
                type="scatter",
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
    data: list[dict] = []
    qi, kj = np.meshgrid(np.arange(T), np.arange(T), indexing="ij")  # (T, T) each
    for n, (h, color) in enumerate(zip(heads, HEAD_COLORS)):
        m = w[n]
        drawn = np.isfinite(m) & (m >= min_weight)
        if focus is not None:
            side, pos = focus
            drawn &= (qi == pos) if side == QUERY_SIDE else (kj == pos)
        name = f"{escape_label(head_label)} {h}"
        ends = np.stack([np.zeros(drawn.sum()), qi[drawn], np.ones(drawn.sum()), kj[drawn]], 1)
        data += _opacity_traces(m[drawn], ends, color, group=f"h{h}", name=name)
        data.append(  # the legend entry of the head (toggles all its lines)
            dict(
                type="scatter",
                x=[None],
                y=[None],
                mode="lines",
                line={"color": color, "width": 3},
                name=name,
                legendgroup=f"h{h}",
            )
        )
    labels = {"head": head_label, "value": value_label, "hint": hint}
    titles = (query_title, key_title)
    data += [_token_column(w, toks, heads, side, focus, titles, labels) for side in (0, 1)]
    layout = _lines_layout(T, titles)
    layout = style(layout, height=max(320, 110 + (22 if T <= 32 else 16) * T))
    layout["margin"]["b"] = 40  # room for the legend below
    names = [f"{head_label} {h}" for h in heads]  # its numbers: each head's weights (viz/a11y)
    layout["meta"] = {HEADS: heads_meta(w, tokens, tokens, names, value_label, *titles)}
    return figure(data, layout)


def _lines_layout(T: int, titles) -> dict:
    """The lines view's two columns (query, key) with their names on top, tokens top down, the
    legend below, clicks selecting points."""
    return {
        "xaxis": {
            "range": [-0.55, 1.55],
            "tickmode": "array",
            "tickvals": [0, 1],
            "ticktext": [escape_label(titles[0]), escape_label(titles[1])],
            "side": "top",
            "showgrid": False,
            "zeroline": False,
            "fixedrange": True,
        },
        "yaxis": {
            "range": [T - 0.5, -0.5],
            "visible": False,
            "showgrid": False,
            "zeroline": False,
            "fixedrange": True,
        },
        "legend": {"orientation": "h", "yanchor": "top", "y": -0.01, "x": 0.5, "xanchor": "center"},
        "clickmode": "event+select",
        "dragmode": False,
    }


def _token_column(w, toks, heads, side: int, focus, titles, labels: dict) -> dict:
    """The tokens of one side of the lines view as clickable points, customdata (side, i); with
    a focus on the other side, each head's exact weight between the two on hover."""
    T = len(toks)
    word = escape_label(titles[side])
    head, value = escape_label(labels["head"]), escape_label(labels["value"])
    hover = []
    for i, tok in enumerate(toks):
        text = f"{word} {i}: {tok}"
        if focus is not None and focus[0] != side:
            pos = focus[1]
            for n, h in enumerate(heads):
                v = w[n, pos, i] if side == KEY_SIDE else w[n, i, pos]
                shown = "–" if not np.isfinite(v) else format(v, EXACT)
                text += f"<br>{head} {h}: {value} = {shown}"
        else:
            text += f"<br>{escape_label(labels['hint'])}"
        hover.append(text)
    focused = [focus is not None and focus == (side, i) for i in range(T)]
    return {
        "type": "scatter",
        "x": np.full(T, 0.0 if side == QUERY_SIDE else 1.0),
        "y": np.arange(T),
        "mode": "markers+text",
        "text": toks,
        "textposition": "middle left" if side == QUERY_SIDE else "middle right",
        "textfont": {"size": 12 if T <= 32 else 10},
        "marker": {
            "size": [13 if f else 8 for f in focused],
            "color": [SELECTED_COLOR if f else "#999999" for f in focused],
            "line": {"width": 0},
        },
        "customdata": np.stack([np.full(T, side), np.arange(T)], 1),
        "hovertext": hover,
        "hovertemplate": "%{hovertext}<extra></extra>",
        "showlegend": False,
        "name": word,
    }


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
    data: list[dict] = []
    if row is not None:
        drawn = np.isfinite(row) & (row > 0)
        ends = np.column_stack(
            [np.full(drawn.sum(), qs[focus, 0]), np.full(drawn.sum(), qs[focus, 1]), ks[drawn]]
        )
        data += _opacity_traces(row[drawn], ends, QUERY_COLOR, group="lines", name="")
    q_hover, k_hover = _qk_hovers(toks, row, focus, (query_label, key_label, value_label, hint))
    for side, pts, color, symbol, name, hover in (
        (QUERY_SIDE, qs, QUERY_COLOR, "circle", queries_name, q_hover),
        (KEY_SIDE, ks, KEY_COLOR, "diamond", keys_name, k_hover),
    ):
        focused = [side == QUERY_SIDE and i == focus for i in range(T)]
        data.append(
            dict(
                type="scatter",
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
    pc = [
        {"text": escape_label(axis_label.format(n=n + 1, share=float(explained[n])))}
        for n in (0, 1)
    ]
    layout = {
        "xaxis": {"title": pc[0], "zeroline": False, "showgrid": False},
        "yaxis": {"title": pc[1], "zeroline": False, "showgrid": False, "scaleanchor": "x"},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        "clickmode": "event+select",
    }
    # the legend above the plot, below the toolbar (on a phone it sat under the toolbar)
    return figure(data, style(layout, height=560, top=MODEBAR_PX + 30))


def _qk_hovers(toks, row, focus, labels) -> tuple[list[str], list[str]]:
    """Hover of the query points (the click hint) and of the key points (with a focused query,
    its exact weight on each key)."""
    query_label, key_label, value_label, hint = labels
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
    return q_hover, k_hover


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
    # two lines past a few words: side by side on a phone the two titles ran together
    titles = [two_lines(x) for x in escape_labels(panel_titles)]
    layout = subplot_grid(1, M, titles=titles, horizontal_spacing=0.06)
    layer = escape_label(layer_label)
    top = float(np.nanmax(s)) if s.size and np.isfinite(s).any() else 1.0
    y_range = [0, max(top, reference or 0.0) * 1.08 or 1.0]
    data, shapes = [], []
    for m in range(M):
        for c, cat in enumerate(categories):
            name = escape_label(names[c])
            data.append(
                {
                    "type": "bar",
                    "x": np.arange(L),
                    "y": s[m, c],
                    "name": name,
                    "legendgroup": cat,
                    "showlegend": m == 0,
                    "marker": {"color": CATEGORY_COLORS.get(cat, OKABE_ITO[c % len(OKABE_ITO)])},
                    "hovertemplate": (
                        f"{escape_label(panel_titles[m])}<br>{name}, {layer} %{{x}}<br>"
                        f"{escape_label(value_label)} = %{{y:{EXACT}}}<extra></extra>"
                    ),
                    **cell_axes(m),
                }
            )
        ticks = {"tickmode": "array", "tickvals": list(range(L))}
        layout[axis_key(m + 1)].update(title={"text": layer}, **ticks)
        y_axis = layout[axis_key(m + 1, "y")]
        if m:  # the panels share the y axis (make_subplots' shared_yaxes)
            y_axis.update(matches="y", showticklabels=False)
        y_axis.update(range=y_range, showgrid=False)
        if reference is not None:
            refs = {"xref": f"{cell_axes(m)['xaxis']} domain", "yref": cell_axes(m)["yaxis"]}
            line = {"color": "#999999", "dash": "dash", "width": 1}
            shapes.append(
                {"line": line, "type": "line", "x0": 0, "x1": 1, **refs}
                | {"y0": reference, "y1": reference}
            )
            layout.setdefault("annotations", []).append(
                {"showarrow": False, "text": escape_label(reference_label), "x": 0, **refs}
                | {"xanchor": "left", "y": reference, "yanchor": "bottom"}
            )
    layout["yaxis"]["title"] = {"text": escape_label(value_label)}
    layout.update(shapes=shapes or None, barmode="group", legend=legend_below())
    fig = style(layout, height=380)
    fig["margin"]["b"] = legend_room(names)  # the x labels, "layer" and the legend's rows
    return figure(data, fig)


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
    data = [
        {
            "type": "bar",
            "x": np.arange(len(tokens)),
            "y": v[n],
            "name": escape_label(name),
            "marker": {"color": OKABE_ITO[(n * 3) % len(OKABE_ITO)]},
            "hovertext": [f"{i}: {tok}" for i, tok in enumerate(toks)],
            "hovertemplate": (
                f"{escape_label(name)}<br>%{{hovertext}}<br>"
                f"{escape_label(value_label)} = %{{y:{EXACT}}}<extra></extra>"
            ),
        }
        for n, name in enumerate(series)
    ]
    T = len(tokens)
    layout = {
        "xaxis": {
            "title": {"text": escape_label(x_title)},
            "tickmode": "array",
            "tickvals": list(range(T)),
            "ticktext": toks,
            "tickfont": {"size": 11 if T <= 24 else 9 if T <= 48 else 7},
            "range": [-0.5, T - 0.5],
            "showgrid": False,
        },
        "yaxis": {
            "title": {"text": escape_label(value_label)},
            "rangemode": "tozero",
            "showgrid": False,
        },
        "barmode": "group",
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02},
    }
    return figure(data, style(layout, height=340, title=title))


__all__ = [
    "CATEGORY_COLORS",
    "HEAD_COLORS",
    "KEY_SIDE",
    "MAX_LINE_HEADS",
    "QUERY_SIDE",
    "lines_view",
    "query_key_figure",
    "share_bars",
    "token_bars",
]
