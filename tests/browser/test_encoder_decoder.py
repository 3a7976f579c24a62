"""The Encoder-decoder page in a real Chromium against a real `streamlit run`."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import GRID_JS, eventually, view_button, wait_for_app

pytestmark = pytest.mark.browser

URL_PATH = "encoder_decoder"  # Streamlit derives it from views/encoder_decoder.py
TITLE_EN = "Inside the Transformer: encoder and decoder"
TARGET_LABEL = "Target sentence (what the decoder reads)"
SRC = ["I", "want", "to", "live", "in", "Europe", "."]
TGT = ["Je", "veux", "vivre", "en", "Europe", "."]
N_FIGS = 2  # the diagram and the open tab's heads (encoder or cross-attention)


def _wait_figures(pg, n: int, timeout: float = 60_000) -> None:
    pg.wait_for_function(
        "(n) => document.querySelectorAll('.js-plotly-plot').length === n"
        " && [...document.querySelectorAll('.js-plotly-plot')].every(g => g._fullLayout)",
        arg=n,
        timeout=timeout,
    )


def _heatmap_figures(pg) -> list[dict]:
    """Per figure: the tick text of its first head (or matrix), the shape of each head, and the
    tick text drawn on every axis (SVG text, as a person sees it)."""
    return pg.evaluate(
        "() => {"
        + GRID_JS
        + """
        return [...document.querySelectorAll('.js-plotly-plot')].map(g => {
          const grid = gridOf(g);
          return {
            xticks: grid.xticks, yticks: grid.yticks, shapes: grid.heads,
            drawnX: [...g.querySelectorAll('g[class^=x][class$=tick] > text')]
                .map(t => t.textContent),
            drawnY: [...g.querySelectorAll('g[class^=y][class$=tick] > text')]
                .map(t => t.textContent),
            text: g.querySelector('svg.main-svg') ? g.textContent : '',
          }; }); }"""
    )


def _cross(figs, src, tgt) -> dict:
    """The cross-attention figure: x ticks the source, y ticks the target, 4 heatmaps."""
    found = [f for f in figs if f["xticks"] == src and f["yticks"] == tgt and len(f["shapes"]) > 1]
    assert len(found) == 1, [(f["xticks"], f["yticks"]) for f in figs]
    return found[0]


def test_page_renders_with_a_rectangular_cross_attention(app_url, page, tmp_path):
    page.goto(app_url)
    wait_for_app(page)
    page.get_by_role("link", name="Encoder-decoder").click()
    wait_for_app(page)
    page.get_by_role("heading", name=TITLE_EN).wait_for()
    expect(page).to_have_url(re.compile(rf"/{URL_PATH}(\?|$)"))
    _wait_figures(page, N_FIGS)

    def encoder_drawn():
        square = [f for f in _heatmap_figures(page) if f["xticks"] == SRC and f["yticks"] == SRC]
        assert square and square[0]["shapes"] == [[7, 7]] * 4  # the encoder's is square

    eventually(encoder_drawn)
    view_button(page, "Cross-attention").click()
    page.wait_for_function("() => location.search.includes('view=cross')", timeout=60_000)
    _wait_figures(page, N_FIGS)

    def cross_drawn():  # the view's figure is drawn after the run that wrote the URL
        cross = _cross(_heatmap_figures(page), SRC, TGT)
        assert cross["shapes"] == [[6, 7]] * 4  # target queries x source keys, every head
        assert cross["drawnX"][:7] == SRC and cross["drawnY"][:6] == TGT

    eventually(cross_drawn)
    assert page.dialogs == []
    page.screenshot(path=str(tmp_path / "encoder_decoder.png"), full_page=True)


def test_markup_in_both_sentences_stays_literal(app_url, page):
    page.goto(f"{app_url}/{URL_PATH}?view=cross")
    wait_for_app(page)
    page.get_by_role("heading", name=TITLE_EN).wait_for()
    box = page.get_by_role("textbox", name="Sentence", exact=True)
    box.fill("<b>x</b> <img src=x onerror=alert(1)>")
    box.press("Control+Enter")
    wait_for_app(page)
    target = page.get_by_role("textbox", name=TARGET_LABEL)
    target.fill('<a href="https://example.com">y</a> <span style="font-size:400px">W</span>')
    target.press("Control+Enter")
    wait_for_app(page)
    src = ["&lt;", "b", "&gt;", "x", "&lt;", "/", "b", "&gt;"]
    # the cross-attention figure is updated in place: wait until it holds the new target AND
    # source, and all its heads (a snapshot taken mid-update once saw 1 of its 4 heatmaps)
    page.wait_for_function(
        "([first, src1, n]) => {" + GRID_JS + " return [...document.querySelectorAll("
        "'.js-plotly-plot')].some(g =>"
        " g._fullLayout && g._fullData && g._fullLayout.yaxis && g._fullLayout.xaxis"
        " && (g._fullLayout.yaxis.ticktext || [])[1] === first"
        " && (g._fullLayout.xaxis.ticktext || [])[1] === src1"
        " && gridOf(g).heads.length === n); }",
        arg=["a", src[1], 4],  # second tokens: target "<", "a", "href"...; source "<", "b"...
        timeout=60_000,
        polling=250,
    )
    _wait_figures(page, N_FIGS)

    def cross_drawn():
        figs = _heatmap_figures(page)
        cross = [
            f
            for f in figs
            if (f["yticks"] or [])[:2] == ["&lt;", "a"] and (f["xticks"] or [])[: len(src)] == src
        ]
        assert len(cross) == 1, [(f["xticks"], f["yticks"]) for f in figs]
        cross = cross[0]
        assert cross["shapes"] == [[36, 20]] * 4  # 36 target queries x 20 source keys
        assert cross["drawnX"][:4] == ["<", "b", ">", "x"]  # escaped in the spec, drawn literally
        assert cross["drawnY"][:3] == ["<", "a", "href"]
        assert "onerror=alert(1)>" in "".join(cross["drawnX"])

    eventually(cross_drawn)
    plots = page.locator(".js-plotly-plot")
    for tag in ("a", "img", "b", "span[style*='400px']"):
        assert plots.locator(tag).count() == 0, f"a <{tag}> element was created"
    # the padding part writes the tokens into the cells of the padding mask: literal too
    page.get_by_text("Padding", exact=True).click()
    cells_js = (
        "() => { const g = [...document.querySelectorAll('.js-plotly-plot')].find(g =>"
        " g._fullLayout && (g._fullLayout.title.text || '').includes('Padding mask'));"
        " return g ? [...g.querySelectorAll('.heatmap-label text')].map(t => t.textContent) : []; }"
    )
    source = ["<", "b", ">", "x", "<", "/", "b", ">", "<", "img", "src", "=", "x", "onerror"]

    def padding_drawn():
        cells = page.evaluate(cells_js)
        assert cells[: len(source)] == source  # sentence 1, cell by cell, as typed
        assert cells[20:23] == ["<", "b", ">"] and cells[23] == "[PAD]"  # its 3 tokens, padded

    eventually(padding_drawn)
    assert plots.locator("img").count() == 0 and plots.locator("b").count() == 0
    assert page.dialogs == []
    expect(target).to_have_value(re.compile('^<a href="https://example.com">'))
