"""Every page on a phone (390 x 844) in Chromium: geometry read from bounding boxes.

On a 390 px screen no chart is narrower than a readable minimum, no two tick labels of a chart
overlap, and the page does not scroll sideways. One server and one phone-sized page for the
module; the pages are opened one after another. Set PHONE_SHOTS=<folder> to keep a screenshot
of each page (look at them).
"""

from __future__ import annotations

import os
import urllib.parse
from pathlib import Path

import pytest

from tests.helpers.browser import opening_query, page_at, wait_for_app
from ui.pages import PAGES

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
MIN_CHART_PX = 300  # the narrowest chart that still reads on a 390 px screen
PATHS = tuple(p.url_path for p in PAGES)  # the home page's is ""

# Per chart: its width and the boxes of its drawn tick labels (the text's own box, so a label
# turned upright is its upright box). Labels of one chart must not overlap by more than a pixel.
GEOMETRY = """
() => [...document.querySelectorAll('.js-plotly-plot')].filter(g => g._fullLayout).map(g => {
  const r = g.getBoundingClientRect();
  // tick labels of every axis (x, x2, ... overlays included): <g class="x2tick"><text>
  const boxes = [...g.querySelectorAll('g[class$="tick"] > text')]
    .filter(t => t.textContent.trim() !== '')
    .map(t => { const b = t.getBoundingClientRect();
                return [b.left, b.top, b.right, b.bottom, t.textContent]; })
    .filter(b => b[2] - b[0] > 0 && b[3] - b[1] > 0);
  return {width: r.width, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          boxes: boxes};
})
"""
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    pg = context.new_page()
    yield pg
    context.close()


def _ink(box: list) -> list:
    """A label's box less the line box's padding around the letters (3 px or a fifth of the
    box on each side): the box of a short label turned upright is a line high (15 px) and its
    neighbour's starts 13 px further, with the letters 5 px apart."""
    left, top, right, bottom, text = box
    px, py = min(3, (right - left) / 5), min(3, (bottom - top) / 5)
    return [left + px, top + py, right - px, bottom - py, text]


def _outside(chart: dict) -> list[tuple]:
    """Labels not wholly inside their chart (cut off at its edge: the margins reserved for them,
    viz/margins.py, were too small; the grids draw without plotly's automargin)."""
    return [
        (text, [round(v) for v in (left, top, right, bottom)])
        for left, top, right, bottom, text in (_ink(b) for b in chart["boxes"])
        if left < chart["left"] - 1 or right > chart["right"] + 1
        or top < chart["top"] - 1 or bottom > chart["bottom"] + 1
    ]  # fmt: skip


def _overlaps(boxes: list) -> list[tuple]:
    """Pairs of label boxes (as drawn: upright labels rotated) that overlap both ways."""
    found = []
    boxes = [_ink(b) for b in boxes]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            dx = min(a[2], b[2]) - max(a[0], b[0])
            dy = min(a[3], b[3]) - max(a[1], b[1])
            if dx > 0.5 and dy > 0.5:
                found.append((a[4], b[4], round(dx), round(dy), [round(v) for v in a[:4]]))
    return found


def _settle(pg) -> None:
    # a chart's code loads after the page: wait for the first one (every page draws charts)
    pg.wait_for_selector(".js-plotly-plot", timeout=120_000)
    wait_for_app(pg, timeout=120_000)  # the page's run is over: all its charts are in the page
    pg.wait_for_function(  # and drawn (a chart mounts after the script has finished)
        "() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')].every(e => {"
        " const g = e.matches('.js-plotly-plot') ? e : e.querySelector('.js-plotly-plot');"
        " return g && g._fullLayout; })",
        timeout=120_000,
    )


def _shoot(pg, name: str) -> None:
    """With PHONE_SHOTS set: the whole page (Streamlit scrolls inside its main block, so the
    window is made as tall as the page for the shot), then the phone's size again."""
    if not os.environ.get("PHONE_SHOTS"):
        return
    shots = Path(os.environ["PHONE_SHOTS"])
    shots.mkdir(parents=True, exist_ok=True)
    tall = pg.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain], section')]"
        ".map(e => e.scrollHeight), 844)"
    )
    pg.set_viewport_size({"width": PHONE["width"], "height": min(int(tall), 12_000)})
    pg.wait_for_timeout(1500)
    pg.screenshot(path=str(shots / f"phone_{name}.png"))
    pg.set_viewport_size(PHONE)
    pg.wait_for_timeout(500)


# Pages known not to read on a phone yet: {path: why} (marked xfail). None today.
KNOWN: dict[str, str] = {}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.xfail(reason=KNOWN[p], strict=False)) if p in KNOWN
     else p for p in PATHS],
    ids=lambda p: p or "attention",
)  # fmt: skip
def test_page_reads_on_a_phone(app_url, phone, path):
    page_id = next(p.id for p in PAGES if p.url_path == path)
    phone.goto(f"{app_url}/{path}{opening_query(page_id)}")
    _settle(phone)  # every page draws charts as it opens (train, induction: the untrained model)
    charts = phone.evaluate(GEOMETRY)
    _shoot(phone, path or "attention")
    assert phone.evaluate(OVERFLOW) <= 1, "the page scrolls sideways"
    for k, c in enumerate(charts):
        assert c["width"] >= MIN_CHART_PX, f"chart {k} is {c['width']:.0f} px wide"
        assert c["left"] >= -1 and c["right"] <= PHONE["width"] + 1, f"chart {k} leaves the screen"
        assert _overlaps(c["boxes"]) == [], f"chart {k}: tick labels overlap"
        assert _outside(c) == [], f"chart {k}: tick labels cut off"
    assert charts, "a page drew no chart"


