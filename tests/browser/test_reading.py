"""The Reading heads page (and the clickable mosaic of the Pretrained heads page) in a real
Chromium against a real `streamlit run`: clicking a token of the lines view keeps only its lines,
the filter hides what its caption says, clicking a map selects its layer and head. Expected
numbers come from our core, run here."""

from __future__ import annotations

import re
import urllib.parse

import numpy as np
import pytest
from playwright.sync_api import expect

import mha_core
from tests.helpers.browser import eventually, eventually_equal, view_button, wait_for_app

pytestmark = pytest.mark.browser

TEXT = "The animal didn't cross the street because it was too tired."
URL = "/reading?text=" + urllib.parse.quote(TEXT)


@pytest.fixture(scope="module")
def reading_page(browser, app_url):
    """One session on the Reading heads page for the tests below, in file order (a page load
    costs far more than a rerun): each test leaves the layer and head it found, or changes them
    last."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.dialogs = []
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    _open(pg, app_url)
    yield pg
    context.close()


@pytest.fixture(scope="module")
def attentions() -> np.ndarray:
    return mha_core.load_pretrained().trace(TEXT, keep_layers=False).attentions.numpy()


def _open(pg, app_url: str, path: str = URL, n_plots: int = 1) -> None:
    pg.goto(app_url + path)
    wait_for_app(pg, timeout=120_000)
    pg.wait_for_function(
        "(n) => document.querySelectorAll('.js-plotly-plot').length >= n",
        arg=n_plots,
        timeout=120_000,
    )
    _settle(pg)


def _settle(pg) -> None:
    """Wait until the run is over and no element of an earlier run is left on the page."""
    wait_for_app(pg)
    pg.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')", timeout=60_000)


def _plot(key: str) -> str:
    """CSS selector of the chart drawn with Streamlit key `key` ("reading.fig.lines")."""
    return f".st-key-{key.replace('.', '-')} .js-plotly-plot"


def _point_xy(pg, key: str, trace: int, point: int) -> tuple[float, float]:
    """Page coordinates of point `point` of trace `trace` of a chart."""
    sel = _plot(key)
    pg.locator(sel).last.scroll_into_view_if_needed()
    return tuple(
        pg.evaluate(
            """([sel, t, i]) => { const g = [...document.querySelectorAll(sel)].pop();
                const d = g._fullData[t], r = g.getBoundingClientRect(), fl = g._fullLayout;
                const xa = fl[d.xaxis.replace('x', 'xaxis')];
                const ya = fl[d.yaxis.replace('y', 'yaxis')];
                return [r.left + xa._offset + xa.l2p(d.x[i]),
                        r.top + ya._offset + ya.l2p(d.y[i])];
            }""",
            [sel, trace, point],
        )
    )


def _trace_index(pg, key: str, mode: str, nth: int = 0) -> int:
    return pg.evaluate(
        """([sel, mode, nth]) => { const d = [...document.querySelectorAll(sel)].pop()._fullData;
            return d.map((t, i) => t.mode === mode ? i : -1).filter(i => i >= 0)[nth]; }""",
        [_plot(key), mode, nth],
    )


def _line_ends(pg, key: str) -> list[list[int]]:
    """[query, key] of every line drawn in the lines view."""
    return pg.evaluate(
        """(sel) => { const out = [];
            for (const t of [...document.querySelectorAll(sel)].pop().data) {
                if (t.mode !== 'lines' || t.x[0] === null) continue;
                for (let k = 0; k < t.y.length; k += 3) out.push([t.y[k], t.y[k + 1]]);
            }
            return out; }""",
        _plot(key),
    )


def _hover_text(pg) -> str:
    return " ".join(
        pg.evaluate(
            "() => [...document.querySelectorAll('.hoverlayer .hovertext')].map(e => e.textContent)"
        )
    )


def _hovers(pg, x: float, y: float, text: str) -> str:
    """Move the mouse to (x, y) until the hover label there says `text`; return the label."""

    def check() -> str:
        pg.mouse.move(x, y)
        shown = _hover_text(pg)
        assert text in shown, shown
        return shown

    return eventually(check, timeout=30)


def _selectbox_values(pg) -> dict[str, str]:
    return pg.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-testid=stSelectbox]')]
            .map(s => [s.querySelector('label').innerText, s.querySelector('input').value]))"""
    )


def _open_tab(pg, name: str, chart: str) -> None:
    """Click the page's tab `name` and wait for its chart `chart` (only the open tab is drawn)."""
    view_button(pg, name).click()
    pg.wait_for_function(
        "(sel) => { const g = document.querySelector(sel); return g && g._fullLayout; }",
        arg=_plot(chart),
        timeout=60_000,
    )
    _settle(pg)


def _click_picks_head(pg, x: float, y: float, heading: str, layer: int, head: int) -> None:
    """Click at (x, y); the heading naming the picked head appears and the Layer and Head
    boxes hold it."""
    pg.mouse.click(x, y)
    pg.wait_for_function(
        "(text) => [...document.querySelectorAll('h3')].some(h => h.innerText.includes(text))",
        arg=heading,
        timeout=60_000,
    )
    eventually_equal(
        lambda: (_selectbox_values(pg)["Layer"], _selectbox_values(pg)["Head"]),
        (str(layer), str(head)),
    )


