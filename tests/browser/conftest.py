"""Real-browser fixtures: one `streamlit run` per test module, one Chromium per session."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None  # fall back to Playwright's own browser, if one was installed


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    """Start `streamlit run app.py` on a free localhost port for this test module."""
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with open(log, "w") as fh:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                str(ROOT / "app.py"),
                "--server.port",
                str(port),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
                "--browser.gatherUsageStats",
                "false",
            ],
            cwd=ROOT,
            stdout=fh,
            stderr=subprocess.STDOUT,
            env=env,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited early:\n{log.read_text()}") from None
            time.sleep(0.5)
    else:
        proc.kill()
        raise RuntimeError(f"streamlit did not start:\n{log.read_text()}")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=_chromium_path(), args=CHROMIUM_ARGS)
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
