"""The app freezes long-lived objects once per page, after collecting (ui/memory.py)."""

from __future__ import annotations

import gc
import weakref

from tests.helpers.app import run_app
from ui import memory


class _Node:
    pass


def test_freeze_collects_garbage_first_and_runs_once_per_name():
    a, b = _Node(), _Node()
    a.other, b.other = b, a  # a reference cycle: only the collector frees it
    dead = weakref.ref(a)
    del a, b
    gc.disable()  # no automatic collection in between: freeze_once itself must collect
    try:
        assert dead() is not None
        assert memory.freeze_once("test.cycle") is True
        assert dead() is None  # collected, not frozen
    finally:
        gc.enable()
    before = gc.get_freeze_count()
    assert memory.freeze_once("test.cycle") is False  # the second call does nothing
    assert gc.get_freeze_count() == before
    assert "test.cycle" in memory.frozen()


def test_a_page_run_freezes_that_page_once():
    run_app("views/step.py")
    assert "step" in memory.frozen()
    assert gc.get_freeze_count() > 0
    kept = gc.get_freeze_count()
    gc.collect()
    assert gc.get_freeze_count() == kept  # collections leave the frozen generation alone
