"""Where one rerun of each page spends its time, measured inside AppTest's script runs.

For every page, one session: warm-up runs at 4 heads (imports, the model, the caches), then the
step of the heads slider to 8 heads ("new": new attention, new figures, as a person moving the
slider for the first time sees), then steps back and forth between 4 and 8 ("again": the
cached calls hit; median). Timers (not a profiler, which would slow Python code unevenly) wrap:
  viz    the figure builders of viz/ (nested builder calls counted once),
  send   Streamlit's own sending of the charts (st.plotly_chart: to_dict, to_json, hashing),
  cached the ui's cached calls (every st.cache_data / st.cache_resource function in ui/, hits
         and misses: the core's computation and Streamlit's hashing of the arguments),
  table  st.dataframe,
  other  the rest of the script run (other elements, markdown, the page's own code).
AppTest runs the script in-process like the server, without the websocket and the browser.

    python bench/profile_pages.py [--pages attention step] [--cprofile 30]
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import importlib
import pkgutil
import pstats
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
from streamlit.delta_generator import DeltaGenerator  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402
from streamlit.testing.v1.local_script_runner import LocalScriptRunner  # noqa: E402

from ui.pages import BY_ID, IDS  # noqa: E402

BUCKETS = ("viz", "send", "cached", "table")


class Clock(threading.local):
    """Seconds per bucket in this thread; an inner call of the same bucket is not counted again."""

    def __init__(self):
        self.spent = dict.fromkeys(BUCKETS, 0.0)
        self.depth = dict.fromkeys(BUCKETS, 0)

    def reset(self):
        self.__init__()


CLOCK = Clock()
RESULTS: list[dict] = []  # one entry per finished script run (AppTest's script thread)
NEXT_PROFILE: list[cProfile.Profile] = []  # a profiler for the next script run, if any


def timed(bucket: str, fn):
    if getattr(fn, "_bench_bucket", None):
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        CLOCK.depth[bucket] += 1
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            CLOCK.depth[bucket] -= 1
            if CLOCK.depth[bucket] == 0:
                CLOCK.spent[bucket] += time.perf_counter() - t0

    wrapper._bench_bucket = bucket
    return wrapper


def _is_cached(obj) -> bool:
    return callable(obj) and hasattr(obj, "clear") and type(obj).__module__.startswith("streamlit")


def instrument() -> None:
    """Wrap the viz builders, the ui's cached functions, st.plotly_chart and st.dataframe."""
    import ui
    import viz

    for pkg, select, bucket in ((viz, callable, "viz"), (ui, _is_cached, "cached")):
        modules = [pkg] + [
            importlib.import_module(f"{pkg.__name__}.{m.name}")
            for m in pkgutil.iter_modules(pkg.__path__)
        ]
        for module in modules:
            for name, obj in list(vars(module).items()):
                if name.startswith("_") or isinstance(obj, type) or not select(obj):
                    continue
                if bucket == "viz" and getattr(obj, "__module__", "").split(".")[0] != "viz":
                    continue
                setattr(module, name, timed(bucket, obj))
    for name, bucket in (("plotly_chart", "send"), ("dataframe", "table")):
        setattr(DeltaGenerator, name, timed(bucket, getattr(DeltaGenerator, name)))
        setattr(st, name, timed(bucket, getattr(st, name)))

    original = LocalScriptRunner._run_script

    def run_script(self, rerun_data):
        profile = NEXT_PROFILE.pop() if NEXT_PROFILE else None
        CLOCK.reset()
        if profile:
            profile.enable()
        t0 = time.perf_counter()
        try:
            return original(self, rerun_data)
        finally:
            run = time.perf_counter() - t0
            if profile:
                profile.disable()
            RESULTS.append({"run": run, **CLOCK.spent})

    LocalScriptRunner._run_script = run_script


def measure(page: str, repeats: int, profile_top: int) -> tuple[dict, dict, int]:
    """One session on `page`: warmed up at 4 heads, then the step to 8 heads (new results),
    then `repeats` steps back and forth between 4 and 8 (cached results; median)."""
    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=300)
    at.session_state["shared.n_heads"] = 4
    at.switch_page(page)
    at.run()
    at.run()  # the page's bytecode is cached from the second run on, as in the server
    at.session_state["shared.n_heads"] = 8
    at.run()
    assert not at.exception, at.exception
    first = RESULTS[-1]
    again = []
    for i in range(repeats):
        at.session_state["shared.n_heads"] = 4 if i % 2 == 0 else 8
        at.run()
        again.append(RESULTS[-1])
    if profile_top:
        prof = cProfile.Profile()
        NEXT_PROFILE.append(prof)  # taken by the next script run (AppTest's own thread)
        at.session_state["shared.n_heads"] = 4 if repeats % 2 == 0 else 8
        at.run()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(profile_top)
    med = {k: statistics.median(r[k] for r in again) for k in again[0]}
    return first, med, len(at.get("plotly_chart"))


def _row(name: str, charts: int, r: dict) -> str:
    other = r["run"] - sum(r[b] for b in BUCKETS)
    cells = "".join(f"{1e3 * r[b]:>8.0f}" for b in BUCKETS)
    return f"{name:<28}{charts:>7}{1e3 * r['run']:>8.0f}{cells}{1e3 * other:>8.0f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", nargs="*", default=list(IDS), choices=IDS)
    ap.add_argument("--repeats", type=int, default=6, help="steps between cached settings")
    ap.add_argument("--cprofile", type=int, default=0, help="print the top N functions")
    args = ap.parse_args()
    instrument()
    print("script run of each page, ms: heads 4 -> 8 (new), then 8 <-> 4 again (cached, median)")
    print(f"{'page':<28}{'charts':>7}{'run':>8}" + "".join(f"{b:>8}" for b in BUCKETS) + "   other")
    for name in args.pages:
        first, again, charts = measure(BY_ID[name].path, args.repeats, args.cprofile)
        print(_row(f"{name} (new)", charts, first))
        print(_row(f"{name} (again)", charts, again))


if __name__ == "__main__":
    main()
