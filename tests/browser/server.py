"""Start `streamlit run` on a free localhost port, and find Chromium: for the browser tests
(tests/browser/conftest.py) and the benches (bench/load.py, bench/ui_latency.py)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def chromium_path() -> str | None:
    """The system Chromium, or None to let Playwright use its own browser if one is installed."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


@contextmanager
def streamlit_server(
    script: str | Path = "app.py",
    log: Path | None = None,
    timeout: float = 90,
    streamlit: tuple[str, ...] = ("-m", "streamlit"),
    env: dict[str, str] | None = None,
):
    """Run `streamlit run script` (relative to the repository root) until the block ends.

    Yields (url, process) once /_stcore/health answers. The server's output goes to `log`
    (shown if it fails to start), or nowhere. `streamlit`: how Python starts Streamlit (a
    wrapper script instead of the module, for example); `env`: added to the environment.
    """
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            sys.executable,
            *streamlit,
            "run",
            str(ROOT / script),
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        stdout=out,
        stderr=subprocess.STDOUT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log, timeout)
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        if log:
            out.close()


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path | None, timeout: float) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    text = log.read_text() if log else "(no log)"
    state = "exited early" if proc.poll() is not None else "did not start"
    raise RuntimeError(f"streamlit {state}:\n{text}")
