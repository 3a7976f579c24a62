"""Slider step to redrawn charts, per page, in Chromium, against Streamlit's floor.

Starts `streamlit run app.py` and `streamlit run bench/floor_page.py` (one sidebar
select_slider, one 12x12 heatmap), opens every page in its own tab (its own session), and
steps the sidebar's heads slider with the keyboard (ArrowRight, then ArrowLeft, ...) on the
slider thumb, the pages taking turns with the floor so that machine noise hits all alike. The
Train and Induction pages have their own models (the sidebar changes none of their charts):
they train a short run first (300 steps), then their snapshot slider is stepped (`OWN_SLIDER`).

One step is timed in the page's own clock, from the keydown to the later of
  - the frame painted after the app's `[data-test-script-state]` turned `notRunning`, and
  - the frame painted after the last change inside any `.js-plotly-plot` (two
    requestAnimationFrame after the last DOM change of a chart),
once nothing has changed for `--quiet` ms (the quiet wait itself is not counted). "script" is
the time from `running` to `notRunning` as the browser sees it: the server's script run plus
the delivery of its messages. "kB" is what the websocket received for that rerun.

Pages whose charts follow a picker of their own (`PICKER`: the llm page's Every head view) step
that picker's slider instead of the sidebar's. The lesson page (`BUTTONS`) is stepped with its
own buttons: it opens on a station whose answer is shown (its reveal's charts drawn) and each
step presses Next, then Previous, ... between it and the next station, answered too (a station
step), timed from the click (pointerdown) the same way; one untimed round trip first computes
both stations once (`--lesson-station real`: stations 11 and 12, the real models).

Then: cold start (server start to the page's first chart painted and every widget drawn, app
home page against the floor), the llm page's question typed until its first token is painted
(`first_token`, warm server, target 3 s),
and the payload of one rerun at the issue's sizes (home: 64 tokens x 16 heads; pretrained:
256 WordPiece tokens), which must stay <= 3 MB.

    python bench/ui_latency.py [--steps 10] [--cold 2] [--pages home scaling ...]
    python bench/ui_latency.py --pages lesson --skip cold payload first_token \
        [--lesson-station real]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from bench.browser_timing import BENCH_ARGS, DRAWN, INSTRUMENT, RESET, RESULT, SETTLED  # noqa: E402
from tests.browser.server import chromium_path, streamlit_server  # noqa: E402
from ui.pages import BY_ID, IDS  # noqa: E402

STEP_TARGET = 1.5  # x floor, every page (issue 18: "every page within 1.5x of the floor")
COLD_TARGET = 1.5
PAYLOAD_LIMIT = 3_000_000
ENGLISH = "the quick brown fox jumps over the lazy dog while the cat watches it ."
# the heads slider's thumb: the app's control widget (`_w.shared.n_heads.<digest>.<n>`), or the
# floor page's plain widget keyed `shared.n_heads`
THUMB = (
    '[class*="st-key-_w-shared-n_heads-"] input[type="range"],'
    ' .st-key-shared-n_heads input[type="range"]'
)


SERVER_ENV: dict[str, str] = {}  # Streamlit options for both servers (--no-post-script-gc)
APP_ENV: dict[str, str] = {}  # the app's server only (--what-if)
# a script the app's tabs (not the floor's) run before the page's own (a browser-side what-if),
# e.g. one that wraps MutationObserver: BENCH_APP_JS="$(cat what_if.js)" python bench/ui_latency.py
APP_JS = os.environ.get("BENCH_APP_JS", "")


def timed_server(script: str, runlog: Path, **kw):
    """`streamlit run script`, each script run timed into `runlog` (bench/timed_streamlit.py)."""
    env = {"SCRIPT_RUN_LOG": str(runlog), **SERVER_ENV, **(APP_ENV if script == "app.py" else {})}
    return streamlit_server(script, streamlit=("bench/timed_streamlit.py",), env=env, **kw)


# Pages with their own models, whose charts do not follow the sidebar: a short training run
# first (URL query, the button that starts it), then their snapshot slider is the one stepped,
# leftwards first (it opens on the last snapshot).
OWN_SLIDER = {
    "induction": ("steps=300", "Train both", "induction-snapshot"),
    "train": ("steps=300", "Train", "train-snapshot"),
}


# Pages whose charts follow a picker of their own, not the sidebar: the URL query that opens the
# view, and the slider stepped (rightwards first).
PICKER = {
    "llm": ("view=heads&layer=15&head=0&query=last", "llm-layer"),
    # MiniLM's size is fixed (the sidebar's model settings are disabled): its re-heading slider
    "pretrained": ("", "pretrained-rehead_heads"),
}
# Pages with no slider of their own whose sidebar model settings are all disabled: not stepped
NO_STEP = {"reading": "MiniLM's size is fixed and the page has no slider of its own"}


def lesson_query(station: str) -> str:
    """The lesson on `station`, it and the next station answered "show the answer" under the
    sidebar's defaults (their reveals drawn, no grade: the fingerprint of the default settings)."""
    import logging

    import streamlit.runtime.caching.cache_data_api  # noqa: F401 - its logger, quietened:

    # ui.compute's cached functions, defined outside a Streamlit run, warn once each
    logging.getLogger("streamlit.runtime.caching.cache_data_api").setLevel(logging.ERROR)
    from ui.compute.lesson import fingerprint
    from ui.sections.lesson import STATIONS
    from ui.state import DEFAULTS, Settings

    fp = fingerprint(Settings(**DEFAULTS))
    if station not in STATIONS[:-1]:
        raise SystemExit(f"--lesson-station: one of {', '.join(STATIONS[:-1])} (not {station!r})")
    pair = STATIONS[STATIONS.index(station) :][:2]
    answers = ",".join(f"{s}:-:{fp}" for s in pair)
    return urllib.parse.urlencode({"station": station, "answers": answers})


