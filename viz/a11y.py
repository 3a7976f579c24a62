"""What a chart shows, in words and in numbers: for a reader who cannot see it or cannot hover.

One place for every figure: `describe(fig)` reads a finished figure (viz.figure made it) and
returns its `Part`s, each a table of the numbers the chart draws with the labels of its axes:
a heatmap's matrix with the tokens of its rows and columns, a line or bar chart's series over
their x values, the heads of a head grid (viz.heads puts the weights it drew in the figure's
`layout.meta[HEADS]`, which viz.figure keeps beside the figure: its one trace is a mosaic of
blocks and gaps, not a table). The page's
drawing path (ui/widgets.plot) turns the parts into the chart's accessible name, in the app's
language, and into `st.dataframe`s when the student asks for tables.

Builders need do nothing: the words come from what the figure already carries (its title, its
subplot titles, its axis titles, the value named in its hover, its traces' names, the words
written on a diagram). A builder whose traces draw several heads in a way that is no table (a
mosaic, lines) says so with `layout.meta[HEADS]`.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import numpy as np

# layout.meta key of a builder's figure: {"weights": (nh, Tq, Tk), "q": [...], "k": [...], ...}
# (`heads_meta`); viz.figure keeps it beside the figure (`fig._lens_heads`), never sends it
HEADS = "heads"
MAX_CELLS = 250_000  # a table past this keeps its first rows (a 512 x 512 head is 262,144)

HEATMAP, HEADS_KIND, LINES, POINTS, BARS, HISTOGRAM = (
    "heatmap", "heads", "lines", "points", "bars", "histogram",
)  # fmt: skip


@dataclass
class Part:
    """One table of a chart: `values` (rows, cols) with a label per row and per column.

    kind: what draws it (HEATMAP, HEADS_KIND, LINES, POINTS, BARS, HISTOGRAM); title: the
    subplot's or head's title ("" for none); row_title / col_title: what the rows and columns
    are ("query", "key", the x axis' title); value: what the numbers are ("weight"); heads: for
    HEADS_KIND, the heads' titles (the rows are then every head's queries in turn, `rows` the
    queries of one head and `values` (nh * Tq, Tk)); cut: rows left out past MAX_CELLS."""

    kind: str
    values: np.ndarray
    rows: list[str]
    cols: list[str]
    title: str = ""
    row_title: str = ""
    col_title: str = ""
    value: str = ""
    heads: list[str] = field(default_factory=list)
    cut: int = 0

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) as the chart draws them: for heads, one head's."""
        n = len(self.rows) if self.heads else self.values.shape[0]
        return n, self.values.shape[1]


def heads_meta(weights, q, k, titles, value: str = "", q_title: str = "", k_title: str = ""):
    """What a builder puts in `layout.meta[HEADS]` for a chart of several heads' (Tq, Tk)
    matrices: weights (nh, Tq, Tk), the query and key labels, one title per head."""
    return {
        "weights": weights, "q": list(q), "k": list(k), "titles": list(titles), "value": value,
        "q_title": q_title, "k_title": k_title,
    }  # fmt: skip


_TAG = re.compile(r"<[^>]*>")


def plain(text) -> str:
    """A label as a reader hears it: Plotly's markup gone (<br> a space), entities decoded."""
    if text is None:
        return ""
    text = re.sub(r"<br\s*/?>", " ", str(text), flags=re.I)
    return " ".join(html.unescape(_TAG.sub("", text)).split())


def _title(obj) -> str:
    if isinstance(obj, dict):
        return plain(obj.get("text", ""))
    return plain(obj) if isinstance(obj, str) else ""


def _axis(layout: dict, ref: str | None, letter: str) -> dict:
    """The layout axis a trace's `xaxis` / `yaxis` reference ("x2") names."""
    ref = ref or letter
    axis = layout.get(f"{letter}axis{ref[1:]}")
    return axis if isinstance(axis, dict) else {}


