"""Fixtures shared by every test folder (the shared helpers are in tests/helpers/), and how the
suite is split between pytest-xdist's two workers (`-n 2 --dist loadgroup`, pyproject.toml)."""

from __future__ import annotations

import os

import pytest

# One torch thread per process: two workers on two cores, or a busy machine, with two OpenMP
# threads each made every parallel op wait for a thread that had no core (a trace took ~20x
# longer). Set before torch is imported; the app servers the browser tests start inherit it.
os.environ.setdefault("OMP_NUM_THREADS", "1")


def pytest_collection_modifyitems(config, items):
    """A module's tests run on one worker (its module fixtures are built once); the browser
    tests all run on one worker, one module's server after another, beside the other tests."""
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        group = "browser" if path.startswith("tests/browser/") else path
        item.add_marker(pytest.mark.xdist_group(group))
