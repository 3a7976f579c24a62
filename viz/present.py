"""Presentation mode: a figure made readable on a projector (1280 x 720 seen from the back of a
room). Every font of the figure grows by `SCALE` (tick labels, axis and chart titles, legends,
annotations such as a grid's head titles, colour-bar numbers), the margins that were fitted to
the labels grow with them (viz/margins.py measured them at the normal size), and heatmap cells
are square (equal aspect: a token's row and column have the same size).

Works on the figure's own dicts (viz.figure: `fig._data`, `fig._layout`), in place, before the
figure is stamped and sent (ui/widgets.plot)."""

from __future__ import annotations

SCALE = 1.5
BASE = 12  # the theme's font size where a figure gives none (viz/theme.py)
MIN_TICK = 14  # a tick label no smaller than this (a dense axis starts at 9-11 px)


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
    margin = layout.get("margin")
    if isinstance(margin, dict):
        for side in ("l", "r", "t", "b"):
            if isinstance(margin.get(side), (int, float)):
                margin[side] = round(margin[side] * SCALE)
    if isinstance(layout.get("height"), (int, float)):
        layout["height"] = round(layout["height"] * 1.25)
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
            _square(trace, layout)


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


def _square(trace: dict, layout: dict) -> None:
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
