"""Presentation mode: a figure made readable on a projector (1280 x 720 seen from the back of a
room). Every font of the figure grows by `SCALE` (tick labels, axis and chart titles, legends,
annotations such as a grid's head titles, colour-bar numbers), the margins that were fitted to
the labels grow with them (viz/margins.py estimated them at the normal size), and heatmap cells
are square (equal aspect: a token's row and column have the same size).

The server does not know the screen's width, so the figure must read on a phone (390 px) too:
a lone colour bar beside the plot goes under it (beside, with the grown margins, it left a
~360 px chart no plot at all), the side margins grow by what the grown labels need (not 1.5x),
and the label axes a head grid places at fixed heights follow its squared cells (`_follow`).

Works on the figure's own dicts (viz.figure: `fig._data`, `fig._layout`), in place, before the
figure is stamped and sent (ui/widgets.plot)."""

from __future__ import annotations

from .axes import axis_anchor
from .margins import COLORBAR_BELOW_PX, colorbar_below, needed

SCALE = 1.5
BASE = 12  # the theme's font size where a figure gives none (viz/theme.py)
MIN_TICK = 14  # a tick label no smaller than this (a dense axis starts at 9-11 px)
HEIGHT = 1.25  # a chart's height grows by this
BAR_BAND_PX = round(COLORBAR_BELOW_PX * HEIGHT)  # a colour bar under the plot, numbers grown
PHONE_CHART_PX = 358  # a chart's width on a 390 px phone (the page's padding off)
BAR_MAX_PX = 240  # a colour bar under a squared matrix: at most this long


def _grow_font(d: dict | None, default: float | None = None) -> None:
    if not isinstance(d, dict):
        return
    font = d.get("font")
    if not isinstance(font, dict):
        if default is None:
            return
        font = d["font"] = {}
    size = font.get("size", default)
    if size is not None:
        font["size"] = round(size * SCALE, 1)


def _grow_axis(ax: dict) -> None:
    tick = ax.setdefault("tickfont", {})
    tick["size"] = max(MIN_TICK, round(tick.get("size", BASE) * SCALE, 1))
    title = ax.get("title")
    if isinstance(title, dict):
        _grow_font(title, 14)


def projector(data: list[dict], layout: dict) -> None:
    """Make the figure (its trace and layout dicts) projector-sized, in place."""
    before = needed(data, layout)  # the room its labels take at the normal size
    _grow_font(layout, BASE)
    if isinstance(layout.get("title"), dict):
        _grow_font(layout["title"], 16)
    if isinstance(layout.get("legend"), dict):
        _grow_font(layout["legend"], BASE)
    boxed = bool(layout.get("shapes"))
    for ann in layout.get("annotations") or []:
        # a label inside a drawn box (viz/diagram.py names them) keeps its size: the box does
        # not grow, and a grown label ran out of it ("Linear → scores over the vocabulary")
        if isinstance(ann, dict) and not (boxed and ann.get("name")):
            _grow_font(ann, BASE)
    axes = [k for k in layout if k.startswith(("xaxis", "yaxis"))]
    for k in axes:
        if isinstance(layout[k], dict):
            _grow_axis(layout[k])
    moved = _bar_below(data, layout)
    _grow_margins(layout, before, needed(data, layout), moved is not None)
    for trace in data:
        bar = trace.get("colorbar")
        if isinstance(bar, dict):
            tf = bar.setdefault("tickfont", {})
            tf["size"] = round(tf.get("size", BASE) * SCALE, 1)
            if isinstance(bar.get("title"), dict):
                _grow_font(bar["title"], BASE)
        text = trace.get("textfont")
        if trace.get("type") == "scatter" and isinstance(text, dict) and text.get("size"):
            # token labels beside points (Reading's lines and query/key map): grown as the height
            # is, so that a column of them keeps its spacing
            text["size"] = round(text["size"] * 1.25, 1)
        if trace.get("type") == "heatmap" and not _elongated(trace.get("z")):
            _square(trace, data, layout)
    for owner in _bar_owners(data, layout):
        _bar_length(owner, layout)


def _grow_margins(layout: dict, before: dict, after: dict, bar_below: bool) -> None:
    """The margins with the grown fonts. Left and right, where the width of a phone is short:
    by the room the grown labels (and a colour bar moved from beside the plot) need more or
    less than at the normal size (1.5x took 162 + 195 px of a 358 px chart); a side that holds
    nothing estimated grows 1.5x, as top and bottom do (the height grows with them). A colour
    bar moved under the plot adds its band to the bottom and to the height."""
    margin = layout.get("margin")
    if isinstance(margin, dict):
        for side in ("l", "r", "t", "b"):
            px = margin.get(side)
            if not isinstance(px, (int, float)):
                continue
            if side in ("l", "r") and before[side]:
                margin[side] = max(10, round(px + after[side] - before[side]))
            else:
                margin[side] = round(px * SCALE)
        if bar_below:
            margin["b"] = margin.get("b", 80) + BAR_BAND_PX
    if isinstance(layout.get("height"), (int, float)):
        layout["height"] = round(layout["height"] * HEIGHT) + (BAR_BAND_PX if bar_below else 0)


def _bar_owners(data: list[dict], layout: dict) -> list[dict]:
    """The dicts whose colour bar the figure draws (a trace, a layout's colour axis)."""
    owners = []
    for trace in data:
        scaled = trace.get("type") in ("heatmap", "contour") and not trace.get("coloraxis")
        if scaled and trace.get("showscale") is not False:
            owners.append(trace)
    for key, ax in layout.items():
        shown = isinstance(ax, dict) and ax.get("showscale") is not False
        if key.startswith("coloraxis") and shown:
            owners.append(ax)
    return owners


