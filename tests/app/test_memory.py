"""The app freezes long-lived objects once per page, after collecting (ui/memory.py).

Each check runs in a fresh Python process: `gc.freeze()` lasts for the whole process, so in the
test session it would freeze everything the other tests hold, and whatever an earlier test ran
would already be frozen (the check could not fail).
"""

from __future__ import annotations

from tests.helpers.process import run_python


def _run_fresh(code: str) -> None:
    """Run `code` in a new interpreter at the repo root; its asserts fail the test."""
    done = run_python(code, timeout=300)
    assert done.stdout.strip().endswith("ok"), done.stdout[-3000:]


def test_freeze_collects_garbage_first_and_runs_once_per_name():
    _run_fresh(
        """
        import gc
        import weakref

        from ui import memory

        class Node:
            pass

        assert gc.get_freeze_count() == 0 and not memory.frozen()
        a, b = Node(), Node()
        a.other, b.other = b, a  # a reference cycle: only the collector frees it
        dead = weakref.ref(a)
        del a, b
        gc.disable()  # no automatic collection in between: freeze_once itself must collect
        assert dead() is not None
        assert memory.freeze_once("test.cycle") is True
        assert dead() is None  # collected, not frozen
        gc.enable()
        before = gc.get_freeze_count()
        assert before > 0
        assert memory.freeze_once("test.cycle") is False  # the second call does nothing
        assert gc.get_freeze_count() == before
        assert memory.frozen() == {"test.cycle"}
        print("ok")
        """
    )


def test_a_page_run_freezes_that_page_once():
    _run_fresh(
        """
        import gc

        from tests.helpers.app import run_app
        from ui import memory

        assert gc.get_freeze_count() == 0 and "step" not in memory.frozen()
        run_app("views/step.py")
        assert "step" in memory.frozen()
        kept = gc.get_freeze_count()
        assert kept > 0
        gc.collect()
        assert gc.get_freeze_count() == kept  # collections leave the frozen generation alone
        assert memory.freeze_once("step") is False  # once per page and process
        print("ok")
        """
    )
