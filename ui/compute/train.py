"""The Train page's work: a live run that advances in short chunks, and the history download of
a finished run (what else is read off a run, the core computes: `mha_core.transformer`).

Nothing here is shared between sessions: a run belongs to the session that trained it (kept in
its session state, one at a time), so there is no lock. Training holds no global lock
either: the core only sets torch's thread count around each chunk. The one cache is the
untrained model's attention (`untrained`), the same for everyone with the same settings.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass

import pandas as pd
import streamlit as st

from mha_core import TASKS, ToyRun, ToyTrainer, evaluate
from mha_core.layer.config import head_size, valid_head_counts
from mha_core.layer.limits import MAX_SEED as MAX_SEED
from mha_core.layer.limits import TRAIN_MAX_HEADS
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


# --- reading a finished run (the maths: mha_core.transformer.prediction) -------------------------
def history_csv(run: ToyRun) -> bytes:
    """One row per step: step, loss, token_acc, exact_acc, lr, elapsed_s."""
    return pd.DataFrame(run.history_columns()).to_csv(index=False).encode("utf-8")
