"""What the browser tests read from a page, and how they wait for it
(`from tests.helpers.browser import eventually, wait_for_app`).

A browser test waits for the exact state it asserts: Playwright's `expect` for a locator or the
URL, `pg.wait_for_function` for a chart, `eventually` for any other check written in Python.
`wait_for_app` only says the page is idle: right after a click the rerun may not have started
yet, so what is read after it alone may still be the old state.
"""

from __future__ import annotations

import contextlib
import time
import urllib.parse
from collections.abc import Iterator

from playwright.sync_api import Error as PlaywrightError

WAIT_S = 60  # how long a test waits for a state: a loaded 2-core CI machine needs this much


@contextlib.contextmanager
def page_at(browser, url: str, width: int, height: int = 1000) -> Iterator:
    """A page of its own (a new browser context: a new session) at `width` x `height`, opened
    on `url`; closed at the end of the block."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        pg = context.new_page()
        pg.goto(url)
        yield pg
    finally:
        context.close()


def eventually(check, timeout: float = WAIT_S, interval: float = 0.25):
    """Run `check` (a function that reads the page and asserts) until it passes; return what it
    returns. At the deadline its last failure is raised: the same assertion, now waited for. A
    Playwright error counts as a failure too (a chart read while it remounts has no layout).
    `check` reads the page through Playwright calls (`evaluate`, locators, `url`), not cached
    copies such as `pg.url`: nothing updates those between the calls."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return check()
        except (AssertionError, PlaywrightError):
            if time.monotonic() >= deadline:
                raise
        time.sleep(interval)


def eventually_equal(read, want, timeout: float = WAIT_S):
    """Until `read()` (a value read from the page) equals `want`."""

    def check():
        got = read()
        assert got == want, f"{got!r} != {want!r}"

    eventually(check, timeout)


def url(pg) -> str:
    """The page's URL as the browser has it now. (`pg.url` is Playwright's copy, updated only
    while a Playwright call runs: a loop that reads it between sleeps never sees it change.)"""
    return pg.evaluate("() => location.href")


def params(pg) -> dict[str, str]:
    """The page's URL parameters (the last value of each)."""
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url(pg)).query))


def wait_for_params(pg, timeout: float = WAIT_S, **want: str) -> dict[str, str]:
    """Until the URL holds each `name=value` of `want` (the app writes the URL at the end of a
    run: this is the run's end); return all its parameters."""

    def check() -> dict[str, str]:
        got = params(pg)
        assert {k: got.get(k) for k in want} == want, got
        return got

    return eventually(check, timeout)


# Idle: connected, the script's last run over (not still at its first: "initial"), no element of
# an earlier run left, no skeleton of a page still loading.
_IDLE_JS = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-connection-state') !== 'CONNECTED') return false;
    if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    const s = document.querySelector('[data-testid="stStatusWidget"]');
    if (s && s.innerText.toLowerCase().includes('running')) return false;
    return !document.querySelector('[data-testid="stSkeleton"], [data-stale="true"]');
}"""


def wait_for_app(pg, timeout: float = 60_000) -> None:
    """Wait until the page is idle (see `_IDLE_JS`). Not proof that an action's rerun is over:
    right after a click the rerun may not have started yet. Wait for what the test asserts."""
    pg.wait_for_function(_IDLE_JS, timeout=timeout, polling=100)


def assert_markup_is_text(pg) -> None:
    """The hostile markup of `tests.helpers.inputs` typed into the page made no link, no image
    and no dialog in the page's main area (the `page` fixture records dialogs)."""
    assert pg.locator("[data-testid=stMain] a[href='https://example.com']").count() == 0
    assert pg.locator("[data-testid=stMain] img[src=x]").count() == 0
    assert pg.dialogs == []


VIEWS = '[data-testid="stButtonGroup"]'  # a page's views: a segmented control (ui.controls.views)


def view_button(pg, label: str):
    """The button that opens view `label` (exact text) in a page's views."""
    return pg.locator(VIEWS).get_by_role("radio", name=label, exact=True)


def view_labels(pg) -> list[str]:
    """The labels of the views the page offers, in order."""
    return [b.inner_text() for b in pg.locator(VIEWS).first.get_by_role("radio").all()]


def plot_data(pg, index: int = 0):
    """The `data` array of the index-th Plotly chart on the page (as the browser holds it)."""
    return pg.evaluate(
        "(i) => { const g = document.querySelectorAll('.js-plotly-plot')[i];"
        " return g.data.map(d => ({type: d.type, name: d.name})); }",
        index,
    )