def test_clicking_a_token_keeps_only_its_lines(reading_page, attentions, tmp_path):
    page = reading_page
    before = _line_ends(page, "reading.fig.lines")
    assert {q for q, _ in before} == set(range(attentions.shape[-1]))  # every token has lines
    queries = _trace_index(page, "reading.fig.lines", "markers+text", 0)
    x, y = _point_xy(page, "reading.fig.lines", queries, 2)  # "animal" as query
    _hovers(page, x, y, "query 2: animal")
    page.mouse.click(x, y)
    page.wait_for_function(
        """(sel) => { const g = [...document.querySelectorAll(sel)].pop();
            if (!g || !g.data) return false;
            const ts = g.data.filter(t => t.mode === 'lines' && t.x[0] !== null);
            return ts.length > 0
                && ts.every(t => t.y.every((v, k) => k % 3 !== 0 || v === 2)); }""",
        arg=_plot("reading.fig.lines"),
        timeout=60_000,
    )
    _settle(page)
    ends = _line_ends(page, "reading.fig.lines")
    expected = sum(int((attentions[0, h, 2] >= 0.005).sum()) for h in range(3))
    assert {q for q, _ in ends} == {2} and len(ends) == expected
    eventually_equal(
        lambda: _selectbox_values(page)["Only the lines of token (– = every token)"], "2: animal"
    )
    # hovering a key now gives each head's exact weight from "animal"
    keys = _trace_index(page, "reading.fig.lines", "markers+text", 1)
    x, y = _point_xy(page, "reading.fig.lines", keys, 0)
    hover = _hovers(page, x, y, "head 2: weight = ")
    for h in range(3):
        value = float(re.search(rf"head {h}: weight = ([0-9.e-]+)", hover).group(1))
        assert value == pytest.approx(float(attentions[0, h, 2, 0]), rel=1e-6)
    page.locator(_plot("reading.fig.lines")).screenshot(path=str(tmp_path / "lines.png"))
    assert page.dialogs == []


def test_the_filter_hides_what_its_caption_says(reading_page, attentions):
    page = reading_page
    _open_tab(page, "Weights vs norms", "reading.fig.weights")
    page.get_by_text("Keep each row's top k").click()
    sel = _plot("reading.fig.weights")
    page.wait_for_function(
        "(sel) => { const g = [...document.querySelectorAll(sel)].pop();"
        " if (!g || !g._fullData) return false;"
        " return Array.from(g._fullData[0].z[0]).some(v => v === null || Number.isNaN(v)); }",
        arg=sel,
        timeout=60_000,
    )
    _settle(page)
    z = page.evaluate(
        "(sel) => Array.from([...document.querySelectorAll(sel)].pop()._fullData[0].z,"
        " r => Array.from(r, v => (v === null || Number.isNaN(v)) ? null : v))",
        sel,
    )
    a = attentions[0, 0].astype(np.float64)
    kept = a >= np.sort(a, axis=-1)[:, -3:-2]  # k = 3 by default
    for row, keep in zip(z, kept):
        assert [v is not None for v in row] == keep.tolist()
    share = a[~kept].sum() / a.sum()
    n_hidden = int((~kept).sum())
    caption = page.locator(".st-key-reading-fig-weights + div")
    expect(caption).to_contain_text(
        f"hides {100 * share:.1f}% of the attention mass here ({n_hidden} of"
    )


def test_clicking_the_importance_map_picks_the_head(reading_page):
    page = reading_page
    _open_tab(page, "Head importance", "reading.fig.importance")
    targets = _trace_index(page, "reading.fig.importance", "markers")
    x, y = _point_xy(page, "reading.fig.importance", targets, 4 * 12 + 9)
    page.mouse.click(x, y)
    page.wait_for_function("() => location.search.includes('head=9')", timeout=60_000)
    _settle(page)
    eventually_equal(
        lambda: (_selectbox_values(page)["Layer"], _selectbox_values(page)["Head"]), ("4", "9")
    )
    _open_tab(page, "Weights vs norms", "reading.fig.weights")
    heading = "Weights against value-weighted norms (layer 4, head 9)"
    exactly = re.compile("^" + re.escape(heading) + "$")
    expect(page.locator("h3").filter(has_text=exactly)).not_to_have_count(0)


def test_clicking_a_map_of_the_pretrained_mosaic_selects_it(app_url, page, tmp_path):
    _open(page, app_url, "/pretrained?text=" + urllib.parse.quote(TEXT), n_plots=3)
    x, y = _point_xy(page, "pretrained.mosaic_fig", 1, 3 * 12 + 7)  # trace 1: the click targets
    _hovers(page, x, y, "layer 3, head 7")
    _click_picks_head(page, x, y, "Layer 3, head 7", 3, 7)
    # the orange box moves to that map (the chart redraws a moment after the heading)
    page.wait_for_function(
        """(sel) => { const g = [...document.querySelectorAll(sel)].pop();
            if (!g || !g._fullData || !g.layout.shapes) return false;
            const step = (g._fullData[0].z[0].length + 1) / 12, r = g.layout.shapes[0];
            return r.x0 === 7 * step - 0.5 && r.y0 === 3 * step - 0.5; }""",
        arg=_plot("pretrained.mosaic_fig"),
        timeout=30_000,
    )
    page.screenshot(path=str(tmp_path / "mosaic_selected.png"))
