"""Figures of the positional-encoding explorer: numpy in, plotly Figure out.

Signed values (the encoding, dot products) use the diverging palette, centred on 0. Every
user-derived string (tokens, and the labels the page passes in) goes through escape_label.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .figure import axis_key, cell_axes, figure, named_colorscale, style, subplot_grid
from .heatmap import DIVERGING, attention_heatmap
from .labels import escape_label, escape_labels
from .lines import line_layout, line_trace
from .margins import colorbar_below
from .theme import COLORWAY

QUALITATIVE = COLORWAY  # Okabe & Ito, their black as grey (viz/theme.py)
_SHUFFLE_PALETTE = "Viridis"
_PLAIN_AXIS = {"showgrid": False, "zeroline": False}


def _colour(i: int) -> str:
    return QUALITATIVE[i % len(QUALITATIVE)]


def _signed_heatmap(z: np.ndarray, hovertemplate: str, zmax: float, **extra) -> dict:
    """A position x position (or x dimension) table on the diverging palette [-zmax, zmax]."""
    return {
        "type": "heatmap",
        "z": z,
        "x": np.arange(z.shape[1]),
        "y": np.arange(z.shape[0]),
        "colorscale": named_colorscale(DIVERGING),
        "zmin": -zmax,
        "zmax": zmax,
        "hovertemplate": hovertemplate,
        **extra,
    }


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
    x_t, y_t = escape_label(x_title), escape_label(y_title)
    data = [
        line_trace(
            pos,
            pe[:, d],
            name=name,
            color=_colour(j),
            markers=len(pos) <= 64,
            marker_size=4,
            hovertemplate=f"{escape_label(name)}<br>{x_t} %{{x}}<br>{y_t} = %{{y:.6f}}"
            "<extra></extra>",
        )
        for j, (d, name) in enumerate(zip(dims, names))
    ]
    layout = line_layout(
        x_title=x_title,
        y_title=y_title,
        height=height,
        legend_y=-0.2,
        yaxis={"range": [-1.1, 1.1], "zeroline": True},
        hovermode="closest",
    )
    return figure(data, layout)


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
    hover = (
        f"{y_t} %{{y}}<br>{x_t} %{{x}}<br>{escape_label(value_label)} = %{{z:.6f}}<extra></extra>"
    )
    layout = {
        "xaxis": {"title": {"text": x_t}, **_PLAIN_AXIS},
        "yaxis": {"title": {"text": y_t}, "autorange": "reversed", **_PLAIN_AXIS},
    }
    height = height or max(320, min(640, 80 + 4 * pe.shape[0]))
    return figure([_signed_heatmap(pe, hover, 1.0)], style(layout, height=height))


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
    label, x_t = escape_label(name), escape_label(x_title)
    data = [
        line_trace(
            i,
            wl,
            name=name,
            color=QUALITATIVE[0],
            width=None,
            markers=len(i) <= 64,
            marker_size=5,
            customdata=np.stack([2 * i, 2 * i + 1], axis=1),
            hovertemplate=f"{x_t}: %{{x}} (%{{customdata[0]}}, %{{customdata[1]}})<br>"
            f"{label} = %{{y:.6g}}<extra></extra>",
        )
    ]
    if n_positions is not None:
        # a trace, not add_hline: annotations on log axes take log10 coordinates
        ref = f"{escape_label(positions_label)} = {n_positions}"
        data.append(
            {
                "type": "scatter",
                "x": [i[0], i[-1]],
                "y": [n_positions, n_positions],
                "mode": "lines",
                "line": {"dash": "dot", "color": QUALITATIVE[1]},
                "name": ref,
                "hovertemplate": f"{ref}<extra></extra>",
            }
        )
    layout = line_layout(x_title=x_title, y_title=y_title, height=height, yaxis={"type": "log"})
    return figure(data, layout)


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
    hover = f"p = %{{y}}, q = %{{x}}<br>{escape_label(value_label)} = %{{z:.6f}}<extra></extra>"
    layout = {
        "xaxis": {
            "title": {"text": escape_label(x_title)},
            **_PLAIN_AXIS,
            "scaleanchor": "y",
            "constrain": "domain",
        },
        "yaxis": {
            "title": {"text": escape_label(y_title)},
            "autorange": "reversed",
            **_PLAIN_AXIS,
            "constrain": "domain",
        },
    }
    return figure([_signed_heatmap(sim, hover, zmax)], style(layout, height=height or 520))


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
    y_t = escape_label(y_title)
    data = []
    if closed_form is not None:
        k, v = closed_form
        cl = escape_label(closed_name)
        data.append(
            line_trace(
                k,
                v,
                name=closed_name,
                color="#999999",
                width=6,
                opacity=0.5,
                hovertemplate=f"{cl}<br>k = %{{x}}<br>%{{y:.6f}}<extra></extra>",
            )
        )
    dashes = ("solid", "dash", "dot", "dashdot")
    for j, ((k, v), name) in enumerate(zip(profiles, names)):
        data.append(
            line_trace(
                k,
                v,
                name=name,
                color=_colour(j),
                dash=dashes[j % len(dashes)],
                hovertemplate=f"{escape_label(name)}<br>k = %{{x}}<br>{y_t} = %{{y:.6f}}"
                "<extra></extra>",
            )
        )
    return figure(data, line_layout(x_title=x_title, y_title=y_title, height=height))


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
    layout = subplot_grid(1, 2, titles=escape_labels(titles), horizontal_spacing=0.08)
    x_t, y_t = escape_label(x_title), escape_label(y_title)
    hover = f"{y_t} %{{y}}<br>{x_t} %{{x}}<br>{escape_label(value_label)} = %{{z:.6f}}"
    data = []
    for c, (m, title) in enumerate(zip((a, b), titles)):
        data.append(
            {
                "type": "heatmap",
                "z": m,
                "x": np.arange(m.shape[1]),
                "y": np.arange(m.shape[0]),
                "coloraxis": "coloraxis",
                "name": escape_label(title),
                "hovertemplate": hover + "<extra></extra>",
                **cell_axes(c),
            }
        )
        layout[axis_key(c + 1)].update(title={"text": x_t}, **_PLAIN_AXIS)
        layout[axis_key(c + 1, "y")].update(autorange="reversed", **_PLAIN_AXIS)
    layout["yaxis"]["title"] = {"text": y_t}
    layout["coloraxis"] = {"colorscale": named_colorscale(DIVERGING), "cmin": -1.0, "cmax": 1.0}
    return figure(data, style(layout, height=height or max(320, min(560, 80 + 4 * a.shape[0]))))


# The shuffle view's matrices: a plot at least this tall (about as wide in a third of a wide
# page or on a phone), its colour scale under it as a thin horizontal bar (beside the plot, a
# bar took half of a 310 px column and left the matrix ~65 px wide)
SHUFFLE_PLOT_PX = 220


def shuffle_panel(
    matrix: np.ndarray,
    tokens,
    *,
    title: str,
    zmax: float,
    value_label: str = "weight",
    x_title: str = "key",
    y_title: str = "query",
    colorscale: str = _SHUFFLE_PALETTE,
    colorbar: bool = True,
) -> go.Figure:
    """One of the shuffle view's three matrices: A (the sentence), A' (the shuffled sentence) or
    P A P^T (A with rows and columns moved to the shuffled order). The page draws the three
    side by side in columns (stacked on a phone) on one colour scale from 0 to `zmax`, the
    largest weight of the three, whose bar only one of them shows (`colorbar`), under its plot;
    the others keep the same room under theirs, so that the three plots line up."""
    plot_px = SHUFFLE_PLOT_PX + min(320, 16 * max(0, len(tokens) - 8))

    def build(height: int) -> go.Figure:
        return attention_heatmap(
            matrix,
            tokens,
            title=title,
            colorscale=colorscale,
            zmin=0.0,
            zmax=zmax,
            value_label=value_label,
            x_title=x_title,
            y_title=y_title,
            height=height,
            colorbar=colorbar_below(),
        )

    fig = build(plot_px + 200)
    margin = fig.layout.margin  # fitted to the labels: the height gives the plot its room
    if margin.t + margin.b + plot_px != fig.layout.height:
        fig = build(margin.t + margin.b + plot_px)
    if not colorbar:  # its room stays reserved (the margins were fitted with it)
        fig.data[0].showscale = False
    return fig


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


def unit_circle(
    x: np.ndarray,
    y: np.ndarray,
    labels,
    *,
    angle_label: str = "angle",
    position_label: str = "position",
    height: int = 420,
) -> go.Figure:
    """One RoPE pair turning on the unit circle: the point (cos, sin) of each position's angle,
    labelled with its token, joined in order; the circle drawn for reference."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if len(labels) != len(x) or len(y) != len(x):
        raise ValueError(f"{len(x)} points but {len(labels)} labels")
    theta = np.linspace(0.0, 2 * np.pi, 181)
    pos = np.arange(len(x))
    angles = np.degrees(np.arctan2(y, x)) % 360
    circle = {
        "type": "scatter", "x": np.cos(theta), "y": np.sin(theta), "mode": "lines",
        "line": {"color": "rgba(128,128,128,0.5)", "width": 1}, "hoverinfo": "skip",
        "showlegend": False,
    }  # fmt: skip
    points = {
        "type": "scatter",
        "x": x,
        "y": y,
        "mode": "lines+markers+text" if len(x) <= 24 else "lines+markers",
        "text": escape_labels(labels),
        "textposition": "top center",
        "customdata": np.stack([pos, angles], axis=1),
        "marker": {"size": 9, "color": pos, "colorscale": named_colorscale("Viridis")},
        "line": {"color": "rgba(0,114,178,0.35)", "width": 1},
        "hovertemplate": f"{escape_label(position_label)} %{{customdata[0]}}: %{{text}}<br>"
        f"{escape_label(angle_label)} = %{{customdata[1]:.2f}}°<extra></extra>",
        "showlegend": False,
    }
    square = {"range": [-1.35, 1.35], "zeroline": True, "showgrid": False}
    layout = {
        "xaxis": {**square, "constrain": "domain"},  # the plot narrows instead of the range growing
        "yaxis": {**square, "scaleanchor": "x", "scaleratio": 1},
    }
    return figure([circle, points], style(layout, height=height))
