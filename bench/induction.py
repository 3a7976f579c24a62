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

Measured with today's defaults (quiet machine, load average ~0.7 on 2 cores; TRAIN_THREADS = 1),
seeds 0 / 1 / 2: the 2-layer model reaches 0.967 / 0.962 / 0.970 in 24.7 / 28.7 / 27.5 s wall
(24-29 s CPU), the 1-layer control 0.263 / 0.264 / 0.260; the best layer-0 previous-token score
is 0.90 / 0.92 / 0.83 and the best layer-1 induction score 0.95 / 0.92 / 0.95: every target met.
The recipe that got there: every symbol random, the chunk's too (`InductionTask.unique_chunk`
False), and 1800 steps. A symbol may then have come earlier by chance, so the current token
alone can match a wrong earlier occurrence, and the previous token of the query helps: the
layer-0 heads carry it at nearly every position (below: with chunk symbols found only in the
chunk, the late query rows were left at ~0.05). The accuracy ceiling is below 1 for the same
reason (a chance match can make a repeat ambiguous). Seeds 3 / 4 / 5, for the spread: acc2
0.970 / 0.969 / 0.969, acc1 0.274 / 0.273 / 0.269, previous 0.88 / 0.92 / 0.86, induction
0.93 / 0.96 / 0.94 (23-31 s CPU): all met.
The history, with the earlier defaults (chunk symbols unique, 1200 steps) first: the 2-layer
model reached 1.000 / 0.999 / 1.000 and the 1-layer control 0.175 / 0.179 / 0.181, the best
layer-1 induction score 0.98 for every seed, and the best layer-0 previous-token score only
0.72 / 0.67 / 0.70: two layer-0 heads shared the work, each putting ~0.7 on position i - 1 and
the rest thinly on earlier keys.

The recipe: GPT-2 style learned positions in the residual stream, init_std 0.02, and
repeats at offsets from 2 up (`InductionTask.min_offset=2`: a repeat may overlap its chunk,
"xyzxyzx"). With offsets of at least k (the earlier default: no overlap, k = 6) the models
built a shifted circuit (layer-0 heads ~k - 1 tokens back; previous <= 0.07, induction ~0.01);
the repeats at offset 2 rule that out. Tried without reaching 0.8 (seed 0): 1800 steps,
lr 5e-3/6e-3, weight decay 0.1, 8 heads, d_model 128, repeats only right after the chunk,
shortformer positions (init 0.02: 0.76 with 4 heads, 0.75 with 8; init 0.1, 8 heads: 0.77).

Why it stops near 0.7 (seed 0, per query position): the best layer-0 head puts ~0.9 on i - 1
at query positions 2-20 and ~0.05-0.6 at 21-25. Those last positions are almost always inside
the repeat, where a token is a query of the induction head and almost never a key (a key needs
a later copy); there the previous token is noise for the layer-1 head's query, and with
absolute positions the model can switch the head off where repeats sit. Tried on top, all
without reaching 0.8 (seeds 0 / 1 / 2): training positions shifted by 0..J per sequence (J 4:
0.65 / 0.70 / 0.68; J 7: 0.43 / 0.71); fixed sinusoidal positions (no circuit in 1200 steps,
accuracy 0.04-0.17); rotary positions, no position table (accuracy 0.98 with another circuit:
previous 0.14, induction 0.06); offsets at most the chunk length, so that a repeat also serves
as keys (accuracy 0.61 / 0.83, previous 0.30 / 0.48); 2 heads a layer, so that one layer-0
head must carry the previous token (accuracy 0.80 / 0.88 / 0.89, no canonical circuit:
previous <= 0.42, induction <= 0.10).

