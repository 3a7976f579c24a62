"""Figures of the encoder-decoder page: numpy in, plotly Figure out.

- `block_diagram` (viz/diagram.py, re-exported here): one encoder and one decoder block.
- `padding_mask_figure`: a batch of sentences padded to one length, the padding cells marked.
- `normalised_matrix`: a tokens x features matrix with, beside the axis a norm works along,
  the mean and standard deviation of every row (LayerNorm) or every column (BatchNorm).

User text (tokens) is escaped (only & < >) before it reaches a figure; every caller-given
label is escaped too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .diagram import DIAGRAM_LABELS, HIGHLIGHT_LINE, block_diagram, block_layout
from .figure import figure, named_colorscale, style
from .labels import escape_label, escape_labels
from .matrix import CELL_FMT

EXACT = ".8g"
MINUS_INF = "−∞"
DIVERGING = "RdBu_r"
PAD_COLOURS = [[0.0, "#cfe3f3"], [1.0, "#555555"]]  # real token: light blue; padding: dark grey


def padding_mask_figure(
    sentences: Sequence[Sequence[str]],
    *,
    row_labels: Sequence[str],
    pad_label: str = "[PAD]",
    title: str | None = None,
    col_title: str = "position",
    value_label: str = "padding",
) -> go.Figure:
    """The batch as a (B, P) grid: each cell shows its token, or `pad_label` where the sentence
    has ended; colour (and value on hover) 1 = padding (masked), 0 = a real token."""
    if not sentences or any(len(s) == 0 for s in sentences):
        raise ValueError("every sentence of the batch needs at least one token")
    if len(row_labels) != len(sentences):
        raise ValueError(f"{len(sentences)} sentences but {len(row_labels)} row labels")
    B, P = len(sentences), max(len(s) for s in sentences)
    z = np.ones((B, P), dtype=np.float32)
    text = np.full((B, P), escape_label(pad_label), dtype=object)
    for b, sent in enumerate(sentences):
        z[b, : len(sent)] = 0.0
        text[b, : len(sent)] = escape_labels(sent)
    trace = {
        "type": "heatmap",
        "z": z,
        "x": np.arange(P),
        "y": np.arange(B),
        "text": text.tolist(),
        "texttemplate": "%{text}",
        "textfont": {"size": 11 if P <= 12 else 9 if P <= 24 else 7},
        "colorscale": PAD_COLOURS,
        "zmin": 0.0,
        "zmax": 1.0,
        "showscale": False,
        "xgap": 2,
        "ygap": 2,
        "hovertemplate": f"%{{y}}<br>{escape_label(col_title)} %{{x}}: %{{text}}<br>"
        f"{escape_label(value_label)} = %{{z}}<extra></extra>",
    }
    layout = {
        "xaxis": {
            "title": {"text": escape_label(col_title)},
            "range": [-0.5, P - 0.5],
            "showgrid": False,
            "zeroline": False,
            "tickmode": "linear" if P <= 24 else "auto",
            "tick0": 0,
            "dtick": 1,
        },
        "yaxis": {
            "tickmode": "array",
            "tickvals": list(range(B)),
            "ticktext": escape_labels(row_labels),
            "range": [B - 0.5, -0.5],
            "showgrid": False,
            "zeroline": False,
            "automargin": True,
        },
    }
    return figure([trace], style(layout, height=90 + 48 * B, title=title, top=50 if title else 10))


def mask_figure(
    allowed: np.ndarray,
    q_tokens: Sequence[str],
    k_tokens: Sequence[str] | None = None,
    *,
    title: str | None = None,
    x_title: str = "key",
    y_title: str = "query",
    value_label: str = "added to the score",
    height: int | None = None,
) -> go.Figure:
    """An attention mask (Tq, Tk) as what it adds to the scores: 0 where a query may attend
    (light), −∞ where it may not (dark); the value is printed in small masks and on hover."""
    a = np.asarray(allowed, dtype=bool)
    if a.ndim != 2:
        raise ValueError(f"allowed must be (Tq, Tk), got shape {a.shape}")
    k_tokens = q_tokens if k_tokens is None else k_tokens
    t_q, t_k = a.shape
    if len(q_tokens) != t_q or len(k_tokens) != t_k:
        raise ValueError(f"mask is {t_q} x {t_k} but got {len(q_tokens)} x {len(k_tokens)} labels")
    text = np.where(a, "0", MINUS_INF).tolist()
    kw = {"texttemplate": "%{text}", "textfont": {"size": 10}} if max(t_q, t_k) <= 16 else {}
    trace = {
        "type": "heatmap",
        "z": (~a).astype(np.float32),
        "x": np.arange(t_k),
        "y": np.arange(t_q),
        "text": text,
        "colorscale": PAD_COLOURS,
        "zmin": 0.0,
        "zmax": 1.0,
        "showscale": False,
        "xgap": 1,
        "ygap": 1,
        "hovertemplate": f"{escape_label(y_title)} %{{y}}<br>{escape_label(x_title)} %{{x}}<br>"
        f"{escape_label(value_label)}: %{{text}}<extra></extra>",
        **kw,
    }
    size = 11 if max(t_q, t_k) <= 24 else 7
    layout = {}
    for key, tokens, n, rng in (
        ("xaxis", k_tokens, t_k, [-0.5, t_k - 0.5]),
        ("yaxis", q_tokens, t_q, [t_q - 0.5, -0.5]),
    ):
        layout[key] = {
            "tickmode": "array",
            "tickvals": list(range(n)),
            "ticktext": escape_labels(tokens),
            "tickfont": {"size": size},
            "range": rng,
            "showgrid": False,
            "zeroline": False,
            "automargin": True,
        }
    layout["xaxis"]["title"] = {"text": escape_label(x_title)}
    layout["yaxis"].update(
        title={"text": escape_label(y_title)}, scaleanchor="x", constrain="domain"
    )
    auto_h = max(300, min(560, 150 + 34 * t_q))  # cells big enough to print "−∞" in
    return figure(
        [trace], style(layout, height=height or auto_h, title=title, top=50 if title else 10)
    )


def _checked_matrix(values, row_labels, axis, mean, std):
    """normalised_matrix's inputs checked: the matrix and its statistics as float64, and how
    many statistics each row holds (N for axis="rows", C for "cols", None for no axis)."""
    m = np.asarray(values, dtype=np.float64)
    if m.ndim != 2:
        raise ValueError(f"values must be (tokens, features), got shape {m.shape}")
    N, C = m.shape
    if len(row_labels) != N:
        raise ValueError(f"{N} rows but {len(row_labels)} row labels")
    if axis not in ("rows", "cols", None):
        raise ValueError(f"axis must be 'rows', 'cols' or None, got {axis!r}")
    n_stats = {"rows": N, "cols": C, None: None}[axis]
    if axis is not None:
        mean, std = np.asarray(mean, dtype=np.float64), np.asarray(std, dtype=np.float64)
        if mean.shape != (n_stats,) or std.shape != (n_stats,):
            raise ValueError(f"mean and std must have shape ({n_stats},) for axis={axis!r}")
    return m, mean, std, n_stats


def normalised_matrix(
    values: np.ndarray,
    row_labels: Sequence[str],
    *,
    axis: str | None,
    mean: np.ndarray | None = None,
    std: np.ndarray | None = None,
    title: str | None = None,
    axis_note: str = "",
    row_title: str = "token",
    col_title: str = "feature",
    value_label: str = "value",
    stat_labels: tuple[str, str] = ("mean", "std"),
    height: int | None = None,
) -> go.Figure:
    """A (N, C) tokens x features matrix (diverging palette centred on 0).

    axis="rows": each row was normalised over its features (LayerNorm): `mean` and `std` (N,)
    are drawn as two columns to the right, and an arrow along the top spans the features.
    axis="cols": each column was normalised over the tokens (BatchNorm): `mean` and `std` (C,)
    are drawn as two rows below, and an arrow down the left side spans the tokens.
    axis=None: the matrix alone. `axis_note` labels the arrow.
    """
    m, mean, std, n_stats = _checked_matrix(values, row_labels, axis, mean, std)
    N, C = m.shape

    bound = float(np.max(np.abs(m))) if m.size else 1.0
    bound = bound or 1.0
    rt, ct, vl = escape_label(row_title), escape_label(col_title), escape_label(value_label)
    ticks = {
        "tickmode": "array",
        "tickvals": list(range(N)),
        "ticktext": escape_labels(row_labels),
        "tickfont": {"size": 11 if N <= 24 else 9 if N <= 48 else 7},
        "automargin": True,
    }
    main = {
        "type": "heatmap",
        "z": m.astype(np.float32),
        "x": np.arange(C),
        "y": np.arange(N),
        "colorscale": named_colorscale(DIVERGING),
        "zmin": -bound,
        "zmax": bound,
        "zmid": 0.0,
        "customdata": np.broadcast_to(np.arange(N, dtype=np.int16)[:, None], (N, C)).copy(),
        "hovertemplate": f"{rt} %{{customdata}}: %{{y}}<br>{ct} %{{x}}<br>{vl} = %{{z:{EXACT}}}"
        "<extra></extra>",
        "colorbar": {"thickness": 12, "x": 1.02},
    }
    cell = 22 if N <= 12 else 16 if N <= 32 else 10
    auto_h = max(260, min(900, 130 + cell * N))
    y_main = {"range": [N - 0.5, -0.5], "showgrid": False, **ticks, "title": {"text": rt}}
    x_main = {"title": {"text": ct}, "range": [-0.5, C - 0.5], "showgrid": False}
    if axis is None:
        data, layout = [main], {"xaxis": {**x_main, "zeroline": False}, "yaxis": y_main}
    else:
        names = escape_labels(stat_labels)
        if axis == "rows":  # two columns of N printed values beside the matrix
            side = [_stat_trace(np.stack([mean, std], axis=1), names, rt, axis, n_stats)]
        else:  # C values each: two curves under the matrix (64 grey cells could not be read)
            side = _stat_curves(mean, std, names, ct)
        data = [{**main, "xaxis": "x", "yaxis": "y"}, *({**tr, "xaxis": "x2", "yaxis": "y2"}
                                                        for tr in side)]  # fmt: skip
        layout = _stats_beside(axis, x_main, y_main, names)
        layout["annotations"] = _axis_arrow("x" if axis == "rows" else "y", axis_note)
        if axis == "cols":
            layout["annotations"] += _curve_labels(mean, std, names)
        auto_h += 130 if axis == "cols" else 0
    return figure(
        data, style(layout, height=height or auto_h, title=title, top=80 if title else 40)
    )


def _stats_beside(axis: str, x_main: dict, y_main: dict, names: list[str]) -> dict:
    """The two panels of `normalised_matrix` as make_subplots laid them out: the statistics in a
    column right of the matrix (axis="rows", sharing its y axis) or in a row below it (axis="cols",
    sharing its x axis)."""
    stat_ticks = {"tickmode": "array", "tickvals": [0, 1], "ticktext": names}
    if axis == "rows":  # a third of the width: two columns of printed "0.000" / "1.000"
        hs = 0.02
        w0, w1 = ((1.0 - hs) * (w / 1.0) for w in (0.68, 0.32))
        return {
            "xaxis": {"anchor": "y", "domain": [0.0, w0], **x_main},
            "yaxis": {"anchor": "x", "domain": [0.0, 1.0], **y_main},
            "xaxis2": {"anchor": "y2", "domain": [w0 + hs, 1.0], **stat_ticks, "tickangle": 0},
            "yaxis2": {
                "anchor": "x2",
                "domain": [0.0, 1.0],
                "matches": "y",
                "showticklabels": False,
            },
        }
    vs = 0.05
    h0, h1 = ((1.0 - vs) * (h / 1.0) for h in (0.7, 0.3))
    return {
        "xaxis": {"anchor": "y", "domain": [0.0, 1.0], "matches": "x2", "showticklabels": False},
        "yaxis": {"anchor": "x", "domain": [h1 + vs, 1.0], **y_main},
        "xaxis2": {"anchor": "y2", "domain": [0.0, 1.0], **x_main},
        "yaxis2": {"anchor": "x2", "domain": [0.0, h1], "tickmode": "array", "tickvals": [0, 1],
                   "range": [-0.35, 1.35], "showgrid": True, "zeroline": False},
    }  # fmt: skip


_MEAN_COLOUR, _STD_COLOUR = "#0072B2", "#D55E00"  # Okabe-Ito blue and vermillion


def _stat_curves(mean: np.ndarray, std: np.ndarray, names: list[str], who: str) -> list[dict]:
    """BatchNorm's mean and std of every feature as two curves on one axis (0 and 1 ticked):
    a flat line at 0 and one at 1 read at a glance, exact values on hover."""
    x = np.arange(len(mean))
    return [
        {
            "type": "scatter",
            "x": x,
            "y": v.astype(np.float64),
            "mode": "lines+markers",
            "marker": {"size": 4, "color": colour},
            "line": {"color": colour, "width": 1.5},
            "name": name,
            "showlegend": False,
            "hovertemplate": f"{who} %{{x}}<br>{name} = %{{y:{EXACT}}}<extra></extra>",
        }
        for v, name, colour in ((mean, names[0], _MEAN_COLOUR), (std, names[1], _STD_COLOUR))
    ]


def _curve_labels(mean: np.ndarray, std: np.ndarray, names: list[str]) -> list[dict]:
    """Each curve's name in its colour, at its start (above the line: no legend to look up)."""
    return [
        {"text": name, "x": 0, "y": float(v[0]) if len(v) else 0.0, "xref": "x2", "yref": "y2",
         "xanchor": "left", "yanchor": "bottom", "yshift": 3, "showarrow": False,
         "font": {"color": colour, "size": 12}}
        for v, name, colour in ((mean, names[0], _MEAN_COLOUR), (std, names[1], _STD_COLOUR))
    ]  # fmt: skip