def round_trip(tab: Tab) -> None:
    """A Tab setup: Next and Previous once, untimed (both stations computed and drawn once); the
    steps then wait for as many charts as the station with fewer has."""
    drawn = [tab.page.evaluate(DRAWN)]
    for key in ("ArrowRight", "ArrowLeft"):
        tab.press(key)
        tab.settle(timeout=180_000, quiet=max(tab.quiet, 2000))
        drawn.append(tab.page.evaluate(DRAWN))
    tab.min_charts = min(drawn)


# Pages stepped by buttons of their own, not a slider: the buttons' keys (forwards, back),
# pressed in turn (a station step: the other station's question, its reveal and its charts)
LESSON_STATION = "why"  # stations 1 and 2 by default: one chart each, on the sidebar's model
BUTTONS = {"lesson": ("lesson-next", "lesson-prev")}
# what the step changes on the page, to check that the click took: the stations' headings
HEADINGS = (
    "() => [...document.querySelectorAll('[data-testid=stMain] h3')]"
    ".map((h) => h.innerText).join('|')"
)
FIRST_TOKEN_TARGET = 3.0  # seconds, a question typed until its first token is painted
QUESTIONS = (
    "Why is the sky blue?",
    "What is the largest planet in the solar system?",
    "Name three colours of the rainbow.",
    "How many legs does a spider have?",
    "What do bees make?",
)


def own_thumb(widget: str) -> str:
    return f'[class*="st-key-_w-{widget}"] input[type="range"]'


def train_first(button: str):
    """A Tab setup: press the page's training button and wait until the run is done."""

    def setup(tab: Tab) -> None:
        tab.page.get_by_role("button", name=button, exact=True).click()
        tab.page.get_by_text("steps in").first.wait_for(timeout=300_000)

    return setup


