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

# What the router and the home page import; streamlit.emojis: the router's emoji page icons make
# Streamlit import it, and the import compiles its emoji pattern (~0.3 s of the first run)
MODULES = (
    "ui.url", "ui.sidebar", "ui.failover", "ui.memory", "ui.sections.attention", "viz",
    "streamlit.emojis",
)  # fmt: skip

_lock = threading.Lock()
_done = threading.Event()
_thread: threading.Thread | None = None


def _run() -> None:
    try:
        for name in MODULES:
            importlib.import_module(name)
    finally:  # a failed import is raised again, readably, by the session that needs it
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
