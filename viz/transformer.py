"""Figures of the encoder-decoder page: numpy in, plotly Figure out.

- `block_diagram`: one encoder and one decoder block drawn with Plotly shapes, in the order the
  layer configuration gives (post-norm: sub-layer, then Add & Norm; pre-norm: LayerNorm, then
  sub-layer, then Add), with chosen boxes highlighted. Every box is a rect shape whose `name`
  is its id ("enc.self_attn", "dec.add_norm2", ...), so tests and pages can find it.
- `padding_mask_figure`: a batch of sentences padded to one length, the padding cells marked.
- `normalised_matrix`: a tokens x features matrix with, beside the axis a norm works along,
  the mean and standard deviation of every row (LayerNorm) or every column (BatchNorm).

User text (tokens) is escaped (only & < >) before it reaches a figure; every caller-given
label is escaped too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .figure import figure, named_colorscale, style
from .labels import escape_label, escape_labels

EXACT = ".8g"
MINUS_INF = "−∞"
# Okabe-Ito orange for what the page shows below; neutral grey for the rest
HIGHLIGHT_LINE = "#E69F00"
HIGHLIGHT_FILL = "rgba(230,159,0,0.30)"
BOX_LINE = "#8c8c8c"
BOX_FILL = "rgba(140,140,140,0.12)"
FRAME_LINE = "rgba(140,140,140,0.8)"
WIRE = "#8c8c8c"
DIVERGING = "RdBu_r"
PAD_COLOURS = [[0.0, "#cfe3f3"], [1.0, "#555555"]]  # real token: light blue; padding: dark grey

# label keys `block_diagram` needs (the caller gives them in the reader's language)
DIAGRAM_LABELS = (
    "encoder",
    "decoder",
    "inputs",
    "outputs",
    "self_attn",
    "masked_attn",
    "cross_attn",
    "ff",
    "add_norm",
    "add",
    "norm",
    "linear",
    "repeat",
)


def block_layout(norm_first: bool) -> dict[str, list[tuple[str, str]]]:
    """The boxes of one encoder and one decoder layer, bottom to top: (id, kind).

    Post-norm (the paper): sub-layer -> Add & Norm. Pre-norm: LayerNorm -> sub-layer -> Add.
    kind is one of "self_attn", "masked_attn", "cross_attn", "ff", "add_norm", "add", "norm".
    """
    stacks = {"enc": ["self_attn", "ff"], "dec": ["masked_attn", "cross_attn", "ff"]}
    out: dict[str, list[tuple[str, str]]] = {}
    for stack, subs in stacks.items():
        boxes = []
        for i, sub in enumerate(subs, start=1):
            if norm_first:
                boxes += [(f"{stack}.norm{i}", "norm"), (f"{stack}.{sub}", sub)]
                boxes.append((f"{stack}.add{i}", "add"))
            else:
                boxes += [(f"{stack}.{sub}", sub), (f"{stack}.add_norm{i}", "add_norm")]
        out[stack] = boxes
    return out


class _Sketch:
    """The diagram's shapes and annotations, collected as plain dicts: graph_objects validated
    every `add_shape` / `add_annotation` call, about 0.3 s per rerun for this one figure."""

    def __init__(self) -> None:
        self.shapes: list[dict] = []
        self.annotations: list[dict] = []

    def add_shape(self, **kw) -> None:
        self.shapes.append(kw)

    def add_annotation(self, **kw) -> None:
        self.annotations.append(kw)


def _box(fig, box_id, x, y, w, h, text, highlighted) -> None:
    fig.add_shape(
        type="rect",
        name=box_id,
        x0=x - w / 2,
        x1=x + w / 2,
        y0=y - h / 2,
        y1=y + h / 2,
        line={
            "color": HIGHLIGHT_LINE if highlighted else BOX_LINE,
            "width": 3 if highlighted else 1,
        },
        fillcolor=HIGHLIGHT_FILL if highlighted else BOX_FILL,
        layer="below",
    )
    fig.add_annotation(
        x=x, y=y, text=escape_label(text), showarrow=False, font={"size": 12}, name=box_id
    )


def _arrow(fig, x0, y0, x1, y1) -> None:
    """An arrow from (x0, y0) to (x1, y1), data coordinates."""
    fig.add_annotation(
        x=x1,
        y=y1,
        ax=x0,
        ay=y0,
        xref="x",
        yref="y",
        axref="x",
        ayref="y",
        text="",
        showarrow=True,
        arrowhead=2,
        arrowsize=1.2,
        arrowwidth=1.5,
        arrowcolor=WIRE,
    )


def _wire(fig, points) -> None:
    path = "M " + " L ".join(f"{x},{y}" for x, y in points)
    fig.add_shape(type="path", path=path, line={"color": WIRE, "width": 1.5}, layer="below")


def block_diagram(
    norm_first: bool,
    n_layers: int,
    labels: Mapping[str, str],
    highlight: Collection[str] = (),
    *,
    title: str | None = None,
    height: int = 560,
) -> go.Figure:
    """One encoder layer (left) and one decoder layer (right), repeated `n_layers` times.

    labels: the texts for DIAGRAM_LABELS ("repeat" is the "× N" beside each stack).
    highlight: box ids (see `block_layout`) to draw in orange.
    """
    missing = [k for k in DIAGRAM_LABELS if k not in labels]
    if missing:
        raise ValueError(f"block_diagram needs labels for {missing}")
    layout = block_layout(norm_first)
    unknown = set(highlight) - {i for boxes in layout.values() for i, _ in boxes}
    unknown -= {"enc.final_norm", "dec.final_norm", "dec.linear"}
    if unknown:
        raise ValueError(f"unknown boxes to highlight: {sorted(unknown)}")
    fig = _Sketch()
    w, h, gap = 3.0, 0.62, 0.42  # box width, height, vertical gap (data units)
    cx = {"enc": 2.9, "dec": 7.1}
    y_in = 0.4  # the inputs' label
    y_first = y_in + 0.55 + h / 2
    ys: dict[str, dict[str, float]] = {}
    for stack, boxes in layout.items():
        ys[stack] = {box_id: y_first + i * (h + gap) for i, (box_id, _) in enumerate(boxes)}
    top = {s: max(v.values()) for s, v in ys.items()}

    for stack, boxes in layout.items():
        x = cx[stack]
        name = "inputs" if stack == "enc" else "outputs"
        fig.add_annotation(x=x, y=y_in, text=escape_label(labels[name]), showarrow=False)
        _arrow(fig, x, y_in + 0.2, x, y_first - h / 2)
        for i, (box_id, kind) in enumerate(boxes):
            y = ys[stack][box_id]
            _box(fig, box_id, x, y, w, h, labels[kind], box_id in highlight)
            if i:
                _arrow(fig, x, y - h / 2 - gap, x, y - h / 2)
        # the residual connections: from below a sub-layer group around it to its Add box
        side = -1 if stack == "enc" else 1  # encoder's wires on the left, decoder's on the right
        group_start = None
        for box_id, kind in boxes:
            if group_start is None:
                group_start = ys[stack][box_id] - h / 2 - gap / 2
            if kind in ("add", "add_norm"):
                y_add = ys[stack][box_id]
                xs = x + side * (w / 2 + 0.3)
                _wire(fig, [(x, group_start), (xs, group_start), (xs, y_add)])
                _arrow(fig, xs, y_add, x + side * w / 2, y_add)
                group_start = None
        # the frame of one layer, "× N" beside it
        y0, y1 = y_first - h / 2 - gap * 0.75, top[stack] + h / 2 + gap * 0.45
        fig.add_shape(
            type="rect",
            x0=x - w / 2 - 0.45,
            x1=x + w / 2 + 0.45,
            y0=y0,
            y1=y1,
            line={"color": FRAME_LINE, "width": 1, "dash": "dot"},
            fillcolor="rgba(0,0,0,0)",
            layer="below",
            name=f"{stack}.frame",
        )
        stack_name = escape_label(labels["encoder" if stack == "enc" else "decoder"])
        fig.add_annotation(
            x=x + side * (w / 2 + 0.55),
            y=(y0 + y1) / 2,
            text=f"{stack_name}<br>{escape_label(labels['repeat'])}",
            showarrow=False,
            xanchor="left" if side > 0 else "right",
            align="left" if side > 0 else "right",
            font={"size": 13, "weight": "bold"},
        )

    # above the stacks: pre-norm's final LayerNorms, the decoder's output projection
    y_after = max(top.values()) + h / 2 + gap * 0.45 + gap + h / 2
    enc_out = top["enc"] + h / 2
    if norm_first:
        for stack in ("enc", "dec"):
            box_id = f"{stack}.final_norm"
            y = top[stack] + h / 2 + gap * 0.45 + gap + h / 2
            _box(fig, box_id, cx[stack], y, w, h, labels["norm"], box_id in highlight)
            _arrow(fig, cx[stack], top[stack] + h / 2, cx[stack], y - h / 2)
            if stack == "enc":
                enc_out = y + h / 2
        y_after = max(y_after, y) + h + gap
    _box(fig, "dec.linear", cx["dec"], y_after, w, h, labels["linear"], "dec.linear" in highlight)
    below_linear = top["dec"] + h / 2 if not norm_first else y_after - h - gap + h / 2
    _arrow(fig, cx["dec"], below_linear, cx["dec"], y_after - h / 2)

    # memory: the encoder's output feeds every decoder layer's cross-attention (keys, values)
    cross = ys["dec"]["dec.cross_attn"]
    y_bus = enc_out + 0.25
    x_bus = (cx["enc"] + cx["dec"]) / 2
    _wire(fig, [(cx["enc"], enc_out), (cx["enc"], y_bus), (x_bus, y_bus), (x_bus, cross)])
    _arrow(fig, x_bus, cross, cx["dec"] - w / 2, cross)

    y_max = y_after + h / 2 + 0.3
    layout = {
        "shapes": fig.shapes,
        "annotations": fig.annotations,
        "xaxis": {"visible": False, "range": [-0.9, 10.9], "fixedrange": True},
        "yaxis": {"visible": False, "range": [-0.6, y_max], "fixedrange": True},
        "showlegend": False,
        "hovermode": False,
    }
    empty = {"type": "scatter", "x": [], "y": [], "showlegend": False, "hoverinfo": "skip"}
    return figure([empty], style(layout, height=height, title=title, top=40 if title else 10))


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
    auto_h = max(260, min(520, 140 + 22 * t_q))
    return figure(
        [trace], style(layout, height=height or auto_h, title=title, top=50 if title else 10)
    )


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
        stats = np.stack([mean, std], axis=1 if axis == "rows" else 0)  # (N, 2) or (2, C)
        side = _stat_trace(
            stats, escape_labels(stat_labels), rt if axis == "rows" else ct, axis, n_stats
        )
        data = [{**main, "xaxis": "x", "yaxis": "y"}, {**side, "xaxis": "x2", "yaxis": "y2"}]
        layout = _stats_beside(axis, x_main, y_main, escape_labels(stat_labels))
        layout["annotations"] = _axis_arrow("x" if axis == "rows" else "y", axis_note)
        auto_h += 70 if axis == "cols" else 0
    return figure(
        data, style(layout, height=height or auto_h, title=title, top=80 if title else 40)
    )


def _stats_beside(axis: str, x_main: dict, y_main: dict, names: list[str]) -> dict:
    """The two panels of `normalised_matrix` as make_subplots laid them out: the statistics in a
    column right of the matrix (axis="rows", sharing its y axis) or in a row below it (axis="cols",
    sharing its x axis)."""
    stat_ticks = {"tickmode": "array", "tickvals": [0, 1], "ticktext": names}
    if axis == "rows":
        hs = 0.02
        w0, w1 = ((1.0 - hs) * (w / 1.0) for w in (0.8, 0.2))
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
    vs = 0.03
    h0, h1 = ((1.0 - vs) * (h / 1.0) for h in (0.84, 0.16))
    return {
        "xaxis": {"anchor": "y", "domain": [0.0, 1.0], "matches": "x2", "showticklabels": False},
        "yaxis": {"anchor": "x", "domain": [h1 + vs, 1.0], **y_main},
        "xaxis2": {"anchor": "y2", "domain": [0.0, 1.0], **x_main},
        "yaxis2": {"anchor": "x2", "domain": [0.0, h1], **stat_ticks, "range": [1.5, -0.5]},
    }


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
    "block_diagram",
    "block_layout",
    "mask_figure",
    "normalised_matrix",
    "padding_mask_figure",
]
