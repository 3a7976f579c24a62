"""Decoder training: the loss falls, a seed reproduces the run, chunks equal one run, stop works,
snapshots keep the head scores. Small settings (a few seconds)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mha_core.gpt import DecoderSettings, DecoderTrainer, train_decoder
from mha_core.gpt.training import TRAIN_THREADS

# init_std 0.1, not the default 0.02: from a near-uniform start (0.02) the loss sits on its
# plateau for far more than 60 steps, and this file checks the trainer, not the recipe
SMALL = dict(
    d_model=32, n_heads=4, steps=60, batch_size=16, snapshot_every=20, eval_size=32, init_std=0.1
)


@pytest.fixture(scope="module")
def run():
    return train_decoder("induction", n_layers=2, seed=0, **SMALL)


def test_a_short_run_lowers_the_loss_and_keeps_snapshots(run):
    losses = [r.loss for r in run.history]
    assert len(losses) == 60 and not run.stopped
    assert np.mean(losses[-10:]) < np.mean(losses[:10]) - 0.1
    assert list(run.snapshots) == [0, 20, 40, 60]
    snap = run.snapshots[60]
    assert snap.probe_attention.shape == (2, 4, 26, 26)
    for kind in ("previous", "duplicate", "induction"):
        assert snap.scores[kind].shape == (2, 4)
        assert np.all((snap.scores[kind] >= 0) & (snap.scores[kind] <= 1 + 1e-6))
    steps, curve = run.curve("previous")
    assert steps.tolist() == [0, 20, 40, 60] and curve.shape == (4, 2, 4)
    assert 0.0 <= run.accuracy <= 1.0
    assert run.head_scores("induction").shape == (2, 4)
    assert run.snapshots[60].loss < run.snapshots[0].loss


def test_the_same_seed_gives_the_same_run(run):
    again = train_decoder("induction", n_layers=2, seed=0, **SMALL)
    assert [r.loss for r in again.history] == [r.loss for r in run.history]
    for a, b in zip(again.model.parameters(), run.model.parameters(), strict=True):
        torch.testing.assert_close(a, b, rtol=0, atol=0)
    other = train_decoder("induction", n_layers=2, seed=1, **{**SMALL, "steps": 5})
    assert [r.loss for r in other.history] != [r.loss for r in run.history][:5]


def test_chunks_give_exactly_one_run(run):
    trainer = DecoderTrainer(DecoderSettings(task="induction", n_layers=2, seed=0, **SMALL))
    while not trainer.advance(7):
        assert trainer.result().steps_done == trainer.step
    assert [r.loss for r in trainer.result().history] == [r.loss for r in run.history]


def test_stop_keeps_the_steps_done_and_a_snapshot():
    seen = []

    def on_step(p):
        seen.append(p.step)
        return p.step < 13

    r = train_decoder("induction", n_layers=1, seed=0, on_step=on_step, **SMALL)
    assert seen == list(range(1, 14)) and r.stopped and r.steps_done == 13
    assert 13 in r.snapshots
    assert torch.get_num_threads() >= 1  # the thread count was restored
    assert TRAIN_THREADS >= 1


@pytest.mark.parametrize("task", ["reverse", "sort", "copy"])
def test_toy_tasks_train_as_language_models(task):
    r = train_decoder(task, n_layers=1, seed=0, **{**SMALL, "steps": 30})
    assert r.history[-1].loss < r.history[0].loss
    assert r.snapshots[30].probe_attention.shape[-1] == len(r.task.probe) + 1


def test_bad_settings_are_explained():
    with pytest.raises(ValueError, match="learning rate"):
        DecoderSettings(lr=2.0)
    with pytest.raises(ValueError, match="unknown task"):
        DecoderSettings(task="nope")
    with pytest.raises(ValueError, match="steps"):
        DecoderSettings(steps=0)
