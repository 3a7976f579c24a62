"""Long-lived objects out of the garbage collector's way.

Streamlit runs a full `gc.collect()` after every script run (`runner.postScriptGC`). A full
collection walks every container object in the process: with torch, pandas, plotly and the
models loaded that is about 270k objects and 0.15-0.4 s on a 2-core machine, on every rerun,
holding the GIL while the browser waits for the run's last messages. Nearly all of those objects
are modules, functions and models that live as long as the process. `gc.freeze()` moves the
objects alive now into a permanent generation that later collections skip; they are still freed
by reference counting when nothing refers to them.

We freeze once per page and process, after that page's first complete run (its imports and
models are loaded by then), and collect first so that no garbage is frozen. What one run leaves
alive and later drops inside a reference cycle is never collected: at most one run's worth per
page, once per process (bench/load.py prints the memory curve over 500 sentences).
"""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_frozen: set[str] = set()


def freeze_once(name: str) -> bool:
    """The first call for `name` in this process collects, then freezes every object alive.
    True if it froze, False if `name` was already done (then it costs nothing)."""
    with _lock:
        if name in _frozen:
            return False
        _frozen.add(name)
        gc.collect()
        gc.freeze()
        return True


def frozen() -> frozenset[str]:
    """The names frozen so far in this process."""
    with _lock:
        return frozenset(_frozen)
