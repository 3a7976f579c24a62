"""How many torch threads a toy training run (and its evaluation) uses, safely across sessions."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import torch

TRAIN_THREADS = 1  # torch intra-op threads while training (see `torch_threads`)

_threads_lock = threading.Lock()
_threads_users = 0  # threads inside `torch_threads` right now
_threads_saved = 0  # the count before the first of them entered
_threads_local = threading.local()  # per-thread nesting depth


@contextlib.contextmanager
def torch_threads(n: int | None) -> Iterator[None]:
    """Run torch ops with n intra-op threads, then restore the previous count.

    The tensors here are tiny (64 x 9 x 64): a second thread buys nothing, and on a busy
    machine its synchronisation made a training step many times slower.
    With OpenMP, `torch.set_num_threads` sets the calling thread's count and the default that
    new threads start with. Sessions of one server train in threads of their own, so the count
    from before the first of them entered is kept and every thread restores that one on
    leaving (restoring "its own" previous value could keep another trainer's 1 for good).
    """
    global _threads_users, _threads_saved
    depth = getattr(_threads_local, "depth", 0)
    if n is None or depth > 0:  # nested (evaluate inside on_step): the outer one decides
        _threads_local.depth = depth + 1
        try:
            yield
        finally:
            _threads_local.depth = depth
        return
    with _threads_lock:
        if _threads_users == 0:
            _threads_saved = torch.get_num_threads()
        _threads_users += 1
        torch.set_num_threads(n)
    _threads_local.depth = 1
    try:
        yield
    finally:
        _threads_local.depth = 0
        with _threads_lock:
            _threads_users -= 1
            torch.set_num_threads(_threads_saved)