class Tab:
    """One page in its own tab (its own Streamlit session), with the websocket bytes counted
    and the server's script runs read from its run log. `thumb`: the slider stepped (the
    sidebar's heads by default); `setup(tab)` runs once the page is drawn."""

    def __init__(self, context, url: str, quiet: int, runlog: Path, thumb: str = THUMB,
                 setup=None, init_script: str = APP_JS, buttons=None):  # fmt: skip
        self.quiet = quiet
        self.runlog = runlog
        self.thumb = thumb
        self.buttons = buttons  # (forwards, back) button keys pressed instead of the slider
        self.bytes = 0
        self.lost_keys = 0  # key presses the slider did not take (focus lost), pressed again
        self.page = context.new_page()
        self.page.add_init_script(INSTRUMENT)
        if init_script:
            self.page.add_init_script(init_script)
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.charts = 1
        self.page.goto(url)
        self.settle(timeout=180_000, quiet=max(quiet, 2000))  # every chart's first draw
        if setup is not None:
            setup(self)
            self.settle(timeout=180_000, quiet=max(quiet, 2000))
        self.charts = self.page.evaluate(DRAWN)  # from now on, wait for all of them
        if buttons is not None:  # two stations in turn: as many as the one with fewer
            self.charts = getattr(self, "min_charts", self.charts)
        self.load_bytes = self.bytes  # the page's first run: every element sent

    def _frame(self, payload) -> None:
        self.bytes += len(payload)

    def settle(self, timeout: float = 120_000, quiet: int | None = None) -> None:
        arg = [quiet or self.quiet, self.charts]
        self.page.wait_for_function(SETTLED, arg=arg, timeout=timeout, polling=50)

    def _moved(self, before: str | None) -> bool:
        """Whether the slider took the key (its value changed in the page) within 5 s."""
        try:
            self.page.wait_for_function(
                "([sel, v]) => { const t = document.querySelector(sel);"
                " return t !== null && t.getAttribute('aria-valuetext') !== v; }",
                arg=[self.thumb, before],
                timeout=5_000,
                polling=50,
            )
            return True
        except PlaywrightTimeout:
            return False

    def press(self, key: str) -> str:
        """Click the forwards (ArrowRight) or back (ArrowLeft) button; the new headings."""
        forwards, back = self.buttons
        button = self.page.locator(f".st-key-{forwards if key == 'ArrowRight' else back} button")
        before = self.page.evaluate(HEADINGS)
        for _attempt in range(3):
            button.click()
            try:
                self.page.wait_for_function(
                    f"(v) => ({HEADINGS})() !== v", arg=before, timeout=5_000, polling=50
                )
                break
            except PlaywrightTimeout:
                self.lost_keys += 1  # the click was not taken: press again
        else:
            raise RuntimeError(f"{key}: the {self.buttons} buttons did not change the station")
        return self.page.evaluate(HEADINGS)

    def step(self, key: str) -> dict:
        """Press `key` on the heads slider (or the page's buttons); the time to redrawn charts,
        the script, the bytes."""
        self.page.bring_to_front()
        if self.buttons is not None:
            self.page.evaluate(RESET)
            self.bytes = 0
            logged = self.runlog.stat().st_size if self.runlog.exists() else 0
            self.press(key)
            return self._result(logged, self.page.evaluate(HEADINGS))
        thumb = self.page.locator(self.thumb)
        thumb.focus()
        self.page.evaluate(RESET)
        self.bytes = 0
        logged = self.runlog.stat().st_size if self.runlog.exists() else 0
        before = thumb.get_attribute("aria-valuetext")
        for _attempt in range(3):
            self.page.keyboard.press(key)
            if self._moved(before):
                break
            self.lost_keys += 1  # the key went elsewhere (the thumb lost focus): press again
            thumb.focus()
        else:
            raise RuntimeError(f"{key} did not move the heads slider ({before})")
        return self._result(logged, None)

    def _result(self, logged: int, value: str | None) -> dict:
        """Once settled: the step's times, the script runs logged since `logged`, the bytes."""
        self.settle()
        if value is None:
            value = self.page.locator(self.thumb).get_attribute("aria-valuetext")
        with open(self.runlog) as fh:
            fh.seek(logged)
            runs = [float(line.split()[1]) for line in fh if line.strip()]
        result = self.page.evaluate(RESULT)
        return {**result, "bytes": self.bytes, "value": value, "server": 1e3 * sum(runs)}


def _p90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.9 * (len(xs) - 1)))]


