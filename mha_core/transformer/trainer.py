"""The training loop both live trainers share: chunked, stoppable, reproducible.

`ChunkedTrainer` (subclassed by the toy encoder-decoder's `ToyTrainer` and the GPT decoder's
`DecoderTrainer`) trains in chunks (`advance(n)`) that together give exactly the run of one call:
the batches come from a `torch.Generator` seeded with the settings' seed, drawn
`data_chunk` batches at a time; the learning rate follows `warmup_cosine`; `on_step(progress)`
runs after every step (returning False stops for good); every `snapshot_every` steps (and at the
end, or at a stop) the subclass's `_snapshot(step)` is kept. A subclass says what one step
measures (`_loss`) and what its history rows hold (`row_type`: the step, the loss, the
subclass's measures, the learning rate and the elapsed time, in that order); `on_step` gets a
`StepProgress`: that row, the planned number of steps and the snapshot of the step.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from dataclasses import asdict, fields
from typing import Any, NamedTuple

import torch

from .threads import TRAIN_THREADS, torch_threads


def warmup_cosine(step: int, lr: float, warmup: int, steps: int) -> float:
    """Learning rate of optimiser step `step` (1-based): linear warm-up over `warmup` steps,
    then a cosine decay to a tenth of `lr` at step `steps`."""
    if step <= warmup:
        return lr * step / warmup
    p = (step - warmup) / max(1, steps - warmup)  # 0 -> 1
    return lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * min(1.0, p))))


class TrainingSettings:
    """What the settings of both trainers share (a mixin of their frozen dataclasses, which hold
    `lr`, `warmup` and `steps`): the learning-rate schedule and the checks of their numbers."""

    def lr_at(self, step: int) -> float:
        """Learning rate for optimiser step `step` (1-based): linear warm-up over `warmup`
        steps, then a cosine decay to a tenth of `lr` at the last step."""
        return warmup_cosine(step, self.lr, self.warmup, self.steps)

    def _check_counts(self, names: tuple[str, ...], minimum: int) -> None:
        """A readable ValueError unless every named field is a whole number >= minimum."""
        for name in names:
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
                raise ValueError(f"{name} must be a whole number >= {minimum}, got {v!r}")

    def _check_lr(self) -> None:
        if not (isinstance(self.lr, int | float) and 0.0 < self.lr < 1.0):
            raise ValueError(f"the learning rate must be a number between 0 and 1, got {self.lr!r}")

    def as_dict(self) -> dict:
        return asdict(self)


class StepProgress(NamedTuple):
    """What `on_step` receives after each step: the step's history row (its fields read
    through: `progress.loss`, `progress.lr`, ...), the planned number of steps, and the snapshot
    taken at this step, if any."""

    row: Any  # the trainer's history row of this step
    steps: int  # the planned number of steps
    snapshot: Any  # the snapshot taken at this step, or None

    def __getattr__(self, name: str):
        return getattr(self.row, name)

    @property
    def fraction(self) -> float:
        """Share of the planned steps done, 0..1 (for a progress bar)."""
        return self.row.step / self.steps


class RunHistory:
    """What a finished or stopped run says about its history (`history`: rows with elapsed_s)."""

    history: tuple

    @property
    def steps_done(self) -> int:
        return len(self.history)

    @property
    def elapsed_s(self) -> float:
        return self.history[-1].elapsed_s if self.history else 0.0


class ChunkedTrainer:
    """A training run that advances in chunks. Subclasses set `model`, `optimizer`, `task`
    (with `sample(n, generator)`) and `settings` (with `steps`, `batch_size`, `seed`,
    `snapshot_every`, `lr_at(step)`), then call `_start()`."""

    data_chunk: int  # batches drawn from the generator at once (fixed: it decides the data order)
    row_type: type  # (step, loss, *measures, lr, elapsed_s)

    def _start(self) -> None:
        """The state of a run before its first step, and the untrained model's snapshot."""
        self._generator = torch.Generator().manual_seed(self.settings.seed)
        self._data = None
        self._history: list = []
        self._elapsed = 0.0
        self._stopped = False
        with torch_threads(TRAIN_THREADS):
            self._snapshots: dict = {0: self._snapshot(0)}

    # --- what a subclass says ----------------------------------------------------------------
    def _loss(self, batch) -> tuple[torch.Tensor, tuple[float, ...]]:
        """The training loss of one batch (train mode) and the step's measures of the row."""
        raise NotImplementedError

    def _snapshot(self, step: int):
        raise NotImplementedError

    # --- state ------------------------------------------------------------------------------
    @property
    def step(self) -> int:
        """Optimiser steps done so far."""
        return len(self._history)

    @property
    def done(self) -> bool:
        return self._stopped or self.step >= self.settings.steps

    def _batch(self, step: int):
        """The training batch of 0-based step `step` (drawn in chunks from the generator)."""
        i = step % self.data_chunk
        if i == 0 or self._data is None:
            n = self.settings.batch_size * self.data_chunk
            self._data = self.task.sample(n, self._generator)
        bs = self.settings.batch_size
        sl = slice(i * bs, (i + 1) * bs)
        d = self._data
        return type(d)(**{f.name: getattr(d, f.name)[sl] for f in fields(d)})

    def _run_fields(self) -> dict:
        """What every run record holds (task, settings, model, history, snapshots, stopped).
        Unless training is done, the model is a copy (training goes on)."""
        return dict(
            task=self.task,
            settings=self.settings,
            model=self.model if self.done else copy.deepcopy(self.model),
            history=tuple(self._history),
            snapshots=dict(self._snapshots),
            stopped=self._stopped,
        )

    # --- training ---------------------------------------------------------------------------
    def advance(
        self, n: int | None = None, on_step: Callable[..., bool | None] | None = None
    ) -> bool:
        """Train up to `n` more steps (None: to the end). Return True when the run is done.

        `on_step(progress)` runs after every step; if it returns False (not None), training
        stops there for good: a run stopped after k steps has k history rows.
        """
        if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 0):
            raise ValueError(f"n must be a whole number of steps >= 0, got {n!r}")
        with torch_threads(TRAIN_THREADS):
            return self._advance(n, on_step)

    def _advance(self, n: int | None, on_step) -> bool:
        s = self.settings
        stop_at = s.steps if n is None else min(s.steps, self.step + n)
        opt = self.optimizer
        self.model.train()
        while not self.done and self.step < stop_at:
            t0 = time.perf_counter()
            step = self.step + 1
            lr = s.lr_at(step)
            for group in opt.param_groups:
                group["lr"] = lr
            loss, measures = self._loss(self._batch(step - 1))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            snap = None
            last = step == s.steps
            if step % s.snapshot_every == 0 or last:
                snap = self._snapshots[step] = self._snapshot(step)
            self._elapsed += time.perf_counter() - t0  # on_step's own time is not counted
            row = self.row_type(step, loss.item(), *measures, lr, self._elapsed)
            self._history.append(row)
            if on_step is not None and on_step(StepProgress(row, s.steps, snap)) is False:
                self._stopped = not last
                if step not in self._snapshots:
                    self._snapshots[step] = self._snapshot(step)
                break
        return self.done
