"""`streamlit` with every script run timed on the server: python bench/timed_streamlit.py run app.py

Each finished script run appends "<unix time> <seconds>" to the file named by the environment
variable SCRIPT_RUN_LOG, so that bench/ui_latency.py can say how much of a slider step the
server's script run took, without touching the app.

BENCH_WHAT_IF (comma-separated) tries a change before it is made, in this server only:
  no_automargin  token axes without automargin (long tokens may be clipped: a real change
                 would size the margins itself)
  no_strip       the efficient page's grouped heads without their query -> key/value strip
  bare_sidebar   the sidebar with its heads slider alone (a bound: what the sidebar costs)
  no_text        no markdown, caption, info, code, subheader, latex or html (a bound)
  nav_hidden     no page links in the sidebar (a bound: what the links cost)
  nav_top        the page links at the top of the page
  nav_radio      the page links as one radio in the sidebar (drawn only: it switches nothing)
"""

import os
import sys
import time

from streamlit.runtime.scriptrunner import script_runner
from streamlit.web import cli

LOG = os.environ["SCRIPT_RUN_LOG"]
WHAT_IF = {w for w in os.environ.get("BENCH_WHAT_IF", "").split(",") if w}
_run_script = script_runner.ScriptRunner._run_script


def _timed_run_script(self, rerun_data):
    t0 = time.perf_counter()
    try:
        return _run_script(self, rerun_data)
    finally:
        with open(LOG, "a") as fh:
            fh.write(f"{time.time():.6f} {time.perf_counter() - t0:.6f}\n")


def _what_if() -> None:
    sys.path.insert(0, os.getcwd())
    from viz import axes, heatmap, matrix

    if "no_strip" in WHAT_IF:
        from viz import efficient

        def grouped_heads(weights, tokens, kv_head, *, titles, value_label="weight",
                          colorscale=heatmap.DEFAULT_PALETTE, **_labels):  # fmt: skip
            return heatmap.head_grid(
                weights, tokens, titles=titles, value_label=value_label, colorscale=colorscale
            )

        efficient.grouped_heads = grouped_heads
    if "bare_sidebar" in WHAT_IF:  # the sidebar with its heads slider only (a bound, not a change)
        import streamlit as st

        from mha_core import valid_head_counts
        from ui import controls, sidebar, state

        def render_sidebar(page_id: str = ""):
            sidebar._resend_after_page_switch(page_id)
            with st.sidebar:
                d_model = st.session_state[state.key("d_model")]
                heads = valid_head_counts(d_model, state.MAX_HEADS)
                controls.select_slider("Heads", heads, key=state.key("n_heads"))
            return state.current()

        sidebar.render_sidebar = render_sidebar
    if "no_text" in WHAT_IF:  # no markdown, caption, info, code, subheader (a bound, not a change)
        from streamlit.delta_generator import DeltaGenerator

        for name in ("markdown", "caption", "info", "code", "subheader", "latex", "html"):
            setattr(DeltaGenerator, name, lambda self, *a, **k: None)
    if WHAT_IF & {"nav_hidden", "nav_top", "nav_radio"}:  # the page links elsewhere, or none
        import streamlit as st

        navigation = st.navigation
        position = "top" if "nav_top" in WHAT_IF else "hidden"

        def nav(pages, **kw):
            page = navigation(pages, **{**kw, "position": position})
            if "nav_radio" in WHAT_IF:
                labels = [f"{p.icon} {p.title}" for p in pages]
                st.sidebar.radio("Pages", range(len(pages)), format_func=labels.__getitem__)
            return page

        st.navigation = nav
    if "no_automargin" in WHAT_IF:
        axis = axes.token_axis

        def token_axis(*args, **kwargs):
            return {**axis(*args, **kwargs), "automargin": False}

        for module in (axes, heatmap, matrix):
            module.token_axis = token_axis


script_runner.ScriptRunner._run_script = _timed_run_script
if WHAT_IF:
    _what_if()

if __name__ == "__main__":
    sys.exit(cli.main())
