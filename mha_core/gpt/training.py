"""Train a small decoder-only model on a language-model task, live, and watch its heads form.

`train_decoder("induction", n_layers=2, seed=0)` is what a learner gets by pressing Train. As in
`train_toy` (both trainers share `transformer/trainer.py`): `on_step(progress)` runs after
every step (returning False stops training), every `snapshot_every` steps a
`DecoderSnapshot` keeps the head scores, the loss and the accuracy on a fixed evaluation set,
and the probe's attention; `DecoderTrainer.advance(n)` trains in chunks that together give
exactly the run of one call. Training runs with `TRAIN_THREADS` torch threads.

Reproducible: the weights come from the seeded `DecoderOnlyConfig`, the batches from a
`torch.Generator` seeded with `seed`; nothing draws from torch's global random state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import torch
import torch.nn.functional as F

from ..transformer.threads import TRAIN_THREADS, torch_threads
from ..transformer.trainer import ChunkedTrainer, RunHistory, StepProgress, TrainingSettings
from .interpret import HEAD_KINDS, head_scores
from .model import DecoderOnly, DecoderOnlyConfig
from .tasks import InductionTask, LMBatch, SeqToSeqLM, get_lm_task

EVAL_SEED = 10_000  # the fixed evaluation set of the snapshots (the batches use `seed`)
FRESH_SEED = 20_000  # `DecoderRun.accuracy`: sequences no snapshot or batch has seen


@dataclass(frozen=True)
class DecoderSettings(TrainingSettings):
    """Every setting of a decoder training run (the arguments of `train_decoder`)."""

    task: str = "induction"
    n_layers: int = 2
    d_model: int = 64
    n_heads: int = 4
    mlp: bool = False
    positions: str = "residual"  # learned positions added to the residual stream (GPT-2)
    steps: int = 1800
    lr: float = 3e-3
    warmup: int = 50
    batch_size: int = 64
    weight_decay: float = 0.0
    init_std: float = 0.02  # weights drawn from normal(0, init_std), as GPT-2
    seed: int = 0
    snapshot_every: int = 50
    eval_size: int = 128  # sequences in the fixed evaluation set of the snapshots

    def __post_init__(self) -> None:
        self._check_counts(("steps", "batch_size", "snapshot_every", "n_layers", "eval_size"), 1)
        self._check_counts(("warmup", "seed"), 0)
        self._check_lr()
        if not 0.0 < self.init_std < 1.0:
            raise ValueError(f"init_std must be in (0, 1), got {self.init_std!r}")
        if not 0.0 <= self.weight_decay < 1.0:
            raise ValueError(f"weight_decay must be in [0, 1), got {self.weight_decay!r}")
        get_lm_task(self.task)  # a readable error for an unknown task


class DecoderHistoryRow(NamedTuple):
    """One optimiser step, measured on that step's training batch."""

    step: int  # 1-based
    loss: float  # mean cross-entropy over the batch's loss_mask tokens (nats)
    accuracy: float  # share of the batch's predictable tokens predicted right
    lr: float
    elapsed_s: float  # training wall time so far (seconds)


DecoderProgress = StepProgress  # what `on_step` receives: a DecoderHistoryRow's fields, ...


@dataclass(frozen=True, eq=False)
class DecoderSnapshot:
    """The model at one step, measured on the fixed evaluation set (eval mode)."""

    step: int  # optimiser steps done (0 = the untrained model)
    loss: float  # cross-entropy on the evaluation set's loss_mask tokens
    accuracy: float  # next-token accuracy on its predictable tokens
    scores: dict[str, np.ndarray]  # kind -> (L, nh) `head_scores` on the task's scoring set
    probe_attention: np.ndarray  # (L, nh, T, T) float32, the probe's attention


def _lm_loss(logits: torch.Tensor, batch: LMBatch) -> tuple[torch.Tensor, float]:
    """Cross-entropy over loss_mask tokens and accuracy over predictable tokens.

    The logits at position t predict token t + 1, so token t is scored from logits t - 1.
    """
    pred, target = logits[:, :-1], batch.tokens[:, 1:]  # (B, T-1, V), (B, T-1)
    m = batch.loss_mask[:, 1:]  # (B, T-1)
    loss = F.cross_entropy(pred[m], target[m])
    p = batch.predictable[:, 1:]  # (B, T-1)
    with torch.no_grad():
        hit = (pred.argmax(-1) == target) & p
        acc = hit.sum().item() / max(1, p.sum().item())
    return loss, float(acc)


@torch.no_grad()
def accuracy_on(model: DecoderOnly, batch: LMBatch) -> float:
    """Next-token accuracy on the batch's predictable tokens (eval mode)."""
    was = model.training
    model.eval()
    acc = _lm_loss(model(batch.tokens).logits, batch)[1]
    model.train(was)
    return acc


