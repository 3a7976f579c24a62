"""The Step by step page in a real Chromium against a real `streamlit run`."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.helpers.browser import (
    eventually,
    eventually_equal,
    view_button,
    view_labels,
    wait_for_app,
    wait_for_params,
)

pytestmark = pytest.mark.browser

URL_PATH = "step"  # Streamlit derives it from views/step.py
TITLE_EN = "Step by step: one head, one query"
TABS = ["0 · Input X", "1 · Q, K, V", "2 · Scores", "3 · Softmax and sum", "4 · Concatenate",
        "5 · Output"]  # fmt: skip


# a title in the page's plain notation: W<sub>K</sub><sup>h</sup> -> W_K^h (viz.labels.Notation)
PLAIN = ".replace(/<sub>/g, '_').replace(/<sup>/g, '^').replace(/<\\/su[bp]>/g, '')"


def _titles(pg) -> list[str]:
    return pg.evaluate(
        "() => [...document.querySelectorAll('.js-plotly-plot')]"
        ".map(g => ((g._fullLayout && g._fullLayout.title && g._fullLayout.title.text) || '')"
        + PLAIN
        + ")"
    )


def _wait_figure(pg, title_part: str, timeout: float = 60_000) -> None:
    """Wait until a drawn figure's title contains `title_part`."""
    pg.wait_for_function(
        "(part) => [...document.querySelectorAll('.js-plotly-plot')]"
        ".some(g => g._fullLayout && g._fullLayout.title"
        " && (g._fullLayout.title.text || '')" + PLAIN + ".includes(part))",
        arg=title_part,
        timeout=timeout,
    )


def _figure(pg, title_part: str) -> dict:
    """z, outlines and tick text of the first figure whose title contains `title_part`."""
    return pg.evaluate(
        """(part) => {
            const g = [...document.querySelectorAll('.js-plotly-plot')]
                .find(g => (g._fullLayout.title.text || '')PLAIN.includes(part));
            if (!g) return null;
            const z = g._fullData[0].z;  // typed arrays decoded, one row per array
            return {
                z: z ? Array.from(z, row => Array.from(row)) : null,
                outlines: (g.layout.shapes || []).map(s => [s.y0, s.y1]),
                yticks: g._fullLayout.yaxis.ticktext || null,
                xticks: g._fullLayout.xaxis.ticktext || null,
            };
        }""".replace("PLAIN", PLAIN),
        title_part,
    )


def _outlined(pg, title_part: str, rows: list[float]) -> None:
    """Until the figure titled `title_part` outlines `rows` ([y0, y1])."""

    def check():
        fig = _figure(pg, title_part)
        assert fig and rows in fig["outlines"], fig and fig["outlines"]

    eventually(check)


def _hovers(pg, title_part: str, x: float, y: float, *parts: str) -> None:
    """Until the hover label over cell (x, y) of the figure says each of `parts`."""

    def check():
        hover = _hover(pg, title_part, x, y)
        assert hover and all(p in hover for p in parts), hover

    eventually(check)


def _pick(pg, label: str, option: str) -> None:
    """Choose an option of a Streamlit selectbox, as a person would: open it, click the option;
    if a redraw closed the list first, type the option and press Enter instead."""
    box = pg.get_by_role("combobox", name=label)
    box.click()
    item = pg.get_by_role("option", name=option, exact=True)
    try:
        item.wait_for(timeout=5_000)
        item.click()
    except PlaywrightTimeout:
        box.click()
        box.fill(option)
        pg.get_by_role("option", name=option, exact=True).wait_for(timeout=10_000)
        box.press("Enter")
    wait_for_app(pg)
    pg.wait_for_function(
        "([label, option]) => [...document.querySelectorAll('[data-testid=stSelectbox]')]"
        ".some(s => s.innerText.includes(label) && s.querySelector('input').value === option)",
        arg=[label, option],
        timeout=30_000,
    )


def _open_from_home(pg, app_url: str) -> None:
    pg.goto(app_url)
    wait_for_app(pg)
    pg.get_by_role("link", name="Step by step").click()
    wait_for_app(pg)
    pg.get_by_role("heading", name=TITLE_EN).wait_for()
    _wait_figure(pg, "X (7 × 64)")


def _tab(pg, label: str, title_part: str) -> None:
    """Open a step's tab (only the open tab is drawn) and wait for one of its figures."""
    view_button(pg, label).click()
    _wait_figure(pg, title_part)
    wait_for_app(pg)


def _hover(pg, title_part: str, x: float, y: float) -> str | None:
    """The hover label Plotly draws over cell (x, y) of a figure."""
    return pg.evaluate(
        """([part, x, y]) => {
            const g = [...document.querySelectorAll('.js-plotly-plot')]
                .find(g => (g._fullLayout.title.text || '')PLAIN.includes(part));
            Plotly.Fx.hover(g, {xval: x, yval: y});
            const h = g.querySelector('.hovertext');
            return h ? h.textContent : null;
        }""".replace("PLAIN", PLAIN),
        [title_part, x, y],
    )


