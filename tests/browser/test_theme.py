"""Charts in Chromium without Streamlit's theme (viz/theme.py): their text reads on the light and
on the dark page, and a slider step draws each changed chart once (with the theme, Streamlit's
chart component drew it a second time right after the first; so did plotly.js for traces whose
x, y or customdata came as typed arrays)."""

from __future__ import annotations

import pytest

from tests.helpers.browser import wait_for_app
from tests.helpers.figures import contrast

pytestmark = pytest.mark.browser

HEADS_THUMB = '[class*="st-key-_w-shared-n_heads-"] input[type="range"]'
# every `width` plotly sets on a chart's svg layers (it sets it once a layer per draw)
COUNT_DRAWS = """() => {
  window.__widths = 0;
  const set = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (name === 'width' && this.classList && this.classList.contains('main-svg')) {
      window.__widths += 1;
    }
    return set.call(this, name, value);
  };
}"""
TEXT_COLOURS = """() => {
  const g = document.querySelector('.js-plotly-plot');
  const texts = [...g.querySelectorAll('.xtick text, .ytick text, .annotation-text')];
  return {page: getComputedStyle(document.querySelector('.stApp')).backgroundColor,
          fills: [...new Set(texts.map((t) => getComputedStyle(t).fill))]};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chart_text_reads_on_the_page(app_url, browser, scheme):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=scheme)
    try:
        pg = context.new_page()
        pg.goto(app_url)
        pg.wait_for_selector(".js-plotly-plot .xtick text", timeout=60_000)
        wait_for_app(pg)  # the chart's run is over: the page and the chart in their final colours
        seen = pg.evaluate(TEXT_COLOURS)
        assert seen["fills"], "the chart has labels"
        for fill in seen["fills"]:  # tick labels and head titles against the page behind them
            assert contrast(fill, seen["page"]) >= 4.5, (fill, seen["page"])  # WCAG 2.1 AA
    finally:
        context.close()


# home: its head grid; efficient: the grouped heads' grid and strip (its scatter traces drew the
# chart twice while their x and y went as typed arrays: viz.figure sends them as lists)
@pytest.mark.parametrize("path", ["", "efficient"])
def test_a_heads_step_draws_the_grid_once(app_url, page, path):
    page.goto(f"{app_url}/{path}")
    page.wait_for_selector(".js-plotly-plot .xtick text", timeout=60_000)
    wait_for_app(page)  # the first draw's run is over
    page.evaluate(COUNT_DRAWS)
    page.locator(HEADS_THUMB).focus()
    page.keyboard.press("ArrowRight")  # 4 -> 8 heads
    page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot .annotation-text').length >= 8",
        timeout=60_000,
    )
    wait_for_app(page)
    # not a wait for a state: the window in which a second draw would come (it came ~0.1 s
    # after the first)
    page.wait_for_timeout(1_000)
    layers = page.evaluate("() => document.querySelectorAll('.js-plotly-plot svg.main-svg').length")
    assert layers > 0
    assert page.evaluate("() => window.__widths") == layers  # one draw: each layer sized once
