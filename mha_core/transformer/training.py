"""Train a tiny encoder-decoder Transformer on a toy task, live, and keep its attention.

`train_toy()` is what a learner gets by pressing Train: `TrainSettings()` holds the page's
defaults. While it trains, `on_step(progress)` is called after every step (a
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

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import torch
import torch.nn.functional as F

from ..layer.config import check_heads, check_seed
from .model import EncoderDecoder, EncoderDecoderConfig
from .toy_tasks import PAD, ToyBatch, ToyTask, get_task
from .trainer import ChunkedTrainer, RunHistory, StepProgress, TrainingSettings


@dataclass(frozen=True)
class TrainSettings(TrainingSettings):
    """Every setting of a toy training run, with the page's defaults (tuned so that reversal
    reaches >= 99% exact-sequence accuracy) and their validation."""

    task: str = "reverse"  # a name of TASKS
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 1
    d_ff: int | None = None  # feed-forward width; None -> 2 * d_model (see `resolved`)
    steps: int = 300
    lr: float = 0.03  # peak learning rate (Adam)
    warmup: int = 50  # linear warm-up steps (at most `steps`, see `resolved`)
    batch_size: int = 64
    seed: int = 0
    snapshot_every: int = 20  # steps between two saved attentions of the probe
    norm_first: bool = True  # pre-norm layers

    def __post_init__(self) -> None:
        get_task(self.task)  # unknown task: a message naming the tasks
        check_heads(self.d_model, self.n_heads)  # the learner-readable message first
        d_ff = () if self.d_ff is None else ("d_ff",)  # None: 2 * d_model (see `resolved`)
        self._check_counts(("steps", "batch_size", "snapshot_every", "n_layers", *d_ff), 1)
        self._check_counts(("warmup",), 0)
        check_seed(self.seed)
        self._check_lr()

    def resolved(self) -> TrainSettings:
        """The settings a run uses: d_ff filled in (2 * d_model), warm-up capped at `steps`."""
        d_ff = 2 * self.d_model if self.d_ff is None else self.d_ff
        return replace(self, d_ff=d_ff, warmup=min(self.warmup, self.steps))


class HistoryRow(NamedTuple):
    """One optimiser step, measured on that step's training batch (teacher forcing)."""

    step: int  # 1-based: the row of step k comes after k updates
    loss: float  # mean cross-entropy over the batch's non-PAD target tokens (nats)
    token_acc: float  # share of non-PAD target tokens predicted right (EOS included)
    exact_acc: float  # share of sequences with every target token right
    lr: float  # learning rate used for this step
    elapsed_s: float  # training wall time so far (seconds)


TrainProgress = StepProgress  # what `on_step` receives: a HistoryRow's fields, steps, snapshot


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
class ToyRun(RunHistory):
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
    def snapshot_steps(self) -> tuple[int, ...]:
        return tuple(self.snapshots)

    def history_columns(self) -> dict[str, np.ndarray]:
        """The history as columns (step, loss, token_acc, exact_acc, lr, elapsed_s)."""
        rows = self.history
        return {
            name: np.array([getattr(r, name) for r in rows], dtype=np.int64 if i == 0 else float)
            for i, name in enumerate(HistoryRow._fields)
        }


DEFAULTS = TrainSettings()  # the page's defaults: `train_toy()`


def suggested_lr(d_model: int, n_layers: int) -> float:
    """A learning rate that trains reversal for this model size (the default's 0.03 scaled).

    Wider and deeper models need smaller steps: 0.03 is tuned for d_model = 64 and one layer;
    at d_model = 128 it diverges (measured), while 0.015 trains it. The rule of thumb used here
    is 0.03 * 64 / d_model (for d_model >= 64) divided by the number of layers.
    """
    check_heads(d_model, 1)
    if not isinstance(n_layers, int) or n_layers < 1:
        raise ValueError(f"n_layers must be a whole number >= 1, got {n_layers!r}")
    return DEFAULTS.lr * min(1.0, DEFAULTS.d_model / d_model) / n_layers


class ToyTrainer(ChunkedTrainer):
    """A training run that advances in chunks; `train_toy` runs one to the end.

    `advance(n, on_step)` trains up to n more steps; `result()` gives the `ToyRun` so far.
    Calling `advance` in chunks gives exactly the history of one uninterrupted run.
    """

    data_chunk = 100
    row_type = HistoryRow

    def __init__(self, settings: TrainSettings | None = None, **overrides) -> None:
        """`settings` (default: the page's), with any field replaced by a keyword, e.g.
        `ToyTrainer(task="sort", seed=3)`."""
        self.settings = s = _settings(settings, overrides).resolved()
        self.task = get_task(s.task)
        V = self.task.vocab_size
        self.config = EncoderDecoderConfig(
            src_vocab=V,
            tgt_vocab=V,
            d_model=s.d_model,
            n_heads=s.n_heads,
            n_layers=s.n_layers,
            d_ff=s.d_ff,
            dropout=0.0,
            norm_first=s.norm_first,
            max_len=self.task.width,
            seed=s.seed,
        )
        self.model = EncoderDecoder(self.config)
        self.optimizer = torch.optim.Adam(
            self.model.parameters(), lr=s.lr, betas=(0.9, 0.98), eps=1e-9, foreach=True
        )
        probe = self.task.batch([self.task.probe])
        W = len(self.task.probe) + 1  # no padding in the probe
        self._probe = ToyBatch(
            src=probe.src[:, :W],
            tgt_in=probe.tgt_in[:, :W],
            tgt_out=probe.tgt_out[:, :W],
            lengths=probe.lengths,
        )
        self._start()

    def _loss(self, b: ToyBatch) -> tuple[torch.Tensor, tuple[float, float]]:
        logits = self.model(
            b.src, b.tgt_in, src_key_padding_mask=b.src_pad, tgt_key_padding_mask=b.tgt_pad
        ).logits  # (B, T, V)
        loss = F.cross_entropy(logits.flatten(0, 1), b.tgt_out.flatten(), ignore_index=PAD)
        with torch.no_grad():
            token_acc, exact_acc = self.task.score(logits.argmax(-1), b)
        return loss, (token_acc, exact_acc)

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
            **self._run_fields(),
            probe_src=tuple(vocab[i] for i in p.src[0].tolist()),
            probe_tgt_in=tuple(vocab[i] for i in p.tgt_in[0].tolist()),
            probe_tgt_out=tuple(vocab[i] for i in p.tgt_out[0].tolist()),
        )


def _settings(settings: TrainSettings | None, overrides: dict) -> TrainSettings:
    settings = DEFAULTS if settings is None else settings
    return replace(settings, **overrides) if overrides else settings


def train_toy(
    settings: TrainSettings | None = None,
    *,
    on_step: Callable[[TrainProgress], bool | None] | None = None,
    **overrides,
) -> ToyRun:
    """Train a seeded encoder-decoder on a toy task ('reverse', 'sort', 'copy'); return the run.

    `settings` default to the page's (`TrainSettings()`: reversal reaches >= 99% exact-sequence
    accuracy); keywords replace single fields, e.g. `train_toy(task="sort", seed=3)`. Adam with
    linear warm-up then cosine decay; no dropout. `on_step(progress)` after every step;
    returning False stops.
    """
    trainer = ToyTrainer(_settings(settings, overrides))
    trainer.advance(on_step=on_step)
    return trainer.result()
