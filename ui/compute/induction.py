"""The Induction page's work: two decoder runs (1 and 2 attention-only layers) trained side by
side in short chunks, and what is read off them (head scores, probe attention, next-token
prediction with each head's direct contribution, the attention sink).

As on the Train page, a live run belongs to the session that started it (session state, no
cache); every change to it happens under the run's own lock. The untrained model's probe
attention and MiniLM's sink shares are cached (small, keyed by a seed or a sentence).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from mha_core.gpt import (
    DecoderRun,
    DecoderSettings,
    DecoderTrainer,
    InductionTask,
    direct_logit_attribution,
    pretrained_sink_share,
    sink_share,
)
from mha_core.gpt.training import TRAIN_THREADS, DecoderSnapshot, _torch_threads
from mha_core.layer.limits import MAX_SEED as MAX_SEED
from ui.compute import pretrained
from ui.compute.live import LiveTraining

LAYERS = (1, 2)  # the control and the model
_D = DecoderSettings()
STEP_CHOICES = tuple(sorted({20, 100, 300, 600, 1000, 1500, 2000, _D.steps}))
TOP_K = 5
MINILM_SENTENCE = "The cat sat on the mat because it was warm."


@dataclass(frozen=True)
class InductionChoice:
    """What the learner picked: steps and seed; the rest are the core's defaults."""

    steps: int = _D.steps
    seed: int = _D.seed

    def settings(self, n_layers: int) -> DecoderSettings:
        every = max(10, self.steps // 30)  # about 30 snapshots a run
        return DecoderSettings(
            n_layers=n_layers, steps=self.steps, seed=self.seed, snapshot_every=every
        )


@dataclass(frozen=True, eq=False)
class FinishedPair:
    """Both runs after they ended (done or stopped)."""

    runs: dict[int, DecoderRun]  # n_layers -> run
    choice: InductionChoice
    wall_s: float

    @property
    def model_run(self) -> DecoderRun:
        return self.runs[max(self.runs)]


class LivePair(LiveTraining):
    """The two runs in progress (n_layers -> trainer), their curves so far, and the chunk size
    (see `LiveTraining` for how a rerun meets a run in progress)."""

    columns = ("step", "loss", "accuracy")

    @classmethod
    def start(cls, choice: InductionChoice) -> LivePair:
        return cls(choice=choice, trainers={n: DecoderTrainer(choice.settings(n)) for n in LAYERS})

    def _result(self) -> FinishedPair:
        runs = {n: tr.result() for n, tr in self.trainers.items()}
        for run in runs.values():
            run.accuracy  # noqa: B018  (computed once, here, not at the next redraw)
        wall = time.perf_counter() - self.started
        return FinishedPair(runs=runs, choice=self.choice, wall_s=wall)


# --- the untrained model and the sink of MiniLM (cached) ---------------------------------------
@st.cache_data(max_entries=8, show_spinner=False)
def untrained_probe(seed: int) -> tuple[tuple[str, ...], DecoderSnapshot]:
    """The probe's tokens and the untrained 2-layer model's snapshot: its attention on the
    probe (L, nh, T, T) and its head scores."""
    trainer = DecoderTrainer(InductionChoice(seed=seed).settings(max(LAYERS)))
    return probe_tokens(trainer.task), trainer.result().snapshots[0]


def probe_tokens(task: InductionTask) -> tuple[str, ...]:
    return (task.bos, *task.probe)


@st.cache_data(max_entries=4, show_spinner=False)
def minilm_sink(sentence: str = MINILM_SENTENCE) -> np.ndarray:
    """(L, nh) MiniLM's mean attention on [CLS] (key 0) over the other query rows."""
    return pretrained_sink_share(pretrained.model(), sentence)


def model_sink(run: DecoderRun) -> np.ndarray:
    """(L, nh) this model's mean attention on <bos> (key 0), on its evaluation sequences."""
    batch = run.task.sample(128, 4321)
    with torch.no_grad(), _torch_threads(TRAIN_THREADS):
        return sink_share(run.model(batch.tokens).weights)


# --- next-token prediction on a typed sequence ---------------------------------------------
@dataclass(frozen=True)
class TypedProblem:
    """Why typed text is not a valid sequence: 'empty', 'unknown' (symbols) or 'length'."""

    kind: str
    unknown: tuple[str, ...] = ()
    n: int = 0


@dataclass(frozen=True, eq=False)
class NextToken:
    """The model's next-token prediction after a typed sequence, and where its logit comes from."""

    tokens: tuple[str, ...]  # <bos>, then the typed symbols
    top: tuple[tuple[str, float], ...]  # the top-k (symbol, probability)
    chosen: str  # the token whose logit is split (the top-1)
    parts: dict[str, float]  # "embedding", "L{l}H{h}", "biases": direct contributions
    logit: float  # the chosen token's logit
    attention: np.ndarray  # (L, nh, T, T)

    @property
    def parts_sum(self) -> float:
        return float(sum(self.parts.values()))


def read_sequence(task: InductionTask, text: str) -> tuple[str, ...] | TypedProblem:
    symbols = tuple(c for c in text if not c.isspace())
    if not symbols:
        return TypedProblem("empty")
    unknown = tuple(dict.fromkeys(c for c in symbols if c not in task.symbols))
    if unknown:
        return TypedProblem("unknown", unknown=unknown, n=len(symbols))
    if len(symbols) > task.seq_len - 1:
        return TypedProblem("length", n=len(symbols))
    return symbols


def next_token(run: DecoderRun, text: str, k: int = TOP_K) -> NextToken | TypedProblem:
    """Top-k next tokens after the typed sequence, and the top token's logit split into the
    embedding path, every head's direct contribution and the biases (they add up to it)."""
    task = run.task
    symbols = read_sequence(task, text)
    if isinstance(symbols, TypedProblem):
        return symbols
    ids = task.encode(symbols)  # (T,)
    with torch.no_grad(), _torch_threads(TRAIN_THREADS):
        parts = direct_logit_attribution(run.model, ids)
        weights = run.model(ids).weights[0].numpy()  # (L, nh, T, T)
    logits = torch.from_numpy(parts.logits[-1])  # (V,) after the last typed symbol
    logits[0] = float("-inf")  # <bos> is never a next symbol
    probs = torch.softmax(logits, dim=-1)
    top = torch.topk(probs, k)
    vocab = task.vocab
    chosen = int(top.indices[0])
    L, nh = parts.heads.shape[:2]
    split = {"embedding": float(parts.embedding[-1, chosen])}
    for layer in range(L):
        for h in range(nh):
            split[f"L{layer}H{h}"] = float(parts.heads[layer, h, -1, chosen])
    split["biases"] = float(parts.out_bias[:, -1, chosen].sum() + parts.ln_bias[-1, chosen])
    return NextToken(
        tokens=(task.bos, *symbols),
        top=tuple((vocab[int(i)], float(p)) for i, p in zip(top.indices, top.values)),
        chosen=vocab[chosen],
        parts=split,
        logit=float(parts.logits[-1, chosen]),
        attention=weights,
    )
