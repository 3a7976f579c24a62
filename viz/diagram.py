"""The encoder-decoder page's block diagram: one encoder and one decoder block drawn with Plotly
shapes, in the order the layer configuration gives (post-norm: sub-layer, then Add & Norm;
pre-norm: LayerNorm, then sub-layer, then Add), with chosen boxes highlighted. Every box is a
rect shape whose `name` is its id ("enc.self_attn", "dec.add_norm2", ...), so tests and pages
can find it. Every caller-given label is escaped.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import NamedTuple

import plotly.graph_objects as go

from .figure import figure, style
from .labels import escape_label

# Okabe-Ito orange for what the page shows below; neutral grey for the rest
HIGHLIGHT_LINE = "#E69F00"
HIGHLIGHT_FILL = "rgba(230,159,0,0.30)"
BOX_LINE = "#8c8c8c"
BOX_FILL = "rgba(140,140,140,0.12)"
FRAME_LINE = "rgba(140,140,140,0.8)"
WIRE = "#8c8c8c"

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

    geo = _Geo(w, h, gap, y_in, y_first)
    for stack, boxes in layout.items():
        _draw_stack(fig, stack, boxes, cx[stack], ys[stack], geo, labels, highlight)

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


class _Geo(NamedTuple):
    """The diagram's measures (data units): box width and height, the gap between boxes, the
    inputs' label height, the centre of the first box."""

    w: float
    h: float
    gap: float
    y_in: float
    y_first: float


def _draw_stack(fig, stack: str, boxes, x: float, ys: dict, geo: _Geo, labels, highlight) -> None:
    """One stack (encoder or decoder layer): its input arrow, boxes, residual wires, and the
    dotted frame with "× N" beside it."""
    w, h, gap, y_in, y_first = geo
    top = max(ys.values())
    name = "inputs" if stack == "enc" else "outputs"
    fig.add_annotation(x=x, y=y_in, text=escape_label(labels[name]), showarrow=False)
    _arrow(fig, x, y_in + 0.2, x, y_first - h / 2)
    for i, (box_id, kind) in enumerate(boxes):
        y = ys[box_id]
        _box(fig, box_id, x, y, w, h, labels[kind], box_id in highlight)
        if i:
            _arrow(fig, x, y - h / 2 - gap, x, y - h / 2)
    # the residual connections: from below a sub-layer group around it to its Add box
    side = -1 if stack == "enc" else 1  # encoder's wires on the left, decoder's on the right
    group_start = None
    for box_id, kind in boxes:
        if group_start is None:
            group_start = ys[box_id] - h / 2 - gap / 2
        if kind in ("add", "add_norm"):
            y_add = ys[box_id]
            xs = x + side * (w / 2 + 0.3)
            _wire(fig, [(x, group_start), (xs, group_start), (xs, y_add)])
            _arrow(fig, xs, y_add, x + side * w / 2, y_add)
            group_start = None
    # the frame of one layer, "× N" beside it
    y0, y1 = y_first - h / 2 - gap * 0.75, top + h / 2 + gap * 0.45
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
