"""Margins reserved before the browser measures: one draw per chart instead of two.

Every token axis has `automargin`: after drawing, plotly.js measures the tick labels, and when
they need more room than the layout's margins it moves the margins and draws the whole chart
again. With margins of 10 px that second draw happened on every chart of every rerun; it was
a third of a slider step in the browser (bench/ui_latency.py --what-if big_margins). Here the
margins are raised to an estimate of the room the labels, axis titles and colour bars take,
from the text alone, rounded up; automargin stays on, so a label wider than estimated still
fits (at the cost of the second draw). An x axis whose labels cannot all lie flat across an
axis of WIDTH_PX * its domain is assumed drawn upright (plotly turns them).
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Iterable, Sequence

WIDTH_PX = 400  # a chart in a column of the page (full-width ones are ~900 px on a laptop)
DEFAULT_FONT = 12  # plotly.js default tick font size
TITLE_FONT = 14  # axis titles (Streamlit's theme)
PAD = 14  # tick length, label standoff and rounding
LEGEND_PX = 50  # one row of a horizontal legend above or below the plot
COLORBAR_PX = 130  # colour bar: x padding, thickness, tick labels ("0.25", "-1.5", ...)
MODEBAR_PX = 30  # Plotly's toolbar, drawn over the figure's top right corner on hover
COLORBAR_BELOW_PX = 56  # a horizontal colour bar under the plot: thickness and tick labels
AXIS_TITLE_PX = TITLE_FONT + 30  # an axis title, its standoff and padding


def colorbar_below() -> dict:
    """A thin colour bar at the foot of the figure, across its width, in the bottom margin that
    `reserve_margins` keeps for it (COLORBAR_BELOW_PX): beside a plot it would take ~130 px of a
    phone's width."""
    return {"thickness": 10, "orientation": "h", "yref": "container", "y": 0.0,
            "yanchor": "bottom", "ypad": 6, "len": 1.0}  # fmt: skip


def char_px(ch: str, size: float) -> float:
    """A generous width of one character at font `size` (px)."""
    if unicodedata.east_asian_width(ch) in "WF" or ord(ch) >= 0x1F000:
        return size * 1.05  # CJK, emoji: about a square
    if ch.isupper() or ch in "mwMW@%#&":
        return size * 0.9
    return size * 0.72  # wide enough for DejaVu Sans, Chromium's fallback on Linux


def text_px(text: str, size: float) -> float:
    """Width of one label as plotly draws it (escaped `&lt;` is one `<`)."""
    return sum(char_px(c, size) for c in html.unescape(str(text)))


def _labels(axis: dict) -> list[str]:
    if axis.get("ticktext") is not None:
        return [str(s) for s in axis["ticktext"]]
    rng = axis.get("range")
    if rng:  # numbers: the widest is about the widest end of the range
        return [f"{max(abs(r) for r in rng):.0f}", f"-{max(abs(r) for r in rng):.0f}"]
    return ["-0.00"]


def _title_px(axis: dict) -> float:
    title = axis.get("title")
    text = title.get("text") if isinstance(title, dict) else title
    font = (title.get("font") if isinstance(title, dict) else None) or {}
    # the title, its standoff and padding; an empty title still takes its room in Streamlit
    return AXIS_TITLE_PX - TITLE_FONT + (font.get("size") or TITLE_FONT) if text is not None else 0


def _axes(layout: dict, letter: str) -> Iterable[dict]:
    for key, axis in layout.items():
        shown = isinstance(axis, dict) and axis.get("visible", True) is not False
        if key.startswith(f"{letter}axis") and shown and axis.get("showticklabels", True):
            yield axis


def _size(axis: dict) -> float:
    font = axis.get("tickfont") or {}
    return float(font.get("size") or DEFAULT_FONT)


def _x_px(axis: dict) -> float:
    """Height the tick labels of an x axis take: flat if they fit side by side, else upright."""
    labels, size = _labels(axis), _size(axis)
    if not labels:
        return 0.0
    d0, d1 = axis.get("domain", [0.0, 1.0])
    widths = [text_px(s, size) for s in labels]
    flat = sum(w + size * 0.5 for w in widths) <= WIDTH_PX * (d1 - d0)
    return (size * 2.2 if flat else max(widths)) + PAD + 6  # (rotated labels hang lower)


def _colorbars(data: list[dict], layout: dict) -> Iterable[dict]:
    """The colour bars drawn (their dicts; {} for one with plotly's defaults)."""
    for tr in data:
        scaled = tr.get("type") in ("heatmap", "contour") and not tr.get("coloraxis")
        if scaled and tr.get("showscale") is not False:
            yield tr.get("colorbar") or {}
    for key, ax in layout.items():
        shown = isinstance(ax, dict) and ax.get("showscale") is not False
        if key.startswith("coloraxis") and shown:
            yield ax.get("colorbar") or {}


