"""Train a tiny encoder-decoder Transformer on a toy task, live, and keep its attention.

`train_toy("reverse", seed=0)` is what a learner gets by pressing Train: its keyword defaults
are the page's defaults. While it trains, `on_step(progress)` is called after every step (a
page draws its curve from it; returning False stops training, as a stop button does), and every
`snapshot_every` steps the attention of one fixed probe example is saved, so that a slider can
scrub through how the heads formed. `ToyTrainer` does the same in chunks (`advance(n)`), for a
page that trains a little per rerun; the chunks give exactly the run one call would.

Reproducible: the weights come from the seeded `EncoderDecoderConfig`, the batches from a
`torch.Generator` seeded with `seed`, and nothing draws from torch's global random state
(dropout is off), so the same settings give the same loss curve on the same machine (and the
same number of torch threads).
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import NamedTuple

import numpy as np
import torch
import torch.nn.functional as F

from ..layer.config import check_heads
from .model import EncoderDecoder, EncoderDecoderConfig
from .threads import TRAIN_THREADS, _torch_threads
from .toy_tasks import PAD, ToyBatch, ToyTask, get_task

_DATA_CHUNK = 100  # batches drawn from the generator at once (fixed: it decides the data order)

@dataclass(frozen=True)
class TrainSettings:
    """Every setting of a toy training run (the arguments of `train_toy`)."""

    task: str
    d_model: int
    n_heads: int
    n_layers: int
    d_ff: int
    steps: int
    lr: float
    warmup: int
    batch_size: int
    seed: int
    snapshot_every: int
    norm_first: bool

    def __post_init__(self) -> None:
        for name in ("steps", "batch_size", "snapshot_every", "n_layers", "d_ff"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {v!r}")
        if not isinstance(self.warmup, int) or isinstance(self.warmup, bool) or self.warmup < 0:
            raise ValueError(f"warmup must be a whole number >= 0, got {self.warmup!r}")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {self.seed!r}")
        if not (isinstance(self.lr, int | float) and 0.0 < self.lr < 1.0):
            raise ValueError(f"the learning rate must be a number between 0 and 1, got {self.lr!r}")

    def lr_at(self, step: int) -> float:
        """Learning rate for optimiser step `step` (1-based): linear warm-up over `warmup`
        steps, then a cosine decay to a tenth of `lr` at the last step."""
        if step <= self.warmup:
            return self.lr * step / self.warmup
        p = (step - self.warmup) / max(1, self.steps - self.warmup)  # 0 -> 1
        return self.lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * min(1.0, p))))

    def as_dict(self) -> dict:
        return asdict(self)


class HistoryRow(NamedTuple):
    """One optimiser step, measured on that step's training batch (teacher forcing)."""

    step: int  # 1-based: the row of step k comes after k updates
    loss: float  # mean cross-entropy over the batch's non-PAD target tokens (nats)
    token_acc: float  # share of non-PAD target tokens predicted right (EOS included)
    exact_acc: float  # share of sequences with every target token right
    lr: float  # learning rate used for this step
    elapsed_s: float  # training wall time so far (seconds)


class TrainProgress(NamedTuple):
    """What `on_step` receives after each step."""

    step: int
    steps: int  # the planned number of steps
    loss: float
    token_acc: float
    exact_acc: float
    lr: float
    elapsed_s: float
    snapshot: AttentionSnapshot | None  # the snapshot taken at this step, if any

    @property
    def fraction(self) -> float:
        """Share of the planned steps done, 0..1 (for a progress bar)."""
        return self.step / self.steps


