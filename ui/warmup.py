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

import contextlib
import importlib
import re
import threading
from pathlib import Path

# Everything plotly first (plotly and the app's figure builders, no PyTorch: ~0.3 s), then what
# the router and the home page import; streamlit.emojis: the router's emoji page icons make
# Streamlit import it, and the import compiles its emoji pattern (~0.3 s of the first run)
CHART_MODULES = ("plotly.graph_objects", "plotly.io", "plotly.tools", "viz")
MODULES = (
    *CHART_MODULES, "ui.url", "ui.sidebar", "ui.failover", "ui.memory", "ui.sections.attention",
    "streamlit.emojis",
)  # fmt: skip
PRELOAD_KEY = "_preload_chart"  # bench/browser_timing.py does not count it as the page's chart

_lock = threading.Lock()
_done = threading.Event()
_charts = threading.Event()  # the preload figure is built and st.plotly_chart's path was run
_preload: dict = {}  # "figure": the empty figure a fresh server's first session draws
_thread: threading.Thread | None = None


def _empty_figure():
    """The preload's figure, built and put through what `st.plotly_chart` does with it
    (validation, JSON) here, in the warm-up thread: every module plotly imports lazily on the
    way is imported now, so that the session drawing it imports nothing."""
    import plotly.graph_objects as go
    import plotly.io
    import plotly.tools

    fig = go.Figure(layout={"height": 10, "margin": {"l": 0, "r": 0, "t": 0, "b": 0}})
    plotly.io.to_json(plotly.tools.return_figure_from_figure_or_data(fig, True), validate=False)
    return fig


def _run() -> None:
    try:
        for name in MODULES:
            importlib.import_module(name)
            if name == CHART_MODULES[-1]:
                with contextlib.suppress(Exception):  # then no preload; the page draws as ever
                    _preload["figure"] = _empty_figure()
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


def preload_chart_code():
    """While the warm-up is still importing PyTorch (a fresh server's first session): an empty
    chart in a placeholder, which the router empties once the page can draw. The browser loads
    and runs Streamlit's chart code (a 4.7 MB script it loads at the first chart) while the
    server imports, instead of after the page's first run. The figure comes built from the
    warm-up thread, which imported everything plotly before it (`_run`): this thread imports
    nothing while the other one does. Returns the placeholder, or None (the warm-up is done,
    none was started, or building the figure failed)."""
    if _thread is None or _done.is_set():
        return None
    _charts.wait()
    figure = _preload.get("figure")
    if figure is None:
        return None
    import streamlit as st

    slot = st.empty()
    with slot.container():
        st.plotly_chart(figure, config={"staticPlot": True}, key=PRELOAD_KEY)
        links = "".join(f'<link rel="modulepreload" href="{u}">' for u in widget_code_urls())
        if links:
            st.markdown(links, unsafe_allow_html=True)
    return slot


# The elements of the sidebar and the home page whose code Streamlit's browser loads the first
# time one is drawn (bench/ui_latency.py's cold start waited ~0.5 s for them after the first
# run); StreamlitSyntaxHighlighter: the token list's code block
WIDGET_CODE = (
    "Radio", "TextArea", "Selectbox", "Slider", "NumberInput", "Checkbox", "Html",
    "DownloadButton", "StreamlitSyntaxHighlighter",
)  # fmt: skip
_IMPORT = re.compile(r'(?:from|import)\s*"\./([\w.-]+\.js)"')


def widget_code_urls(names=WIDGET_CODE) -> list[str]:
    """The URLs of the scripts with the code of the widgets `names` and of what they import,
    but those the page loads at its start (Streamlit's index.html preloads them): found in
    Streamlit's own files, so nothing is named that this Streamlit does not have."""
    import streamlit as st

    root = Path(st.__file__).parent / "static"
    js = root / "static" / "js"
    try:
        loaded = set(re.findall(r"static/js/([\w.-]+\.js)", (root / "index.html").read_text()))
        todo = [f.name for n in names for f in js.glob(f"{n}.*.js")]
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen or name in loaded or not (js / name).is_file():
                continue
            seen.add(name)
            todo += _IMPORT.findall((js / name).read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []
    base = st.get_option("server.baseUrlPath").strip("/")
    prefix = f"/{base}/static/js/" if base else "/static/js/"
    return [prefix + n for n in sorted(seen)]
