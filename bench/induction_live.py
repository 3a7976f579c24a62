"""The Induction page's live run in Chromium against the same training alone.

Opens /induction (default settings: 1800 steps, seed 0) in Chromium against a running app,
presses Train both, and waits for the finished pair; the page says "1800 steps in X s" (from
the press to the end, drawing included). The reference, measured in the same run right after:
the same pair trained in this process as `bench/induction.py` trains it
(`train_decoder("induction", n_layers=L, seed=0)` for L = 2 then 1, `TRAIN_THREADS` threads).
Prints both and their ratio (the target: at most 1.5x). The load average is printed: on a
shared machine every figure is noisy; alternate rounds (`--rounds`) to see the spread.

Then the opening (`--open N`, new sessions, each its own browser context): the Induction page
until the stored run's probe chart (the stripe) is drawn, against the home page until its first
chart is drawn (what any page needs: the browser loads Streamlit's chart code), alternating;
the target is the stripe within 2 s of that.

    streamlit run app.py --server.port 8931 --server.headless true &
    python -m bench.induction_live --url http://127.0.0.1:8931 [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import re
import time

from mha_core.gpt import train_decoder


def page_seconds(url: str) -> float:
    from playwright.sync_api import sync_playwright

    from tests.browser.server import CHROMIUM_ARGS, chromium_path

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        pg.goto(f"{url}/induction?steps=1800&run_seed=0")
        pg.get_by_role("button", name="Train both", exact=True).wait_for(timeout=120_000)
        pg.wait_for_timeout(1000)
        pg.get_by_role("button", name="Train both", exact=True).click()
        done = pg.get_by_text(re.compile(r"1800 steps in [\d.]+ s"))
        done.wait_for(timeout=600_000)
        seconds = float(re.search(r"in ([\d.]+) s", done.inner_text()).group(1))
        browser.close()
    return seconds


FIRST_CHART = "() => document.querySelector('.js-plotly-plot') !== null"


def open_seconds(url: str, rounds: int) -> None:
    """New sessions alternately on the home page (first chart) and the Induction page (the
    stored run's probe chart): seconds from goto until drawn, and the differences."""
    from playwright.sync_api import sync_playwright

    from tests.browser.server import CHROMIUM_ARGS, chromium_path
    from tests.helpers.browser import INDUCTION_PROBE

    times: dict[str, list[float]] = {"home": [], "induction": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        pages = (("home", "", FIRST_CHART), ("induction", "/induction", INDUCTION_PROBE))
        for _ in range(rounds):
            for name, path, ready in pages:
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                pg = context.new_page()
                t0 = time.perf_counter()
                pg.goto(f"{url}{path}")
                pg.wait_for_function(ready, timeout=120_000, polling=50)
                times[name].append(time.perf_counter() - t0)
                context.close()
        browser.close()
    gaps = [s - h for s, h in zip(times["induction"], times["home"], strict=True)]
    print(
        "new session, goto -> drawn (s): home's first chart "
        + ", ".join(f"{x:.2f}" for x in times["home"])
        + "; the induction stripe "
        + ", ".join(f"{x:.2f}" for x in times["induction"])
    )
    print(
        f"stripe - home: {', '.join(f'{g:.2f}' for g in gaps)} s; median "
        f"{sorted(gaps)[len(gaps) // 2]:.2f} s (target 2 s; load average "
        f"{os.getloadavg()[0]:.1f})",
        flush=True,
    )


def reference_seconds() -> float:
    t0 = time.perf_counter()
    for n_layers in (2, 1):
        train_decoder("induction", n_layers=n_layers, seed=0, snapshot_every=60)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default="http://127.0.0.1:8501")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--open", type=int, default=5, help="new sessions of each page (0: none)")
    args = ap.parse_args()
    if args.open:
        open_seconds(args.url, args.open)
    for r in range(args.rounds):
        load0 = os.getloadavg()[0]
        page = page_seconds(args.url)
        ref = reference_seconds()
        load1 = os.getloadavg()[0]
        print(
            f"round {r}: page {page:.1f} s, training alone {ref:.1f} s, ratio {page / ref:.2f}x "
            f"(load average {load0:.1f} -> {load1:.1f} on {os.cpu_count()} cores)",
            flush=True,
        )


if __name__ == "__main__":
    main()