def decoder_config(s: DecoderSettings, task) -> DecoderOnlyConfig:
    """The model of a run with settings `s` on `task` (the trainer's, and a stored run's)."""
    return DecoderOnlyConfig(
        vocab_size=task.vocab_size,
        n_positions=task.seq_len,
        d_model=s.d_model,
        n_heads=s.n_heads,
        n_layers=s.n_layers,
        mlp=s.mlp,
        positions=s.positions,
        init_std=s.init_std,
        seed=s.seed,
    )


class DecoderTrainer(ChunkedTrainer):
    """A training run that advances in chunks; `train_decoder` runs one to the end."""

    data_chunk = 50
    row_type = DecoderHistoryRow

    def __init__(self, settings: DecoderSettings) -> None:
        self.settings = s = settings
        self.task = get_lm_task(s.task)
        self.config = decoder_config(s, self.task)
        self.model = DecoderOnly(self.config)
        self.optimizer = torch.optim.AdamW(
            self.model.parameters(), lr=s.lr, weight_decay=s.weight_decay, foreach=True
        )
        self.eval_batch = self.task.sample(s.eval_size, EVAL_SEED)
        self.score_batch = self.task.scoring_sample(s.eval_size, EVAL_SEED)
        self.probe = self.task.encode(self.task.probe)  # (T,)
        self._start()

    def _loss(self, b: LMBatch) -> tuple[torch.Tensor, tuple[float]]:
        loss, acc = _lm_loss(self.model(b.tokens).logits, b)
        return loss, (acc,)

    @torch.no_grad()
    def _snapshot(self, step: int) -> DecoderSnapshot:
        model, b = self.model, self.eval_batch
        was = model.training
        model.eval()
        loss, acc = _lm_loss(model(b.tokens).logits, b)
        sb = self.score_batch
        w = model(sb.tokens).weights  # (B, L, nh, T, T)
        scores = {k: head_scores(w, sb.tokens, k) for k in HEAD_KINDS}
        probe = model(self.probe).weights[0].numpy().copy()  # (L, nh, T, T)
        model.train(was)
        return DecoderSnapshot(step, loss.item(), acc, scores, probe)

    def result(self) -> DecoderRun:
        """The run so far. Unless training is done, the model is a copy (training goes on)."""
        return DecoderRun(**self._run_fields(), probe=self.probe.clone())


@dataclass(frozen=True, eq=False)
class DecoderRun(RunHistory):
    """A (finished or stopped) decoder training run."""

    task: InductionTask | SeqToSeqLM
    settings: DecoderSettings
    model: DecoderOnly
    history: tuple[DecoderHistoryRow, ...]
    snapshots: dict[int, DecoderSnapshot]  # step -> snapshot, in step order
    probe: torch.Tensor  # (T,) the probe's token ids
    stopped: bool

    @cached_property
    def accuracy(self) -> float:
        """Next-token accuracy on the predictable tokens of 1000 fresh sequences."""
        with torch_threads(TRAIN_THREADS):
            return accuracy_on(self.model, self.task.sample(1000, FRESH_SEED))

    def head_scores(self, kind: str, n: int = 256, seed: int = FRESH_SEED) -> np.ndarray:
        """(L, nh) `interpret.head_scores` of the trained model on n fresh sequences
        (`task.scoring_sample`: for induction, all symbols differ but the repeated chunk's).

        previous: mean attention on key i - 1; duplicate: on the earlier occurrences of the
        query's token; induction: on the tokens that followed those occurrences. Each is the
        mean, over the query rows that have such a key, of the weight summed over those keys.
        """
        batch = self.task.scoring_sample(n, seed)
        was = self.model.training
        self.model.eval()
        with torch.no_grad(), torch_threads(TRAIN_THREADS):
            w = self.model(batch.tokens).weights  # (B, L, nh, T, T)
            scores = head_scores(w, batch.tokens, kind)
        self.model.train(was)
        return scores

    def curve(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """(steps, values) of a snapshot measure: 'loss', 'accuracy' or a head kind (S, L, nh)."""
        steps = np.array(list(self.snapshots), dtype=np.int64)
        snaps = self.snapshots.values()
        if name in HEAD_KINDS:
            return steps, np.stack([s.scores[name] for s in snaps])
        if name in ("loss", "accuracy"):
            return steps, np.array([getattr(s, name) for s in snaps], dtype=float)
        raise ValueError(f"unknown curve {name!r}")


def train_decoder(
    task: str = "induction",
    *,
    on_step: Callable[[DecoderProgress], bool | None] | None = None,
    **settings,
) -> DecoderRun:
    """Train a seeded decoder-only model on a task; return the run.

    The keyword form of `DecoderSettings` (see it for every setting and its default):
    `train_decoder("induction", n_layers=2, seed=0)`. `on_step(progress)` after every step;
    returning False stops.
    """
    trainer = DecoderTrainer(DecoderSettings(task=task, **settings))
    trainer.advance(on_step=on_step)
    return trainer.result()
