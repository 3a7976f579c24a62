"""Figures of the positional-encoding explorer: numpy in, plotly Figure out.

Signed values (the encoding, dot products) use the diverging palette, centred on 0. Every
user-derived string (tokens, and the labels the page passes in) goes through escape_label.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .heatmap import DIVERGING, _axis_ticks, _y_axis_ticks, attention_heatmap, heatmap_trace, style
from .labels import check_lengths, escape_label, escape_labels

# Okabe-Ito: distinguishable with every common colour-vision deficiency
QUALITATIVE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
_SHUFFLE_PALETTE = "Viridis"


def _colour(i: int) -> str:
    return QUALITATIVE[i % len(QUALITATIVE)]


def encoding_curves(
    pe: np.ndarray,
    dims,
    *,
    names: list[str],
    x_title: str = "position",
    y_title: str = "value",
    height: int = 380,
) -> go.Figure:
    """One line per chosen dimension d: PE[pos, d] against pos."""
    pe = np.asarray(pe, dtype=np.float64)
    dims = [int(d) for d in dims]
    if len(names) != len(dims):
        raise ValueError(f"{len(dims)} dimensions but {len(names)} names")
    if any(not 0 <= d < pe.shape[1] for d in dims):
        raise ValueError(f"dimensions must be in 0..{pe.shape[1] - 1}, got {dims}")
    pos = np.arange(pe.shape[0])
    fig = go.Figure()
    x_t, y_t = escape_label(x_title), escape_label(y_title)
    for j, (d, name) in enumerate(zip(dims, names)):
        label = escape_label(name)
        fig.add_trace(
            go.Scatter(
                x=pos,
                y=pe[:, d],
                mode="lines+markers" if len(pos) <= 64 else "lines",
                marker={"size": 4},
                line={"color": _colour(j), "width": 2},
                name=label,
                hovertemplate=f"{label}<br>{x_t} %{{x}}<br>{y_t} = %{{y:.6f}}<extra></extra>",
            )
        )
    fig.update_xaxes(title_text=x_t)
    fig.update_yaxes(title_text=y_t, range=[-1.1, 1.1], zeroline=True)
    fig.update_layout(legend={"orientation": "h", "y": -0.2}, hovermode="closest")
    return style(fig, height=height)


def encoding_heatmap(
    pe: np.ndarray,
    *,
    x_title: str = "dimension",
    y_title: str = "position",
    value_label: str = "PE",
    height: int | None = None,
) -> go.Figure:
    """The (positions x dimensions) table, blue below 0, red above, fixed to [-1, 1]."""
    pe = np.asarray(pe, dtype=np.float32)
    x_t, y_t = escape_label(x_title), escape_label(y_title)
    fig = go.Figure(
        go.Heatmap(
            z=pe,
            x=np.arange(pe.shape[1]),
            y=np.arange(pe.shape[0]),
            colorscale=DIVERGING,
            zmin=-1.0,
            zmax=1.0,
            hovertemplate=f"{y_t} %{{y}}<br>{x_t} %{{x}}<br>"
            f"{escape_label(value_label)} = %{{z:.6f}}<extra></extra>",
        )
    )
    fig.update_xaxes(title_text=x_t, showgrid=False, zeroline=False)
    fig.update_yaxes(title_text=y_t, autorange="reversed", showgrid=False, zeroline=False)
    return style(fig, height=height or max(320, min(640, 80 + 4 * pe.shape[0])))


def wavelength_chart(
    wavelengths: np.ndarray,
    *,
    n_positions: int | None = None,
    name: str = "wavelength",
    x_title: str = "pair i (dimensions 2i, 2i+1)",
    y_title: str = "wavelength (positions)",
    positions_label: str = "positions shown",
    height: int = 360,
) -> go.Figure:
    """The wavelength of each sin/cos pair on a log axis, with the number of positions shown as
    a second, flat trace (pairs above it never complete one cycle in the table)."""
    wl = np.asarray(wavelengths, dtype=np.float64)
    i = np.arange(len(wl))
    label, x_t, y_t = escape_label(name), escape_label(x_title), escape_label(y_title)
    fig = go.Figure(
        go.Scatter(
            x=i,
            y=wl,
            mode="lines+markers" if len(i) <= 64 else "lines",
            marker={"size": 5},
            line={"color": QUALITATIVE[0]},
            name=label,
            customdata=np.stack([2 * i, 2 * i + 1], axis=1),
            hovertemplate=f"{x_t}: %{{x}} (%{{customdata[0]}}, %{{customdata[1]}})<br>"
            f"{label} = %{{y:.6g}}<extra></extra>",
        )
    )
    if n_positions is not None:
        # a trace, not add_hline: annotations on log axes take log10 coordinates
        ref = f"{escape_label(positions_label)} = {n_positions}"
        fig.add_trace(
            go.Scatter(
                x=[i[0], i[-1]],
                y=[n_positions, n_positions],
                mode="lines",
                line={"dash": "dot", "color": QUALITATIVE[1]},
                name=ref,
                hovertemplate=f"{ref}<extra></extra>",
            )
        )
    fig.update_xaxes(title_text=x_t)
    fig.update_yaxes(title_text=y_t, type="log")
    fig.update_layout(legend={"orientation": "h", "y": -0.25})
    return style(fig, height=height)


def similarity_heatmap(
    sim: np.ndarray,
    *,
    x_title: str = "position q",
    y_title: str = "position p",
    value_label: str = "PE(p)·PE(q)",
    height: int | None = None,
) -> go.Figure:
    """PE PE^T: symmetric, constant along each diagonal; diverging palette centred on 0."""
    sim = np.asarray(sim, dtype=np.float32)
    zmax = float(np.abs(sim).max()) if sim.size else 1.0
    x_t, y_t = escape_label(x_title), escape_label(y_title)
    fig = go.Figure(
        go.Heatmap(
            z=sim,
            x=np.arange(sim.shape[1]),
            y=np.arange(sim.shape[0]),
            colorscale=DIVERGING,
            zmin=-zmax,
            zmax=zmax,
            hovertemplate=f"p = %{{y}}, q = %{{x}}<br>"
            f"{escape_label(value_label)} = %{{z:.6f}}<extra></extra>",
        )
    )
    fig.update_xaxes(
        title_text=x_t, showgrid=False, zeroline=False, scaleanchor="y", constrain="domain"
    )
    fig.update_yaxes(
        title_text=y_t, autorange="reversed", showgrid=False, zeroline=False, constrain="domain"
    )
    return style(fig, height=height or 520)


def offset_profiles(
    profiles: list[tuple[np.ndarray, np.ndarray]],
    *,
    names: list[str],
    closed_form: tuple[np.ndarray, np.ndarray] | None = None,
    closed_name: str = "closed form",
    x_title: str = "offset k = q - p",
    y_title: str = "PE(p)·PE(p+k)",
    height: int = 360,
) -> go.Figure:
    """Similarity against offset for several anchors p: the curves lie on top of each other."""
    if len(names) != len(profiles):
        raise ValueError(f"{len(profiles)} profiles but {len(names)} names")
    x_t, y_t = escape_label(x_title), escape_label(y_title)
    fig = go.Figure()
    if closed_form is not None:
        k, v = closed_form
        cl = escape_label(closed_name)
        fig.add_trace(
            go.Scatter(
                x=np.asarray(k),
                y=np.asarray(v, dtype=np.float64),
                mode="lines",
                line={"color": "#999999", "width": 6},
                opacity=0.5,
                name=cl,
                hovertemplate=f"{cl}<br>k = %{{x}}<br>%{{y:.6f}}<extra></extra>",
            )
        )
    dashes = ("solid", "dash", "dot", "dashdot")
    for j, ((k, v), name) in enumerate(zip(profiles, names)):
        label = escape_label(name)
        fig.add_trace(
            go.Scatter(
                x=np.asarray(k),
                y=np.asarray(v, dtype=np.float64),
                mode="lines",
                line={"color": _colour(j), "dash": dashes[j % len(dashes)], "width": 2},
                name=label,
                hovertemplate=f"{label}<br>k = %{{x}}<br>{y_t} = %{{y:.6f}}<extra></extra>",
            )
        )
    fig.update_xaxes(title_text=x_t)
    fig.update_yaxes(title_text=y_t)
    fig.update_layout(legend={"orientation": "h", "y": -0.25})
    return style(fig, height=height)


def layout_comparison(
    interleaved: np.ndarray,
    concatenated: np.ndarray,
    *,
    titles: tuple[str, str] = ("interleaved", "concatenated"),
    x_title: str = "dimension",
    y_title: str = "position",
    value_label: str = "PE",
    height: int | None = None,
) -> go.Figure:
    """The two layouts of the same table side by side, one colour scale [-1, 1]."""
    a = np.asarray(interleaved, dtype=np.float32)
    b = np.asarray(concatenated, dtype=np.float32)
    if a.shape != b.shape:
        raise ValueError(f"layouts differ in shape: {a.shape} and {b.shape}")
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=escape_labels(titles), horizontal_spacing=0.08
    )
    x_t, y_t = escape_label(x_title), escape_label(y_title)
    hover = f"{y_t} %{{y}}<br>{x_t} %{{x}}<br>{escape_label(value_label)} = %{{z:.6f}}"
    for c, (m, title) in enumerate(zip((a, b), titles)):
        fig.add_trace(
            go.Heatmap(
                z=m,
                x=np.arange(m.shape[1]),
                y=np.arange(m.shape[0]),
                coloraxis="coloraxis",
                name=escape_label(title),
                hovertemplate=hover + "<extra></extra>",
            ),
            row=1,
            col=c + 1,
        )
        fig.update_xaxes(title_text=x_t, showgrid=False, zeroline=False, row=1, col=c + 1)
        fig.update_yaxes(autorange="reversed", showgrid=False, zeroline=False, row=1, col=c + 1)
    fig.update_yaxes(title_text=y_t, row=1, col=1)
    fig.update_layout(coloraxis={"colorscale": DIVERGING, "cmin": -1.0, "cmax": 1.0})
    return style(fig, height=height or max(320, min(560, 80 + 4 * a.shape[0])))


def shuffle_panels(
    weights: np.ndarray,
    shuffled: np.ndarray,
    predicted: np.ndarray,
    tokens,
    shuffled_tokens,
    *,
    titles: tuple[str, str, str],
    value_label: str = "weight",
    x_title: str = "key",
    y_title: str = "query",
    colorscale: str = _SHUFFLE_PALETTE,
) -> go.Figure:
    """A (the sentence), A' (the shuffled sentence) and P A P^T (A with rows and columns moved
    to the shuffled order), one shared colour scale from 0 to the largest weight."""
    mats = [np.asarray(m, dtype=np.float32) for m in (weights, shuffled, predicted)]
    labels = (tokens, shuffled_tokens, shuffled_tokens)
    for m, lab in zip(mats, labels):
        check_lengths(m.shape, lab, lab)
    t = len(tokens)
    fig = make_subplots(
        rows=1, cols=3, subplot_titles=escape_labels(titles), horizontal_spacing=0.12
    )
    zmax = max(float(m.max()) for m in mats) if t else 1.0
    for c, (m, lab, title) in enumerate(zip(mats, labels, titles)):
        tr = heatmap_trace(
            m, lab, lab, zmin=None, zmax=None, value_label=value_label, coloraxis="coloraxis"
        )
        tr.update(name=escape_label(title))
        fig.add_trace(tr, row=1, col=c + 1)
        fig.update_xaxes(_axis_ticks(lab), title_text=escape_label(x_title), row=1, col=c + 1)
        fig.update_yaxes(_y_axis_ticks(lab), row=1, col=c + 1)
    fig.update_yaxes(title_text=escape_label(y_title), row=1, col=1)
    fig.update_layout(coloraxis={"colorscale": colorscale, "cmin": 0.0, "cmax": zmax})
    return style(fig, height=max(340, min(640, 120 + 16 * t)))


def permutation_figure(
    perm_matrix: np.ndarray,
    tokens,
    shuffled_tokens,
    *,
    x_title: str = "original position",
    y_title: str = "shuffled position",
    value_label: str = "P",
) -> go.Figure:
    """The permutation matrix P (P[i, perm[i]] = 1): row i is the new position i, its 1 sits in
    the column of the word's original position."""
    p = np.asarray(perm_matrix, dtype=np.float32)
    side = max(260, min(560, 80 + 18 * len(tokens)))
    return attention_heatmap(
        p,
        shuffled_tokens,
        tokens,
        colorscale="Blues",
        zmin=0.0,
        zmax=1.0,
        value_label=value_label,
        x_title=x_title,
        y_title=y_title,
        height=side,
        fmt=".0f",
    )
