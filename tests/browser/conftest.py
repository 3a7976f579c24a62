"""Real-browser fixtures: one `streamlit run` per test module, one Chromium per session."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.server import CHROMIUM_ARGS, chromium_path, streamlit_server
from tests.helpers.browser import WAIT_S

# `expect` retries its assertion until this deadline: long enough for a loaded 2-core machine
expect.set_options(timeout=WAIT_S * 1000)


@pytest.fixture(scope="module")
def fresh_app_url(tmp_path_factory):
    """Start `streamlit run app.py` on a free localhost port for this test module: its first
    visitor is a fresh server's first session (it waits for the imports, ui/warmup.py)."""
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    with streamlit_server("app.py", log=log) as (url, _proc):
        yield url


@pytest.fixture(scope="module")
def app_url(fresh_app_url, browser):
    """The module's server with its home page opened once, until its first chart is drawn
    without an exception: a fresh server's first session waits for the imports, and a test's
    page should not start during that wait, which Streamlit's status widget does not show."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.goto(fresh_app_url)
    pg.wait_for_selector(".js-plotly-plot", timeout=180_000)
    assert pg.locator('[data-testid="stException"]').count() == 0
    context.close()
    return fresh_app_url


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
    context.set_default_timeout(WAIT_S * 1000)  # every wait_for and auto-waiting action
    pg = context.new_page()
    pg.dialogs = []

    def on_dialog(d):
        pg.dialogs.append(d.message)
        d.dismiss()

    pg.on("dialog", on_dialog)
    yield pg
    context.close()