def _stat_trace(stats: np.ndarray, names: list[str], who: str, axis: str, n: int) -> dict:
    """The mean and std strip: its own colour scale (grey), exact values on hover and, when
    there is room, printed in the cells."""
    if axis == "rows":  # (N, 2): row i = token i
        custom = np.broadcast_to(np.arange(n, dtype=np.int16)[:, None], stats.shape).copy()
        names_grid = np.broadcast_to(np.asarray(names, dtype=object)[None, :], stats.shape)
        hover = f"{who} %{{customdata}}: %{{y}}<br>%{{text}} = %{{z:{EXACT}}}<extra></extra>"
        printed = n <= 40
    else:  # (2, C): column c = feature c
        custom = np.broadcast_to(np.arange(n, dtype=np.int16)[None, :], stats.shape).copy()
        names_grid = np.broadcast_to(np.asarray(names, dtype=object)[:, None], stats.shape)
        hover = f"{who} %{{customdata}}<br>%{{text}} = %{{z:{EXACT}}}<extra></extra>"
        printed = n <= 16
    kw = {"texttemplate": "%{z:.3f}", "textfont": {"size": 10}} if printed else {}
    return {
        "type": "heatmap",
        "z": stats.astype(np.float32),
        "x": np.arange(stats.shape[1]),
        "y": np.arange(stats.shape[0]),
        "text": names_grid.tolist(),
        "customdata": custom,
        "colorscale": named_colorscale("Greys"),
        "zmin": -1.5,
        "zmax": 1.5,
        "showscale": False,
        "hovertemplate": hover,
        "xgap": 1,
        "ygap": 1,
        **kw,
    }


