"""The app's heavy imports (PyTorch, through mha_core: ~1.3 s; Streamlit's emoji pattern) done
once in the background as the server starts, while the first browser is still loading
Streamlit's page.

`app.py`'s lifespan calls `start()`; the router calls `wait()` before its own imports, so that a
session's script never imports these modules at the same time as the warm-up thread (two
threads importing modules that import each other can see a partly initialised module). For
the same reason a module that sessions import should be imported here, not lazily in a page:
a lazy `import pandas` raced between two sessions opening pages at once ("partially
initialized module 'pandas' has no attribute 'Series'"). Under
AppTest nothing was started and `wait()` returns at once.
"""

from __future__ import annotations

import importlib
import threading

# What st.plotly_chart needs, first (~0.2 s: see preload_chart_code), then what the router and
# the home page import; streamlit.emojis: the router's emoji page icons make Streamlit import
# it, and the import compiles its emoji pattern (~0.3 s of the first run)
CHART_MODULES = ("plotly.graph_objects", "plotly.io", "plotly.tools")
MODULES = (
    *CHART_MODULES, "ui.url", "ui.sidebar", "ui.failover", "ui.memory", "ui.sections.attention",
    "viz", "streamlit.emojis",
)  # fmt: skip

_lock = threading.Lock()
_done = threading.Event()
_charts = threading.Event()  # plotly imported: a session may draw a chart
_thread: threading.Thread | None = None


def _run() -> None:
    try:
        for name in MODULES:
            importlib.import_module(name)
            if name == CHART_MODULES[-1]:
                _charts.set()
    finally:  # a failed import is raised again, readably, by the session that needs it
        _charts.set()
        _done.set()


def start() -> None:
    """Start the warm-up (once per process)."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_run, name="warm-imports", daemon=True)
            _thread.start()


def wait() -> None:
    """Until the warm-up has finished, if one was started."""
    if _thread is not None:
        _done.wait()


PRELOAD_KEY = "_preload_chart"  # bench/browser_timing.py does not count it as the page's chart


def preload_chart_code():
    """While the warm-up is still importing PyTorch (a fresh server's first session): an empty
    chart in a placeholder, which the router empties once the page can draw. The browser loads
    Streamlit's chart code (a 4.7 MB script, loaded at the first chart) while the server
    imports, instead of after the page's first run (bench/ui_latency.py: the home page's cold
    start ~1.7x -> ~1.4-1.5x the floor page's). Returns the placeholder, or None (the warm-up is
    done, or none was started)."""
    if _thread is None or _done.is_set():
        return None
    _charts.wait()  # plotly imported by the warm-up thread, never by two threads at once
    import plotly.graph_objects as go
    import streamlit as st

    slot = st.empty()
    empty = go.Figure(layout={"height": 10, "margin": {"l": 0, "r": 0, "t": 0, "b": 0}})
    slot.plotly_chart(empty, config={"staticPlot": True}, key=PRELOAD_KEY)
    return slot
