"""Reading a head grid (`viz.head_grid`) back from its JSON spec: one heatmap trace whose heads
are blocks of cells between empty (NaN) rows and columns (and, for the other heatmaps the app
tests read this way, one trace per matrix). `from tests.helpers.grid import grid_heads, ...`."""

from __future__ import annotations

import numpy as np

from tests.helpers.app import plotly_array
from viz.heatmap import GAP_TICK


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """[start, stop) of every run of True."""
    out, start = [], None
    for i, f in enumerate(list(flags) + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            out.append((start, i))
            start = None
    return out


def heatmaps(fig: dict) -> list[dict]:
    return [d for d in fig["data"] if d["type"] == "heatmap"]


def blocks(fig: dict) -> list[tuple[dict, slice, slice]]:
    """(trace, rows, cols) of every head, row by row of heads (row-major)."""
    out = []
    for tr in heatmaps(fig):
        z = plotly_array(tr["z"]).astype(float)
        has = ~np.isnan(z)
        for r0, r1 in _runs(has.any(axis=1)):
            for c0, c1 in _runs(has.any(axis=0)):
                if has[r0:r1, c0:c1].any():
                    out.append((tr, slice(r0, r1), slice(c0, c1)))
    return out


def grid_heads(fig: dict) -> np.ndarray:
    """(nh, Tq, Tk) the weights of every head, exact (float32): from z, or from the hover's
    customdata where each head's colours are stretched to its own range."""
    heads = []
    for tr, rows, cols in blocks(fig):
        cd = plotly_array(tr["customdata"]) if tr.get("customdata") is not None else None
        stretched = cd is not None and cd.ndim == 3 and cd.shape[-1] == 3
        values = cd[..., 2] if stretched else plotly_array(tr["z"])
        heads.append(np.asarray(values[rows, cols], dtype=np.float32))
    return np.stack(heads)


def grid_columns(fig: dict) -> int:
    """Heads side by side in a row: the titles (annotations) standing highest."""
    titles = fig["layout"]["annotations"]
    top = min(a["y"] for a in titles) if len(heatmaps(fig)) == 1 else max(a["y"] for a in titles)
    return sum(a["y"] == top for a in titles)


def grid_tokens(fig: dict, axis: str = "x") -> list[str]:
    """The tokens on the x (keys) or y (queries) axis of the first head, as the spec holds
    them (escaped); the hover reads them there."""
    tr, rows, cols = blocks(fig)[0]
    ax = fig["layout"][f"{axis}axis{tr.get(axis + 'axis', axis)[1:]}"]
    span = cols if axis == "x" else rows
    coords = None if tr.get(axis) is None else plotly_array(tr[axis])
    lo = (coords[span.start] if coords is not None else span.start) - 0.5
    hi = lo + (span.stop - span.start)
    return [t for v, t in zip(ax["tickvals"], ax["ticktext"]) if lo < v < hi]


def key_axes(fig: dict) -> list[dict]:
    """The overlay x axes of a one-trace grid that draw key labels, top row of heads first."""
    layout = fig["layout"]
    axes = [a for k, a in layout.items() if k.startswith("xaxis") and a.get("overlaying") == "x"]
    return sorted(axes, key=lambda a: -a["position"])


def drawn_key_labels(fig: dict) -> list[list[str]]:
    """Per row of heads (top first), the key labels drawn under it in a one-trace grid: by an
    overlay x axis, or under the last row by the trace's own x axis."""
    layout = fig["layout"]
    rows = [a["ticktext"] for a in key_axes(fig)]
    if layout["xaxis"].get("showticklabels", True):
        rows.append(layout["xaxis"]["ticktext"])
    # an empty tick in a gap between heads draws nothing (viz.heatmap: it aligns the phone's
    # thinning of each head's labels)
    return [[text for text in row if text != GAP_TICK] for row in rows]


def gap_ticks(axis: dict) -> list[float]:
    """The positions of an axis' empty ticks (in the gaps between heads)."""
    return [v for v, text in zip(axis["tickvals"], axis["ticktext"]) if text == GAP_TICK]


def drawn_query_labels(fig: dict) -> list[str]:
    """The query labels drawn beside the rows of a one-trace grid, top to bottom: by an overlay
    y axis, or by the trace's own y axis."""
    layout = fig["layout"]
    over = [a for k, a in layout.items() if k.startswith("yaxis") and a.get("overlaying") == "y"]
    if over:
        return over[0]["ticktext"]
    return layout["yaxis"]["ticktext"] if layout["yaxis"].get("showticklabels", True) else []


def is_one_trace_grid(fig: dict) -> bool:
    """A head grid drawn as one trace: its rows of heads have key axes anchored free."""
    layout = fig["layout"]
    return any(
        k.startswith("xaxis") and isinstance(a, dict) and a.get("anchor") == "free"
        for k, a in layout.items()
    )
