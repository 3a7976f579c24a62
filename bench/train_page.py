"""The Train page in a real Chromium against one `streamlit run`.

1. The default run as a learner sees it: press Train at the defaults, wait until the trained
   model is drawn (wall time, with the page's own figures for training time and accuracy).
2. Does training freeze other users? A second session reruns the Attention page (the seed's
   + button, all heatmaps redrawn) R times while nobody trains (the reference, measured in the
   same run), then R times while the first session trains a long run; p50/p95 rerun latency
   and their ratio.

    python bench/train_page.py --runs 2 --reruns 8
"""

from __future__ import annotations

import argparse
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
IDLE = """() => { const s = document.querySelector('[data-testid="stStatusWidget"]');
    return !s || !s.innerText.toLowerCase().includes('running'); }"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server() -> tuple[subprocess.Popen, str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port)]
    cmd += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=1)
            return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("server did not start")


def _wait_idle(page) -> None:
    page.wait_for_selector('[data-testid="stApp"]', timeout=120_000)
    page.wait_for_function(IDLE, timeout=120_000)


def default_run(browser, url: str) -> tuple[float, str]:
    """Seconds from pressing Train (defaults) to the trained model drawn; the page's summary."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    page.goto(f"{url}/train")
    _wait_idle(page)
    train = page.get_by_role("button", name="Train", exact=True)
    train.wait_for()
    t0 = time.perf_counter()
    train.click()
    page.get_by_role("heading", name="The trained model").wait_for(timeout=300_000)
    page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot').length >= 4", timeout=120_000
    )
    wall = time.perf_counter() - t0
    summary = page.get_by_text("Greedy decoding").inner_text()
    ctx.close()
    return wall, summary


def reruns(page, n: int, start_seed: int) -> list[float]:
    """n reruns of the Attention page (the sidebar seed's + button), each until redrawn."""
    plus = page.get_by_role("button", name="Increment").first
    out = []
    for r in range(n):
        t0 = time.perf_counter()
        plus.click()
        page.wait_for_function(
            "(s) => new URL(location.href).searchParams.get('seed') === s",
            arg=str(start_seed + r + 1),
            timeout=120_000,
        )
        page.wait_for_function(IDLE, timeout=120_000)
        out.append(time.perf_counter() - t0)
    return out


def _stats(name: str, lat: list[float]) -> float:
    lat = sorted(lat)
    p50 = statistics.median(lat)
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
    print(f"{name:>34}: n {len(lat):>3}  p50 {p50:6.2f} s  p95 {p95:6.2f} s  max {lat[-1]:6.2f} s")
    return p50


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2, help="default runs to time")
    ap.add_argument("--reruns", type=int, default=8, help="reruns of the second session")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    proc, url = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            for i in range(args.runs):
                wall, summary = default_run(browser, url)
                print(f"default run {i + 1}: Train -> model drawn {wall:5.1f} s | {summary}")

            other = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            other.goto(url)
            _wait_idle(other)
            other.wait_for_selector(".js-plotly-plot", timeout=120_000)
            reruns(other, 2, 0)  # warm-up
            alone = _stats("other session, nobody training", reruns(other, args.reruns, 2))

            trainer = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            trainer.goto(f"{url}/train?steps=3000")
            _wait_idle(trainer)
            trainer.get_by_role("button", name="Train", exact=True).click()
            trainer.locator("[data-testid=stProgress]").wait_for(timeout=120_000)
            busy_lat = reruns(other, args.reruns, 2 + args.reruns)
            still = trainer.locator("[data-testid=stProgress]").count() == 1
            progress = trainer.locator("[data-testid=stProgress]").inner_text() if still else ""
            busy = _stats("other session, one session training", busy_lat)
            trainer.get_by_role("button", name="Stop", exact=True).click()
            trainer.get_by_text("Stopped after").wait_for(timeout=120_000)
            stopped = re.search(r"Stopped after \d+ of \d+ steps", trainer.content())
            print(f"training went on throughout: {still} ({progress}); {stopped.group(0)}")
            print(f"p50 ratio, training / nobody training: {busy / alone:.2f}")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
