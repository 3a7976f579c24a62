"""Figures of a training run: the loss and accuracy curves, and how heads align over time.

Numpy in, plotly Figure out. Every label is passed in (the page translates them) and escaped;
hover shows the exact value. Colours are the Okabe-Ito palette (colour-blind safe).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .figure import figure, style
from .labels import escape_label

# Okabe & Ito (2008): distinguishable with every common colour-vision deficiency; their black
# as grey, which shows on the dark page too (viz/theme.py)
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999")
EXACT = ".8g"


def _curves_style(layout: dict, *, height: int, title: str | None) -> dict:
    """The shared style, a legend in one row above the plot, one hover box per step."""
    layout.update(
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0.0},
        hovermode="x unified",
    )
    return style(layout, height=height, title=title)


def _steps(step, *columns) -> tuple[np.ndarray, ...]:
    x = np.asarray(step)
    cols = tuple(np.asarray(c, dtype=np.float64) for c in columns)
    for c in cols:
        if c.shape != x.shape or x.ndim != 1:
            raise ValueError(f"every column needs one value per step: {x.shape} vs {c.shape}")
    return (x, *cols)


def training_curves(
    step,
    loss,
    token_acc,
    exact_acc,
    *,
    total_steps: int | None = None,
    title: str | None = None,
    step_label: str = "step",
    loss_label: str = "loss",
    token_label: str = "token accuracy",
    exact_label: str = "exact-sequence accuracy",
    accuracy_label: str = "accuracy",
    height: int = 460,
) -> go.Figure:
    """Loss (top, log scale) and the two accuracies (bottom, 0..1) against the step.

    `total_steps` fixes the x range to the planned run, so a live curve grows from the left.
    """
    x, loss, token_acc, exact_acc = _steps(step, loss, token_acc, exact_acc)
    # two stacked panels sharing x, laid out by hand: make_subplots validates the whole figure,
    # too slow for a live curve redrawn several times a second
    names = (loss_label, token_label, exact_label)
    data = []
    for i, (name, y) in enumerate(zip(names, (loss, token_acc, exact_acc))):
        fmt = EXACT if i == 0 else ".2%"
        data.append(
            {
                "type": "scatter",
                "x": x,
                "y": y,
                "mode": "lines",
                "name": escape_label(name),
                "line": {"color": OKABE_ITO[i], "width": 2},
                "xaxis": "x" if i == 0 else "x2",
                "yaxis": "y" if i == 0 else "y2",
                "hovertemplate": f"%{{y:{fmt}}}<extra>{escape_label(name)}</extra>",
            }
        )
    right = total_steps if total_steps is not None else (int(x.max()) if x.size else 1)
    x_range = [0, max(1, right)]
    layout = {
        "xaxis": {"anchor": "y", "matches": "x2", "showticklabels": False, "range": x_range},
        "xaxis2": {"anchor": "y2", "range": x_range, "title": {"text": escape_label(step_label)}},
        "yaxis": {
            "domain": [0.54, 1.0],
            "type": "log",
            "exponentformat": "power",
            "title": {"text": escape_label(loss_label)},
        },
        "yaxis2": {
            "domain": [0.0, 0.46],
            "range": [-0.02, 1.02],
            "tickformat": ".0%",
            "title": {"text": escape_label(accuracy_label)},
        },
    }
    positive = loss[np.isfinite(loss) & (loss > 0)]
    if positive.size and np.log10(positive.max() / positive.min()) >= 1.0:
        layout["yaxis"]["dtick"] = 1  # a decade or more: one labelled tick per power of ten
    return figure(data, _curves_style(layout, height=height, title=title))


def alignment_curves(
    step,
    shares,
    names,
    *,
    title: str | None = None,
    step_label: str = "step",
    value_label: str = "share of weight",
    height: int = 340,
) -> go.Figure:
    """One line per head: a share (0..1) at every snapshot step, e.g. the mean weight a
    cross-attention head puts on the source position the task needs."""
    x = np.asarray(step)
    shares = np.asarray(shares, dtype=np.float64)
    if shares.ndim != 2 or shares.shape[1] != x.shape[0]:
        raise ValueError(f"shares must be (lines, steps) = (n, {x.shape[0]}), got {shares.shape}")
    if len(names) != shares.shape[0]:
        raise ValueError(f"{shares.shape[0]} lines but {len(names)} names")
    data = [
        {
            "type": "scatter",
            "x": x,
            "y": y,
            "mode": "lines+markers",
            "name": escape_label(name),
            "line": {"color": OKABE_ITO[i % len(OKABE_ITO)], "width": 2},
            "hovertemplate": f"%{{y:{EXACT}}}<extra>{escape_label(name)}</extra>",
        }
        for i, (name, y) in enumerate(zip(names, shares))
    ]
    layout = {
        "xaxis": {"title": {"text": escape_label(step_label)}, "zeroline": False},
        "yaxis": {"title": {"text": escape_label(value_label)}, "range": [-0.02, 1.02]},
    }
    return figure(data, _curves_style(layout, height=height, title=title))