def _axis_arrow(along: str, note: str) -> list[dict]:
    """An arrow across the main matrix along the normalised axis ("x": the features of each
    row, drawn above it; "y": the tokens of each column, drawn left of the tick labels), and
    its note."""
    refs = {"xref": "x domain", "yref": "y domain"}
    arrow = {**refs, "axref": "x domain", "ayref": "y domain", **_ARROW}
    note = {**refs, "text": escape_label(note), "showarrow": False, "yanchor": "bottom"}
    if along == "x":
        return [
            {"x": 1.0, "y": 1.04, "ax": 0.0, "ay": 1.04, **arrow},
            {"x": 0.5, "y": 1.06, **note},
        ]
    return [
        {"x": 1.015, "y": 0.0, "ax": 1.015, "ay": 1.0, **arrow},
        {"x": 1.0, "y": 1.02, "xanchor": "right", **note},
    ]


_ARROW = {"text": "", "showarrow": True, "arrowhead": 2, "arrowwidth": 2, "arrowcolor": "#E69F00"}


__all__ = [
    "DIAGRAM_LABELS",
    "HIGHLIGHT_LINE",
    "block_diagram",
    "block_layout",
    "mask_figure",
    "normalised_matrix",
    "padding_mask_figure",
]


DROPPED_COLOUR = "#D55E00"  # Okabe-Ito vermillion: reads on every heatmap palette


def mark_cells(fig: go.Figure, mask: np.ndarray, label: str) -> go.Figure:
    """A cross on every cell of a heatmap (rows x cols from 0) where `mask` is True, with
    `label` on hover: dropout's dropped weights, exactly 0, looked like small kept ones."""
    mask = np.asarray(mask, dtype=bool)
    rows, cols = np.nonzero(mask)
    heat = fig.data[0]
    if heat.texttemplate:  # values printed in the cells: none under a cross
        z = np.asarray(heat.z, dtype=np.float64)
        text = np.where(mask, "", np.vectorize(lambda v: f"{v:{CELL_FMT}}", otypes=[object])(z))
        heat.update(text=text.tolist(), texttemplate="%{text}")
    fig.add_trace(
        go.Scatter(
            x=cols.tolist(),
            y=rows.tolist(),
            mode="markers",
            marker={"symbol": "x-thin", "size": 12, "line": {"width": 2, "color": DROPPED_COLOUR}},
            hovertemplate=f"{escape_label(label)}<extra></extra>",
            showlegend=False,
        )
    )
    return fig