def plot_layout_axis(pg, index: int, axis: str):
    return pg.evaluate(
        "([i, ax]) => { const g = document.querySelectorAll('.js-plotly-plot')[i];"
        " const a = g._fullLayout[ax]; return {ticktext: a.ticktext, tickvals: a.tickvals}; }",
        [index, axis],
    )


# A chart's heatmaps as the heads of a grid, read from the data the browser holds: for each
# heatmap trace, the blocks of cells that are not empty (a one-trace head grid separates its
# heads by empty rows and columns; any other heatmap is one block). `GRID_JS` defines
# `gridOf(g)` -> {heads: [[rows, cols], ...] one per block, xticks / yticks: the tick text of
# the first block's columns / rows (as the spec holds it: escaped)}.
GRID_JS = """
const gridOf = (g) => {
  const runs = (flags) => {
    const out = []; let s = -1;
    flags.forEach((f, i) => {
      if (f && s < 0) s = i;
      if (!f && s >= 0) { out.push([s, i]); s = -1; }
    });
    if (s >= 0) out.push([s, flags.length]);
    return out; };
  const ticks = (ax, lo, hi) => {
    if (!ax || !ax.ticktext || !ax.tickvals) return null;
    return ax.tickvals.map((v, i) => [v, ax.ticktext[i]]).filter(([v]) => v >= lo && v < hi)
      .map(([, t]) => t); };
  const heads = []; let xticks = null, yticks = null;
  for (const d of (g._fullData || []).filter(d => d.type === 'heatmap')) {
    const z = d.z, has = (v) => v !== null && v !== undefined && !Number.isNaN(v);
    const rowRuns = runs(z.map(r => Array.from(r).some(has)));
    const colRuns = runs(Array.from(z[0]).map((_, j) => z.some(r => has(r[j]))));
    const lay = g._fullLayout, xa = lay[(d.xaxis || 'x').replace('x', 'xaxis')],
          ya = lay[(d.yaxis || 'y').replace('y', 'yaxis')];
    for (const [r0, r1] of rowRuns) for (const [c0, c1] of colRuns) {
      if (!z.slice(r0, r1).some(r => Array.from(r).slice(c0, c1).some(has))) continue;
      if (xticks === null) {
        const x0 = d.x ? d.x[c0] : c0, y0 = d.y ? d.y[r0] : r0;
        xticks = ticks(xa, x0 - 0.5, x0 + (c1 - c0) - 0.5);
        yticks = ticks(ya, y0 - 0.5, y0 + (r1 - r0) - 0.5);
      }
      heads.push([r1 - r0, c1 - c0]);
    }
  }
  return {heads, xticks, yticks};
};
"""


def move_slider(pg, label: str, steps: int, retries: int = 3) -> None:
    """Move the Streamlit slider named `label` by `steps` key presses, as a person would, one at
    a time: each press waits until the slider shows a new value. A rerun can remount the slider
    under a press and drop the keyboard focus (seen on a loaded machine: CI); then the press did
    nothing, and it is pressed again on the slider found anew (up to `retries` times)."""
    key = "ArrowRight" if steps > 0 else "ArrowLeft"
    for _ in range(abs(steps)):
        before = pg.get_by_role("slider", name=label).input_value()
        for _attempt in range(retries + 1):
            slider = pg.get_by_role("slider", name=label)
            slider.focus()
            slider.press(key)
            if _value_leaves(pg, label, before, seconds=10):
                break
        else:
            raise AssertionError(f"slider {label!r} stayed at {before} after {key}")
    wait_for_app(pg)


def _value_leaves(pg, label: str, before: str, seconds: float) -> bool:
    """Whether the slider named `label` shows a value other than `before` within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if pg.get_by_role("slider", name=label).input_value() != before:
            return True
        pg.wait_for_timeout(100)
    return False


# the Induction page's probe chart (its title): drawn once the stored run is on the page
INDUCTION_PROBE = (
    "() => { for (const g of document.querySelectorAll('.js-plotly-plot')) {"
    "  const t = g._fullLayout && g._fullLayout.title && g._fullLayout.title.text;"
    "  if (t && t.startsWith('Layer 1, head')) return t; } return null; }"
)


def opening_query(page_id: str) -> str:
    """The query that opens page `page_id` on its charts where it draws none as it opens: the
    lesson asks before it draws (a chart is an answer's reveal), so it opens on station 5 with
    its answer shown, a grid of every head. "" for every other page."""
    if page_id != "lesson":
        return ""
    from ui.compute.lesson import fingerprint
    from ui.state import DEFAULTS, Settings

    fp = fingerprint(Settings(**DEFAULTS))
    return "?" + urllib.parse.urlencode({"station": "heads", "answers": f"heads:-:{fp}"})