def _top_titles(layout: dict) -> bool:
    """Whether the figure has titles standing on its top edge: subplot titles of the top row
    (paper y = 1, as `subplot_grid` writes them) or on the top of the data (a one-trace grid)."""
    for a in layout.get("annotations") or ():
        if not isinstance(a, dict) or a.get("yanchor") != "bottom":
            continue
        ref = a.get("yref") or "paper"
        if ref == "paper" and (a.get("y") or 0) >= 0.999:
            return True
        axis = (layout.get(f"yaxis{ref[1:]}") if ref.startswith("y") else None) or {}
        rng, top = axis.get("range"), (axis.get("domain") or (0.0, 1.0))[1]
        on_top = rng and a.get("y") is not None and abs(a["y"] - rng[1]) < 1e-9  # [bottom, top]
        if on_top and top >= 0.999:  # the chart's top edge, not below a strip above the axis
            return True
    return False


def needed(data: list[dict], layout: dict) -> dict[str, float]:
    """The room (px) the labels, axis titles, colour bars and legend of a figure take on each
    side ("l", "r", "t", "b"), estimated from their text and font sizes."""
    need = {"l": 0.0, "r": 0.0, "t": 0.0, "b": 0.0}
    for axis in _axes(layout, "y"):
        labels = _labels(axis)
        width = max((text_px(s, _size(axis)) for s in labels), default=0.0)
        side = "r" if axis.get("side") == "right" else "l"
        need[side] = max(need[side], width + PAD + _title_px(axis))
    for axis in _axes(layout, "x"):
        side = "t" if axis.get("side") == "top" else "b"
        need[side] = max(need[side], _x_px(axis) + _title_px(axis))
    x_sizes = [_size(axis) for axis in _axes(layout, "x")]
    if x_sizes:  # the last x label hangs past the plot's edge
        need["r"] = max(need["r"], 24, 2 * max(x_sizes))
    x_titled = any(_title_px(axis) for axis in _axes(layout, "x"))
    for bar in _colorbars(data, layout):
        if bar.get("orientation") == "h":  # under the plot, below the x labels and title
            # one at the left, at most half the width, shares the band of a (centred) x title
            short = bar.get("lenmode", "fraction") == "fraction" and bar.get("len", 1) <= 0.5
            beside = x_titled and short and bar.get("xanchor") == "left"
            need["b"] += COLORBAR_BELOW_PX - (AXIS_TITLE_PX if beside else 0)
        elif bar.get("thickness"):  # a slim bar: its thickness, padding and tick labels
            need["r"] = max(need["r"], bar["thickness"] + 80)
        else:
            need["r"] = max(need["r"], COLORBAR_PX)
    legend = layout.get("legend") or {}
    if legend.get("orientation") == "h" and layout.get("showlegend") is not False:
        side = "t" if (legend.get("y") or 0) >= 1 else "b"  # plotly's default: below
        need[side] += LEGEND_PX
    if layout.get("title") and need["t"]:  # the chart's title above labels on top
        need["t"] += 40
    if _top_titles(layout):  # subplot titles of the top row: below the toolbar, not under it
        titled = 40 if layout.get("title") else 0
        need["t"] = max(need["t"], MODEBAR_PX + TITLE_FONT + 16 + titled)
    return need


def reserve_margins(data: list[dict], layout: dict) -> dict:
    """`layout` with its margins raised to the estimated room (never lowered)."""
    margin = dict(layout.get("margin") or {})
    for side, px in needed(data, layout).items():
        if px:
            margin[side] = max(margin.get(side, 80), int(px + 0.999))  # 80: plotly's default
    return {**layout, "margin": margin}


def legend_below() -> dict:
    """A horizontal legend at the foot of the chart (the container's bottom), in the margin under
    the x axis' title: placed at a share of the plot's height (y = -0.2) it sat on "layer"."""
    return {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0}


def legend_room(names: Sequence[str], width_px: float = 330) -> int:
    """The bottom margin for tick labels, an axis title and a `legend_below` of `names`, with
    as many legend rows as a phone's plot (`width_px`) needs."""
    rows, used = 1, 0.0
    for name in names:
        w = text_px(str(name), 12) + 50  # the swatch and the gap after the entry
        if used and used + w > width_px:
            rows, used = rows + 1, 0.0
        used += w
    return 24 + 34 + 22 * rows + 12  # labels, title, legend rows, padding
