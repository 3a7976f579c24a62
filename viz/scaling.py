"""Figures of the scaling lab (1/sqrt(d_k)): numpy in, plotly Figure out.

Unscaled is always the first colour (vermillion), scaled the second (blue), theory and
references grey and dashed: the same code in every figure of the page.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .figure import axis_key, cell_axes, figure, style, subplot_grid
from .heatmap import DEFAULT_PALETTE, heatmap_row
from .labels import escape_label, escape_labels
from .lines import line_layout, line_trace
from .margins import legend_below, legend_room

UNSCALED = "#D55E00"  # Okabe-Ito vermillion
SCALED = "#0072B2"  # Okabe-Ito blue
THEORY = "#555555"
MARK = "#009E73"  # Okabe-Ito bluish green


def _log2_ticks(values, every: int = 1) -> dict:
    """A log axis with ticks at powers of two (every `every`-th one) covering `values`."""
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v) & (v > 0)]
    lo, hi = int(np.floor(np.log2(v.min()))), int(np.ceil(np.log2(v.max())))
    ticks = [2**e for e in range(lo, hi + 1) if (e - lo) % every == 0]
    return {"type": "log", "tickvals": ticks, "ticktext": [f"{x:g}" for x in ticks]}


def _line(x, series: tuple, **kw) -> dict:
    """The page's curve from a series (y, name, colour, dash, markers): markers of size 6 (also
    in the legend of a plain line)."""
    y, name, color, dash, markers = series
    return line_trace(x, y, name=name, color=color, dash=dash, markers=markers, marker_size=6, **kw)


def std_figure(
    d_k: np.ndarray,
    std: np.ndarray,
    theory: np.ndarray,
    scaled_std: np.ndarray,
    scaled_theory: np.ndarray,
    *,
    names: tuple[str, str, str, str] = (
        "measured std(q·k)",
        "theory √d_k",
        "measured std(q·k/√d_k)",
        "theory 1",
    ),
    x_title: str = "d_k",
    y_title: str = "standard deviation",
    height: int = 420,
) -> go.Figure:
    """std of q.k against d_k (log-log: sqrt is a straight line of slope 1/2), measured over
    theory, and the same after dividing by sqrt(d_k)."""
    d_k = np.asarray(d_k)
    x_t = escape_label(x_title)
    series = (
        (std, names[0], UNSCALED, "solid", True),
        (theory, names[1], THEORY, "dash", False),
        (scaled_std, names[2], SCALED, "solid", True),
        (scaled_theory, names[3], THEORY, "dot", False),
    )
    data = [
        _line(
            d_k,
            s,
            hovertemplate=f"{escape_label(s[1])}<br>{x_t} = %{{x}}<br>%{{y:.6f}}<extra></extra>",
        )
        for s in series
    ]
    all_y = np.concatenate([np.ravel(y) for y, *_ in series])
    layout = line_layout(
        x_title=x_title,
        y_title=y_title,
        height=height,
        xaxis=_log2_ticks(d_k),
        yaxis=_log2_ticks(all_y),
    )
    # the legend at the figure's foot, under the axis title: at a share of the plot's height
    # (y = -0.2) the title "d_k" sat on it on a phone, where the d_k labels stand upright
    layout["legend"] = legend_below()
    layout["margin"]["b"] = legend_room(names) + 16  # (upright labels: "1024" hangs lower)
    return figure(data, layout)


def histogram_figure(
    unscaled: np.ndarray,
    scaled: np.ndarray,
    *,
    names: tuple[str, str] = ("q·k", "q·k/√d_k"),
    x_title: str = "score",
    y_title: str = "density",
    height: int = 360,
) -> go.Figure:
    """The sampled scores at one d_k before and after scaling, as densities on one axis."""
    data = []
    for values, name, color in ((unscaled, names[0], UNSCALED), (scaled, names[1], SCALED)):
        label = escape_label(name)
        data.append(
            {
                "type": "histogram",
                "x": np.asarray(values, dtype=np.float64),
                "histnorm": "probability density",
                "nbinsx": 80,
                "name": label,
                "marker": {"color": color},
                "opacity": 0.6,
                "hovertemplate": f"{label}<br>%{{x}}<br>{escape_label(y_title)} = %{{y:.6f}}"
                "<extra></extra>",
            }
        )
    layout = line_layout(x_title=x_title, y_title=y_title, height=height, barmode="overlay")
    return figure(data, layout)


def _panels(titles, x_title: str, x_axis: dict, *, spacing: float, height: int) -> dict:
    """One row of len(titles) panels over the same x (a log axis), legend under them."""
    n = len(titles)
    layout = subplot_grid(1, n, titles=escape_labels(titles), horizontal_spacing=spacing)
    for c in range(n):
        layout[axis_key(c + 1)].update(title={"text": escape_label(x_title)}, **x_axis)
    layout["legend"] = {"orientation": "h", "y": -0.25}
    return style(layout, height=height)


def saturation_figure(
    d_k: np.ndarray,
    max_weight: np.ndarray,
    entropy: np.ndarray,
    jacobian: np.ndarray,
    uniform: tuple[float, float, float],
    *,
    titles: tuple[str, str, str] = ("mean max weight", "mean entropy (nats)", "‖softmax Jacobian‖"),
    names: tuple[str, str, str] = ("unscaled", "scaled by 1/√d_k", "uniform weights 1/T"),
    x_title: str = "d_k",
    height: int = 400,
) -> go.Figure:
    """Three panels, each unscaled against scaled over d_k, with the uniform-weights reference.

    max_weight, entropy, jacobian: (2, n) arrays, row 0 unscaled, row 1 scaled.
    """
    d_k = np.asarray(d_k)
    x_t = escape_label(x_title)
    data = []
    for c, (vals, ref, title) in enumerate(zip((max_weight, entropy, jacobian), uniform, titles)):
        vals = np.asarray(vals, dtype=np.float64)
        if vals.shape != (2, len(d_k)):
            raise ValueError(f"{title}: expected shape (2, {len(d_k)}), got {vals.shape}")
        t_lab = escape_label(title)
        curves = (
            (vals[0], names[0], UNSCALED, "solid", True),
            (vals[1], names[1], SCALED, "solid", True),
            (np.full(len(d_k), ref), names[2], THEORY, "dot", False),
        )
        for curve in curves:
            label = escape_label(curve[1])
            flat = not curve[4]  # the reference: the same at every d_k, no x in its hover
            who = f"{label}<br>" if flat else f"{label}<br>{x_t} = %{{x}}<br>"
            data.append(
                _line(
                    d_k,
                    curve,
                    legendgroup=label,
                    showlegend=c == 0,
                    hovertemplate=f"{who}{t_lab} = %{{y:.6g}}<extra></extra>",
                    **cell_axes(c),
                )
            )
    layout = _panels(titles, x_title, _log2_ticks(d_k, every=2), spacing=0.08, height=height)
    return figure(data, layout)


def heatmap_pair(
    left: np.ndarray,
    right: np.ndarray,
    tokens,
    *,
    titles: tuple[str, str],
    value_label: str = "weight",
    x_title: str = "key",
    y_title: str = "query",
    colorscale: str = DEFAULT_PALETTE,
) -> go.Figure:
    """Two (T, T) weight matrices side by side on one shared colour scale [0, largest]."""
    return heatmap_row(
        (left, right),
        (tokens, tokens),
        titles=titles,
        value_label=value_label,
        x_title=x_title,
        y_title=y_title,
        colorscale=colorscale,
        horizontal_spacing=0.1,
        height=max(360, min(720, 120 + 20 * len(tokens))),
    )


def temperature_figure(
    temperatures: np.ndarray,
    entropy: np.ndarray,
    max_weight: np.ndarray,
    marks: list[tuple[float, float, float, str]],
    *,
    titles: tuple[str, str] = ("mean entropy (nats)", "mean max weight"),
    curve_name: str = "softmax(QKᵀ/τ)",
    x_title: str = "temperature τ",
    height: int = 360,
) -> go.Figure:
    """Entropy and max weight of softmax(scores / tau) against tau (log axis), with marked
    points (tau, entropy, max weight, label): e.g. tau = 1 (unscaled), sqrt(d_k) (scaled)."""
    taus = np.asarray(temperatures, dtype=np.float64)
    symbols = ("circle", "diamond", "star", "square")
    data = []
    for c, (vals, title) in enumerate(zip((entropy, max_weight), titles)):
        t_lab = escape_label(title)
        data.append(
            _line(
                taus,
                (vals, curve_name, THEORY, "solid", False),
                legendgroup="curve",
                showlegend=c == 0,
                hovertemplate=f"τ = %{{x:.4g}}<br>{t_lab} = %{{y:.6f}}<extra></extra>",
                **cell_axes(c),
            )
        )
        for j, (tau, ent, mw, label) in enumerate(marks):
            lab = escape_label(label)
            data.append(
                {
                    "type": "scatter",
                    "x": [tau],
                    "y": [ent if c == 0 else mw],
                    "mode": "markers",
                    "marker": {
                        "size": 13,
                        "symbol": symbols[j % len(symbols)],
                        "color": (UNSCALED, SCALED, MARK, THEORY)[j % 4],
                        "line": {"width": 1, "color": "white"},
                    },
                    "name": lab,
                    "legendgroup": lab,
                    "showlegend": c == 0,
                    "hovertemplate": f"{lab}<br>τ = %{{x:.4g}}<br>{t_lab} = %{{y:.6f}}"
                    "<extra></extra>",
                    **cell_axes(c),
                }
            )
    layout = _panels(titles, x_title, _log2_ticks(taus, every=2), spacing=0.1, height=height)
    return figure(data, layout)
