"""Where one rerun of each page spends its time: cProfile around an AppTest run.

For every page: a warm-up run (imports, the model, caches for the warm-up settings), then the
profiled run with the heads slider one step on (8 heads instead of 4: new attention, new
figures, as a person moving the slider sees), then the same settings again (caches warm).
The time is split into what the views call: figure builders (viz/), Streamlit's own sending
of the charts (st.plotly_chart: to_dict + to_json + hashing), the core (mha_core/, through
the ui caches), tables (st.dataframe), and the rest (other widgets, markdown, the script run
itself). AppTest runs the script in this process, like the server, without the websocket.

    python bench/profile_pages.py [--top 0]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402
from streamlit.testing.v1.local_script_runner import LocalScriptRunner  # noqa: E402

_PROFILE: list = []  # the profiler of the next script run (AppTest runs it in its own thread)
_LAST_RUN: list = [0.0]  # seconds of the last script run (AppTest's own set-up not counted)
_original_run_script = LocalScriptRunner._run_script


def _profiled_run_script(self, rerun_data):
    prof = _PROFILE.pop() if _PROFILE else None
    t0 = time.perf_counter()
    if prof:
        prof.enable()
    try:
        return _original_run_script(self, rerun_data)
    finally:
        if prof:
            prof.disable()
        _LAST_RUN[0] = time.perf_counter() - t0


LocalScriptRunner._run_script = _profiled_run_script

PAGES = {
    "home": "views/attention.py",
    "step_by_step": "views/step_by_step.py",
    "scaling": "views/scaling.py",
    "positional": "views/positional_encoding.py",
    "pretrained": "views/pretrained.py",
}


def _app(page: str, n_heads: int) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state["shared.n_heads"] = n_heads
    at.switch_page(page)
    return at


def _entry_time(stats: pstats.Stats, inside, outside=lambda f: False) -> float:
    """Cumulative time of the functions `inside` selects that are called from code it does not
    select (their entry points), so that nested calls are not counted twice."""
    total = 0.0
    for func, (_cc, _nc, _tt, ct, callers) in stats.stats.items():
        if inside(func) and not outside(func) and not any(inside(c) for c in callers):
            total += ct
    return total


def _in(part: str):
    return lambda func: part in func[0].replace("\\", "/")


def profile(page: str, top: int) -> dict:
    _app(page, 4).run()  # warm-up: imports, model, caches for 4 heads
    at = _app(page, 8)
    prof = cProfile.Profile()
    _PROFILE.append(prof)
    at.run()
    wall = _LAST_RUN[0]
    assert not at.exception, at.exception
    _app(page, 8).run()
    again = _LAST_RUN[0]
    st = pstats.Stats(prof)
    if top:
        st.sort_stats("cumulative").print_stats(top)
    viz = _entry_time(st, _in("/viz/"))
    core = _entry_time(st, _in("/mha_core/"))
    send = _entry_time(st, lambda f: f[2] == "plotly_chart" and "streamlit" in f[0])
    table = _entry_time(st, lambda f: f[2] == "dataframe" and "streamlit" in f[0])
    return {
        "run_ms": 1e3 * wall,
        "viz": 1e3 * viz,
        "send": 1e3 * send,
        "core": 1e3 * core,
        "table": 1e3 * table,
        "again_ms": 1e3 * again,
        "charts": len(at.get("plotly_chart")),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=0, help="also print the top N functions")
    ap.add_argument("--pages", nargs="*", default=list(PAGES))
    args = ap.parse_args()
    print("one script run, heads 4 -> 8 (new results), under cProfile (slows Python ~1.5-2x);")
    print("'again': the same settings once more, without the profiler (caches warm)")
    head = f"{'page':<14}{'charts':>7}{'run ms':>8}{'viz':>7}{'send':>7}{'core':>7}{'table':>7}"
    print(head + f"{'other':>7}{'again ms':>10}")
    for name in args.pages:
        r = profile(PAGES[name], args.top)
        other = r["run_ms"] - r["viz"] - r["send"] - r["core"] - r["table"]
        print(
            f"{name:<14}{r['charts']:>7}{r['run_ms']:>8.0f}{r['viz']:>7.0f}{r['send']:>7.0f}"
            f"{r['core']:>7.0f}{r['table']:>7.0f}{other:>7.0f}{r['again_ms']:>10.0f}"
        )


if __name__ == "__main__":
    main()
