"""The Positional encoding and Scaling lab pages in a real Chromium against `streamlit run`."""

from __future__ import annotations

import urllib.parse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.helpers.browser import (
    eventually,
    eventually_equal,
    move_slider,
    plot_data,
    view_button,
    wait_for_app,
)

pytestmark = pytest.mark.browser

# trace types of every chart of each tab, in page order (default settings: 64 positions, 6
# dimensions, the 7-token example sentence); only the open tab is drawn
PE_TRACES = {
    "encoding": [
        ["scatter"] * 6,  # sine/cosine curves of the default dimensions
        ["heatmap"],  # positions x dimensions
        ["scatter"] * 2,  # wavelengths, positions shown
        ["heatmap"],  # PE PE^T
        ["scatter"] * 3,  # closed form, position 0, anchor
        ["heatmap"] * 2,  # interleaved, concatenated
    ],
    "sentence": [
        ["heatmap"],  # permutation matrix
        *[["heatmap"]] * 3,  # A, A', P A P^T without PE: a chart each
        *[["heatmap"]] * 3,  # ... with PE
    ],
    "rope": [["scatter"] * 2],  # the unit circle, one pair's points
    "alibi": [["heatmap"], ["heatmap"]],  # the biases (all heads in one trace); the heads
}
SCALING_TRACES = {  # by tab
    "spread": [["scatter"] * 4, ["histogram"] * 2],  # measured and theory; the histograms
    "saturation": [["scatter"] * 9],  # 3 panels x (unscaled, scaled, uniform)
    "sentence": [
        ["heatmap"] * 2,  # scaled | unscaled
        ["heatmap"],  # softmax(QK^T / tau)
        ["scatter"] * 8,  # 2 panels x (curve + 3 marks)
    ],
}
# rows of the positions x dimensions heatmap; null while Plotly redraws it
TABLE_ROWS_JS = (
    "() => { const g = document.querySelectorAll('.js-plotly-plot')[1];"
    " const d = g && g._fullData && g._fullData[0];"
    " return d && d.z ? d.z.length : null; }"
)
# the silent, empty scatter traces that carry thinned tick labels (viz.axes.thin_token_axes)
# are not charts of their own: left out
CHARTS_JS = (
    "() => [...document.querySelectorAll('.js-plotly-plot')].map(g => {"
    " const ax = (id) => g.layout[id[0] + 'axis' + id.slice(1)] || {};"
    " return (g.data || []).filter(d => !(d.type === 'scatter' && !(d.x || []).length"
    " && (ax(d.xaxis || 'x').overlaying || ax(d.yaxis || 'y').overlaying))).map(d => d.type); })"
)


@pytest.fixture(scope="module")
def lab_url(fresh_app_url):
    """A fresh server: the first visitor may open a lab page's link directly (no warm-up)."""
    return fresh_app_url


def _wait_charts(pg, expected: list[list[str]]) -> None:
    """Wait until the page shows exactly these charts with these trace types (a rerun replaces
    charts one by one, so a single look may catch it half way)."""
    try:
        pg.wait_for_function(
            f"(want) => JSON.stringify(({CHARTS_JS})()) === JSON.stringify(want)",
            arg=expected,
            timeout=90_000,
        )
    except PlaywrightTimeout:
        raise AssertionError(f"charts {pg.evaluate(CHARTS_JS)} != {expected}") from None


def _open(pg, url: str, expected: list[list[str]]) -> None:
    pg.goto(url)
    wait_for_app(pg)
    _wait_charts(pg, expected)
    assert pg.locator('[data-testid="stException"]').count() == 0
    # the shared sidebar (a fresh server's first page may draw its charts before the widgets'
    # code has loaded: they are placeholders for a moment)
    expect(pg.get_by_role("textbox", name="Sentence")).to_have_count(1)


def _full_screenshot(pg, path) -> None:
    """Streamlit scrolls inside its main block: grow the window to the content, then shoot."""
    height = pg.evaluate(
        "() => { const m = document.querySelector('[data-testid=stMain]');"
        " return m ? m.scrollHeight : document.body.scrollHeight; }"
    )
    pg.set_viewport_size({"width": 1400, "height": min(int(height) + 50, 16_000)})
    pg.wait_for_timeout(1000)
    pg.screenshot(path=str(path), full_page=True)


