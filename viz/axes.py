"""Axes of matrices whose rows and columns are tokens (or dimensions).

Numeric positions on the axis, tokens as tick text: a repeated token ("the cat saw the dog")
keeps its own row and column, and `%{x}` / `%{y}` in a hover show the token.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .labels import escape_labels


def tick_size(n: int) -> int:
    """Tick font size for n labels on one axis."""
    return 11 if n <= 24 else 9 if n <= 48 else 7


def token_axis(
    labels: Sequence[str] | None,
    n: int | None = None,
    *,
    start: int = 0,
    reverse: bool = False,
    numbered: bool = True,
) -> dict:
    """A layout axis over positions start..start+n-1 (n defaults to len(labels)).

    labels: one label per position (user text: escaped here), or None for plain numbers (ticks
    at every position when there are at most 10). Over LABEL_ALL labels, each starts with its
    position ("12: cat"; not with numbered=False, for labels that say where they are): the
    figure draws every k-th, the hover shows any. reverse: first position at the top, for the
    rows of a matrix.
    """
    n = len(labels) if n is None else n
    lo, hi = start - 0.5, start + n - 0.5
    ax: dict = {
        "showgrid": False,
        "zeroline": False,
        "automargin": True,
        "range": [hi, lo] if reverse else [lo, hi],
    }
    if labels is not None:
        text = escape_labels(labels)
        if n > LABEL_ALL and numbered:  # every k-th drawn (thin_token_axes): say where
            text = [f"{start + i}: {s}" for i, s in enumerate(text)]
        ax.update(
            tickmode="array",
            tickvals=list(range(start, start + n)),
            ticktext=text,
            tickfont={"size": tick_size(n)},
        )
    elif n <= 10:
        ax.update(tickmode="linear", tick0=start, dtick=1)
    return ax


# Above this many labels on one axis, only every k-th is drawn (plotly.js lays out every tick
# label, and its cost grows about quadratically with their number: bench/plotly_draw.py).
LABEL_ALL = 40
X_LABEL_PX = 16  # room of one upright x label (at most ~20 on a full-width axis)
Y_LABEL_PX = 16  # room of one y label
PHONE_PLOT_PX = 200  # a chart's plot width on a 390 px phone, beside labels and colour bar


def label_step(n: int, room_px: float, per_label_px: float) -> int:
    """Draw every k-th of n labels: 1 up to LABEL_ALL labels, else enough to fit the room."""
    if n <= LABEL_ALL:
        return 1
    return max(1, math.ceil(n / max(4, int(room_px / per_label_px))))


def _axis_number(key: str) -> int:
    return int(key[5:] or 1)


def _label_room(key: str, axis: dict, height: float) -> float:
    d0, d1 = axis.get("domain") or (0.0, 1.0)
    if key[0] == "x":
        return PHONE_PLOT_PX * (d1 - d0)  # must fit on a phone
    return height * (d1 - d0) * 0.85


def axis_anchor(xaxis: str, yaxis: str) -> dict:
    """An empty, silent scatter trace on (xaxis, yaxis): plotly.js draws an axis only where a
    trace lies, so an overlay axis that only draws labels needs one."""
    return {"type": "scatter", "x": [], "y": [], "xaxis": xaxis, "yaxis": yaxis,
            "hoverinfo": "skip", "showlegend": False}  # fmt: skip


def thin_token_axes(data: list[dict], layout: dict) -> dict:
    """Every axis with more than LABEL_ALL array ticks drawn with every k-th label only, and
    every token still in the hover.

    The hover of a heatmap reads the tick text of the trace's own axis (`%{x}` is the label at
    that value), so that axis keeps all ticks but draws none (`showticklabels` False); an overlay
    axis (`overlaying`, `matches`: same range, zoom and pan) draws every k-th label and the
    axis title; plotly.js draws an axis only where a trace lies, so an empty, silent scatter
    trace is added on it (to `data`). Changes and returns `layout`.
    """
    height = float(layout.get("height") or 450)
    axes = [k for k, a in layout.items() if k[1:5] == "axis" and isinstance(a, dict)]
    free = {c: max((_axis_number(k) for k in axes if k[0] == c), default=1) for c in "xy"}
    for key in axes:
        axis = layout[key]
        vals, text = axis.get("tickvals"), axis.get("ticktext")
        if text is None or vals is None or axis.get("showticklabels") is False:
            continue
        if axis.get("overlaying"):  # already the labels chosen to be drawn
            continue
        step = label_step(len(vals), _label_room(key, axis, height), X_LABEL_PX)
        if step == 1:
            continue
        letter = key[0]
        free[letter] += 1
        own = f"{letter}{_axis_number(key) if _axis_number(key) > 1 else ''}"
        over = {
            k: v
            for k, v in axis.items()
            if k in ("side", "tickfont", "tickangle", "automargin", "range", "autorange", "domain")
        }
        over.update(
            overlaying=own,
            matches=own,
            anchor=axis.get("anchor", "y" if letter == "x" else "x"),
            tickmode="array",
            tickvals=list(vals[::step]),
            ticktext=list(text[::step]),
            showgrid=False,
            zeroline=False,
            title=axis.get("title"),
            tickfont={**(axis.get("tickfont") or {}), "size": 10},
        )
        over.pop("domain", None)  # an overlay takes its domain from the axis it overlays
        layout[f"{letter}axis{free[letter]}"] = {k: v for k, v in over.items() if v is not None}
        other = over["anchor"]
        data.append(
            axis_anchor(
                f"x{free['x']}" if letter == "x" else other,
                f"y{free['y']}" if letter == "y" else other,
            )
        )
        axis["showticklabels"] = False
        axis.pop("title", None)
    return layout
