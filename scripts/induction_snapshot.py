"""Write the finished run the Induction page opens with: the page's default training (the
2-layer model and the 1-layer control, `InductionChoice()`: 1800 steps, seed 0), trained as the
page trains it (`LivePair`, chunk by chunk), stored with `mha_core.gpt.stored.save_runs`.

    python -m scripts.induction_snapshot [--out PATH]

Training is deterministic on one set of CPU kernels; other kernels (AVX-512, AVX2, default) give
slightly other trajectories. `tests/core/test_induction_stored.py` retrains and checks the file
against the fresh run within the spread measured across kernels (see that test).
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import torch

from mha_core.gpt.stored import load_runs, save_runs
from ui.compute.induction import STORED_RUN, InductionChoice, LivePair


def train_default() -> dict:
    """The page's default pair, trained to the end as the page trains it; n_layers -> run."""
    pair = LivePair.start(InductionChoice())
    while not pair.done:
        pair.advance()
    return pair.finish().runs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=STORED_RUN)
    args = ap.parse_args()
    t0 = time.perf_counter()
    runs = train_default()
    wall = time.perf_counter() - t0
    note = (
        f"python -m scripts.induction_snapshot; torch {torch.__version__}, "
        f"CPU kernels {torch.backends.cpu.get_cpu_capability()}, {platform.machine()}"
    )
    save_runs(runs, args.out, note=note)
    back = load_runs(args.out)
    for n, run in sorted(runs.items()):
        print(
            f"{n} layer(s): accuracy {run.accuracy:.3f} (stored {back[n].accuracy:.3f}), "
            f"final loss {run.history[-1].loss:.4f}"
        )
    size = args.out.stat().st_size
    print(f"trained in {wall:.1f} s; wrote {args.out} ({size / 1024:.0f} kB); {note}")


if __name__ == "__main__":
    main()
