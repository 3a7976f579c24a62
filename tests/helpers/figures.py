"""Figure helpers for the tests: what st.plotly_chart sends, the same figure validated, and the
contrast of two colours (WCAG 2)."""

from __future__ import annotations

import json
import re

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio


def sent(fig: go.Figure) -> dict:
    """The JSON st.plotly_chart sends (to_dict, then to_json), parsed."""
    return json.loads(pio.to_json(fig.to_dict(), validate=False))


def validated(fig: go.Figure) -> go.Figure:
    """`fig` through plotly's validation (raises on any invalid property or value), without the
    default template that go.Figure adds to a figure that has none (viz.figure sends none)."""
    checked = go.Figure(fig.to_dict())
    checked._layout.pop("template", None)
    return checked


def _rgb(colour: str) -> tuple[float, ...]:
    if colour.startswith("#"):
        return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return tuple(float(v) for v in re.findall(r"[\d.]+", colour)[:3])


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance."""
    lin = [(c / 12.92) if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
           for c in (v / 255 for v in _rgb(colour))]  # fmt: skip
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def lightness(colour: str) -> float:
    """CIE L* (0 black .. 100 white) of an sRGB colour."""
    y = _luminance(colour)
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


def sample_scale(scale, n: int = 201) -> list[str]:
    """`n` colours along a [[position, colour], ...] scale, interpolated in RGB as plotly.js
    does between its stops."""
    pos = [float(p) for p, _ in scale]
    rgb = np.array([_rgb(c) for _, c in scale], dtype=float)
    out = []
    for v in np.linspace(0.0, 1.0, n):
        r, g, b = (np.interp(v, pos, rgb[:, i]) for i in range(3))
        out.append(f"rgb({r:.3f},{g:.3f},{b:.3f})")
    return out


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
