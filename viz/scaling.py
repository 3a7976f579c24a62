"""Figures of the scaling lab (1/sqrt(d_k)): numpy in, plotly Figure out.

Unscaled is always the first colour (vermillion), scaled the second (blue), theory and
references grey and dashed: the same code in every figure of the page.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .heatmap import DEFAULT_PALETTE, _axis_ticks, _y_axis_ticks, heatmap_trace, style
from .labels import check_lengths, escape_label, escape_labels

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


def _line(x, y, *, name: str, color: str, dash: str = "solid", markers: bool = True, **kw):
    label = escape_label(name)
    return go.Scatter(
        x=np.asarray(x),
        y=np.asarray(y, dtype=np.float64),
        mode="lines+markers" if markers else "lines",
        marker={"size": 6},
        line={"color": color, "dash": dash, "width": 2},
        name=label,
        **kw,
    )


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
    fig = go.Figure()
    for y, name, color, dash, markers in series:
        label = escape_label(name)
        fig.add_trace(
            _line(
                d_k,
                y,
                name=name,
                color=color,
                dash=dash,
                markers=markers,
                hovertemplate=f"{label}<br>{x_t} = %{{x}}<br>%{{y:.6f}}<extra></extra>",
            )
        )
    fig.update_xaxes(title_text=x_t, **_log2_ticks(d_k))
    all_y = np.concatenate([np.ravel(y) for y, *_ in series])
    fig.update_yaxes(title_text=escape_label(y_title), **_log2_ticks(all_y))
    fig.update_layout(legend={"orientation": "h", "y": -0.2})
    return style(fig, height=height)


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
    fig = go.Figure()
    for values, name, color in ((unscaled, names[0], UNSCALED), (scaled, names[1], SCALED)):
        label = escape_label(name)
        fig.add_trace(
            go.Histogram(
                x=np.asarray(values, dtype=np.float64),
                histnorm="probability density",
                nbinsx=80,
                name=label,
                marker={"color": color},
                opacity=0.6,
                hovertemplate=f"{label}<br>%{{x}}<br>{escape_label(y_title)} = %{{y:.6f}}"
                "<extra></extra>",
            )
        )
    fig.update_layout(barmode="overlay", legend={"orientation": "h", "y": -0.25})
    fig.update_xaxes(title_text=escape_label(x_title))
    fig.update_yaxes(title_text=escape_label(y_title))
    return style(fig, height=height)


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
    fig = make_subplots(
        rows=1, cols=3, subplot_titles=escape_labels(titles), horizontal_spacing=0.08
    )
    x_t = escape_label(x_title)
    for c, (vals, ref, title) in enumerate(zip((max_weight, entropy, jacobian), uniform, titles)):
        vals = np.asarray(vals, dtype=np.float64)
        if vals.shape != (2, len(d_k)):
            raise ValueError(f"{title}: expected shape (2, {len(d_k)}), got {vals.shape}")
        t_lab = escape_label(title)
        for s, (name, color) in enumerate(zip(names[:2], (UNSCALED, SCALED))):
            label = escape_label(name)
            fig.add_trace(
                _line(
                    d_k,
                    vals[s],
                    name=name,
                    color=color,
                    legendgroup=label,
                    showlegend=c == 0,
                    hovertemplate=f"{label}<br>{x_t} = %{{x}}<br>{t_lab} = %{{y:.6g}}"
                    "<extra></extra>",
                ),
                row=1,
                col=c + 1,
            )
        label = escape_label(names[2])
        fig.add_trace(
            _line(
                d_k,
                np.full(len(d_k), ref),
                name=names[2],
                color=THEORY,
                dash="dot",
                markers=False,
                legendgroup=label,
                showlegend=c == 0,
                hovertemplate=f"{label}<br>{t_lab} = %{{y:.6g}}<extra></extra>",
            ),
            row=1,
            col=c + 1,
        )
        fig.update_xaxes(title_text=x_t, **_log2_ticks(d_k, every=2), row=1, col=c + 1)
    fig.update_layout(legend={"orientation": "h", "y": -0.25})
    return style(fig, height=height)


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
    mats = [np.asarray(m, dtype=np.float32) for m in (left, right)]
    for m in mats:
        check_lengths(m.shape, tokens, tokens)
    t = len(tokens)
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=escape_labels(titles), horizontal_spacing=0.1
    )
    for c, (m, title) in enumerate(zip(mats, titles)):
        tr = heatmap_trace(
            m, tokens, tokens, zmin=None, zmax=None, value_label=value_label, coloraxis="coloraxis"
        )
        tr.update(name=escape_label(title))
        fig.add_trace(tr, row=1, col=c + 1)
        fig.update_xaxes(_axis_ticks(tokens), title_text=escape_label(x_title), row=1, col=c + 1)
        fig.update_yaxes(_y_axis_ticks(tokens), row=1, col=c + 1)
    fig.update_yaxes(title_text=escape_label(y_title), row=1, col=1)
    zmax = max(float(m.max()) for m in mats) if t else 1.0
    fig.update_layout(coloraxis={"colorscale": colorscale, "cmin": 0.0, "cmax": zmax})
    return style(fig, height=max(360, min(720, 120 + 20 * t)))


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
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=escape_labels(titles), horizontal_spacing=0.1
    )
    x_t = escape_label(x_title)
    symbols = ("circle", "diamond", "star", "square")
    for c, (vals, title) in enumerate(zip((entropy, max_weight), titles)):
        t_lab = escape_label(title)
        fig.add_trace(
            _line(
                taus,
                vals,
                name=curve_name,
                color=THEORY,
                markers=False,
                legendgroup="curve",
                showlegend=c == 0,
                hovertemplate=f"τ = %{{x:.4g}}<br>{t_lab} = %{{y:.6f}}<extra></extra>",
            ),
            row=1,
            col=c + 1,
        )
        for j, (tau, ent, mw, label) in enumerate(marks):
            lab = escape_label(label)
            fig.add_trace(
                go.Scatter(
                    x=[tau],
                    y=[ent if c == 0 else mw],
                    mode="markers",
                    marker={
                        "size": 13,
                        "symbol": symbols[j % len(symbols)],
                        "color": (UNSCALED, SCALED, MARK, THEORY)[j % 4],
                        "line": {"width": 1, "color": "white"},
                    },
                    name=lab,
                    legendgroup=lab,
                    showlegend=c == 0,
                    hovertemplate=f"{lab}<br>τ = %{{x:.4g}}<br>{t_lab} = %{{y:.6f}}<extra></extra>",
                ),
                row=1,
                col=c + 1,
            )
        fig.update_xaxes(title_text=x_t, **_log2_ticks(taus, every=2), row=1, col=c + 1)
    fig.update_layout(legend={"orientation": "h", "y": -0.25})
    return style(fig, height=height)