def test_scaling_page_renders_and_answers_its_controls(lab_url, page, tmp_path):
    _open(page, f"{lab_url}/scaling", SCALING_TRACES["spread"])
    expect(page.get_by_role("heading", name="Scaling lab: why divide by √d_k?")).to_have_count(1)
    expect(page.get_by_text("against √d_k = 32.000")).to_have_count(1)
    want = ["measured std(q·k)", "theory √d_k", "measured std(q·k / √d_k)", "theory 1"]
    eventually_equal(lambda: [d["name"] for d in plot_data(page, 0)], want)
    # tau = sqrt(d_k): the tempered heatmap becomes the scaled one
    view_button(page, "On your sentence").click()
    _wait_charts(page, SCALING_TRACES["sentence"])
    page.get_by_text("τ = √d_k (d_k = 16)").click()
    # the largest difference from the scaled weights is exactly 0, as a person writes it
    page.wait_for_function(
        "() => document.body.innerText.includes('for d_k = 16: 0. ')", timeout=60_000
    )
    page.wait_for_function(
        "() => { const g = document.querySelectorAll('.js-plotly-plot');"
        " const z = (i) => g[i] && g[i]._fullData && g[i]._fullData[0] && g[i]._fullData[0].z;"
        " const a = z(0), b = z(1); if (!a || !b) return false;"
        " return JSON.stringify([...a].map(r => [...r])) === "
        "JSON.stringify([...b].map(r => [...r])); }",
        timeout=60_000,
    )
    # keys per query: the saturation figure is recomputed
    view_button(page, "Softmax saturates").click()
    _wait_charts(page, SCALING_TRACES["saturation"])
    move_slider(page, "Keys per query T", -12)  # 16 -> 4
    page.get_by_text("Measured with T = 4 keys").wait_for(timeout=60_000)
    _wait_charts(page, SCALING_TRACES["saturation"])

    def redrawn():  # the figure follows the caption: it may still be the one for T = 16
        assert "uniform weights 1/4" in [d["name"] for d in plot_data(page, 0)]

    eventually(redrawn)
    assert page.dialogs == []
    _full_screenshot(page, tmp_path / "scaling.png")


def test_positional_page_renders_and_answers_its_controls(lab_url, page, tmp_path):
    _open(page, f"{lab_url}/positional", PE_TRACES["encoding"])
    expect(page.get_by_role("heading", name="Positional encoding").first).to_be_visible()
    expect(page.locator(".katex").nth(2)).to_be_attached()  # the formulas: at least 3
    eventually_equal(lambda: page.evaluate(f"() => ({TABLE_ROWS_JS})()"), 64)
    move_slider(page, "Number of positions", -4)  # 64 -> 60
    page.wait_for_function(f"() => ({TABLE_ROWS_JS})() === 60", timeout=60_000)
    expect(page.get_by_text("this 60 × 64 table")).to_have_count(1)
    view_button(page, "Shuffle your sentence").click()  # its charts, drawn now
    page.wait_for_function("() => location.search.includes('view=sentence')", timeout=30_000)
    _wait_charts(page, PE_TRACES["sentence"])
    page.get_by_role("button", name="Shuffle again").click()
    expect(page.get_by_label("Shuffle seed")).to_have_value("1")
    _wait_charts(page, PE_TRACES["sentence"])
    view_button(page, "The sinusoidal table").click()  # back: the 60 positions kept
    _wait_charts(page, PE_TRACES["encoding"])  # the anchor (32) still fits them: 3 profiles
    eventually_equal(lambda: page.evaluate(f"() => ({TABLE_ROWS_JS})()"), 60)
    assert page.dialogs == []
    _full_screenshot(page, tmp_path / "positional.png")


def test_rope_controls_are_in_the_url(lab_url, page, tmp_path):
    _open(page, f"{lab_url}/positional?view=rope&rope_pair=3&rope_shift=500", PE_TRACES["rope"])
    page.get_by_text("Pair 3 (dimensions 3 and 11)").wait_for()
    page.get_by_text("s = 500 positions").wait_for()
    move_slider(page, "Pair i", 1)
    page.wait_for_function("() => location.search.includes('rope_pair=4')", timeout=30_000)
    page.get_by_text("Pair 4 (dimensions 4 and 12)").wait_for()
    _full_screenshot(page, tmp_path / "positional_rope.png")


def test_lab_pages_show_markup_tokens_literally(lab_url, page, tmp_path):
    text = '<b>x</b> <img src=x onerror=alert(1)> <a href="https://example.com">y</a> z'
    url = f"{lab_url}/positional?view=sentence&text=" + urllib.parse.quote(text)
    _open(page, url, PE_TRACES["sentence"])
    expect(page.get_by_role("textbox", name="Sentence")).to_have_value(text)

    def drawn_literally():
        drawn = page.evaluate(
            "() => [...document.querySelectorAll('.js-plotly-plot')[1]"
            ".querySelectorAll('.xaxislayer-above .xtick text')].map(e => e.textContent)"
        )
        assert drawn[:3] == ["<", "b", ">"] and not any("&" in d for d in drawn)

    eventually(drawn_literally)
    # the tokens are drawn: no element was made of them
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator('a[href="https://example.com"]').count() == 0
    page.goto(f"{lab_url}/scaling?view=sentence&text=" + urllib.parse.quote(text))
    _wait_charts(page, SCALING_TRACES["sentence"])
    page.wait_for_function(  # the sentence's tokens drawn, literally, on the first heatmap
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " return !!g && [...g.querySelectorAll('.xtick text')].some(t => t.textContent === '<'); }",
        timeout=60_000,
    )
    assert page.locator('img[src="x"]').count() == 0
    page.wait_for_timeout(1000)  # not a wait for a state: time for an image's onerror to fire
    assert page.dialogs == []
    _full_screenshot(page, tmp_path / "markup.png")
