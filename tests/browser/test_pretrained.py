"""The pretrained page in a real Chromium: offline model, mosaic, enlarged head, controls."""

from __future__ import annotations

import urllib.parse

import pytest

from tests.helpers.browser import eventually, move_slider, wait_for_app, wait_for_params

pytestmark = pytest.mark.browser


def _wait_plots(pg, n: int) -> None:
    pg.wait_for_function(
        "(n) => document.querySelectorAll('.js-plotly-plot').length >= n",
        arg=n,
        timeout=120_000,
    )


def test_pretrained_page(app_url, page, tmp_path):
    text = "The animal didn't cross the street because it was too tired."
    page.goto(app_url + "/pretrained?text=" + urllib.parse.quote(text))
    wait_for_app(page, timeout=120_000)
    _wait_plots(page, 3)

    def drawn():  # a chart is in the page before plotly has drawn it (no layout yet)
        mosaic = page.evaluate(
            "() => { const g = document.querySelectorAll('.js-plotly-plot')[0];"
            " return {n: g.data.length, x: g._fullLayout.xaxis.ticktext,"
            " y: g._fullLayout.yaxis.ticktext}; }"
        )
        assert mosaic["n"] == 2  # the maps (one heatmap) and their click targets
        assert mosaic["x"] == [f"head {h}" for h in range(12)]
        assert mosaic["y"] == [f"layer {i}" for i in range(6)]
        ticks = page.evaluate(
            "() => document.querySelectorAll('.js-plotly-plot')[1]._fullLayout.xaxis.ticktext"
        )
        assert ticks[0] == "[CLS]" and ticks[-1] == "[SEP]" and "animal" in ticks
        assert "didn" in ticks and "'" in ticks  # WordPiece splits the apostrophe

    eventually(drawn)
    page.screenshot(path=str(tmp_path / "pretrained.png"), full_page=True)

    page.get_by_text("Hide [CLS] / [SEP]").click()
    page.wait_for_function(
        "() => { const g = document.querySelectorAll('.js-plotly-plot')[1];"
        " return g && !g._fullLayout.xaxis.ticktext.includes('[CLS]'); }",
        timeout=60_000,
    )

    def renormalised():
        sums = page.evaluate(
            "() => { const z = document.querySelectorAll('.js-plotly-plot')[1].data[0].z;"
            " return Array.from(z, r => Array.from(r).reduce((a, b) => a + b, 0)); }"
        )
        assert all(abs(s - 1) < 1e-4 for s in sums)  # renormalised rows

    eventually(renormalised)
    assert page.dialogs == []


REHEAD_TITLES = (
    "() => { const gs = [...document.querySelectorAll('.js-plotly-plot')];"
    " const g = gs[gs.length - 1]; if (!g || !g._fullLayout) return [];"
    " return (g._fullLayout.annotations || []).map(a => a.text)"
    "  .filter(t => t.startsWith('head ')); }"
)


REHEAD_Z = (
    "() => { const gs = [...document.querySelectorAll('.js-plotly-plot')];"
    " const g = gs[gs.length - 1]; return g && g.data ? JSON.stringify(g.data[0].z[0]) : ''; }"
)


def test_the_rehead_slider_reruns_its_section_and_keeps_the_url(app_url, page):
    """The re-heading is a fragment (its slider reruns that part alone): the grid still follows
    the slider, and the URL still records it, with the rest of the page's state."""
    page.goto(app_url + "/pretrained?layer=2")
    wait_for_app(page, timeout=120_000)
    page.wait_for_function(f"() => ({REHEAD_TITLES})().length === 12", timeout=120_000)
    before = page.evaluate(REHEAD_Z)
    move_slider(page, "Heads h for this layer (divisors of 384)", 1)
    wait_for_params(page, rehead_heads="16", layer="2")
    page.get_by_text("Showing 12 of 16 heads.").wait_for()
    page.get_by_text("h = 16, d_k = 24", exact=False).first.wait_for()
    eventually(lambda: page.evaluate(REHEAD_Z) != before)  # the grid drawn again, 16 heads' worth
