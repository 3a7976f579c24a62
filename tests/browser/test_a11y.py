"""WCAG 2.1 A and AA in Chromium, as axe-core checks it (axe-playwright-python bundles axe-core):
every page, light and dark (the browser's colour scheme, which Streamlit's theme follows), 1400
and 390 px wide. On a page with views, a second view is opened and checked too.

One server for the module, one page load per page. Set A11Y_SHOTS=<folder> to keep a screenshot
of each state checked (look at them) and axe's counts (axe.jsonl).

Also here, on the same server: the charts' names in the accessibility tree and their tables
under axe (ui/widgets.plot), reflow at 320 px and at 200% zoom (WCAG 1.4.10) on every page, and
reduced motion during live training. The keyboard has its own module (test_keyboard.py).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import VIEWS, wait_for_app
from ui.pages import PAGES

pytestmark = pytest.mark.browser

WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BACKGROUND = {"light": "rgb(255, 255, 255)", "dark": "rgb(23, 22, 20)"}  # Streamlit's
WIDTHS = {"wide": {"width": 1400, "height": 1000}, "phone": {"width": 390, "height": 844}}


def page_paths() -> list[str]:
    """The URL path of every page, in navigation order (the home page's is "")."""
    return [p.url_path for p in PAGES]


def violations(pg) -> dict[str, list[str]]:
    """axe-core's WCAG 2.1 A/AA violations on the page: rule id -> the elements, each as the
    start of its HTML."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": WCAG_21_AA}, "resultTypes": ["violations"]}
    result = Axe().run(pg, options=options).response
    return {v["id"]: [n["html"][:120] for n in v["nodes"]] for v in result["violations"]}


def _drawn(pg) -> None:
    """Wait until the page's script has run and each of its charts is drawn at the page's width."""
    wait_for_app(pg)
    pg.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')].every(g => g._fullLayout"
        " && g.getBoundingClientRect().width <= window.innerWidth)",
        timeout=60_000,
    )


def _scheme(pg, scheme: str) -> None:
    """Switch the browser's colour scheme; Streamlit's theme follows it without a reload."""
    pg.emulate_media(color_scheme=scheme)
    pg.wait_for_function(
        "(bg) => getComputedStyle(document.querySelector('.stApp')).backgroundColor === bg",
        arg=BACKGROUND[scheme],
        timeout=30_000,
    )


def _width(pg, width: str) -> None:
    pg.set_viewport_size(WIDTHS[width])
    _drawn(pg)


def _settled(pg) -> None:
    """The page idle and every CSS transition over: a theme switch fades colours in, and axe
    reading a colour halfway (seen under load: a label at 4.2:1) would judge a page nobody sees."""
    wait_for_app(pg)
    pg.wait_for_function(
        "() => document.getAnimations().every(a => !(a instanceof CSSTransition)"
        " || a.playState === 'finished')",
        timeout=60_000,
    )


def _check(pg, found: dict, name: str) -> None:
    """Run axe on the settled page; keep its findings under `name` (and a screenshot)."""
    _settled(pg)
    if folder := os.environ.get("A11Y_SHOTS"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
    found[name] = violations(pg)


def _report(found: dict) -> str:
    lines = []
    for name, rules in found.items():
        for rule, nodes in rules.items():
            lines.append(f"{name}: {rule} x{len(nodes)}: " + " | ".join(nodes[:3]))
    return "\n".join(lines)


@pytest.mark.parametrize("path", page_paths())
def test_page_meets_wcag_21_aa(app_url, browser, path):
    """One load of the page; the theme and the width change in place (as a student switching
    them would see it), axe after each: the first view in every (theme, width), a second view
    (where the page has views) in one width per theme, which keeps the module's time small."""
    context = browser.new_context(viewport=WIDTHS["wide"], color_scheme="light")
    found: dict = {}
    name = path or "home"
    try:
        pg = context.new_page()
        pg.goto(f"{app_url}/{path}")
        _drawn(pg)
        _check(pg, found, f"{name}-light-wide")
        _scheme(pg, "dark")
        _check(pg, found, f"{name}-dark-wide")
        _width(pg, "phone")
        _check(pg, found, f"{name}-dark-phone")
        _scheme(pg, "light")
        _check(pg, found, f"{name}-light-phone")
        views = pg.locator(VIEWS).first.get_by_role("radio")
        if views.count() > 1:
            before = pg.url
            views.nth(1).click()
            # the URL names the open view once the rerun that draws it has finished (ui/url.py)
            pg.wait_for_url(lambda u: u != before, timeout=60_000)
            _drawn(pg)
            _check(pg, found, f"{name}-view2-light-phone")
            _scheme(pg, "dark")
            _width(pg, "wide")
            _check(pg, found, f"{name}-view2-dark-wide")
    finally:
        context.close()
        if folder := os.environ.get("A11Y_SHOTS"):  # the counts, for the record
            with open(Path(folder) / "axe.jsonl", "a") as out:
                out.write(json.dumps({k: {r: len(n) for r, n in v.items()}
                                      for k, v in found.items()}) + "\n")  # fmt: skip
    found = {name: rules for name, rules in found.items() if rules}
    assert not found, _report(found)


def test_the_document_language_follows_the_app(app_url, page):
    """A screen reader reads the page in the app's language: <html lang> follows the switch,
    both ways, and a link in 中文 opens with lang="zh"."""
    lang = "() => document.documentElement.lang"
    page.goto(app_url)
    wait_for_app(page)
    page.wait_for_function(f"({lang})() === 'en'", timeout=30_000)
    page.get_by_text("中文", exact=True).click()
    page.wait_for_function(f"({lang})() === 'zh'", timeout=60_000)
    page.get_by_text("English", exact=True).click()
    page.wait_for_function(f"({lang})() === 'en'", timeout=60_000)
    page.goto(f"{app_url}/step?lang=zh")
    page.wait_for_function(f"({lang})() === 'zh'", timeout=60_000)


# --- Charts named in the accessibility tree ---------------------------------------------------


@pytest.mark.parametrize(
    "path, name",
    [
        ("", r"^4 heads \(head 0, head 1, head 2, head 3\), each 7 × 7 weight \(query × key\)$"),
        ("pretrained", r"^72 heads \(layer 0, head 0; .*\), each 9 × 9 weight \(query × key\)$"),
    ],
)
def test_charts_are_named_in_the_accessibility_tree(app_url, page, path, name):
    """A screen reader reaching a chart hears what it shows: every chart is a `figure` whose
    accessible name (Chromium's own computation, as Playwright's role locators read it) is the
    name the app wrote for it (ui/widgets.plot); in 中文 too."""
    page.goto(f"{app_url}/{path}")
    _drawn(page)
    expect(page.get_by_role("figure", name=re.compile(name))).to_have_count(1)
    charts = page.locator('[data-testid="stPlotlyChart"]')
    expect(page.get_by_role("figure")).to_have_count(charts.count())
    for chart in page.get_by_role("figure").all():
        label = chart.get_attribute("aria-labelledby")
        text = page.locator(f"#{label}").text_content()
        assert len(text) > 20 and re.search(r"\d", text), text
        expect(chart).to_have_accessible_name(text)
    page.get_by_text("中文", exact=True).click()
    expect(page.get_by_role("figure", name=re.compile(r"个头|热力图")).first).to_be_attached()


@pytest.mark.parametrize("path", ["", "pretrained"])
def test_chart_tables_meet_wcag_21_aa(app_url, browser, path):
    """With "Show charts as tables" on (table=1): the tables, their captions and the sentences under
    the head grids pass axe too, light and dark."""
    context = browser.new_context(viewport=WIDTHS["wide"], color_scheme="light")
    found: dict = {}
    try:
        pg = context.new_page()
        pg.goto(f"{app_url}/{path}?table=1")
        _drawn(pg)
        pg.wait_for_selector('[data-testid="stMain"] [data-testid="stDataFrame"]')
        _check(pg, found, f"{path or 'home'}-tables-light-wide")
        _scheme(pg, "dark")
        _check(pg, found, f"{path or 'home'}-tables-dark-wide")
    finally:
        context.close()
    found = {name: rules for name, rules in found.items() if rules}
    assert not found, _report(found)


# --- Reflow: 320 CSS px (WCAG 1.4.10) and 200% zoom -----------------------------------------

# Scrolling in two directions: the document or the app's scroll area wider than the screen.
# Cut off: a visible element with text whose right edge lies past the screen, outside the
# charts, tables and formulas, which may scroll sideways in their own box (WCAG's exception).
_OVERFLOW = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  for (const sel of ['html', 'body', '[data-testid=stAppViewContainer]', '[data-testid=stMain]']) {
    const e = document.querySelector(sel);
    if (e && e.scrollWidth > e.clientWidth + 1) out.push(`${sel} scrolls: ${e.scrollWidth}px`);
  }
  const own = '.stPlotlyChart, [data-testid=stDataFrame], .katex-display, [data-testid=stCode]';
  for (const e of document.querySelectorAll('[data-testid=stMain] *')) {
    if (e.closest(own) || e.children.length || !(e.innerText || '').trim()) continue;
    const r = e.getBoundingClientRect();
    if (r.width && r.right > vw + 1 && e.checkVisibility({opacityProperty: true}))
      out.push(`${e.tagName} "${e.innerText.slice(0, 40)}" ends at ${Math.round(r.right)}px`);
  }
  return out.slice(0, 10);
}"""
# 200% zoom of a 1280 px window: 640 CSS px (Chromium lays out a zoomed page at width / zoom)
REFLOW = {"320px": {"width": 320, "height": 640}, "zoom200": {"width": 640, "height": 400}}


@pytest.mark.parametrize("path", page_paths())
def test_nothing_is_cut_off_at_320_px_or_200_percent_zoom(app_url, browser, path):
    """Every page, its charts' tables shown (table=1: the longest form of it), at 320 px and
    at 640 px (200% zoom of 1280): nothing needs scrolling sideways except the charts, tables
    and formulas themselves, and no text runs past the screen."""
    context = browser.new_context(viewport=REFLOW["320px"], device_scale_factor=1)
    try:
        pg = context.new_page()
        pg.goto(f"{app_url}/{path}?table=1")
        for name, size in REFLOW.items():
            pg.set_viewport_size(size)
            _drawn(pg)
            _settled(pg)
            if folder := os.environ.get("A11Y_SHOTS"):
                pg.screenshot(path=str(Path(folder) / f"{path or 'home'}-{name}.png"))
            assert pg.evaluate(_OVERFLOW) == [], name
    finally:
        context.close()


# --- Reduced motion ---------------------------------------------------------------------------

# Every CSS transition and animation on the page, as computed: the longest, in ms
_LONGEST_MOTION = """() => {
  let most = 0;
  const ms = v => v.split(',').map(s => parseFloat(s) * (s.trim().endsWith('ms') ? 1 : 1000));
  for (const e of document.querySelectorAll('*')) {
    const s = getComputedStyle(e);
    most = Math.max(most, ...ms(s.transitionDuration), ...ms(s.animationDuration));
  }
  return most;
}"""


def test_live_training_honours_reduced_motion(app_url, browser):
    """With the system asking for less motion, live training (Train, Induction) and generation
    (the llm page) move nothing: while a run is in progress (its progress bar shown) no
    transition or animation on the page lasts more than a millisecond. Without the request the
    progress bar does glide (the check can fail)."""
    reduced = browser.new_context(viewport=WIDTHS["wide"], reduced_motion="reduce")
    normal = browser.new_context(viewport=WIDTHS["wide"], reduced_motion="no-preference")
    try:
        pg = reduced.new_page()
        pg.goto(f"{app_url}/train?steps=3000")
        _drawn(pg)
        pg.get_by_role("button", name="Train", exact=True).click()
        pg.wait_for_selector('[data-testid="stProgress"]', timeout=60_000)
        assert pg.evaluate(_LONGEST_MOTION) <= 1
        for path in ("induction", "llm"):
            pg.goto(f"{app_url}/{path}")
            _drawn(pg)
            assert pg.evaluate(_LONGEST_MOTION) <= 1, path
        other = normal.new_page()
        other.goto(f"{app_url}/train?steps=3000")
        _drawn(other)
        other.get_by_role("button", name="Train", exact=True).click()
        other.wait_for_selector('[data-testid="stProgress"]', timeout=60_000)
        assert other.evaluate(_LONGEST_MOTION) > 1
    finally:
        reduced.close()
        normal.close()
