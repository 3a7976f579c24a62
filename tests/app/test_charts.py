"""Every chart of every page goes out as viz.figure made it: no Streamlit theme, no template, no
`layout.meta` (viz/theme.py: each of them made the browser draw the chart a second time).
A fresh AppTest per case (see tests/app/conftest.py)."""

from __future__ import annotations

import json

import pytest

from tests.helpers.app import rerun, run_app, shared
from ui.pages import PAGES
from viz import theme


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_every_chart_goes_out_unthemed_with_its_own_style(page):
    at = run_app(page.path, **shared(n_heads=16, d_model=64))
    shows = [b for b in at.button if (b.key or "").endswith(".show")]
    if shows and not at.get("plotly_chart"):  # a chart revealed on a press (the lesson's answer)
        shows[0].click()
        rerun(at)
    charts = at.get("plotly_chart")
    assert charts, "the page draws a chart"
    for chart in charts:
        assert chart.proto.theme == "", chart.key  # theme=None
        layout = json.loads(chart.proto.spec)["layout"]
        assert "template" not in layout and "meta" not in layout, chart.key
        assert layout["font"]["color"] == theme.TEXT, chart.key