def _bar_below(data: list[dict], layout: dict) -> dict | None:
    """A figure's one colour bar, standing beside the plot where plotly puts it, moved under
    the plot at the left (returned; None when there is none to move). Beside, it took ~130 px
    of the width plus its grown numbers: on a phone the plot was left a few px."""
    owners = _bar_owners(data, layout)
    if len(owners) != 1:
        return None
    bar = owners[0].get("colorbar") or {}
    if bar.get("orientation") == "h" or "x" in bar:  # under already, or placed by its figure
        return None
    bar = owners[0]["colorbar"] = dict(bar)
    squared = any(t.get("type") == "heatmap" and not _elongated(t.get("z")) for t in data)
    bar.update(colorbar_below(), x=0.0, xanchor="left")
    if not squared:  # else under the squared matrix, no longer than it (`_bar_length`)
        bar.update(len=1.0)
    return bar


def _bar_length(owner: dict, layout: dict) -> None:
    """A colour bar under a squared matrix, at its left: as long as the matrix, which is as tall
    as the plot or, on a phone, as wide as its plot (a head grid's bar, a share of the plot's
    width, was ~75 px there and turned its numbers upright, under the chart's edge)."""
    bar = owner.get("colorbar") or {}
    y_axis = layout.get(_axis_key(owner.get("yaxis"), "y")) or {}
    m, height = layout.get("margin") or {}, layout.get("height")
    under = bar.get("orientation") == "h" and bar.get("xanchor") == "left"
    if not (under and y_axis.get("scaleanchor") and isinstance(height, (int, float))):
        return
    plot_h = height - m.get("t", 80) - m.get("b", 80)
    phone_w = PHONE_CHART_PX - m.get("l", 80) - m.get("r", 80)
    bar.update(lenmode="pixels", len=int(max(40, min(plot_h, phone_w, BAR_MAX_PX))))


MAX_ASPECT = 4  # square cells only up to 4:1; a 7 x 64 token-by-dimension map went 7 px high


def _elongated(z) -> bool:
    """Whether the matrix is too long or too wide for square cells (its row labels overlapped)."""
    try:
        rows, cols = len(z), len(z[0])
    except (TypeError, IndexError, KeyError):
        return False
    return bool(rows and cols) and max(rows / cols, cols / rows) > MAX_ASPECT


def _axis_key(ref: str | None, letter: str) -> str:
    """'x2' -> 'xaxis2'; None or 'x' -> 'xaxis'."""
    ref = ref or letter
    return f"{letter}axis{ref[1:]}"


def _square(trace: dict, data: list[dict], layout: dict) -> None:
    """Square cells: the trace's y axis follows its x axis at one unit per unit."""
    x_ref = trace.get("xaxis") or "x"
    y_key = _axis_key(trace.get("yaxis"), "y")
    y_axis = layout.setdefault(y_key, {})
    if "scaleanchor" not in y_axis and not y_axis.get("overlaying"):
        y_axis["scaleanchor"] = x_ref
        y_axis["scaleratio"] = 1
        y_axis.setdefault("constrain", "domain")
        x_axis = layout.setdefault(_axis_key(x_ref, "x"), {})
        x_axis.setdefault("constrain", "domain")
        bar = trace.get("colorbar") or {}
        if bar.get("orientation") == "h" and bar.get("xanchor") == "left":
            # the cells to the left too, above their colour bar (centred, a head grid's heads
            # stood ~150 px right of it on a wide page)
            x_axis.setdefault("constraintoward", "left")
        _follow(x_ref, y_key, data, layout)


def _follow(x_ref: str, y_key: str, data: list[dict], layout: dict) -> None:
    """The label axes that overlay the squared trace's x axis at a fixed height (a head grid's
    key labels under each row of heads: anchor "free", `position` a share of the plot's height)
    made to follow its cells. Squared on a phone, the cells shrink toward the top of the plot
    (the width is short) while a fixed position stays where it was: the first row's labels lay
    on the second row. Each such axis is anchored instead to a hidden y axis of its own, from the
    top of the plot down to its position, on the same scale: plotly.js shrinks it as it shrinks
    the trace's y axis, so its bottom edge stays at the same row of cells."""
    free = [
        k for k, ax in layout.items()
        if k.startswith("xaxis") and isinstance(ax, dict) and ax.get("anchor") == "free"
        and ax.get("overlaying") == x_ref and isinstance(ax.get("position"), (int, float))
    ]  # fmt: skip
    y_axis = layout[y_key]
    rng = y_axis.get("range")
    if not free or not rng:
        return
    d0, d1 = y_axis.get("domain") or (0.0, 1.0)
    y_axis["constraintoward"] = "top"  # the helpers shrink toward the top: so does the trace's
    used = [int(k[5:] or 1) for k in layout if k.startswith("yaxis")]
    n = max(used, default=1)
    for x_key in free:
        ax = layout[x_key]
        pos = ax.pop("position")
        n += 1
        value = rng[0] + (pos - d0) / (d1 - d0) * (rng[1] - rng[0])  # the data y at `pos`
        layout[f"yaxis{n}"] = {
            "domain": [pos, d1], "range": [value, rng[1]], "visible": False, "fixedrange": True,
            "scaleanchor": x_ref, "scaleratio": 1, "constrain": "domain",
            "constraintoward": "top",
        }  # fmt: skip
        ax["anchor"] = f"y{n}"
        x_id = f"x{x_key[5:]}"
        anchors = [t for t in data if t.get("xaxis") == x_id and not len(t.get("x", [1]))]
        if anchors:
            anchors[0]["yaxis"] = f"y{n}"
        else:
            data.append(axis_anchor(x_id, f"y{n}"))
