"""Python code run in a fresh interpreter at the repository's root, for tests of what a new
process imports or does (`from tests.helpers.process import run_python`)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `code` (dedented) in a new interpreter; its asserts fail the test with its stderr."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done