def latency(
    browser, servers: dict, pages: list[str], steps: int, quiet: int, station: str = LESSON_STATION
):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    (floor_url, floor_log), (app_url, app_log) = servers["floor"], servers["app"]
    tabs = {"floor": Tab(context, floor_url, quiet, floor_log, init_script="")}
    for name in pages:
        if name in NO_STEP:
            print(f"{name}: not stepped ({NO_STEP[name]})")
            continue
        if name in OWN_SLIDER:
            query, button, widget = OWN_SLIDER[name]
            url = f"{app_url}/{BY_ID[name].url_path}?{query}"
            tabs[name] = Tab(context, url, quiet, app_log, own_thumb(widget), train_first(button))
        elif name in BUTTONS:
            url = f"{app_url}/{BY_ID[name].url_path}?{lesson_query(station)}"
            tabs[name] = Tab(context, url, quiet, app_log, setup=round_trip, buttons=BUTTONS[name])
        elif name in PICKER:
            query, widget = PICKER[name]
            url = f"{app_url}/{BY_ID[name].url_path}?{query}"
            tabs[name] = Tab(context, url, quiet, app_log, own_thumb(widget))
        else:
            tabs[name] = Tab(context, f"{app_url}/{BY_ID[name].url_path}", quiet, app_log)
    results: dict[str, list[dict]] = {name: [] for name in tabs}
    for i in range(steps):
        # 4 -> 8 -> 4 heads ...; an own slider opens on its last snapshot: leftwards first
        key, back = ("ArrowRight", "ArrowLeft") if i % 2 == 0 else ("ArrowLeft", "ArrowRight")
        for name, tab in tabs.items():
            try:
                results[name].append(tab.step(back if name in OWN_SLIDER else key))
            except PlaywrightTimeout as err:
                drawn = tab.page.evaluate(DRAWN)
                marks = tab.page.evaluate("() => JSON.stringify(window.__bench)")
                raise RuntimeError(
                    f"{name}, step {i}: never settled ({drawn} of {tab.charts} charts drawn;"
                    f" {marks})"
                ) from err
    context.close()
    floor_med = statistics.median(r["total"] for r in results["floor"])
    print(f"\nslider step -> charts painted, {steps} steps per page, interleaved with the floor")
    if set(BUTTONS) & set(tabs):
        print(f"lesson: a station step (Next / Previous between station {station} and the next,"
              " answers shown) -> charts painted")  # fmt: skip
    print("run: the server's script run(s) of the step; seen: running -> notRunning in the browser")
    head = f"{'page':<21}{'charts':>7}{'median ms':>10}{'p90 ms':>8}{'run ms':>8}{'run %':>6}"
    print(head + f"{'seen ms':>8}{'kB':>7}{'x floor':>8}{'target':>7}  met")
    for name, rs in results.items():
        total = [r["total"] for r in rs]
        seen = [r["script"] for r in rs if r["script"] is not None]
        med, run = statistics.median(total), statistics.median(r["server"] for r in rs)
        seen_med = statistics.median(seen) if seen else float("nan")
        kb = statistics.median(r["bytes"] for r in rs) / 1e3
        ratio = med / floor_med
        target = 1.0 if name == "floor" else STEP_TARGET
        met = "-" if name == "floor" else ("yes" if ratio <= target else "NO")
        print(
            f"{name:<21}{rs[-1]['charts']:>7}{med:>10.0f}{_p90(total):>8.0f}{run:>8.0f}"
            f"{100 * run / med:>5.0f}%{seen_med:>8.0f}{kb:>7.1f}{ratio:>8.2f}{target:>7.1f}  {met}"
            + (
                f"  ({tabs[name].lost_keys} key presses pressed again)"
                if tabs[name].lost_keys
                else ""
            )
        )


CODES = "[...document.querySelectorAll('[data-testid=stMain] [data-testid=stCode]')]"


