"""Every chart of every page goes out as viz.figure made it: no Streamlit theme, no template, no
`layout.meta` (viz/theme.py: each of them made the browser draw the chart a second time).
A fresh AppTest per case (see tests/app/conftest.py)."""

from __future__ import annotations

import json

import pytest

from tests.helpers.app import run_app, shared
from viz import theme

PAGES = ["attention", "step", "scaling", "positional", "pretrained", "encoder_decoder", "reading",
         "efficient", "train", "induction"]  # fmt: skip


@pytest.mark.parametrize("page", PAGES)
def test_every_chart_goes_out_unthemed_with_its_own_style(page):
    at = run_app(f"views/{page}.py", **shared(n_heads=16, d_model=64))
    charts = at.get("plotly_chart")
    assert charts, "the page draws a chart"
    for chart in charts:
        assert chart.proto.theme == "", chart.key  # theme=None
        layout = json.loads(chart.proto.spec)["layout"]
        assert "template" not in layout and "meta" not in layout, chart.key
        assert layout["font"]["color"] == theme.TEXT, chart.key
