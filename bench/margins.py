"""Charts whose margins the browser had to move (a second draw), per page, in Chromium.

viz/margins.py reserves room for tick labels, axis titles, legends and colour bars before the
browser measures them; where its estimate is short, plotly.js's automargin moves the margins
and draws the chart again. This opens every page (default sentence, and a sentence of long and
CJK tokens) and prints, per page, how many charts were drawn with margins other than those
reserved ("pushed": each a second draw on every rerun).

    python bench/margins.py
"""

from __future__ import annotations

import sys
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.server import CHROMIUM_ARGS, chromium_path, streamlit_server  # noqa: E402
from ui.pages import PAGES  # noqa: E402

SENTENCES = {
    "default": None,
    "long + CJK": "internationalization 注意力机制 WWWWWWWW supercalifragilistic the cat sat",
}
MARGINS = """() => [...document.querySelectorAll('.js-plotly-plot')].filter(g => g._fullLayout)
  .map(g => { const m = g._fullLayout.margin, s = g._fullLayout._size;
    return {base: [m.l, m.r, m.t, m.b], size: [s.l, s.r, s.t, s.b].map(Math.round)}; })"""
ALL_DRAWN = """(n) => [...document.querySelectorAll('.js-plotly-plot')].filter(g => g._fullLayout)
  .length >= n"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.helpers.browser import wait_for_app

    with streamlit_server("app.py") as (url, _proc), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        print(f"{'page':<17}{'sentence':<12}{'charts':>7}{'pushed':>7}  base -> drawn (l r t b)")
        for name, path in ((p.id, p.url_path) for p in PAGES):
            for label, text in SENTENCES.items():
                query = "" if text is None else "?" + urllib.parse.urlencode({"text": text})
                page.goto(f"{url}/{path}{query}")
                wait_for_app(page)
                page.wait_for_selector(".js-plotly-plot", timeout=60_000)
                page.wait_for_timeout(1500)  # charts mount one after another
                count = page.locator(".js-plotly-plot").count()
                page.wait_for_function(ALL_DRAWN, arg=count, timeout=60_000)
                page.wait_for_timeout(1000)
                charts = page.evaluate(MARGINS)
                pushed = [c for c in charts if any(s > b + 1 for s, b in zip(c["size"], c["base"]))]
                detail = "; ".join(f"{c['base']} -> {c['size']}" for c in pushed[:3])
                print(f"{name:<17}{label:<12}{len(charts):>7}{len(pushed):>7}  {detail}")
        browser.close()


if __name__ == "__main__":
    main()
