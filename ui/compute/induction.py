"""The Induction page's work: two decoder runs (1 and 2 attention-only layers) trained side by
side in short chunks; what is read off them (head scores, probe attention, next-token
prediction with each head's direct contribution, the attention sink), the core computes
(`mha_core.gpt`).

As on the Train page, a live run belongs to the session that started it (session state, no
cache); every change to it happens under the run's own lock. The untrained model's probe
attention and MiniLM's sink shares are cached (small, keyed by a seed or a sentence).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import streamlit as st

from mha_core.gpt import (
    DecoderRun,
    DecoderSettings,
    DecoderTrainer,
    InductionTask,
    pretrained_sink_share,
)
from mha_core.gpt.stored import load_runs
from mha_core.gpt.training import DecoderSnapshot
from mha_core.layer.limits import MAX_SEED as MAX_SEED
from ui.compute import pretrained
from ui.compute.live import LiveTraining

LAYERS = (1, 2)  # the control and the model
_D = DecoderSettings()
STEP_CHOICES = tuple(sorted({20, 100, 300, 600, 1000, 1500, 2000, _D.steps}))
MINILM_SENTENCE = "The cat sat on the mat because it was warm."
# the default pair, trained once and kept with the app: the page opens on it (made by
# `python -m scripts.induction_snapshot`, checked against a fresh run by
# tests/core/test_induction_stored.py)
STORED_RUN = Path(__file__).resolve().parents[2] / "mha_core" / "data" / "induction_default.npz"


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
    stored: bool = False  # the run kept with the app (STORED_RUN), not one trained here

    @property
    def model_run(self) -> DecoderRun:
        return self.runs[max(self.runs)]


class LivePair(LiveTraining):
    """The two runs in progress (n_layers -> trainer), their curves so far, and the chunk size
    (see `LiveTraining` for how a rerun meets a run in progress)."""

    columns = ("step", "loss", "accuracy")
    max_points = 300  # the live curves drawn every 0.5 s: 300 points a series, not 1800

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


@st.cache_resource(show_spinner=False)
def stored_pair() -> FinishedPair | None:
    """The default pair as stored with the app (read once per server, shared read-only: the
    page only reads the models), or None when the file is missing."""
    if not STORED_RUN.exists():
        return None
    runs = load_runs(STORED_RUN)
    return FinishedPair(runs=runs, choice=InductionChoice(), wall_s=0.0, stored=True)
