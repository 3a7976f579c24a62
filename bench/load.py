"""Many users at once: N real browser sessions against one `streamlit run`.

Each session opens the app with its own sentence, then changes the seed R times (a widget
change, as a person would click it) and waits until every heatmap is redrawn. Reports p50/p95
rerun latency, errors, whether every session only ever saw its own sentence, and the server's
memory (RSS) before and after. The reference in the same run is one session alone, so the
ratio says what sharing the server costs.

    python bench/load.py --sessions 8 --reruns 5
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_mb(pid: int) -> float:
    total = 0
    for p in [pid, *_children(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def start_server() -> tuple[subprocess.Popen, str]:
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=1)
            return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("server did not start")


async def session(browser, url: str, i: int, reruns: int) -> dict:
    words = [f"user{i}", "reads", "sentence", f"number{i}"]
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await ctx.new_page()
    errors, latencies, own_only = 0, [], True
    try:
        await page.goto(f"{url}/?text=" + urllib.parse.quote(" ".join(words)))
        await page.wait_for_function(
            "(w) => { const g = document.querySelector('.js-plotly-plot');"
            " return g && g._fullLayout.xaxis.ticktext.join(' ') === w; }",
            arg=" ".join(words),
            timeout=120_000,
        )
        plus = page.get_by_role("button", name="Increment")  # the seed's + button
        for r in range(reruns):
            t0 = time.perf_counter()
            await plus.first.click()
            await page.wait_for_function(
                "(s) => { const g = document.querySelector('.js-plotly-plot');"
                " return g && new URL(location.href).searchParams.get('seed') === s"
                " && g.data.length > 0; }",
                arg=str(r + 1),
                timeout=120_000,
            )
            await page.wait_for_function(
                "() => { const s = document.querySelector('[data-testid=\"stStatusWidget\"]');"
                " return !s || !s.innerText.toLowerCase().includes('running'); }",
                timeout=120_000,
            )
            latencies.append(time.perf_counter() - t0)
            ticks = await page.evaluate(
                "() => document.querySelector('.js-plotly-plot')._fullLayout.xaxis.ticktext"
            )
            own_only &= ticks == words
        errors += await page.locator('[data-testid="stException"]').count()
    except Exception as exc:  # noqa: BLE001 - a failed session is counted, not fatal
        print(f"session {i}: {type(exc).__name__}: {str(exc)[:200]}")
        errors += 1
    await ctx.close()
    return {"latencies": latencies, "errors": errors, "own_only": own_only}


async def run(url: str, n: int, reruns: int) -> list[dict]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
        results = await asyncio.gather(*(session(browser, url, i, reruns) for i in range(n)))
        await browser.close()
    return results


def summary(name: str, results: list[dict]) -> float:
    lat = sorted(x for r in results for x in r["latencies"])
    errors = sum(r["errors"] for r in results)
    own = all(r["own_only"] for r in results)
    p50 = statistics.median(lat) if lat else float("nan")
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))] if lat else float("nan")
    print(
        f"{name:>12}: reruns {len(lat):>3}  p50 {p50:6.2f}s  p95 {p95:6.2f}s  errors {errors}"
        f"  each saw only its own sentence: {own}"
    )
    return p50


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=8)
    ap.add_argument("--reruns", type=int, default=5)
    args = ap.parse_args()
    proc, url = start_server()
    try:
        rss0 = _rss_mb(proc.pid)
        alone = summary("1 session", asyncio.run(run(url, 1, args.reruns)))
        rss1 = _rss_mb(proc.pid)
        many = summary(
            f"{args.sessions} sessions", asyncio.run(run(url, args.sessions, args.reruns))
        )
        rss2 = _rss_mb(proc.pid)
        print(f"p50 ratio {args.sessions} sessions / 1 session: {many / alone:.2f}")
        print(
            f"server RSS: start {rss0:.0f} MB, after 1 session {rss1:.0f} MB, "
            f"after {args.sessions} sessions {rss2:.0f} MB"
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
