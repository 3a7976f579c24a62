"""The Efficient attention page in a real Chromium against a real `streamlit run`."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import eventually_equal, move_slider, url, view_button, wait_for_app

pytestmark = pytest.mark.browser

URL_PATH = "efficient"
TITLE_EN = "Efficient attention: how today's language models attend"
N_CHARTS = 1  # the first tab's: the groups above the heads; only the open tab is drawn


def _wait_charts(pg, n: int = N_CHARTS) -> None:
    pg.wait_for_function(
        "(n) => [...document.querySelectorAll('.js-plotly-plot')]"
        ".filter(g => g._fullLayout).length >= n",
        arg=n,
        timeout=90_000,
    )


def _open(pg, url: str, n: int = N_CHARTS) -> None:
    pg.goto(url)
    wait_for_app(pg)
    _wait_charts(pg, n)
    assert pg.locator('[data-testid="stException"]').count() == 0


def _kv_nodes(pg) -> int:
    """How many key/value heads the groups strip draws (its last trace: the bottom nodes)."""
    return pg.evaluate(
        "() => { const g = [...document.querySelectorAll('.js-plotly-plot')][0];"
        " return g._fullData[g._fullData.length - 1].x.length; }"
    )


def _has_kv_nodes(pg, n: int) -> None:
    """Until the groups strip draws n key/value heads (a rerun redraws it after its sliders)."""
    eventually_equal(lambda: _kv_nodes(pg), n)


def _wait_url(pg, fragment: str) -> None:
    pg.wait_for_function("(f) => location.search.includes(f)", arg=fragment, timeout=30_000)


def _full_screenshot(pg, path, width: int) -> None:
    height = pg.evaluate(
        "() => { const m = document.querySelector('[data-testid=stMain]');"
        " return m ? m.scrollHeight : document.body.scrollHeight; }"
    )
    pg.set_viewport_size({"width": width, "height": min(int(height) + 50, 16_000)})
    pg.wait_for_timeout(1000)
    pg.screenshot(path=str(path), full_page=True)


def test_a_link_reproduces_the_view(app_url, page, tmp_path):
    _open(page, f"{app_url}/{URL_PATH}?kv_heads=2&window=2&block=2&row=5&model=Mistral-7B")
    page.get_by_role("heading", name=TITLE_EN).wait_for()
    _has_kv_nodes(page, 2)
    page.get_by_text("Grouped-query attention:").first.wait_for()
    view_button(page, "Cache size").click()
    page.get_by_text("= 512 MiB").first.wait_for()  # Mistral 7B, 8,192 tokens, window 4,096
    _wait_url(page, "view=calculator")  # the URL of the run that opened the view: all of it
    for fragment in ("kv_heads=2", "window=2", "block=2", "row=5", "model=Mistral-7B"):
        assert fragment in url(page)
    expect(page.get_by_role("textbox", name="Sentence")).to_have_count(1)  # the shared sidebar
    _full_screenshot(page, tmp_path / "efficient_link.png", 1400)


def test_kv_heads_slider_updates_the_url_and_survives_a_language_switch(app_url, page):
    _open(page, f"{app_url}/{URL_PATH}")
    _has_kv_nodes(page, 4)
    move_slider(page, "Key/value heads", -1)  # 4 -> 2
    _wait_url(page, "kv_heads=2")
    page.wait_for_function(
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " return g._fullData[g._fullData.length - 1].x.length === 2; }",
        timeout=30_000,
    )
    page.get_by_text("中文", exact=True).click()
    wait_for_app(page)
    page.get_by_role("heading", name="高效注意力:当今的语言模型如何计算注意力").wait_for()
    _wait_charts(page)
    _wait_url(page, "lang=zh")
    assert "kv_heads=2" in url(page)  # written with lang=zh, at the end of the same run
    _has_kv_nodes(page, 2)


HEADS = "Heads h (only divisors of d_model)"
KV = "Key/value heads"


def _kv_slider(pg) -> tuple[str, str]:
    """The key/value slider as the browser shows it: its value's label and its last index."""
    return tuple(
        pg.get_by_role("slider", name=KV).evaluate("s => [s.getAttribute('aria-valuetext'), s.max]")
    )


def _wait_kv_slider(pg, shown: tuple[str, str]) -> None:
    pg.wait_for_function(
        "([name, want]) => [...document.querySelectorAll('input[type=range]')].some(s =>"
        " s.getAttribute('aria-label') === name"
        " && s.getAttribute('aria-valuetext') === want[0] && s.max === want[1])",
        arg=[KV, list(shown)],
        timeout=30_000,
    )


def test_the_kv_slider_follows_the_heads_slider(app_url, page):
    """Its options follow the heads (divisors of h); it stays the same slider (ui.controls
    select_slider(stable=True)), so its value must survive new options, and be clamped to them."""
    _open(page, f"{app_url}/{URL_PATH}")
    move_slider(page, KV, -1)  # 4 -> 2 of [1, 2, 4]
    _wait_url(page, "kv_heads=2")
    eventually_equal(lambda: _kv_slider(page), ("2", "2"))
    move_slider(page, HEADS, +1)  # 4 -> 8 heads: options [1, 2, 4, 8], still 2
    _wait_kv_slider(page, ("2", "3"))
    _has_kv_nodes(page, 2)
    move_slider(page, KV, +2)  # 2 -> 8
    _wait_url(page, "kv_heads=8")
    page.wait_for_function(
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " return g._fullData[g._fullData.length - 1].x.length === 8; }",
        timeout=30_000,
    )
    move_slider(page, HEADS, -1)  # 8 -> 4 heads: 8 key/value heads no longer fit: 4
    _wait_url(page, "kv_heads=4")
    _wait_kv_slider(page, ("4", "2"))
    _has_kv_nodes(page, 4)  # the strip is redrawn after the slider: it drew 8 a moment before
    move_slider(page, KV, -1)  # and it still moves: 4 -> 2
    _wait_url(page, "kv_heads=2")
    assert page.locator('[data-testid="stException"]').count() == 0  # that run is over


def test_markup_stays_text(app_url, page):
    _open(page, f"{app_url}/{URL_PATH}?view=masks", 4)
    box = page.get_by_role("textbox", name="Sentence")
    box.fill('<b>x</b> <a href="https://example.com">y</a> <img src=x onerror=alert(1)>')
    box.press("Control+Enter")
    wait_for_app(page)
    _wait_charts(page, 4)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot .ytick text')]"
        ".some(t => t.textContent === '<')",
        timeout=30_000,
    )
    assert page.locator(".js-plotly-plot a").count() == 0
    assert page.locator(".js-plotly-plot img").count() == 0
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.dialogs == []


def test_phone_width_has_no_sideways_scroll(app_url, browser, tmp_path):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    try:
        _open(pg, f"{app_url}/{URL_PATH}")
        wait_for_app(pg)  # the run that drew the charts is over: the page is laid out
        widths = pg.evaluate(
            "() => { const m = document.querySelector('[data-testid=stMain]');"
            " return [m.scrollWidth, m.clientWidth]; }"
        )
        assert widths[0] <= widths[1] + 1, widths
        _full_screenshot(pg, tmp_path / "efficient_phone.png", 390)
    finally:
        context.close()
