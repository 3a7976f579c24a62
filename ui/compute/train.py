"""The Train page's work: a live run that advances in short chunks, and what is read off a
finished run (downloads, the try-it box, how the heads align).

Nothing here is shared between sessions: a run belongs to the session that trained it (kept in
its session state, one at a time), so there is no lock. Training holds no global lock
either: the core only sets torch's thread count around each chunk. The one cache is the
untrained model's attention (`untrained`), the same for everyone with the same settings.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
import safetensors.torch
import streamlit as st

from mha_core import TASKS, ToyRun, ToyTask, ToyTrainer, evaluate, mirror_index, predict
from mha_core.layer.config import head_size, valid_head_counts
from mha_core.layer.limits import MAX_SEED as MAX_SEED
from mha_core.layer.limits import TRAIN_MAX_HEADS
from mha_core.transformer.prediction import Prediction
from mha_core.transformer.training import (
    DEFAULTS,
    AttentionSnapshot,
    TrainSettings,
)
from ui.compute.live import LiveTraining

# The choices offered (the core's defaults are always among them).
TASK_NAMES = tuple(TASKS)
DEFAULT_TASK = "reverse"  # train_toy's default task
D_MODELS = tuple(sorted({16, 32, 48, 64, 96, 128, DEFAULTS.d_model}))
MAX_HEADS = TRAIN_MAX_HEADS
MAX_LAYERS = 3
MAX_STEPS = 3000
LRS = tuple(sorted({0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, DEFAULTS.lr}))

N_EVAL, EVAL_SEED = 500, 1234  # greedy exact-sequence accuracy on fresh examples after a run
MIN_SNAPSHOTS, MAX_SNAPSHOTS = 15, 60  # snapshots a run keeps, besides step 0 and its end
MAX_LIVE_POINTS = 600  # the live curve shows at most this many points per line


@dataclass(frozen=True)
class TrainChoice:
    """What the learner picked on the page: the arguments of one `ToyTrainer`."""

    task: str = DEFAULT_TASK
    d_model: int = DEFAULTS.d_model
    n_heads: int = DEFAULTS.n_heads
    n_layers: int = DEFAULTS.n_layers
    steps: int = DEFAULTS.steps
    lr: float = DEFAULTS.lr
    seed: int = DEFAULTS.seed

    @property
    def d_k(self) -> int:
        return head_size(self.d_model, self.n_heads)

    @property
    def snapshot_every(self) -> int:
        """Steps between two snapshots: the core's default (20) where that gives 15 to 60 of
        them, denser for short runs, sparser for long ones."""
        fewest = max(1, self.steps // MIN_SNAPSHOTS)  # at least MIN_SNAPSHOTS (or every step)
        most = math.ceil(self.steps / MAX_SNAPSHOTS)  # at most MAX_SNAPSHOTS
        return max(most, min(DEFAULTS.snapshot_every, fewest))

    def trainer(self) -> ToyTrainer:
        return ToyTrainer(TrainSettings(**asdict(self), snapshot_every=self.snapshot_every))


@dataclass(frozen=True, eq=False)
class Untrained:
    """The model a run would start from (its seed, no steps) and its attention on the probe."""

    snapshot: AttentionSnapshot  # step 0
    probe: tuple[tuple[str, ...], tuple[str, ...]]  # (source tokens, decoder input tokens)


@st.cache_data(max_entries=16, show_spinner=False)
def untrained(choice: TrainChoice) -> Untrained:
    """Step 0 of the run `choice` would train: the same model, seed and probe, no steps."""
    run = choice.trainer().result()
    return Untrained(snapshot=run.snapshots[0], probe=(run.probe_src, run.probe_tgt_in))


def head_options(d_model: int) -> list[int]:
    """Head counts that divide d_model (so d_k = d_model / h is whole), up to MAX_HEADS."""
    return valid_head_counts(d_model, MAX_HEADS)


@dataclass(frozen=True, eq=False)
class FinishedRun:
    """A run that ended (done or stopped), with its greedy accuracy on fresh examples."""

    run: ToyRun
    choice: TrainChoice
    greedy_acc: float  # exact-sequence accuracy of greedy decoding on N_EVAL fresh examples
    n_eval: int
    wall_s: float  # from the Train press to the end, drawing included


class LiveRun(LiveTraining):
    """A run in progress: its trainer, the curve so far, and how many steps make a chunk (see
    `LiveTraining` for how a rerun meets a run in progress)."""

    columns = ("step", "loss", "token_acc", "exact_acc")
    max_points = MAX_LIVE_POINTS

    @classmethod
    def start(cls, choice: TrainChoice) -> LiveRun:
        return cls(choice=choice, trainers={0: choice.trainer()})

    @property
    def trainer(self) -> ToyTrainer:
        return self.trainers[0]

    @property
    def steps(self) -> list[int]:
        return self.curves[0]["step"]

    @property
    def loss(self) -> list[float]:
        return self.curves[0]["loss"]

    @property
    def exact_acc(self) -> list[float]:
        return self.curves[0]["exact_acc"]

    def _result(self) -> FinishedRun:
        run = self.trainer.result()
        acc = evaluate(run, N_EVAL, EVAL_SEED)
        wall = time.perf_counter() - self.started
        return FinishedRun(run=run, choice=self.choice, greedy_acc=acc, n_eval=N_EVAL, wall_s=wall)


# --- reading a finished run -------------------------------------------------------------------
def n_parameters(run: ToyRun) -> int:
    return sum(p.numel() for p in run.model.parameters())


def weights_bytes(run: ToyRun) -> bytes:
    """The trained weights as safetensors, the settings and vocabulary in its metadata."""
    tensors = {k: v.detach().contiguous() for k, v in run.model.state_dict().items()}
    metadata = {
        "settings": json.dumps(run.settings.as_dict()),
        "vocab": json.dumps(list(run.task.vocab)),
        "steps_done": str(run.steps_done),
        "stopped": str(run.stopped).lower(),
    }
    return safetensors.torch.save(tensors, metadata=metadata)


def history_csv(run: ToyRun) -> bytes:
    """One row per step: step, loss, token_acc, exact_acc, lr, elapsed_s."""
    return pd.DataFrame(run.history_columns()).to_csv(index=False).encode("utf-8")


def expected_sources(task: ToyTask, n: int) -> list[int] | None:
    """For each decoder row t < n, the source index the task needs it to read (None: no fixed
    position, as in sorting). Reversal: the mirrored index n - 1 - t; copying: t itself."""
    if task.name == "reverse":
        return [mirror_index(t, n) for t in range(n)]
    if task.name == "copy":
        return list(range(n))
    return None


def alignment(task: ToyTask, cross: np.ndarray, n: int) -> np.ndarray | None:
    """(nh,) mean weight each cross-attention head puts on the expected source position,
    over the n decoder rows that produce a symbol; None when the task has no such position."""
    src = expected_sources(task, n)
    if src is None:
        return None
    return cross[:, np.arange(n), src].mean(axis=-1)  # (nh,)


def alignment_over_time(run: ToyRun) -> np.ndarray | None:
    """(layers, nh, snapshots): `alignment` of every cross-attention head at every snapshot."""
    n = len(run.probe_src) - 1  # the probe's symbols (its source ends with <eos>)
    if expected_sources(run.task, n) is None:
        return None
    per_snap = [
        np.stack([alignment(run.task, c, n) for c in snap.cross])  # (L, nh)
        for snap in run.snapshots.values()
    ]
    return np.stack(per_snap, axis=-1)  # (L, nh, snapshots)


# --- the try-it box ---------------------------------------------------------------------------
@dataclass(frozen=True)
class TryProblem:
    """Why typed text is not a valid input: 'empty', 'unknown' (symbols) or 'length'."""

    kind: str
    unknown: tuple[str, ...] = ()
    n: int = 0


def read_symbols(task: ToyTask, text: str) -> tuple[str, ...] | TryProblem:
    """Symbols of typed text as the core reads them ('c a b', 'cab', 'c,a,b'), or the problem."""
    if all(len(s) == 1 for s in task.alphabet):
        symbols = [c for c in text if not c.isspace() and c not in ",;"]
    else:
        symbols = text.replace(",", " ").replace(";", " ").split()
    if not symbols:
        return TryProblem("empty")
    unknown = tuple(dict.fromkeys(s for s in symbols if s not in task.alphabet))
    if unknown:
        return TryProblem("unknown", unknown=unknown, n=len(symbols))
    if len(symbols) > task.max_len:
        return TryProblem("length", n=len(symbols))
    return tuple(symbols)


def try_input(run: ToyRun, text: str) -> Prediction | TryProblem:
    """The model's greedy answer and attention for typed text, or why the text is not valid."""
    symbols = read_symbols(run.task, text)
    if isinstance(symbols, TryProblem):
        return symbols
    return predict(run, symbols)  # one torch thread inside, as for training and evaluate
