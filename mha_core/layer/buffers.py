"""Big result buffers that are filled once and handed to the caller."""

from __future__ import annotations

import math
import threading
import weakref

import numpy as np
import torch


def big_empty(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """`torch.empty` for the big result buffers, allocated by NumPy: on Linux NumPy advises
    transparent huge pages for arrays over 4 MB, so filling MiniLM's 75 MB of attentions at 512
    tokens takes ~40 page faults of 2 MB instead of ~18 000 of 4 kB. (SmolLM2's 283 MB stack
    was slower so, 2.4-2.9 s against 2.1: the kernel compacted memory for the huge pages; see
    the README.) The tensor shares the array's memory; everything else about it is an
    ordinary tensor."""
    np_dtype = {torch.float32: np.float32, torch.float64: np.float64}.get(dtype)
    if np_dtype is None:
        return torch.empty(*shape, dtype=dtype)
    return torch.from_numpy(np.empty(shape, dtype=np_dtype))


POOLED_BYTES = 32 << 20  # glibc reuses freed blocks below its mmap threshold's 32 MB ceiling


class BufferPool:
    """`torch.empty` for big float32 results that come back often, whose memory is used again
    once every tensor on it is gone.

    glibc hands a block over its mmap threshold (32 MB at most) back to the kernel when it is
    freed, so the next one is fresh pages: SmolLM2's 283 MB of attentions at 512 tokens is
    ~69,000 page faults per trace. Smaller blocks glibc keeps and reuses itself, so they are not
    pooled (`min_bytes`). Idle buffers (at most `max_idle_bytes`, the oldest dropped first) stay
    in the pool until `release()`.

    A lent tensor is a NumPy view of the pooled memory: its storage holds the view, and
    the view's finalizer returns the memory when the last tensor (or view of one) that uses it
    is gone, never before. Thread-safe: one model serves every session.
    """

    def __init__(self, max_idle_bytes: int = 512 << 20, min_bytes: int = POOLED_BYTES) -> None:
        self.max_idle_bytes, self.min_bytes = max_idle_bytes, min_bytes
        self._idle: list[torch.Tensor] = []  # 1-D float32 blocks, oldest first
        self._lock = threading.RLock()  # a finalizer may run inside a locked section (GC)

    def empty(self, *shape: int) -> torch.Tensor:
        n = math.prod(shape)
        if n * 4 < self.min_bytes:
            return torch.empty(*shape)
        raw = self._take(n)
        if raw is None:
            raw = torch.empty(n)
        view = raw.numpy()[:n].reshape(shape)  # refers to raw's memory and keeps raw alive
        weakref.finalize(view, self._give_back, raw)
        return torch.from_numpy(view)

    def _take(self, n: int) -> torch.Tensor | None:
        """The smallest idle block of n to 2n elements, taken out of the pool."""
        with self._lock:
            fits = [b for b in self._idle if n <= b.numel() <= 2 * n]
            if not fits:
                return None
            best = min(fits, key=torch.Tensor.numel)
            self._idle = [b for b in self._idle if b is not best]
            return best

    def _give_back(self, raw: torch.Tensor) -> None:
        with self._lock:
            self._idle.append(raw)
            while self.idle_bytes > self.max_idle_bytes:
                self._idle.pop(0)

    @property
    def idle_bytes(self) -> int:
        with self._lock:
            return sum(b.numel() * 4 for b in self._idle)

    def release(self) -> None:
        """Drop the idle blocks (their memory goes back to the system)."""
        with self._lock:
            self._idle = []
