"""A real paragraph on every page: 512 tokens x 16 heads, in Chromium, against Streamlit's floor.

Starts the app and bench/floor_page.py (as bench/ui_latency.py does), opens each page with 16
heads (d_model 64), types a 512-word paragraph into the sidebar's text box and commits it
(Ctrl+Enter): "typed ms" is that keystroke to every chart painted (the page's first run on the
text, nothing cached). Then steps the seed (its + button) a few times, each step interleaved
with a step of the floor page's slider: "seed ms" is the median step, "x floor" its ratio to
the floor's median in the same run, "rerun MB" the largest websocket payload of a seed step
(limit 3 MB). Pretrained and reading read WordPiece: the paragraph is cut to MiniLM's 512.

    python bench/long_input.py [--steps 4] [--pages attention step ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser_timing import BENCH_ARGS, DRAWN, RESET, RESULT  # noqa: E402
from bench.ui_latency import ENGLISH, PAYLOAD_LIMIT, Tab, timed_server  # noqa: E402
from tests.browser.server import chromium_path  # noqa: E402
from ui.pages import BY_ID, IDS, PAGES  # noqa: E402

N_WORDS = 512
TEXT_BOX = '[class*="st-key-_w-shared-text"] textarea'
SEED_UP = '[class*="st-key-_w-shared-seed"] button[data-testid="stNumberInputStepUp"]'
STEP_TARGET = 5.0  # x floor for a seed step at 512 tokens (issue #18)


def paragraph(n_words: int = N_WORDS) -> str:
    words = ENGLISH.split()
    return " ".join(words[i % len(words)] for i in range(n_words))


def _timed(tab: Tab, act) -> dict:
    """Run `act` (an input) and wait until the page settles: ms to painted, bytes received."""
    tab.page.bring_to_front()
    tab.page.evaluate(RESET)
    tab.bytes = 0
    logged = tab.runlog.stat().st_size if tab.runlog.exists() else 0
    act()
    tab.settle(timeout=300_000)
    with open(tab.runlog) as fh:
        fh.seek(logged)
        runs = [float(line.split()[1]) for line in fh if line.strip()]
    return {**tab.page.evaluate(RESULT), "bytes": tab.bytes, "server": 1e3 * sum(runs)}


def typed(tab: Tab, text: str) -> dict:
    box = tab.page.locator(TEXT_BOX)
    box.fill(text)
    tab.charts = 1  # the page may draw other charts for a long text
    result = _timed(tab, lambda: box.press("Control+Enter"))
    tab.charts = tab.page.evaluate(DRAWN)
    return result


def seed_step(tab: Tab) -> dict:
    return _timed(tab, lambda: tab.page.locator(SEED_UP).click())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=4, help="seed steps per page")
    ap.add_argument("--quiet", type=int, default=600, help="ms without change = settled")
    ap.add_argument("--pages", nargs="*", default=[p.id for p in PAGES if p.reads_sentence],
                    choices=IDS)  # fmt: skip
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    text = paragraph()
    print(f"{N_WORDS} words x 16 heads (d_model 64), Chromium headless, software rendering;")
    print("both servers and the browser share this machine's CPUs")
    rows = []
    floor_steps: list[float] = []
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=chromium_path(), args=BENCH_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        app_log, floor_log = Path(tmp) / "app.runs", Path(tmp) / "floor.runs"
        with (
            timed_server("app.py", app_log, timeout=180) as (app_url, _a),
            timed_server("bench/floor_page.py", floor_log) as (floor_url, _f),
        ):
            floor = Tab(context, floor_url, args.quiet, floor_log)
            for name in args.pages:
                query = urllib.parse.urlencode({"d_model": 64, "n_heads": 16})
                tab = Tab(context, f"{app_url}/{BY_ID[name].url_path}?{query}", args.quiet, app_log)
                first = typed(tab, text)
                steps = []
                for _ in range(args.steps):
                    steps.append(seed_step(tab))
                    key = "ArrowRight" if (len(floor_steps) % 2 == 0) else "ArrowLeft"
                    floor_steps.append(floor.step(key)["total"])
                rows.append((name, first, steps))
                print(f"  {name}: typed {first['total']:.0f} ms", flush=True)
                tab.page.close()
        browser.close()
    floor_med = statistics.median(floor_steps)
    print(f"\nfloor page slider step: median {floor_med:.0f} ms of {len(floor_steps)}")
    print("run ms: the server's script run of a seed step (median); the rest: delivery, drawing")
    print(f"{'page':<17}{'charts':>7}{'typed ms':>9}{'seed ms':>9}{'run ms':>8}{'x floor':>8}"
          f"{'rerun MB':>9}{'typed MB':>9}  met")  # fmt: skip
    for name, first, steps in rows:
        med = statistics.median(s["total"] for s in steps)
        run = statistics.median(s["server"] for s in steps)
        mb = max(s["bytes"] for s in steps) / 1e6
        ratio = med / floor_med
        met = "yes" if ratio <= STEP_TARGET and mb * 1e6 <= PAYLOAD_LIMIT else "NO"
        print(f"{name:<17}{steps[-1]['charts']:>7}{first['total']:>9.0f}{med:>9.0f}{run:>8.0f}"
              f"{ratio:>8.2f}{mb:>9.2f}{first['bytes'] / 1e6:>9.2f}  {met}")  # fmt: skip
    print(f"targets: seed step <= {STEP_TARGET:.0f}x floor, rerun <= {PAYLOAD_LIMIT / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
