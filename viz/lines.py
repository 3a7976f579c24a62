"""Line charts of the lab pages: one trace shape and one layout shape for every curve figure."""

from __future__ import annotations

import numpy as np

from .figure import style
from .labels import escape_label


def line_trace(
    x,
    y,
    *,
    name: str,
    color: str,
    hovertemplate: str,
    dash: str | None = None,
    width: float | None = 2,
    markers: bool = False,
    marker_size: int | None = None,
    **extra,
) -> dict:
    """One scatter trace (a dict): y as float64, the name escaped here (user text).

    markers: "lines+markers" instead of "lines". marker_size: the marker's size, also when the
    mode shows no markers (a legend entry then still carries it). dash / width None: not set.
    """
    line = {"color": color, "dash": dash, "width": width}
    tr = {
        "type": "scatter",
        "x": np.asarray(x),
        "y": np.asarray(y, dtype=np.float64),
        "mode": "lines+markers" if markers else "lines",
        "line": {k: v for k, v in line.items() if v is not None},
        "name": escape_label(name),
        "hovertemplate": hovertemplate,
        **extra,
    }
    if marker_size is not None:
        tr["marker"] = {"size": marker_size}
    return tr


def line_layout(
    *,
    x_title: str,
    y_title: str | None,
    height: int,
    legend_y: float = -0.25,
    xaxis: dict | None = None,
    yaxis: dict | None = None,
    **extra,
) -> dict:
    """Axis titles (escaped here), a horizontal legend under the plot, the shared style."""
    layout = {
        "xaxis": {"title": {"text": escape_label(x_title)}, **(xaxis or {})},
        "yaxis": {**(yaxis or {})},
        "legend": {"orientation": "h", "y": legend_y},
        **extra,
    }
    if y_title is not None:
        layout["yaxis"]["title"] = {"text": escape_label(y_title)}
    return style(layout, height=height)
