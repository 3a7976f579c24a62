"""WCAG 2.1 A and AA in Chromium, as axe-core checks it (axe-playwright-python bundles axe-core):
every page, light and dark (the browser's colour scheme, which Streamlit's theme follows), 1400
and 390 px wide. On a page with views, a second view is opened and checked too.

One server for the module, one page load per page. Set A11Y_SHOTS=<folder> to keep a screenshot
of each state checked (look at them) and axe's counts (axe.jsonl).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

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
