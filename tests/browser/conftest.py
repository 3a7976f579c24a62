"""Real-browser fixtures: one `streamlit run` per test module, one Chromium per session."""

from __future__ import annotations

import pytest

from tests.browser.server import CHROMIUM_ARGS, chromium_path, streamlit_server


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    """Start `streamlit run app.py` on a free localhost port for this test module."""
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    with streamlit_server("app.py", log=log) as (url, _proc):
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh page (own session) that records any JavaScript dialog instead of showing it."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.dialogs = []

    def on_dialog(d):
        pg.dialogs.append(d.message)
        d.dismiss()

    pg.on("dialog", on_dialog)
    yield pg
    context.close()


def wait_for_app(pg, timeout: float = 60_000) -> None:
    """Wait until Streamlit has finished running the script (no running indicator)."""
    pg.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    pg.wait_for_function(
        """() => {
            const s = document.querySelector('[data-testid="stStatusWidget"]');
            return !s || !s.innerText.toLowerCase().includes('running');
        }""",
        timeout=timeout,
    )
    pg.wait_for_timeout(500)


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