@dataclass(frozen=True, eq=False)
class AttentionSnapshot:
    """Every attention of the probe example at one step (teacher-forced, eval mode).

    Query rows of the decoder are the decoder's inputs (BOS, then the correct target), so the
    labels are the same at every step. Arrays are float32 numpy, one per layer.
    """

    step: int  # optimiser steps done (0 = the untrained model)
    loss: float  # cross-entropy on the probe's target tokens at this step
    encoder_self: tuple[np.ndarray, ...]  # per layer (nh, S, S)
    decoder_self: tuple[np.ndarray, ...]  # per layer (nh, T, T); exactly 0 above the diagonal
    cross: tuple[np.ndarray, ...]  # per layer (nh, T, S): decoder queries over source keys
    prediction: tuple[str, ...]  # arg-max token of each decoder row (teacher-forced), T tokens


@dataclass(frozen=True, eq=False)
class ToyRun:
    """A (finished or stopped) training run: model, settings, history, snapshots."""

    task: ToyTask
    settings: TrainSettings
    model: EncoderDecoder
    history: tuple[HistoryRow, ...]
    snapshots: dict[int, AttentionSnapshot]  # step -> snapshot, in step order
    probe_src: tuple[str, ...]  # source tokens of the probe: its symbols, then <eos>
    probe_tgt_in: tuple[str, ...]  # decoder inputs (query rows): <bos>, then the target
    probe_tgt_out: tuple[str, ...]  # what each decoder row should predict: target, <eos>
    stopped: bool  # True if on_step stopped it before `settings.steps`

    @property
    def steps_done(self) -> int:
        return len(self.history)

    @property
    def elapsed_s(self) -> float:
        return self.history[-1].elapsed_s if self.history else 0.0

    @property
    def snapshot_steps(self) -> tuple[int, ...]:
        return tuple(self.snapshots)

    def history_columns(self) -> dict[str, np.ndarray]:
        """The history as columns (step, loss, token_acc, exact_acc, lr, elapsed_s)."""
        rows = self.history
        return {
            name: np.array([getattr(r, name) for r in rows], dtype=np.int64 if i == 0 else float)
            for i, name in enumerate(HistoryRow._fields)
        }


# The page's defaults (tuned so that reversal reaches >= 99% exact-sequence accuracy).
DEFAULTS = dict(
    d_model=64,
    n_heads=4,
    n_layers=1,
    steps=300,
    lr=0.03,
    batch_size=64,
    seed=0,
    snapshot_every=20,
    warmup=50,
)


def suggested_lr(d_model: int, n_layers: int) -> float:
    """A learning rate that trains reversal for this model size (the default's 0.03 scaled).

    Wider and deeper models need smaller steps: 0.03 is tuned for d_model = 64 and one layer;
    at d_model = 128 it diverges (measured), while 0.015 trains it. The rule of thumb used here
    is 0.03 * 64 / d_model (for d_model >= 64) divided by the number of layers.
    """
    check_heads(d_model, 1)
    if not isinstance(n_layers, int) or n_layers < 1:
        raise ValueError(f"n_layers must be a whole number >= 1, got {n_layers!r}")
    return DEFAULTS["lr"] * min(1.0, DEFAULTS["d_model"] / d_model) / n_layers