def _labels(values, axis: dict, n: int) -> list[str]:
    """Labels of n positions: the trace's own x/y when they are text, else each position's
    tick text when the axis has one (tokens), else the number."""
    if values is None:
        values = list(range(n))
    values = list(np.asarray(values).tolist()) if not isinstance(values, list) else values
    ticks = dict(zip(axis.get("tickvals") or [], axis.get("ticktext") or []))
    out = []
    for v in values[:n]:
        text = ticks.get(v, v)
        if isinstance(text, float):
            text = f"{text:.6g}"
        out.append(plain(text))
    return out + [str(i) for i in range(len(out), n)]


_VALUE = re.compile(r"(?:^|<br>)([^<>=]+?)\s*=\s*%\{(?:z|customdata\[\d\])")


def _value_name(trace: dict) -> str:
    """What a heatmap's numbers are, as its hover names them ("weight = %{z:.4f}")."""
    found = _VALUE.findall(str(trace.get("hovertemplate") or ""))
    if found:
        return plain(found[-1])
    bar = trace.get("colorbar")
    return _title(bar.get("title")) if isinstance(bar, dict) else ""


def _cut(values: np.ndarray) -> tuple[np.ndarray, int]:
    if values.size <= MAX_CELLS or values.ndim < 2:
        return values, 0
    keep = max(1, MAX_CELLS // max(values.shape[1], 1))
    return values[:keep], values.shape[0] - keep


def _unique(labels: list[str]) -> list[str]:
    """Labels a table can hold: repeated ones ("the" twice) numbered by position."""
    if len(set(labels)) == len(labels):
        return labels
    return [f"{i}: {s}" for i, s in enumerate(labels)]


def _heads_part(meta: dict) -> Part:
    w = np.asarray(meta["weights"], dtype=np.float64)
    nh, t_q, t_k = w.shape
    values, cut = _cut(w.reshape(nh * t_q, t_k))
    return Part(
        HEADS_KIND, values, _unique([plain(s) for s in meta["q"]]),
        _unique([plain(s) for s in meta["k"]]), row_title=plain(meta.get("q_title", "")),
        col_title=plain(meta.get("k_title", "")), value=plain(meta.get("value", "")),
        heads=[plain(s) for s in meta["titles"]], cut=cut,
    )  # fmt: skip


def _subplot_titles(layout: dict) -> dict[str, str]:
    """The titles make_subplots-style grids put above their cells (paper annotations), by the
    x axis they stand over ("x2")."""
    out = {}
    for note in layout.get("annotations") or []:
        if not isinstance(note, dict) or note.get("xref") != "paper":
            continue
        if note.get("yanchor") != "bottom" or note.get("showarrow", True):
            continue
        for key, axis in layout.items():
            dom = axis.get("domain") if key.startswith("xaxis") and isinstance(axis, dict) else 0
            if dom and abs((dom[0] + dom[1]) / 2 - float(note.get("x", -1))) < 1e-6:
                out.setdefault("x" + key[5:], _title(note))
    return out


def _heatmap(trace: dict, layout: dict, titles: dict) -> Part | None:
    z = trace.get("z")
    if z is None:
        return None
    z = np.asarray(z, dtype=np.float64)
    if z.ndim != 2 or not z.size:
        return None
    xa, ya = _axis(layout, trace.get("xaxis"), "x"), _axis(layout, trace.get("yaxis"), "y")
    rows = _unique(_labels(trace.get("y"), ya, z.shape[0]))
    cols = _unique(_labels(trace.get("x"), xa, z.shape[1]))
    values, cut = _cut(z)
    name = plain(trace.get("name")) or titles.get(trace.get("xaxis") or "x", "")
    return Part(
        HEATMAP, values, rows, cols, title=name, row_title=_title(ya.get("title")),
        col_title=_title(xa.get("title")), value=_value_name(trace), cut=cut,
    )  # fmt: skip


def _hidden(trace: dict) -> bool:
    """A trace drawn for the mouse only (clear click targets) or not drawn at all."""
    marker = trace.get("marker") if isinstance(trace.get("marker"), dict) else {}
    clear = str(marker.get("color", "")).replace(" ", "") in ("rgba(0,0,0,0)", "transparent")
    return trace.get("visible") is False or trace.get("opacity") == 0 or clear


def _kind(trace: dict) -> str:
    kind = trace.get("type", "scatter")
    if kind == "bar":
        return BARS
    if kind == "histogram":
        return HISTOGRAM
    return LINES if "lines" in str(trace.get("mode", "lines")) else POINTS


def _xy(trace: dict) -> tuple[list, np.ndarray] | None:
    """A trace's x values and its numbers (y; x for a horizontal bar), or None for a trace
    without numbers (an empty one that only anchors an axis, a text label)."""
    x, y = trace.get("x"), trace.get("y")
    if trace.get("orientation") == "h":
        x, y = y, x
    if y is None and trace.get("type") == "histogram":
        x, y = None, x
    if y is None:
        return None
    try:
        ys = np.asarray(y, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        return None
    if not ys.size:
        return None
    xs = list(range(ys.size)) if x is None else list(np.asarray(x).reshape(-1).tolist())
    return xs[: ys.size], ys


def _series(traces: list[dict], layout: dict, titles: dict) -> list[Part]:
    """Line, point and bar traces: those of one kind on the same axes over the same x values
    in one table (a column per trace), the others each in their own."""
    groups: dict[tuple, list] = {}
    for tr in traces:
        xy = None if _hidden(tr) else _xy(tr)
        if xy is None:
            continue
        axes = (tr.get("xaxis") or "x", tr.get("yaxis") or "y")
        if tr.get("orientation") == "h":
            axes = axes[::-1]
        key = (_kind(tr), axes, tuple(map(str, xy[0])))
        groups.setdefault(key, []).append((tr, xy))
    parts = []
    for (kind, (x_ref, y_ref), _), members in groups.items():
        xa, ya = _axis(layout, x_ref, x_ref[0]), _axis(layout, y_ref, y_ref[0])
        xs = members[0][1][0]
        names = [plain(tr.get("name")) or plain(tr.get("legendgroup")) for tr, _ in members]
        if len(members) == 1 and not names[0]:
            names = [_title(ya.get("title")) or "y"]
        names = _unique([n or f"{i + 1}" for i, n in enumerate(names)])
        values, cut = _cut(np.stack([ys for _, (_, ys) in members], axis=1))
        rows = _unique(_labels(xs, xa, len(xs)))[: values.shape[0]]
        parts.append(
            Part(
                kind,
                values,
                rows,
                names,
                title=titles.get(x_ref, ""),
                row_title=_title(xa.get("title")),
                col_title="",
                value=_title(ya.get("title")),
                cut=cut,
            )  # fmt: skip
        )
    return parts


def labels(fig) -> list[str]:
    """The texts written on a chart (its annotations), for a chart without numbers: a diagram
    of blocks and arrows."""
    notes = fig._layout.get("annotations") or []
    return [t for t in (plain(n.get("text")) for n in notes if isinstance(n, dict)) if t]


def describe(fig) -> tuple[str, list[Part]]:
    """The chart's title (plain text, "" for none) and its tables, read from the finished
    figure (its own dicts: no copy)."""
    data, layout = fig._data, fig._layout
    title = _title(layout.get("title"))
    heads = getattr(fig, "_lens_heads", None)
    if heads:  # its traces draw the heads (a mosaic, lines): the heads are the table
        return title, [_heads_part(heads)]
    titles = _subplot_titles(layout)
    parts: list[Part] = []
    for tr in data:
        if tr.get("type") == "heatmap":
            part = _heatmap(tr, layout, titles)
            if part is not None:
                parts.append(part)
    parts += _series([tr for tr in data if tr.get("type") != "heatmap"], layout, titles)
    return title, parts
