"""A training run in progress, shared by the Train and Induction pages: one or more trainers
(`ChunkedTrainer`s) advanced together in chunks of about `CHUNK_S` seconds, their curves
recorded from each step's progress, stopped or finished once.

A live run belongs to the session that started it (session state, no cache) and trains in a
thread of its own (`run_in_background`), not in the page's script: it keeps going while the
learner visits another page, and the page only draws what the run has done, at most every
`DRAW_S` seconds (drawing after every chunk in the script made the induction pair ~3.5x slower
in Chromium than the same training alone). A rerun (a click anywhere, the Stop button) stops
the page's script, never the run; Stop ends the run under its lock. Every change to a run
happens under the run's own lock (one per run, never global), so the thread, an old script
thread and a new one can meet it together: Stop waits at most one chunk, and finishing is done
once.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from mha_core.transformer.trainer import ChunkedTrainer

CHUNK_S = 0.5  # wall time of one chunk (all trainers): how long Stop may wait for the lock
MAX_CHUNK = 100  # steps
DRAW_S = 0.5  # the page draws a live run at most this often


@dataclass(eq=False)
class LiveTraining:
    """Trainers advanced together; `curves[n]` holds trainer n's `columns` so far. A subclass
    says what a finished run is (`_result`)."""

    choice: Any  # what the learner picked
    trainers: dict[int, ChunkedTrainer]
    started: float = field(default_factory=time.perf_counter)
    curves: dict[int, dict[str, list]] = field(default_factory=dict)
    chunk: int = 1  # steps per chunk, adapted to CHUNK_S after every chunk
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _finished: Any = field(default=None, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)
    _halt: bool = field(default=False, repr=False)  # Stop asked: the thread takes no new chunk
    error: BaseException | None = field(default=None, repr=False)  # what ended the thread

    columns: ClassVar[tuple[str, ...]] = ("step", "loss")  # fields of the progress kept
    max_points: ClassVar[int | None] = None  # `curve` thins a longer curve to this many points

    def __post_init__(self) -> None:
        for n in self.trainers:
            self.curves.setdefault(n, {c: [] for c in self.columns})

    @property
    def step(self) -> int:
        return min(tr.step for tr in self.trainers.values())

    @property
    def recorded(self) -> int:
        """Steps whose progress is in every curve (the training thread may be between a step
        and its record)."""
        return min(len(cols[self.columns[0]]) for cols in self.curves.values())

    @property
    def done(self) -> bool:
        return all(tr.done for tr in self.trainers.values())

    @property
    def fraction(self) -> float:
        return self.step / self.choice.steps

    def _recorder(self, n: int):
        cols = self.curves[n]

        def record(p) -> None:
            for c in self.columns:
                cols[c].append(getattr(p, c))

        return record

    def advance(self, seconds: float = CHUNK_S) -> None:
        """Train one chunk of each run (about `seconds` together), then size the next chunk."""
        with self._lock:
            if self.done:
                return
            before, t0 = self.step, time.perf_counter()
            for n, tr in self.trainers.items():
                tr.advance(self.chunk, on_step=self._recorder(n))
            per_step = (time.perf_counter() - t0) / max(1, self.step - before)
            self.chunk = int(min(MAX_CHUNK, max(1, seconds / max(per_step, 1e-6))))

    def run_in_background(self) -> None:
        """Train to the end in a thread of its own (started once; a no-op afterwards). The
        thread makes no Streamlit call: the page draws the run from its curves."""
        with self._lock:
            if self._thread is not None or self.done:
                return
            self._thread = threading.Thread(
                target=self._train_to_end, name="attention-lens-live-run", daemon=True
            )
            self._thread.start()

    def _train_to_end(self) -> None:
        try:
            while not self.done and self._finished is None and not self._halt:
                self.advance()
        except BaseException as e:  # noqa: BLE001 - shown by the page, never lost
            self.error = e

    @property
    def running(self) -> bool:
        """Its thread is training now."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self, seconds: float = DRAW_S) -> None:
        """Wait until `seconds` have passed or the run is done (the page's draw cadence)."""
        end = time.perf_counter() + seconds
        while time.perf_counter() < end and not self.done and self.running:
            time.sleep(0.05)

    def curve(self, n: int | None = None) -> dict[str, np.ndarray]:
        """Trainer n's curve (default: the first trainer's) as arrays of one length, thinned to
        at most `max_points` (the last point kept)."""
        cols = self.curves[next(iter(self.curves)) if n is None else n]
        k = min(len(v) for v in cols.values())
        idx = np.arange(k)
        if self.max_points is not None and k > self.max_points:
            idx = np.unique(np.r_[np.linspace(0, k - 1, self.max_points).astype(int), k - 1])
        return {name: np.asarray(v[:k])[idx] for name, v in cols.items()}

    def stop(self):
        """Stop for good: one last step of each run not done, whose on_step says stop (the core
        then snapshots it). A run already done or finished is not trained further."""
        self._halt = True  # the thread takes no new chunk: the lock is not taken from us again
        with self._lock:
            if self._finished is None:
                for n, tr in self.trainers.items():
                    if not tr.done:
                        rec = self._recorder(n)

                        def last(p, rec=rec) -> bool:
                            rec(p)
                            return False

                        tr.advance(1, on_step=last)
            return self._finish()

    def finish(self):
        with self._lock:
            return self._finish()

    def _finish(self):
        if self._finished is None:
            self._finished = self._result()
        return self._finished

    def _result(self):
        """The finished record of the runs (called once, under the lock)."""
        raise NotImplementedError
