"""What the training tests' bars are set from: the tests' own runs for seeds 0-9, one JSON line
a seed. Run it once per kernel set, e.g.
    ATEN_CPU_CAPABILITY=avx2 python bench/training_bars.py
(avx512, avx2, default); README, "Tests on any machine", has the figures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mha_core import evaluate, mirror_index, predict, train_toy  # noqa: E402
from mha_core.gpt import train_decoder  # noqa: E402

# tests/core/test_gpt_training.py's SMALL
GPT = dict(d_model=32, n_heads=4, batch_size=16, snapshot_every=20, eval_size=32, init_std=0.1)


def _mirrored(cross, n: int) -> float:
    """The best head's mean weight, over the queries that emit a symbol, on the source position
    that query reverses (as tests/core/test_training.py reads it)."""
    rows = np.arange(n)
    cols = np.array([mirror_index(t, n) for t in rows])
    return float(max(layer[:, rows, cols].mean(axis=-1).max() for layer in cross))


def main() -> None:
    for seed in range(10):
        run = train_toy(task="reverse", seed=seed, snapshot_every=50)
        n = len(run.task.probe)
        p = predict(run, "h a c e g")
        losses = [r.loss for r in train_decoder("induction", n_layers=2, seed=seed, steps=60,
                                                **GPT).history]  # fmt: skip
        toys = {
            task: (lambda h: h[0].loss - h[-1].loss)(
                train_decoder(task, n_layers=1, seed=seed, steps=30, **GPT).history
            )
            for task in ("reverse", "sort", "copy")
        }
        row = dict(
            seed=seed,
            accuracy=evaluate(run, n=1000, seed=99),
            loss_ratio=run.history[-1].loss / run.history[0].loss,
            trained=_mirrored(run.snapshots[run.steps_done].cross, n),
            untrained=_mirrored(run.snapshots[0].cross, n),
            probe_right=run.snapshots[run.steps_done].prediction == run.probe_tgt_out,
            typed_right=bool(p.correct and p.output == p.expected),
            gpt_drop=float(np.mean(losses[:10]) - np.mean(losses[-10:])),
            toy_drops=toys,
        )
        print(json.dumps(row, default=float), flush=True)


if __name__ == "__main__":
    main()