def test_head_and_query_pickers_redraw_the_figures(app_url, page, tmp_path):
    _open_from_home(page, app_url)
    expect(page).to_have_url(re.compile(rf"/{URL_PATH}(\?|$)"))
    eventually_equal(lambda: view_labels(page), TABS)
    expect(page.locator(".js-plotly-plot")).to_have_count(1)  # only the first step is drawn
    _tab(page, TABS[1], "W_K^h of head 0")
    expect(page.locator(".js-plotly-plot")).to_have_count(6)

    def head_0():
        before = _figure(page, "W_K^h of head 0")
        assert before and len(before["z"]) == 64 and len(before["z"][0]) == 16
        return before

    before = eventually(head_0)

    _pick(page, "Head h", "h = 2")
    _wait_figure(page, "W_K^h of head 2")  # the open tab stays open and answers
    after = _figure(page, "W_K^h of head 2")
    assert after["z"] != before["z"]  # head 2's own projection, not head 0's

    def all_head_2():  # the tab's six figures are redrawn one after another
        titles = _titles(page)
        assert not any("head 0" in t for t in titles), titles

    eventually(all_head_2)

    _pick(page, "Query token i", "3: live")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')].some(g => g._fullLayout"
        " && (g._fullLayout.title.text || '')" + PLAIN + ".includes('Q_h (7')"
        " && (g.layout.shapes || []).some(s => s.y0 === 2.5))",
        timeout=60_000,
    )
    # "Next" walks on to the scores
    page.get_by_role("button", name=f"Next: {TABS[2]} →").click()
    _wait_figure(page, "Scores Q_h")
    _outlined(page, "Scores Q_h", [2.5, 3.5])
    _tab(page, TABS[3], "Weights of query 3")
    _outlined(page, "α_h = softmax", [2.5, 3.5])
    _hovers(page, "α_h = softmax", 5, 3, "query 3: live", "key 5: Europe")
    shot = tmp_path / "step_by_step.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    _tab(page, TABS[5], "FinalOutput")
    _outlined(page, "FinalOutput", [2.5, 3.5])
    _tab(page, TABS[0], "X (7 × 64)")
    _outlined(page, "X (7 × 64)", [2.5, 3.5])
    assert page.dialogs == []


def test_markup_stays_text_and_language_switches(app_url, page, tmp_path):
    page.goto(app_url)
    wait_for_app(page)
    box = page.get_by_role("textbox", name="Sentence")
    markup = '<b>x</b> <a href="https://example.com">y</a> <img src=x onerror=alert(1)>'
    box.fill(markup)
    box.press("Control+Enter")
    wait_for_params(page, text=markup)  # the sentence's run is over: on to the other page
    page.get_by_role("link", name="Step by step").click()
    wait_for_app(page)
    _tab(page, TABS[3], "α_h = softmax")

    def drawn_literally():
        fig = _figure(page, "α_h = softmax")
        # Plotly decodes the escapes: the browser holds (and draws) the literal characters
        assert fig["yticks"][:4] == ["&lt;", "b", "&gt;", "x"]
        drawn = page.evaluate(
            "() => [...document.querySelectorAll('.js-plotly-plot')[0]"
            ".querySelectorAll('.ytick text')].map(t => t.textContent)"
        )
        assert drawn[:4] == ["<", "b", ">", "x"]

    eventually(drawn_literally)
    assert page.locator(".js-plotly-plot a").count() == 0  # no link was created
    assert page.locator(".js-plotly-plot img").count() == 0
    _pick(page, "Query token i", "3: x")
    _wait_figure(page, "Weights of query 3")
    _hovers(page, "α_h = softmax", 0, 3, "key 0: <")
    assert page.dialogs == []

    page.get_by_text("中文", exact=True).click()
    wait_for_app(page)
    page.get_by_role("heading", name="逐步计算:一个头,一个查询").wait_for()
    _tab(page, "1 · Q、K、V", "头 0 的 W_Q^h")
    # the relabelled widgets remount after the switch: pick once the tab's run is over
    wait_for_params(page, lang="zh", stage="1")
    wait_for_app(page)
    _pick(page, "头 h", "h = 1")
    _wait_figure(page, "头 1 的 W_Q^h")

    def both_kept():  # the chosen option reads the same in both languages (a selectbox keeps
        shown = page.locator("[data-testid=stSelectbox] input").evaluate_all(  # its old text)
            "es => es.map(e => e.value)"
        )
        assert "h = 1" in shown and "3: x" in shown, shown

    eventually(both_kept)
    page.screenshot(path=str(tmp_path / "step_by_step_zh.png"), full_page=True)


def test_direct_link_draws_the_page(app_url, page):
    page.goto(f"{app_url}/{URL_PATH}")
    wait_for_app(page)
    page.get_by_role("heading", name=TITLE_EN).wait_for()
    _wait_figure(page, "X (7 × 64)")
    _pick(page, "Query token i", "2: to")
    page.wait_for_function(
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " return g && g.layout && (g.layout.shapes || []).some(s => s.y0 === 1.5); }",
        timeout=60_000,
    )
    _outlined(page, "X (7", [1.5, 2.5])
    assert page.dialogs == []


def test_direct_link_keeps_the_router_and_the_settings_of_the_url(app_url, page):
    page.goto(f"{app_url}/{URL_PATH}?d_model=32&n_heads=2&text=a+b+c")
    wait_for_app(page)
    page.get_by_role("heading", name=TITLE_EN).wait_for()
    # the router's shared sidebar is there (widgets load lazily: wait for it, then count)
    expect(page.get_by_role("textbox", name="Sentence")).to_have_count(1)
    _wait_figure(page, "X (3 × 32)")
