"""Induction heads forming live: the 2-layer attention-only decoder against the 1-layer control.

For each seed, `train_decoder("induction", n_layers=L, seed=seed)` with the page's defaults,
for L = 2 and then L = 1 (the reference measured in the same run: Olsson et al. 2022 find no
induction heads in one-layer attention-only models). Printed per run: next-token accuracy on
the predictable tokens of 1000 fresh sequences, training wall time and process CPU time, the
best layer-0 previous-token score and the best last-layer induction score
(`DecoderRun.head_scores`), and the 2-layer / 1-layer accuracy ratio.

Targets (issue 20): 2 layers >= 0.95 within 60 s on 2 cores; 1 layer <= 0.75; best layer-0
previous-token score >= 0.8; best layer-1 induction score >= 0.5. The machine is shared: the
load average is printed; when it is well above the core count, wall time is inflated and the
CPU time is the figure to compare (training uses `TRAIN_THREADS` threads).

    python bench/induction.py [--seeds 0 1 2] [--steps N]

Measured on this branch (load average ~9 on 2 shared cores): the 2-layer model reaches 0.98 /
0.85 / 0.98 and the 1-layer control 0.35 / 0.45 / 0.50 (seeds 0 / 1 / 2), ~25 s of CPU each;
the head-score targets are NOT met: the models build a shifted circuit instead (layer-0 heads
attend 5-7 tokens back, layer-1 heads attend to the position r ~ 5 after the token that
followed the earlier copy), which the offset-1 previous-token and k+1 induction scores miss.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from mha_core.gpt import DecoderSettings, train_decoder  # noqa: E402
from mha_core.gpt.training import TRAIN_THREADS  # noqa: E402

TARGETS = dict(acc2=0.95, wall2=60.0, acc1=0.75, prev0=0.8, ind1=0.5)


def one(seed: int, n_layers: int, steps: int | None) -> dict:
    extra = {} if steps is None else {"steps": steps}
    t0, c0 = time.perf_counter(), time.process_time()
    run = train_decoder("induction", n_layers=n_layers, seed=seed, **extra)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    prev = run.head_scores("previous")  # (L, nh)
    ind = run.head_scores("induction")
    return dict(
        acc=run.accuracy, wall=wall, cpu=cpu, prev0=float(prev[0].max()), ind=float(ind[-1].max())
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--steps", type=int, default=None, help="override the default step count")
    args = ap.parse_args()
    d = DecoderSettings()
    print(
        f"defaults: d_model {d.d_model}, {d.n_heads} heads, {d.steps} steps, lr {d.lr}, "
        f"batch {d.batch_size}, init_std {d.init_std}; torch threads {TRAIN_THREADS}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    ok = True
    for seed in args.seeds:
        two, one_ = one(seed, 2, args.steps), one(seed, 1, args.steps)
        checks = {
            "acc2": two["acc"] >= TARGETS["acc2"],
            "wall2": two["wall"] <= TARGETS["wall2"],
            "acc1": one_["acc"] <= TARGETS["acc1"],
            "prev0": two["prev0"] >= TARGETS["prev0"],
            "ind1": two["ind"] >= TARGETS["ind1"],
        }
        ok &= all(v for k, v in checks.items() if k != "wall2")
        failed = [k for k, v in checks.items() if not v]
        print(
            f"seed {seed}: 2 layers acc {two['acc']:.3f} wall {two['wall']:.1f} s "
            f"cpu {two['cpu']:.1f} s | 1 layer acc {one_['acc']:.3f} wall {one_['wall']:.1f} s "
            f"cpu {one_['cpu']:.1f} s | acc ratio 2/1 {two['acc'] / max(one_['acc'], 1e-9):.2f} | "
            f"best L0 previous {two['prev0']:.2f} | best L1 induction {two['ind']:.2f} | "
            f"{'all targets met' if not failed else 'missed: ' + ', '.join(failed)}",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
