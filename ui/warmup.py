"""The app's heavy imports (PyTorch, through mha_core; Streamlit's emoji pattern) done
once per process in the background, and the browser's code for the first page loaded meanwhile.

When: `app.py`'s lifespan schedules it as the server starts; it starts at the first session
(the router calls `now()` before anything else), or `START_AFTER` seconds after the server
started, whichever comes first. A server that
has been up a few seconds has its imports done before anyone comes; a browser that opens as the
server starts (`streamlit run` opens one) loads Streamlit's page first: importing during that
load slowed the page's files, on a 2-core machine, by more than it saved (bench/ui_latency.py's
cold start; README, "Where a rerun's time goes").

While the first session waits, `preload_script()` has the browser import Streamlit's chart code
(4.7 MB) and the code of the sidebar's and home page's elements, which Streamlit otherwise
loads when the first such element arrives, after the run. The imports run with the garbage
collector off (quicker); what they leave alive is frozen (`gc.freeze`), out of every later
collection's way (ui/memory.py).

The router calls `wait()` before its own imports, so that a session's script never imports
these modules at the same time as the warm-up thread (two threads importing modules that import
each other can see a partly initialised module). For the same reason a module that sessions
import should be imported here, not lazily in a page: a lazy `import pandas` raced between two
sessions opening pages at once ("partially initialized module 'pandas' has no attribute
'Series'"). Under AppTest nothing was started and `wait()` returns at once.
"""

from __future__ import annotations

import functools
import gc
import importlib
import threading
from pathlib import Path

# What the router and the home page import; streamlit.emojis: the router's emoji page icons make
# Streamlit import it, and the import compiles its emoji pattern (slow, on the first run)
MODULES = (
    "ui.url", "ui.sidebar", "ui.failover", "ui.memory", "ui.sections.attention", "viz",
    "streamlit.emojis",
)  # fmt: skip

START_AFTER = 3.0  # seconds after the server's start, if no session came before

_lock = threading.Lock()
_done = threading.Event()
_scheduled = threading.Event()
_thread: threading.Thread | None = None


def _run() -> None:
    collecting = gc.isenabled()
    gc.disable()  # importing PyTorch and pandas, the collector ran often and found ~0.1% garbage
    try:
        for name in MODULES:
            importlib.import_module(name)
    finally:  # a failed import is raised again, readably, by the session that needs it
        gc.freeze()  # modules, functions and classes: they live as long as the process
        if collecting:
            gc.enable()
        _done.set()


def schedule(after: float = START_AFTER) -> None:
    """The server's start (`app.py`): the warm-up starts in `after` seconds, or at the first
    session (`now()`) if one comes sooner."""
    _scheduled.set()
    timer = threading.Timer(after, start)
    timer.daemon = True
    timer.start()


def now() -> None:
    """A session's run (the router): a scheduled warm-up that has not started starts now. Nothing
    if none was scheduled (AppTest, `streamlit run router.py`)."""
    if _scheduled.is_set():
        start()


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


def running() -> bool:
    """True while a warm-up that was started is still importing (a fresh server's first
    sessions)."""
    return _thread is not None and not _done.is_set()


# The elements of the sidebar and the home page whose code Streamlit's browser loads the first
# time one is drawn (Streamlit's static files by these names; the browser fetches what each one
# imports itself): the chart, the widgets and the token list's code block
# (StreamlitSyntaxHighlighter)
BROWSER_CODE = (
    "PlotlyChart", "Radio", "TextArea", "Selectbox", "Slider", "NumberInput", "Checkbox",
    "DownloadButton", "StreamlitSyntaxHighlighter",
)  # fmt: skip


@functools.cache
def code_urls(names: tuple[str, ...] = BROWSER_CODE) -> tuple[str, ...]:
    """The URLs of the scripts with the code of the elements `names`, found in Streamlit's own
    static files (so that nothing is named that this Streamlit does not have)."""
    import streamlit as st

    js = Path(st.__file__).parent / "static" / "static" / "js"
    base = st.get_option("server.baseUrlPath").strip("/")
    prefix = f"/{base}/static/js/" if base else "/static/js/"
    return tuple(prefix + f.name for n in names for f in sorted(js.glob(f"{n}.*.js")))


def preload_script() -> str:
    """A script that has the browser import (load and run) `code_urls()` now; a failed import
    changes nothing (Streamlit imports that code again when it needs it). "" if there is none."""
    urls = code_urls()
    if not urls:
        return ""
    imports = ", ".join(f'import("{u}")' for u in urls)
    return f"<script>Promise.allSettled([{imports}]);</script>"