class ToyTrainer:
    """A training run that advances in chunks; `train_toy` runs one to the end.

    `advance(n, on_step)` trains up to n more steps; `result()` gives the `ToyRun` so far.
    Calling `advance` in chunks gives exactly the history of one uninterrupted run.
    """

    def __init__(
        self,
        task: str | ToyTask = "reverse",
        *,
        d_model: int = DEFAULTS["d_model"],
        n_heads: int = DEFAULTS["n_heads"],
        n_layers: int = DEFAULTS["n_layers"],
        steps: int = DEFAULTS["steps"],
        lr: float = DEFAULTS["lr"],
        batch_size: int = DEFAULTS["batch_size"],
        seed: int = DEFAULTS["seed"],
        snapshot_every: int = DEFAULTS["snapshot_every"],
        warmup: int = DEFAULTS["warmup"],
        d_ff: int | None = None,
    ) -> None:
        self.task = get_task(task)
        check_heads(d_model, n_heads)  # the learner-readable message first
        d_ff = 2 * d_model if d_ff is None else d_ff
        self.settings = TrainSettings(
            task=self.task.name,
            d_model=d_model,
            n_heads=n_heads,
            n_layers=n_layers,
            d_ff=d_ff,
            steps=steps,
            lr=lr,
            warmup=min(warmup, steps),
            batch_size=batch_size,
            seed=seed,
            snapshot_every=snapshot_every,
            norm_first=True,
        )
        V = self.task.vocab_size
        self.config = EncoderDecoderConfig(
            src_vocab=V,
            tgt_vocab=V,
            d_model=d_model,
            n_heads=n_heads,
            n_layers=n_layers,
            d_ff=d_ff,
            dropout=0.0,
            norm_first=True,
            max_len=self.task.width,
            seed=seed,
        )
        self.model = EncoderDecoder(self.config)
        self.optimizer = torch.optim.Adam(
            self.model.parameters(), lr=lr, betas=(0.9, 0.98), eps=1e-9, foreach=True
        )
        self._generator = torch.Generator().manual_seed(seed)
        self._data: ToyBatch | None = None
        self._history: list[HistoryRow] = []
        self._elapsed = 0.0
        self._stopped = False
        probe = self.task.batch([self.task.probe])
        W = len(self.task.probe) + 1  # no padding in the probe
        self._probe = ToyBatch(
            src=probe.src[:, :W],
            tgt_in=probe.tgt_in[:, :W],
            tgt_out=probe.tgt_out[:, :W],
            lengths=probe.lengths,
        )
        with _torch_threads(TRAIN_THREADS):
            self._snapshots: dict[int, AttentionSnapshot] = {0: self._snapshot(0)}

    # --- state ------------------------------------------------------------------------------
    @property
    def step(self) -> int:
        """Optimiser steps done so far."""
        return len(self._history)

    @property
    def done(self) -> bool:
        return self._stopped or self.step >= self.settings.steps

    def _batch(self, step: int) -> ToyBatch:
        """The training batch of 0-based step `step` (drawn in chunks from the generator)."""
        i = step % _DATA_CHUNK
        if i == 0 or self._data is None:
            self._data = self.task.sample(self.settings.batch_size * _DATA_CHUNK, self._generator)
        bs = self.settings.batch_size
        sl = slice(i * bs, (i + 1) * bs)
        d = self._data
        return ToyBatch(d.src[sl], d.tgt_in[sl], d.tgt_out[sl], d.lengths[sl])

    # --- training ---------------------------------------------------------------------------
    def advance(
        self, n: int | None = None, on_step: Callable[[TrainProgress], bool | None] | None = None
    ) -> bool:
        """Train up to `n` more steps (None: to the end). Return True when the run is done.

        `on_step(progress)` runs after every step; if it returns False (not None), training
        stops there for good: a run stopped after k steps has k history rows.
        """
        if n is not None and (not isinstance(n, int) or n < 0):
            raise ValueError(f"n must be a whole number of steps >= 0, got {n!r}")
        with _torch_threads(TRAIN_THREADS):
            return self._advance(n, on_step)

    def _advance(self, n: int | None, on_step) -> bool:
        s = self.settings
        stop_at = s.steps if n is None else min(s.steps, self.step + n)
        model, opt = self.model, self.optimizer
        model.train()
        while not self.done and self.step < stop_at:
            t0 = time.perf_counter()
            step = self.step + 1
            lr = s.lr_at(step)
            for group in opt.param_groups:
                group["lr"] = lr
            b = self._batch(step - 1)
            logits = model(
                b.src, b.tgt_in, src_key_padding_mask=b.src_pad, tgt_key_padding_mask=b.tgt_pad
            ).logits  # (B, T, V)
            loss = F.cross_entropy(logits.flatten(0, 1), b.tgt_out.flatten(), ignore_index=PAD)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            with torch.no_grad():
                token_acc, exact_acc = self.task.score(logits.argmax(-1), b)
            snap = None
            last = step == s.steps
            if step % s.snapshot_every == 0 or last:
                snap = self._snapshots[step] = self._snapshot(step)
            self._elapsed += time.perf_counter() - t0  # on_step's own time is not counted
            row = HistoryRow(step, loss.item(), token_acc, exact_acc, lr, self._elapsed)
            self._history.append(row)
            if on_step is not None:
                progress = TrainProgress(
                    step=step,
                    steps=s.steps,
                    loss=row.loss,
                    token_acc=token_acc,
                    exact_acc=exact_acc,
                    lr=lr,
                    elapsed_s=row.elapsed_s,
                    snapshot=snap,
                )
                if on_step(progress) is False:
                    self._stopped = not last
                    if step not in self._snapshots:
                        self._snapshots[step] = self._snapshot(step)
                    break
        return self.done

    @torch.no_grad()
    def _snapshot(self, step: int) -> AttentionSnapshot:
        model, p = self.model, self._probe
        was_training = model.training
        model.eval()
        tr = model(p.src, p.tgt_in)  # no padding in the probe
        loss = F.cross_entropy(tr.logits[0], p.tgt_out[0]).item()
        model.train(was_training)

        def arrays(traces) -> tuple[np.ndarray, ...]:
            return tuple(t.weights[0].numpy().copy() for t in traces)

        return AttentionSnapshot(
            step=step,
            loss=loss,
            encoder_self=arrays(tr.encoder_self),
            decoder_self=arrays(tr.decoder_self),
            cross=arrays(tr.decoder_cross),
            prediction=tuple(self.task.vocab[i] for i in tr.logits[0].argmax(-1).tolist()),
        )

    def result(self) -> ToyRun:
        """The run so far. Unless training is done, the model is a copy (training goes on)."""
        vocab, p = self.task.vocab, self._probe
        return ToyRun(
            task=self.task,
            settings=self.settings,
            model=self.model if self.done else copy.deepcopy(self.model),
            history=tuple(self._history),
            snapshots=dict(self._snapshots),
            probe_src=tuple(vocab[i] for i in p.src[0].tolist()),
            probe_tgt_in=tuple(vocab[i] for i in p.tgt_in[0].tolist()),
            probe_tgt_out=tuple(vocab[i] for i in p.tgt_out[0].tolist()),
            stopped=self._stopped,
        )


