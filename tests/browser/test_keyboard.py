"""Every page with the keyboard alone (WCAG 2.1.1, 2.4.7), pages from the registry: from the top
of the page, Tab reaches "Show charts as tables" in the sidebar and Space turns it on (the URL
says table=1); Tab goes on to the page's main control (its views, else its first slider) and
arrow keys with Enter or Space change it (the URL changes); Tab goes on into a chart's table and
the arrow keys move through its cells, which a screen reader reads from the grid's table. Every
control reached has a visible focus indicator.

One server for the module; one browser page per app page. No mouse anywhere.
"""

from __future__ import annotations

import pytest

from tests.helpers.browser import (
    eventually,
    opening_query,
    params,
    wait_for_app,
    wait_for_params,
)
from ui.pages import PAGES

pytestmark = pytest.mark.browser

MAX_TABS = 400  # a long page: the sidebar, every chart's toolbar, every table's toolbar

# What has focus, as the test reads it
_ACTIVE = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const box = e.closest('[data-testid]');
  return {tag: e.tagName, role: e.getAttribute('role'), type: e.type || '',
          label: e.getAttribute('aria-label') || (e.labels && e.labels[0]
                 ? e.labels[0].innerText : '') || (e.innerText || '').slice(0, 60),
          testid: box ? box.getAttribute('data-testid') : '',
          main: !!e.closest('[data-testid=stMain]'),
          views: !!e.closest('[data-testid=stButtonGroup]'),
          // the table of a chart (ui/widgets.plot: in a container keyed "<chart key>.tables")
          grid: !!e.closest('[data-testid=stDataFrame]') && e.tagName === 'CANVAS'
                && !!e.closest('[class*="-tables"]')};
}"""

# A focus indicator is drawn: the focused element, or the nearest of its ancestors that is drawn
# (a radio's or a switch's input is invisible; its label shows the focus), has an outline of
# at least 2 px or a box shadow.
_FOCUS_SHOWN = """() => {
  let e = document.activeElement;
  if (!e || !e.matches(':focus-visible')) return false;
  for (let i = 0; e && i < 6; i++, e = e.parentElement) {
    const s = getComputedStyle(e);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
    if (outline || (s.boxShadow && s.boxShadow !== 'none')) return true;
  }
  return false;
}"""


def tab_to(pg, wanted, what: str) -> dict:
    """Press Tab until the focused element satisfies `wanted` (a function of `_ACTIVE`'s dict);
    return that dict. The focus is visible there."""
    for _ in range(MAX_TABS):
        pg.keyboard.press("Tab")
        active = pg.evaluate(_ACTIVE)
        if active and wanted(active):
            assert pg.evaluate(_FOCUS_SHOWN), f"no visible focus on {what}: {active}"
            return active
    raise AssertionError(f"{MAX_TABS} Tabs never reached {what}")


def _table_toggle(a: dict) -> bool:
    return a["role"] == "switch" and a["label"].strip().startswith("Show charts as tables")


def _main_control(has_views: bool, answers: bool = False):
    """The page's views, else its first slider; on the lesson (`answers`): the answer's options."""
    if has_views:
        return lambda a: a["views"]
    kinds = ("range", "radio") if answers else ("range",)
    return lambda a: a["main"] and (a["role"] == "slider" or a["type"] in kinds)


def _url_changed(pg, before: dict, name: str | None) -> None:
    def check():
        now = params(pg)
        changed = {k for k in now.keys() | before.keys() if now.get(k) != before.get(k)}
        assert changed - {"table"}, "the control changed nothing in the URL"
        if name:
            assert name in changed, changed
        return now

    return eventually(check)


# The cell selected in the table that has the focus, as its grid's table (for screen readers)
# marks it, with the label of its column
_SELECTED = """() => {
  const grid = document.activeElement.closest('[data-testid=stDataFrame]');
  if (!grid) return null;
  const cells = [...grid.querySelectorAll('[role=gridcell]')]
    .filter(c => c.getAttribute('aria-selected') === 'true');
  if (cells.length !== 1) return null;
  const c = cells[0], table = c.closest('table');
  const col = +c.getAttribute('aria-colindex');
  const head = table.querySelector(`thead [aria-colindex="${col}"]`);
  return {text: c.innerText, column: head ? head.innerText : '', id: c.id};
}"""


@pytest.fixture
def kb(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    yield pg
    context.close()


@pytest.mark.parametrize("app_page", PAGES, ids=lambda p: p.id)
def test_keyboard_only(app_url, kb, app_page):
    pg = kb
    pg.goto(f"{app_url}/{app_page.url_path}{opening_query(app_page.id)}")
    pg.wait_for_selector(".js-plotly-plot", timeout=120_000)
    wait_for_app(pg)
    has_views = pg.locator('[data-testid=stMain] [data-testid="stButtonGroup"]').count() > 0

    # 1. "Show charts as tables": Tab to it, Space
    tab_to(pg, _table_toggle, "the 'Show charts as tables' switch")
    pg.keyboard.press("Space")
    wait_for_params(pg, table="1")
    pg.wait_for_selector("[data-testid=stMain] [data-testid=stDataFrame]", timeout=60_000)
    wait_for_app(pg)

    # 2. the page's main control: its views (arrow to the next, Enter), else its first slider
    before = params(pg)
    main_control = _main_control(has_views, answers=bool(opening_query(app_page.id)))
    tab_to(pg, main_control, "the page's main control")
    if has_views:
        pg.keyboard.press("ArrowRight")
        pg.keyboard.press("Enter")
        view = "stage" if app_page.id == "step" else "view"
        _url_changed(pg, before, view)
    else:
        pg.keyboard.press("ArrowRight")
        _url_changed(pg, before, None)
    pg.wait_for_selector("[data-testid=stMain] [data-testid=stDataFrame]", timeout=60_000)
    wait_for_app(pg)

    # 3. a chart's table: Tab into its grid, arrows to a number; the grid's table says which
    tab_to(pg, lambda a: a["grid"] and a["main"], "a chart's table")
    pg.keyboard.press("ArrowDown")
    cell = eventually(lambda: _selected(pg))
    for _ in range(4):  # past the row labels (a head, a token) to the first number
        if _number(cell["text"]):
            break
        pg.keyboard.press("ArrowRight")
        cell = eventually(lambda last=cell["id"]: _selected(pg, other_than=last))
    assert _number(cell["text"]), cell
    assert cell["column"].strip(), cell  # its column has the chart's label (a token, a series)


def _selected(pg, other_than: str = "") -> dict:
    cell = pg.evaluate(_SELECTED)
    assert cell and cell["id"] != other_than, cell
    return cell


def _number(text: str) -> bool:
    try:
        float(text.replace("−", "-"))
    except ValueError:
        return False
    return True