@pytest.mark.parametrize("view", ["head", "blocks"])
def test_long_text_head_grid_on_a_phone(app_url, phone, view):
    """512 tokens on the home page: one head in full, or block means for every head; labels
    thinned so that none overlap."""
    words = " ".join(chr(97 + i % 26) for i in range(512))  # short enough for the URL
    phone.goto(f"{app_url}/?n_heads=2&d_model=16&long_view={view}&text={words.replace(' ', '+')}")
    phone.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')].filter(g => g._fullLayout)"
        ".length >= 1",
        timeout=120_000,
    )
    _settle(phone)
    charts = phone.evaluate(GEOMETRY)
    assert len(charts) == 1
    c = charts[0]
    assert c["width"] >= MIN_CHART_PX
    assert 0 < len(c["boxes"]) <= 120  # thinned: every k-th label
    assert _overlaps(c["boxes"]) == [] and _outside(c) == []
    _shoot(phone, f"attention_512_{view}")
    labels = [b[4] for b in c["boxes"]]
    # every k-th label, each with its position; or blocks of tokens
    assert ("0: a" if view == "head" else "0–7") in labels
    assert phone.evaluate(OVERFLOW) <= 1


GRIDS = [  # the pages that draw heads as one-trace grids, with long and odd labels
    ("", {"n_heads": 8, "text": " ".join(f"word{i}" for i in range(60))}),
    ("", {"n_heads": 16, "d_model": 64, "text": "注意力机制很有用 Ünïcödé 👩‍👩‍👧 <b>x</b> مرحبا"}),
    ("efficient", {"n_heads": 8}),
    ("encoder_decoder", {"n_heads": 8}),
]


@pytest.mark.parametrize("width", [390, 1400])
@pytest.mark.parametrize("path,query", GRIDS, ids=["home60", "home_unicode", "efficient", "encdec"])
def test_grid_labels_stay_inside_their_chart(app_url, browser, width, path, query):
    with page_at(browser, f"{app_url}/{path}?{urllib.parse.urlencode(query)}", width) as pg:
        _settle(pg)
        charts = pg.evaluate(GEOMETRY)
        assert charts
        for k, c in enumerate(charts):
            assert _outside(c) == [], f"chart {k}: tick labels cut off"
            assert _overlaps(c["boxes"]) == [], f"chart {k}: tick labels overlap"


# The nodes of the efficient page's groups strip (its subplot x30y30), as drawn, by trace
STRIP_NODES = """
() => [...document.querySelectorAll('.js-plotly-plot g.x30y30 g.scatterlayer g.trace')]
  .map(t => [...t.querySelectorAll('path.point')].map(p => {
      const b = p.getBoundingClientRect(); return [b.left, b.right]; }))
  .filter(row => row.length)
"""


@pytest.mark.parametrize("width", [390, 1400])
def test_the_groups_strip_nodes_stay_apart(app_url, browser, width):
    """16 heads: at 390 px the strip's nodes overlapped (14 px circles 12 px apart). They are
    sized to fit a phone's plot width; either way neighbours in a row keep a gap."""
    with page_at(browser, f"{app_url}/efficient?n_heads=16&d_model=64", width) as pg:
        _settle(pg)
        rows = pg.evaluate(STRIP_NODES)
        assert [len(row) for row in rows] == [16, 16]  # query heads, key/value heads
        for row in rows:
            row.sort()
            gaps = [b[0] - a[1] for a, b in zip(row, row[1:])]
            assert min(gaps) >= 2, (width, gaps)


# the key labels a phone shows under each row of a grid's heads: per axis, in the page's order
SHOWN_KEYS = """
() => { const rows = {};
  for (const e of document.querySelector('.js-plotly-plot')
                          .querySelectorAll('g[class^="x"][class$="tick"]')) {
    const text = e.textContent;
    if (getComputedStyle(e).display === 'none' || text === '\\u200b') continue;
    if (e.closest('.colorbar')) continue;  // the colour bar's numbers, under the grid
    (rows[e.getAttribute('class')] = rows[e.getAttribute('class')] || []).push(text);
  }
  return Object.values(rows); }
"""


@pytest.mark.parametrize("path", ["", "efficient"])
def test_a_phone_shows_the_same_key_labels_under_both_heads_of_a_row(app_url, browser, path):
    """At 390 px every 2nd key label is drawn; counted across a row's two heads, the second
    head showed the other half (head 1: want, live, Europe beside head 0's I, to, in, .)."""
    with page_at(browser, f"{app_url}/{path}?n_heads=4&d_model=64", 390) as pg:
        _settle(pg)
        rows = pg.evaluate(SHOWN_KEYS)
        assert len(rows) == 2  # two rows of two heads
        for shown in rows:
            half = len(shown) // 2
            assert shown[:half] == shown[half:] == ["I", "to", "in", "."], shown