def train_toy(
    task: str | ToyTask = "reverse",
    *,
    d_model: int = DEFAULTS["d_model"],
    n_heads: int = DEFAULTS["n_heads"],
    n_layers: int = DEFAULTS["n_layers"],
    steps: int = DEFAULTS["steps"],
    lr: float = DEFAULTS["lr"],
    batch_size: int = DEFAULTS["batch_size"],
    seed: int = DEFAULTS["seed"],
    on_step: Callable[[TrainProgress], bool | None] | None = None,
    snapshot_every: int = DEFAULTS["snapshot_every"],
    warmup: int = DEFAULTS["warmup"],
    d_ff: int | None = None,
) -> ToyRun:
    """Train a seeded encoder-decoder on a toy task ('reverse', 'sort', 'copy'); return the run.

    The defaults are the page's: `train_toy("reverse", seed=0)` reaches >= 99% exact-sequence
    accuracy. `d_ff` defaults to 2 * d_model; Adam with linear warm-up then cosine decay;
    pre-norm layers; no dropout. `on_step(progress)` after every step; returning False stops.
    """
    trainer = ToyTrainer(
        task,
        d_model=d_model,
        n_heads=n_heads,
        n_layers=n_layers,
        steps=steps,
        lr=lr,
        batch_size=batch_size,
        seed=seed,
        snapshot_every=snapshot_every,
        warmup=warmup,
        d_ff=d_ff,
    )
    trainer.advance(on_step=on_step)
    return trainer.result()
