"""Head ablation on all-MiniLM-L6-v2: one batch per layer against one forward per head.

For each input length, prints the median time of

- batched:    `head_ablation(model, trace)`, what the app calls: per layer l, the nh copies (one
              head zeroed each) and an untouched copy run through layers l..L-1 as ONE batch,
              starting from the trace's hidden states (6 batches of 13);
- sequential: the same numbers with one copy at a time: per head, layers l..L-1 on that copy
              alone, from the trace's hidden states (72 runs of batch 1, plus the untouched one);
- naive:      72 whole forwards from the embeddings, each with one head zeroed (what a loop
              over `model(...)` with a head mask costs);

and the ratios sequential / batched and naive / batched, measured in the same process,
interleaved (the order alternating each round). All three are checked to give the same
numbers first. torch's thread count is left as it is (set OMP_NUM_THREADS to pin it).

    python bench/ablation.py [--repeats 5] [--sizes 16 64 128]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.minilm import ratios, text_of  # noqa: E402
from mha_core.interpret.ablation import _run_layers, head_ablation  # noqa: E402
from mha_core.pretrained import load_pretrained  # noqa: E402


def distance(a: torch.Tensor, b: torch.Tensor) -> float:
    """1 - cos of two mean-pooled (C,) vectors, as head_ablation computes it."""
    d = torch.nn.functional.normalize(a.double(), dim=-1) - torch.nn.functional.normalize(
        b.double(), dim=-1
    )
    return float(0.5 * (d * d).sum())


def sequential(model, trace, start_at_embeddings: bool) -> np.ndarray:
    """One copy per run: (L, nh) importances."""
    L, nh = model.n_layers, model.n_heads
    out = np.empty((L, nh))
    with torch.inference_mode():
        ones = torch.ones(1, L, nh)
        base = _run_layers(model, trace.hidden_states[0], 0, ones)[0].mean(0)  # (C,)
        for i in range(L):
            start = 0 if start_at_embeddings else i
            for h in range(nh):
                keep = torch.ones(1, L, nh)
                keep[0, i, h] = 0.0
                last = _run_layers(model, trace.hidden_states[start], start, keep)[0]  # (T, C)
                out[i, h] = distance(last.mean(0), base)
    return out


def bench(model, n_tokens: int, repeats: int) -> dict[str, list[float]]:
    trace = model.trace(text_of(n_tokens), keep_layers=False)
    assert trace.n_tokens == n_tokens, trace.n_tokens
    fns = {
        "batched": lambda: head_ablation(model, trace),
        "sequential": lambda: sequential(model, trace, start_at_embeddings=False),
        "naive": lambda: sequential(model, trace, start_at_embeddings=True),
    }
    ref = fns["batched"]()
    for name in ("sequential", "naive"):  # same work: same numbers (float32 rounding apart)
        np.testing.assert_allclose(fns[name](), ref, rtol=1e-3, atol=1e-8, err_msg=name)
    times: dict[str, list[float]] = {name: [] for name in fns}
    for i in range(repeats):
        order = list(fns.items()) if i % 2 == 0 else list(fns.items())[::-1]
        for name, fn in order:
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 128])
    args = ap.parse_args()
    model = load_pretrained()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {args.repeats} repeats")
    print(
        f"{'tokens':>6} {'batched ms':>10} {'seq ms':>9} {'seq/batched':>11} {'paired':>7}"
        f" {'naive ms':>9} {'naive/batched':>13} {'paired':>7}"
    )
    for n in args.sizes:
        r = ratios(bench(model, n, args.repeats), "batched")
        b, (s, s_b, ps), (v, v_b, pn) = r["batched"][0], r["sequential"], r["naive"]
        print(
            f"{n:>6} {b:>10.1f} {s:>9.1f} {s_b:>11.2f} {ps:>7.2f}"
            f" {v:>9.1f} {v_b:>13.2f} {pn:>7.2f}",
            flush=True,
        )

if __name__ == "__main__":
    main()
