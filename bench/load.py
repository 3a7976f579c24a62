"""Many users on one `streamlit run`: real browsers, light websocket clients, and memory.

1. Browsers: N Chromium sessions (own context, own sentence "userI reads sentence numberI",
   own seeds) open the home page one after another (--stagger), then each clicks the sidebar
   seed's + button R times (a new attention every time), reading for a while before each
   click (--think: uniform 0..2x; 0 is a closed loop that measures capacity, not a class).
   A rerun is timed in the page's clock from the click to the charts painted
   (bench/browser_timing.py). Every rerun checks that the session still shows its own
   sentence and seed; an exception element, a timeout or another sentence counts as an error.
   The reference is one session alone, measured in the same run. Chromium's renderers share
   the machine's CPUs with the server: on a 2-core machine much of the slowdown is theirs.
2. Light clients (bench/st_client.py): the same sessions over Streamlit's websocket protocol,
   no browser; the server's own scaling, 1 session against N.
3. Memory: the server's RSS over S distinct sentences sent by light clients, through every
   page in turn (a new session every 25 sentences), printed every 50; the caches are bounded,
   so the curve must flatten.

    python bench/load.py [--browsers 20] [--reruns 5] [--light 20] [--sentences 500]

With --url the sessions go to a server that is already running, such as HAProxy in front of the
replicas of deploy/serve.sh; --run-dir (its LENS_RUN_DIR) names the replicas whose memory and
CPU time are printed. Through HAProxy every session is one websocket, balanced on its own.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
import urllib.parse
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser_timing import BENCH_ARGS, INSTRUMENT, RESET, RESULT, SETTLED  # noqa: E402
from bench.st_client import Session  # noqa: E402
from tests.browser.server import chromium_path, streamlit_server  # noqa: E402
from ui.pages import PAGES  # noqa: E402

CHARTS = 1  # the home page's chart: the head grid (the other views are tabs, drawn when opened)
PLUS = '[class*="st-key-_w-shared-seed-"] button[data-testid="stNumberInputStepUp"]'
SEED_BASE = 1000  # session i starts at seed SEED_BASE * (i + 1): nobody shares a model
PATHS = [p.url_path for p in PAGES]
FIRST_TICKS = "() => document.querySelector('.js-plotly-plot')._fullLayout.xaxis.ticktext"


def _only(ticks, mine: list[str]) -> bool:
    """The head grid's x tick text holds the sentence once under each column of heads: the
    session's own sentence, and nothing else."""
    n = len(ticks or []) // max(len(mine), 1)
    return n >= 1 and list(ticks) == mine * n


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) that process `pid` has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def machine_busy_s() -> float:
    """CPU seconds all processes on this machine have used (every core), from /proc/stat."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # - idle, iowait
    except (OSError, ValueError, IndexError):
        return float("nan")


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def words(i: int) -> list[str]:
    return [f"user{i}", "reads", "sentence", f"number{i}"]


def _p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))] if xs else float("nan")


def summary(name: str, results: list[dict]) -> float:
    lat = [x for r in results for x in r["latencies"]]
    errors = sum(r["errors"] for r in results)
    own = all(r["own_only"] for r in results)
    p50 = statistics.median(lat) if lat else float("nan")
    p95 = _p95(lat)
    print(f"{name:<24}{len(lat):>7}{p50:>9.2f}{p95:>9.2f}{errors:>8}  {'yes' if own else 'NO'}")
    return p95


# --- 1. browsers ------------------------------------------------------------------------------
async def browser_session(
    browser, url: str, i: int, reruns: int, quiet: int, think: float, stagger: float
) -> dict:
    mine, seed = words(i), SEED_BASE * (i + 1)
    rng = random.Random(i)
    await asyncio.sleep(stagger * i)  # people open the page one after another, not at once
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await ctx.new_page()
    await page.add_init_script(INSTRUMENT)
    errors, latencies, own_only = 0, [], True
    query = urllib.parse.urlencode({"text": " ".join(mine), "seed": seed})
    try:
        await page.goto(f"{url}/?{query}", wait_until="commit", timeout=300_000)
        await page.wait_for_function(SETTLED, arg=[quiet, CHARTS], timeout=300_000, polling=250)
        ticks = await page.evaluate(FIRST_TICKS)
        if not _only(ticks, mine):
            print(f"  browser session {i} on opening: shows {ticks}")
            own_only = False
        for r in range(reruns):
            await asyncio.sleep(rng.uniform(0, 2 * think))  # reading before the next click
            await page.evaluate(RESET)
            await page.locator(PLUS).click()
            await page.wait_for_function(SETTLED, arg=[quiet, CHARTS], timeout=300_000, polling=250)
            latencies.append((await page.evaluate(RESULT))["total"] / 1e3)
            shown_seed = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["seed"]
            ticks = await page.evaluate(FIRST_TICKS)
            if not _only(ticks, mine) or shown_seed != [str(seed + r + 1)]:
                print(f"  browser session {i} rerun {r}: shows {ticks}, seed {shown_seed}")
                own_only = False
        errors += await page.locator('[data-testid="stException"]').count()
    except Exception as exc:  # noqa: BLE001 - a failed session is counted, not fatal
        state = await page.evaluate(
            "() => JSON.stringify({bench: window.__bench, state: document.querySelector("
            "'[data-test-script-state]')?.getAttribute('data-test-script-state')})"
        )
        print(f"  browser session {i}: {type(exc).__name__}: {str(exc)[:120]} {state[:400]}")
        errors += 1
    await ctx.close()
    return {"latencies": latencies, "errors": errors, "own_only": own_only}


async def browsers(url: str, ids: range, args) -> list[dict]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), args=BENCH_ARGS)
        results = await asyncio.gather(
            *(
                browser_session(browser, url, i, args.reruns, args.quiet, args.think, args.stagger)
                for i in ids
            )
        )
        await browser.close()
    return list(results)


# --- 2. light clients -------------------------------------------------------------------------
async def light_session(url: str, i: int, reruns: int, think: float, delay: float) -> dict:
    mine, seed = words(i), SEED_BASE * (i + 1)
    rng = random.Random(i)
    await asyncio.sleep(delay)
    s = Session(url)
    errors, latencies, own_only, replica, ended = 0, [], True, "", []
    try:
        run = await s.open({"text": " ".join(mine), "seed": seed})
        cookie = s.ws.response.headers.get("Set-Cookie", "")  # HAProxy names the replica
        replica = cookie.split(";")[0].partition("=")[2]
        text_id, seed_id = run.widget_id("shared.text"), run.widget_id("shared.seed")
        own_only &= _only(run.charts()[0]["layout"]["xaxis"]["ticktext"], mine)
        for r in range(reruns):
            await asyncio.sleep(rng.uniform(0, 2 * think))
            run = await s.rerun({text_id: " ".join(mine), seed_id: seed + r + 1})
            latencies.append(run.seconds)
            ended.append(time.perf_counter())
            errors += len(run.exceptions)
            own_only &= _only(run.charts()[0]["layout"]["xaxis"]["ticktext"], mine)
            own_only &= any(f"seed {seed + r + 1}" in e.markdown.body for e in run.elements)
    except Exception as exc:  # noqa: BLE001
        print(f"  light session {i}: {type(exc).__name__}: {str(exc)[:200]}")
        errors += 1
    finally:
        await s.close()
    return {
        "latencies": latencies,
        "ended": ended,  # perf_counter at the end of each rerun
        "errors": errors,
        "own_only": own_only,
        "replica": replica,
    }


async def lights(url: str, ids: range, args) -> list[dict]:
    sessions = (
        light_session(url, i, args.reruns, args.think, args.stagger * k) for k, i in enumerate(ids)
    )
    return list(await asyncio.gather(*sessions))


def timed_lights(url: str, ids: range, args, servers: dict[str, int]) -> list[dict]:
    """lights(), then where the CPU time went: each server process and this client."""
    before = {name: cpu_s(pid) for name, pid in servers.items()}
    t0, c0, m0 = time.perf_counter(), time.process_time(), machine_busy_s()
    results = asyncio.run(lights(url, ids, args))
    wall, client = time.perf_counter() - t0, time.process_time() - c0
    used = {n: cpu_s(pid) - before[n] for n, pid in servers.items()}
    others = machine_busy_s() - m0 - client - sum(used.values())
    spread = Counter(r["replica"] for r in results if r["replica"])
    reruns = [(x, e, r["replica"]) for r in results for x, e in zip(r["latencies"], r["ended"])]
    slow = sorted(((x, e - t0 - x, rep) for x, e, rep in reruns), reverse=True)[:5]
    print(
        "  slowest reruns (s, started at s, on): "
        + ", ".join(f"{x:.2f} @{at:.0f} {rep}" for x, at, rep in slow)
    )
    print(
        f"  {len(results)} sessions, {wall:.0f} s on {os.cpu_count()} cores; CPU s: "
        + "".join(f"{n} {u:.1f}, " for n, u in used.items())
        + f"this client {client:.1f}, other processes {others:.0f}"
        + (f"; sessions per replica {dict(sorted(spread.items()))}" if spread else "")
    )
    return results


# --- 3. memory --------------------------------------------------------------------------------
async def memory_curve(url: str, pid: int, n: int, every: int) -> None:
    """n distinct sentences through every page in turn; RSS every `every` sentences."""
    for page in PATHS:  # warm-up: every page once (the pretrained model loads here)
        s = Session(url)
        await s.open({"text": "warm up"}, page=page)
        await s.close()
    print(f"\nserver memory over {n} distinct sentences (light clients, pages in turn)")
    print(f"{'sentences':>10}{'RSS MB':>9}{'s/sentence':>12}")
    print(f"{0:>10}{rss_mb(pid):>9.0f}{'':>12}  (every page visited once)")
    curve, s, text_id, t0 = [], None, None, time.perf_counter()
    for k in range(n):
        if k % 25 == 0:  # a new user every 25 sentences; the old session goes away
            if s:
                await s.close()
            s = Session(url)
            run = await s.open({"text": "warm up"}, page=PATHS[(k // 25) % len(PATHS)])
            text_id = run.widget_id("shared.text")
        sentence = f"sentence {k} says {k * 7919 % 10007} things about word{k}"
        run = await s.rerun({text_id: sentence})
        if run.exceptions:
            print(f"  sentence {k}: {run.exceptions[0][:200]}")
        if (k + 1) % every == 0:
            curve.append(rss_mb(pid))
            dt = (time.perf_counter() - t0) / every
            print(f"{k + 1:>10}{curve[-1]:>9.0f}{dt:>12.2f}")
            t0 = time.perf_counter()
    await s.close()
    if len(curve) >= 4:
        half = len(curve) // 2
        growth = curve[-1] - curve[half - 1]
        print(f"growth over the second half: {growth:+.0f} MB ({growth / curve[-1]:+.1%})")


def replica_pids(run_dir: str | None) -> dict[str, int]:
    """{"r1": pid, ...} from the run directory of deploy/serve.sh (replica-I.pid)."""
    if not run_dir:
        return {}
    files = sorted(Path(run_dir).glob("replica-*.pid"), key=lambda f: int(f.stem.split("-")[1]))
    return {f"r{f.stem.split('-')[1]}": int(f.read_text()) for f in files}


def memory(servers: dict[str, int]) -> str:
    return ", ".join(f"{name} {rss_mb(pid):.0f} MB" for name, pid in servers.items()) or "?"


def bench(url: str, servers: dict[str, int], args) -> None:
    """The three parts against `url`; `servers` ({name: pid}) for memory and CPU time."""
    print(f"server RSS at start: {memory(servers)}")
    head = f"{'sessions':<24}{'reruns':>7}{'p50 s':>9}{'p95 s':>9}{'errors':>8}  own only"
    if args.browsers:
        print(
            "\n1. Chromium sessions (headless, software rendering). Chromium's renderers"
            " share this machine's CPUs with the server."
        )
        print(head)
        alone = summary("1 browser", asyncio.run(browsers(url, range(1), args)))
        ids = range(1, args.browsers + 1)
        many = summary(f"{args.browsers} browsers", asyncio.run(browsers(url, ids, args)))
        print(f"p95 ratio {args.browsers} / 1: {many / alone:.2f} (target <= 3)")
        print(f"server RSS: {memory(servers)}")
    if args.light:
        print("\n2. light websocket sessions (no browser): the server alone")
        first = 100 + args.browsers
        alone_runs = timed_lights(url, range(first, first + 1), args, servers)
        ids = range(first + 1, first + 1 + args.light)
        many_runs = timed_lights(url, ids, args, servers)
        print(head)
        alone = summary("1 light", alone_runs)
        many = summary(f"{args.light} light", many_runs)
        print(f"p95 ratio {args.light} / 1: {many / alone:.2f}")
        print(f"server RSS: {memory(servers)}")
    if args.sentences and len(servers) == 1:
        asyncio.run(memory_curve(url, next(iter(servers.values())), args.sentences, args.every))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--browsers", type=int, default=20, help="concurrent Chromium sessions")
    ap.add_argument("--light", type=int, default=20, help="concurrent websocket sessions")
    ap.add_argument("--reruns", type=int, default=5, help="seed changes per session")
    ap.add_argument("--sentences", type=int, default=500, help="for the memory curve")
    ap.add_argument("--every", type=int, default=50)
    ap.add_argument("--quiet", type=int, default=300, help="ms without change = painted")
    ap.add_argument("--think", type=float, default=3.0, help="mean s between a user's clicks")
    ap.add_argument("--stagger", type=float, default=0.5, help="s between users arriving")
    ap.add_argument("--url", help="a running server or balancer (default: start one here)")
    ap.add_argument("--run-dir", help="with --url: deploy/serve.sh's run dir (replica pids)")
    args = ap.parse_args()
    print(
        f"each user clicks {args.reruns} times, waiting 0..{2 * args.think:g} s (mean"
        f" {args.think:g} s) before each click; users arrive {args.stagger:g} s apart"
    )
    if args.url:
        print(f"against {args.url}")
        bench(args.url.rstrip("/"), replica_pids(args.run_dir), args)
        return
    with streamlit_server("app.py", timeout=180) as (url, proc):
        bench(url, {"server": proc.pid}, args)


if __name__ == "__main__":
    main()
