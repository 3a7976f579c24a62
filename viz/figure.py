"""Figures from plain dicts: the one place where a plotly Figure is made.

Building a figure through graph_objects' setters (`make_subplots`, `add_trace(row=, col=)`,
`update_xaxes(row=, col=)`) validates and re-walks the whole figure on every call, which costs
far more than the data of an 8-head grid. The builders of this package write the
same figure as plain dicts (`data`: a list of trace dicts, `layout`: a dict) and make the
`go.Figure` once, without validation. The result is an ordinary `go.Figure` (st.plotly_chart
takes it, `fig.data[0].z` reads it); tests/viz/test_figure_specs.py checks that validating every
builder's output would change nothing, and bench/figures.py times builders against the
graph_objects versions they replaced.

Validation also turned palette names into lists ("Viridis" -> [[0, "#440154"], ...]); plotly.js
knows only some names ("RdBu_r", "Magma" are plotly.py's), so `named_colorscale` does it here.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import plotly.graph_objects as go

from .a11y import HEADS
from .axes import thin_token_axes
from .labels import title_label
from .margins import MODEBAR_PX, reserve_margins
from .theme import apply as apply_theme

# plotly.js keeps the typed array it decodes from a trace's x, y or customdata beside the spec it
# came in, and at the next Plotly.react with that same figure takes them for new data and draws
# the whole chart again; Streamlit's chart calls it so right after it mounts a changed chart (a
# second full draw of every changed chart). Sent as lists they are left
# alone; a heatmap's z (the payload) stays a typed array, which does not do this.
_LIST_KEYS = ("x", "y", "customdata")
_LIST_MAX = 20_000  # values: past this the payload weighs more (a 512-token head's positions)


def _lists(trace: dict) -> dict:
    for key in _LIST_KEYS:
        value = trace.get(key)
        if isinstance(value, np.ndarray) and value.size <= _LIST_MAX:
            trace[key] = value.tolist()
    return trace


def figure(data: list[dict], layout: dict) -> go.Figure:
    """A go.Figure of `data` (trace dicts, each with its "type") and `layout`, unvalidated.

    A None value means "not set", as it does for graph_objects (top-level keys of a trace or of
    the layout). The figure has no template: its layout carries viz/theme.py's style (with
    Streamlit's theme the browser drew every chart twice), added after the margins are raised to
    fit the labels (viz/margins.py). So every axis lets its labels overflow its domain
    (`ticklabeloverflow` "allow"): plotly.js's default, "hide past div", measures every tick
    label's box after drawing it, about a quarter of the axes' drawing time (CPU profile of a
    heads step on the home page). An axis that draws no labels (one kept for the hover, its
    labels on an overlay) draws no tick marks either: with ticks "outside" (Streamlit's theme made
    them the default once) 512 marks drew a dotted band under a 512-token head (2,048 marks in a
    binned 16-head grid). `_validate=False` is plotly's own switch (plotly.io loads its templates
    so); should a plotly release drop it, go.Figure raises and tests/viz fail at once. A trace's
    x, y and customdata go out as lists (`_LIST_KEYS`, up to `_LIST_MAX` values).
    """
    data = [_lists({k: v for k, v in tr.items() if v is not None}) for tr in data]
    layout = {k: v for k, v in layout.items() if v is not None}
    layout = apply_theme(data, reserve_margins(data, thin_token_axes(data, layout)))
    for key, axis in layout.items():
        if key[1:5] == "axis" and isinstance(axis, dict):
            axis.setdefault("ticklabeloverflow", "allow")  # labels fit the reserved margins
            if axis.get("showticklabels") is False:  # an axis kept for the hover: no tick marks
                axis.setdefault("ticks", "")
    # what the chart draws, for its name and table (viz/a11y.py): kept beside the figure, never
    # in it (the browser has no use for it; the payload stays as it was)
    meta = layout.get("meta")
    heads = meta.pop(HEADS, None) if isinstance(meta, dict) else None
    if meta == {}:
        layout.pop("meta")
    fig = go.Figure({"data": data, "layout": layout}, _validate=False)
    fig._layout.pop("template", None)  # go.Figure adds the session's default one
    if heads is not None:
        fig._lens_heads = heads
    return fig


# Colours Streamlit's chart component swaps for others in the figure's JSON text before plotly.js
# reads it, with or without its theme ("#000001"-"#000010": a categorical palette, "#000011"-
# "#000040": sequential, diverging and the theme's own; Streamlit 1.67, PlotlyChart.js). Magma
# starts at "#000004": its zero was drawn lilac (#ab63fa), brighter than a weight of 0.05.
STREAMLIT_PLACEHOLDERS = frozenset(f"#0000{i:02d}" for i in range(1, 41))


def streamlit_safe(colour: str) -> str:
    """`colour`, or the next one up in red (#000004 -> #010004, darker than anything else on
    the scale) when it is one that Streamlit would replace."""
    if colour.lower() in STREAMLIT_PLACEHOLDERS:
        return "#01" + colour[3:]
    return colour


@lru_cache(maxsize=32)
def _scale_pairs(name: str) -> tuple[tuple[float, str], ...]:
    scale = go.Heatmap(colorscale=name).to_plotly_json()["colorscale"]  # validated once
    return tuple((float(v), streamlit_safe(str(c))) for v, c in scale)


def named_colorscale(name: str) -> list[list]:
    """A palette name as the [[position, colour], ...] list that validation would have stored."""
    return [[v, c] for v, c in _scale_pairs(name)]


def style(layout: dict, *, height: int, title: str | None = None, top: int | None = None) -> dict:
    """Height, margins, an escaped title, and a transparent background so that the page theme
    (light or dark) shows through: the one style of every figure. `top` is the top margin
    (default 60 px with a title, 30 without); `reserve_margins` raises the margins later to fit
    the labels. Changes and returns `layout`."""
    layout.update(
        height=height,
        margin={"l": 10, "r": 10, "t": top if top is not None else 60 if title else 30, "b": 10},
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
    )
    if title:  # its top just below the toolbar (shown at all times on a touch screen)
        y = 1.0 - MODEBAR_PX / height
        layout["title"] = {"text": title_label(title), "yref": "container", "y": y}
        layout["title"]["yanchor"] = "top"
    return layout


SELECTED_LINE = "#E69F00"  # Okabe-Ito orange: visible on Viridis


def outline(x0: float, x1: float, y0: float, y1: float) -> dict:
    """A selected cell or block outlined: a rectangle shape around data cells x0..x1, y0..y1
    (the cells' centres; the outline follows their edges)."""
    return {
        "type": "rect",
        "x0": x0 - 0.5,
        "x1": x1 + 0.5,
        "y0": y0 - 0.5,
        "y1": y1 + 0.5,
        "line": {"color": SELECTED_LINE, "width": 3},
    }


def axis_key(i: int, letter: str = "x") -> str:
    """Layout key of the i-th (1-based) axis: "xaxis", "xaxis2", ..."""
    return f"{letter}axis{i if i > 1 else ''}"


def subplot_grid(
    rows: int,
    cols: int,
    *,
    titles: list[str] | tuple[str, ...] = (),
    horizontal_spacing: float | None = None,
    vertical_spacing: float | None = None,
) -> dict:
    """The layout `make_subplots(rows, cols, subplot_titles=titles, ...)` makes, as a dict.

    Cell k (row-major from the top left) has axes `axis_key(k + 1)`; its traces take
    xaxis="x{k+1}", yaxis="y{k+1}" (see `cell_axes`). Titles are used as given (escape first).
    The arithmetic is make_subplots' own, so the domains are the same floats.
    """
    hs = (0.2 / cols) if horizontal_spacing is None else horizontal_spacing
    vs = ((0.5 if titles else 0.3) / rows) if vertical_spacing is None else vertical_spacing
    widths = [(1.0 - hs * (cols - 1)) / cols] * cols
    heights = [(1.0 - vs * (rows - 1)) / rows] * rows
    layout: dict = {}
    x_domains, y_domains = [], []
    for r in range(rows):
        rr = rows - 1 - r  # make_subplots counts its grid from the bottom row
        for c in range(cols):
            x0 = sum(widths[:c]) + c * hs
            y0 = sum(heights[:rr]) + rr * vs
            x_dom = [x0, x0 + widths[c]]
            y_dom = [_clip(y0), _clip(y0 + heights[-1 - r])]
            k = r * cols + c + 1
            suffix = k if k > 1 else ""
            # the axes get the domain clamped to [0, 1], the titles are centred on the unclamped
            x_axis = [max(0.0, x_dom[0]), min(1.0, x_dom[1])]
            y_axis = [max(0.0, y_dom[0]), min(1.0, y_dom[1])]
            layout[axis_key(k)] = {"anchor": f"y{suffix}", "domain": x_axis}
            layout[axis_key(k, "y")] = {"anchor": f"x{suffix}", "domain": y_axis}
            x_domains.append(x_dom)
            y_domains.append(y_dom)
    annotations = [
        {
            "font": {"size": 16},
            "showarrow": False,
            "text": text,
            "x": sum(x_domains[i]) / 2.0,
            "xanchor": "center",
            "xref": "paper",
            "y": y_domains[i][1],
            "yanchor": "bottom",
            "yref": "paper",
        }
        for i, text in enumerate(titles)
        if text and i < len(y_domains)
    ]
    if annotations:
        layout["annotations"] = annotations
    return layout


def _clip(v: float) -> float:
    """make_subplots rounds domain ends within 0.01 outside [0, 1] onto the edge."""
    return 0.0 if -0.01 < v < 0.0 else 1.0 if 1.0 < v < 1.01 else v


def cell_axes(k: int) -> dict:
    """The trace keys that put a trace in cell k (0-based) of a `subplot_grid`."""
    suffix = k + 1 if k else ""
    return {"xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}