Why the last positions: under the default sampling (offset first, then the chunk's start) a
position is a key of the induction head (the token after an earlier copy) in 11% / 8% / 5% /
3% / 1% of sequences at positions 19 / 20 / 21 / 22 / 23, and never at 24-25 (a key at j needs
a later copy whose next token is still in the sequence); the best head's weight on i - 1
there is 0.90 / 0.45 / 0.05 / 0.04 / 0.03. Tried in a later session, none reaching 0.8 (seed 0,
or seeds 0 / 1 / 2): the position table initialised as a sinusoidal table scaled to 0.02 or
0.1 per entry, then learned (no circuit in 1200 steps: accuracy 0.33 / 0.12); chunks of 4-10
(accuracy 1.00 / 1.00, previous 0.59 / 0.71) or 3-8 (no circuit: 0.19 / 0.32); the chunk's
start drawn first, then the offset, which makes positions 20-22 keys in 25% / 18% / 10% of
sequences (no circuit: accuracy 0.46-0.48, previous 0.17), or half the sequences so (the same);
a quarter of the sequences ending in a short chunk (2-5) and its adjacent copy, keys up to 23
(accuracy 0.91 / 0.97 with another circuit: previous 0.22 / 0.26); the loss on every token
(no circuit: 0.17 / 0.13).

Tried in a third session (seed 0 unless said; acc2 / previous / induction, ~18-25 s CPU per
2-layer run): training on 32-token sequences (model n_positions 32), scored on the 26-token ones
(no circuit in 1200 or 2000 steps: 0.15 / 0.16 / 0.10), also with the offsets drawn as for 26
tokens (no circuit: 0.21 / 0.14 / 0.10; lr 6e-3: 0.18 / 0.18), or 29 tokens (0.94 / 0.31 / 0.06,
another circuit); seq_len 40 for training and scoring (no circuit: 0.10 / 0.08); positions = 16
fixed sinusoidal features (8 frequencies) times a learned 16 x C matrix, entries ~0.02 (0.55 /
0.28 / 0.24 after 1200 steps) or ~0.09 (0.98 / 0.20 / 0.25: previous only at queries 1-5); a
quarter of the sequences with the repeat at the very end (1.00 / 0.58 / 0.94: the previous-token
weight FALLS at queries 14-19, so queries inside repeats are pushed off i - 1 rather than just
untrained). What does lift the late positions: random filler that may hold the chunk's symbols,
so that the current token alone can match a wrong earlier occurrence and the query's previous
token helps (the query rows 19-24 go from ~0.05 to 0.5-0.9; row 25 never has a loss or a key and
stays ~0). With fully random tokens (`unique_chunk=False`, as in the code) and 1800 steps, seeds
0 / 1 / 2: acc2 0.967 / 0.962 / 0.970, acc1 0.263 / 0.264 / 0.260, previous 0.90 / 0.92 / 0.83,
induction 0.95 / 0.92 / 0.95, ~24 s CPU: every target met (now the default;
tests/core/test_gpt_tasks.py::test_offset_two_occurs_and_bad_offsets_are_explained reads the
offset as the nearest earlier occurrence, which a chance repeat can undercut, so it samples
unique chunks, where that occurrence is the copy). The nearly identical distribution below
(other data streams) misses on seed 2, so the margin depends on the seed. Fully random, 1200
steps: 0.95 / 0.72 / 0.89 (seed 0). Chunk symbols distinct, filler from all symbols, 1800 steps:
0.98 / 0.70 / 0.91. Chunk with no symbol twice in a row (where that test's nearest occurrence is
never 1 back), filler from all symbols, 1800 steps, seeds 0 / 1 / 2: acc2 0.970 / 0.974 / 0.973,
previous 0.85 / 0.81 / 0.69, induction 0.95 / 0.95 / 0.95; on seed 2: 2400 steps 0.77 (33 s CPU,
flat from step 1600), lr 5e-3 0.64, shortformer positions 0.67 (induction 0.02, another
circuit), weight decay 0.1 0.62, 8 heads 0.52. In the seed-2 misses the deficit is spread over
all query rows (~0.8 on i - 1 at rows 2-18); a guess, not checked: with chance matches the
induction head also wants the key's token two back, so layer-0 heads mix i - 1 and i - 2.
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
