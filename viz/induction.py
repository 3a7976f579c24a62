"""Figures of the induction page: the 1-layer control against the 2-layer model while they
train, head scores over training, a layer x head share grid, top-k predictions and each part's
direct contribution to one logit.

Numpy in, plotly Figure out; every label is passed in (the page translates it) and escaped.
Colours: Okabe-Ito (colour-blind safe), as in viz/train.py.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .figure import figure, style
from .grid import written_grid
from .labels import escape_label, escape_labels
from .lines import line_trace
from .train import OKABE_ITO, alignment_curves

EXACT = ".4g"
RUN_DASH = ("dot", "solid")  # the 1-layer control dotted, the 2-layer model solid


def control_curves(
    runs: list[dict],
    *,
    total_steps: int,
    names: list[str],
    step_label: str = "step",
    loss_label: str = "loss",
    acc_label: str = "accuracy on the repeats",
    title: str | None = None,
    height: int = 440,
) -> go.Figure:
    """Loss (top) and accuracy (bottom, 0..1) against the step for several runs side by side.

    `runs`: one dict per run with equal-length arrays "step", "loss", "accuracy".
    """
    if len(runs) != len(names):
        raise ValueError(f"{len(runs)} runs but {len(names)} names")
    data = []
    for i, (r, name) in enumerate(zip(runs, names, strict=True)):
        x = np.asarray(r["step"])
        loss, acc = (np.asarray(r[k], dtype=np.float64) for k in ("loss", "accuracy"))
        if not x.shape == loss.shape == acc.shape or x.ndim != 1:
            raise ValueError("every column needs one value per step")
        color, dash = OKABE_ITO[i % len(OKABE_ITO)], RUN_DASH[i % 2] if len(runs) == 2 else None
        for j, (y, fmt) in enumerate(((loss, EXACT), (acc, ".1%"))):
            data.append(
                line_trace(
                    x,
                    y,
                    name=name,
                    color=color,
                    dash=dash,
                    hovertemplate=f"%{{y:{fmt}}}<extra>{escape_label(name)}</extra>",
                    xaxis="x" if j == 0 else "x2",
                    yaxis="y" if j == 0 else "y2",
                    legendgroup=str(i),
                    showlegend=j == 0,
                )
            )
    x_range = [0, max(1, total_steps)]
    layout = {
        "xaxis": {"anchor": "y", "matches": "x2", "showticklabels": False, "range": x_range},
        "xaxis2": {"anchor": "y2", "range": x_range, "title": {"text": escape_label(step_label)}},
        "yaxis": {"domain": [0.55, 1.0], "title": {"text": escape_label(loss_label)}},
        "yaxis2": {
            "domain": [0.0, 0.45],
            "range": [-0.02, 1.02],
            "tickformat": ".0%",
            "title": {"text": escape_label(acc_label)},
        },
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0.0},
        "hovermode": "x unified",
    }
    return figure(data, style(layout, height=height, title=title))


def score_curves(
    step,
    scores,
    names: list[str],
    *,
    step_label: str = "step",
    value_label: str = "score",
    title: str | None = None,
    height: int = 320,
) -> go.Figure:
    """One line per head: its score (0..1) at every snapshot step. `scores` (steps, lines):
    the Train page's `alignment_curves` (lines, steps), steps first."""
    x = np.asarray(step)
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2 or s.shape[0] != x.shape[0]:
        raise ValueError(f"scores must be (steps, lines) = ({x.shape[0]}, n), got {s.shape}")
    return alignment_curves(
        x,
        s.T,
        names,
        title=title,
        step_label=step_label,
        value_label=value_label,
        height=height,
    )


SHARE_ROW_PX = 42  # a row of share_grid: room for the value written in each cell


def share_grid(
    values,
    *,
    layer_label: str = "layer",
    head_label: str = "head",
    value_label: str = "share",
    title: str | None = None,
    height: int | None = None,
) -> go.Figure:
    """(L, nh) shares in 0..1 as a grid of cells with the value written in each."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2:
        raise ValueError(f"values must be (layers, heads), got {v.shape}")
    L, nh = v.shape
    return written_grid(
        v,
        [[f"{x:.2f}" for x in row] for row in v],
        zmin=0.0,
        zmax=1.0,
        colorscale="Blues",
        layer_label=layer_label,
        head_label=head_label,
        value_label=value_label,
        exact=EXACT,
        row_px=SHARE_ROW_PX,
        title=title,
        height=height,
    )


def topk_bars(
    tokens: list[str],
    probs,
    *,
    value_label: str = "probability",
    title: str | None = None,
    height: int | None = None,
) -> go.Figure:
    """Horizontal bars: the top-k next tokens (first on top) and their probabilities."""
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or len(tokens) != p.shape[0]:
        raise ValueError(f"{len(tokens)} tokens but probabilities of shape {p.shape}")
    trace = {
        "type": "bar",
        "orientation": "h",
        "x": p,
        "y": list(range(len(tokens))),
        "marker": {"color": OKABE_ITO[0]},
        "hovertemplate": f"%{{x:{EXACT}}}<extra>{escape_label(value_label)}</extra>",
    }
    # each probability beside its token, at the axis' font size: printed in the bars ("auto")
    # plotly.js shrank it to fit a short bar, down to ~6 px
    labels = [f"{tok}  {x:.1%}" for tok, x in zip(escape_labels(tokens), p)]
    layout = {
        "xaxis": {
            "range": [0, 1],
            "tickformat": ".0%",
            "title": {"text": escape_label(value_label)},
        },
        "yaxis": {
            "tickvals": list(range(len(tokens))),
            "ticktext": labels,
            "tickfont": {"size": 13},
            "autorange": "reversed",
        },
    }
    return figure([trace], style(layout, height=height or 80 + 28 * len(tokens), title=title))


def contribution_bars(
    names: list[str],
    values,
    total: float,
    *,
    total_label: str = "sum = logit",
    value_label: str = "direct contribution to the logit",
    title: str | None = None,
    height: int | None = None,
) -> go.Figure:
    """One bar per part (positive blue, negative orange), then the sum of the parts as a bar."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or len(names) != v.shape[0]:
        raise ValueError(f"{len(names)} names but values of shape {v.shape}")
    labels = [*escape_labels(names), escape_label(total_label)]
    y = np.r_[v, float(total)]
    colors = [OKABE_ITO[0] if x >= 0 else OKABE_ITO[5] for x in v] + [OKABE_ITO[7]]
    trace = {
        "type": "bar",
        "x": list(range(len(labels))),
        "y": y,
        "marker": {"color": colors},
        "hovertemplate": f"%{{y:{EXACT}}}<extra>{escape_label(value_label)}</extra>",
    }
    # upright: slanted at -45 degrees, the 12 labels of a 2-layer model (4 heads) ran into each
    # other on a phone (~23 px a bar), as the head grids' key labels did (viz/heads.py)
    layout = {
        "xaxis": {"tickvals": list(range(len(labels))), "ticktext": labels, "tickangle": -90},
        "yaxis": {"title": {"text": escape_label(value_label)}, "zeroline": True},
    }
    return figure([trace], style(layout, height=height or 380, title=title))