def first_token(browser, app_url: str, rounds: int) -> None:
    """The llm page on a warm server (the model loaded by the page's first run): a question
    typed into the box, then Generate clicked, until the answer's first token is painted (the
    streamed answer's code block shows text, one frame later). A new question each round (no
    kept answer); the click also commits the typed question (two reruns, as for a person)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.add_init_script(INSTRUMENT)
    page.goto(f"{app_url}/{BY_ID['llm'].url_path}?max_new=8")
    generate = page.get_by_role("button", name="Generate", exact=True)
    generate.wait_for(timeout=180_000)
    page.wait_for_selector(".js-plotly-plot", timeout=180_000)
    times = []
    box = page.get_by_role("textbox", name="Your question (in English)")
    for question in QUESTIONS[:rounds]:
        page.wait_for_function(SETTLED, arg=[1000, 1], timeout=120_000, polling=50)
        box.fill(question)  # typed, not yet committed
        before = page.evaluate(f"() => {CODES}.map(c => c.innerText.trim())")
        t0 = time.perf_counter()
        generate.click()
        # a code block with a text not on the page before: the new answer (the last answer's
        # block stays on the page until the new run replaces it)
        page.wait_for_function(
            f"before => {CODES}.some(c => {{ const s = c.innerText.trim();"
            " return s.length > 0 && !before.includes(s); })",
            arg=before,
            timeout=120_000,
            polling=10,
        )
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
        times.append(time.perf_counter() - t0)
        page.get_by_text("new tokens in", exact=False).first.wait_for(timeout=120_000)
    context.close()
    med = statistics.median(times)
    met = "yes" if med <= FIRST_TOKEN_TARGET else "NO"
    print("\nllm page, warm server: question typed, Generate clicked -> first token painted")
    print("each round (s): " + ", ".join(f"{x:.2f}" for x in times))
    print(f"median {med:.2f} s, max {max(times):.2f} s; target {FIRST_TOKEN_TARGET:.1f} s: {met}")


def _first_paint(browser, url: str) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.add_init_script(INSTRUMENT)
    page.goto(url)
    # the page's first chart painted and every widget drawn (a widget's code loads lazily: until
    # then Streamlit shows a grey placeholder, which the first chart can come before)
    page.wait_for_function(
        "() => window.__bench && window.__bench.firstPaint > 0"
        " && !document.querySelector('[data-testid=stSkeleton]')",
        polling=20,
        timeout=180_000,
    )
    context.close()


def cold_start(browser, rounds: int) -> None:
    """Server start to the first chart painted: app (home page) against the floor, alternating."""
    times: dict[str, list[float]] = {"floor": [], "home": []}
    for _ in range(rounds):
        for name, script in (("floor", "bench/floor_page.py"), ("home", "app.py")):
            t0 = time.perf_counter()
            with streamlit_server(script, timeout=180, env=SERVER_ENV) as (url, _proc):
                _first_paint(browser, url)
                times[name].append(time.perf_counter() - t0)
    floor, home = statistics.median(times["floor"]), statistics.median(times["home"])
    print(f"\ncold start: server start -> first chart and widgets drawn, median of {rounds}")
    print(f"{'page':<10}{'seconds':>9}{'x floor':>9}{'target':>8}  met")
    print(f"{'floor':<10}{floor:>9.2f}{1.0:>9.2f}{'-':>8}  -")
    met = "yes" if home / floor <= COLD_TARGET else "NO"
    print(f"{'home':<10}{home:>9.2f}{home / floor:>9.2f}{COLD_TARGET:>8.1f}  {met}")


def _wordpiece_text(n_tokens: int) -> str:
    """Plain English with exactly n_tokens WordPiece tokens ([CLS] and [SEP] not counted)."""
    from mha_core import load_wordpiece, wordpiece_tokenize

    tok = load_wordpiece()
    words = ENGLISH.split()
    text = []
    while True:
        text.append(words[len(text) % len(words)])
        n = len(wordpiece_tokenize(" ".join(text), tok, 10_000).tokens)
        if n >= n_tokens:
            return " ".join(text)


def payload(browser, app: tuple[str, Path], steps: int, quiet: int) -> None:
    """Bytes of one rerun at the issue's sizes; the step that lands on the named setting (the
    heads slider; on the pretrained page, whose model settings are fixed, its re-heading)."""
    words = " ".join(f"word{i}" for i in range(64))
    cases = [
        (
            "attention 64 tokens x 16 heads",
            "attention",
            {"text": words, "d_model": 64, "n_heads": 8},
            "16",
        ),
        (
            "pretrained 256 WordPiece",
            "pretrained",
            {"text": _wordpiece_text(254), "tokenizer": "wordpiece"},  # + [CLS], [SEP]
            None,
        ),
    ]
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    print(f"\npayload of one rerun (heads slider step), limit {PAYLOAD_LIMIT / 1e6:.0f} MB")
    print("(a rerun sends only what changed: Streamlit's browser keeps the big messages it has")
    print(" seen and the server sends a reference; 'load MB' is the page's first run, all of it)")
    print(f"{'case':<28}{'load MB':>8}{'steps':>6}{'max MB':>8}{'median ms':>10}{'run ms':>8}  met")
    for name, page, query, landing in cases:
        url = f"{app[0]}/{BY_ID[page].url_path}?{urllib.parse.urlencode(query)}"
        thumb = own_thumb(PICKER[page][1]) if page in PICKER else THUMB  # MiniLM: its own
        tab = Tab(context, url, quiet, app[1], thumb)
        rs = [tab.step("ArrowRight" if i % 2 == 0 else "ArrowLeft") for i in range(steps)]
        kept = [r for r in rs if landing is None or r["value"] == landing] or rs
        biggest = max(r["bytes"] for r in kept)
        med = statistics.median(r["total"] for r in kept)
        run = statistics.median(r["server"] for r in kept)
        met = "yes" if max(biggest, tab.load_bytes) <= PAYLOAD_LIMIT else "NO"
        print(
            f"{name:<28}{tab.load_bytes / 1e6:>8.2f}{len(kept):>6}{biggest / 1e6:>8.2f}"
            f"{med:>10.0f}{run:>8.0f}  {met}"
        )
    context.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=10, help="slider steps per page")
    ap.add_argument("--cold", type=int, default=2, help="cold starts of each server")
    ap.add_argument("--quiet", type=int, default=400, help="ms without change = settled")
    ap.add_argument("--pages", nargs="*", default=list(IDS), choices=IDS)
    ap.add_argument(
        "--skip", nargs="*", default=[], choices=["latency", "cold", "payload", "first_token"]
    )
    ap.add_argument(
        "--lesson-station",
        default=LESSON_STATION,
        help="the lesson's station stepped from, to the next and back (why, ..., real)",
    )
    ap.add_argument("--first-token", type=int, default=3, help="questions asked on the llm page")
    ap.add_argument(
        "--no-post-script-gc",
        action="store_true",
        help="both servers with runner.postScriptGC off (Streamlit's full gc.collect after "
        "every script run; in this app it takes 0.2-0.4 s with the model loaded)",
    )
    ap.add_argument(
        "--what-if",
        default="",
        help="changes tried in the app's server only: no_automargin,no_strip "
        "(bench/timed_streamlit.py)",
    )
    args = ap.parse_args()
    if args.no_post_script_gc:
        SERVER_ENV["STREAMLIT_RUNNER_POST_SCRIPT_GC"] = "false"
    if args.what_if:
        APP_ENV["BENCH_WHAT_IF"] = args.what_if
    from playwright.sync_api import sync_playwright

    print("Chromium (headless, software rendering) and both servers share this machine's CPUs")
    print(f"Streamlit options of both servers: {SERVER_ENV or 'defaults'}")
    if APP_ENV:
        print(f"tried in the app's server only: {APP_ENV['BENCH_WHAT_IF']}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=BENCH_ARGS)
        if {"latency", "payload", "first_token"} - set(args.skip):
            with tempfile.TemporaryDirectory() as tmp:
                app_log, floor_log = Path(tmp) / "app.runs", Path(tmp) / "floor.runs"
                with (
                    timed_server("app.py", app_log, timeout=180) as (app_url, _a),
                    timed_server("bench/floor_page.py", floor_log) as (floor_url, _f),
                ):
                    servers = {"app": (app_url, app_log), "floor": (floor_url, floor_log)}
                    if "latency" not in args.skip:
                        latency(
                            browser, servers, args.pages, args.steps, args.quiet,
                            args.lesson_station,
                        )  # fmt: skip
                    if "payload" not in args.skip:
                        payload(browser, servers["app"], max(2, args.steps // 2), args.quiet)
                    if "first_token" not in args.skip and args.first_token:
                        first_token(browser, app_url, args.first_token)
        if "cold" not in args.skip and args.cold:
            cold_start(browser, args.cold)
        browser.close()


if __name__ == "__main__":
    main()
