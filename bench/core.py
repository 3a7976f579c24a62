"""Our trace-returning forward against torch.nn.MultiheadAttention(need_weights=True).

Prints, per (T, d_model, h), the median time of each and the ratio ours / torch, measured in
the same process, interleaved, so that machine noise hits both alike. Target: <= 1.2.

    python bench/core.py [--repeats 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from mha_core import MultiHeadAttention  # noqa: E402

SIZES = [(16, 64, 4), (128, 384, 12), (512, 512, 8)]


def bench(T: int, d: int, h: int, repeats: int) -> tuple[float, float]:
    torch.manual_seed(0)
    ref = torch.nn.MultiheadAttention(d, h, batch_first=True).eval()
    ours = MultiHeadAttention.from_torch(ref).eval()
    x = torch.randn(1, T, d)

    def run_ref():
        return ref(x, x, x, need_weights=True, average_attn_weights=False)

    def run_ours():
        return ours(x)

    with torch.inference_mode():
        out_ref, w_ref = run_ref()
        tr = run_ours()
        torch.testing.assert_close(tr.weights, w_ref, atol=1e-5, rtol=0)  # same work
        torch.testing.assert_close(tr.output, out_ref, atol=1e-5, rtol=0)
        for _ in range(5):
            run_ref(), run_ours()
        t_ref, t_ours = [], []
        inner = max(1, 2000 // T)
        for i in range(repeats):
            order = (run_ref, run_ours) if i % 2 == 0 else (run_ours, run_ref)
            for fn in order:
                t0 = time.perf_counter()
                for _ in range(inner):
                    fn()
                dt = (time.perf_counter() - t0) / inner
                (t_ref if fn is run_ref else t_ours).append(dt)
    return statistics.median(t_ours), statistics.median(t_ref)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=40)
    args = ap.parse_args()
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    print(f"{'T':>5} {'d_model':>7} {'h':>3} {'ours ms':>9} {'torch ms':>9} {'ratio':>6}")
    for T, d, h in SIZES:
        ours, ref = bench(T, d, h, args.repeats)
        print(f"{T:>5} {d:>7} {h:>3} {ours * 1e3:>9.3f} {ref * 1e3:>9.3f} {ours / ref:>6.2f}")


if __name__ == "__main__":
    main()
