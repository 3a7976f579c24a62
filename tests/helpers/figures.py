"""Figure helpers for the viz tests: what st.plotly_chart sends, and the same figure validated."""

from __future__ import annotations

import json

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
