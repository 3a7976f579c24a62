"""Our all-MiniLM-L6-v2 (through mha_core) against Hugging Face's eager BertModel.

For 16, 128 and 512 tokens, prints the median time of

- HF:    `BertModel(input_ids, token_type_ids, output_attentions=True)`, eager attention;
- ours:  `PretrainedModel.forward(input_ids, token_type_ids, keep_layers=False)` on the same
         token ids: every layer through our MultiHeadAttention, returning all attentions
         (L, nh, T, T) and all hidden states (L+1, T, C);
- trace: `PretrainedModel.trace(text)`, what the app calls: tokenizing, the forward, and every
         layer's whole AttentionTrace (q, k, v, logits, head outputs, ...) kept as well;

each under torch.inference_mode(), and the ratios ours / HF and trace / HF (of the medians).
All run in the same process, interleaved (each round runs all three, the order alternating), so
that machine noise hits them alike; on a busy machine the median of the per-round ratios
("paired") is the steadier figure.
torch's thread count is left as it is.
Target: ours / HF <= 1.0. `transformers` is needed here (it is only the reference).

    python bench/pretrained.py [--repeats 20] [--sizes 16 128 512]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.minilm import ratios, text_of  # noqa: E402
from mha_core.pretrained import default_model_path, load_pretrained  # noqa: E402


def timed(fn, inner: int) -> float:
    t0 = time.perf_counter()
    for _ in range(inner):
        fn()
    return (time.perf_counter() - t0) / inner


def bench(ours, hf, n_tokens: int, repeats: int, warmup: int) -> dict[str, list[float]]:
    text = text_of(n_tokens)
    trace = ours.trace(text)
    assert len(trace.tokens) == n_tokens and not trace.truncated, len(trace.tokens)
    ids, types = trace.token_ids[None], trace.token_type_ids[None]  # (1, T)

    def run_ours():
        with torch.inference_mode():
            return ours(ids[0], types[0], keep_layers=False)

    def run_trace():
        return ours.trace(text)

    def run_hf():
        with torch.inference_mode():
            return hf(input_ids=ids, token_type_ids=types, output_attentions=True)

    out = run_hf()  # same work: same numbers
    for i, att in enumerate(out.attentions):
        torch.testing.assert_close(trace.attentions[i], att[0], atol=1e-5, rtol=0)
    torch.testing.assert_close(trace.last_hidden_state, out.last_hidden_state[0], atol=1e-4, rtol=0)

    fns = {"hf": run_hf, "ours": run_ours, "trace": run_trace}
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    inner = max(1, 64 // n_tokens)  # several calls per sample when one call is very short
    times: dict[str, list[float]] = {name: [] for name in fns}
    for i in range(repeats):
        order = list(fns.items()) if i % 2 == 0 else list(fns.items())[::-1]
        for name, fn in order:
            times[name].append(timed(fn, inner))
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--sizes", type=int, nargs="+", default=[16, 128, 512])
    args = ap.parse_args()

    from transformers import BertModel  # the reference only; our model never imports it

    ours = load_pretrained()
    hf = BertModel.from_pretrained(
        str(default_model_path()), attn_implementation="eager", local_files_only=True
    ).eval()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {args.repeats} repeats")
    print(
        f"{'tokens':>6} {'HF ms':>8} {'ours ms':>8} {'ours/HF':>8} {'paired':>7}"
        f" {'trace ms':>8} {'trace/HF':>8} {'paired':>7}"
    )
    for n in args.sizes:
        r = ratios(bench(ours, hf, n, args.repeats, args.warmup), "hf")
        hf_ms, (ours_ms, ours_hf, paired_ours), (full_ms, full_hf, paired_full) = (
            r["hf"][0],
            r["ours"],
            r["trace"],
        )
        print(
            f"{n:>6} {hf_ms:>8.2f} {ours_ms:>8.2f} {ours_hf:>8.2f} {paired_ours:>7.2f}"
            f" {full_ms:>8.2f} {full_hf:>8.2f} {paired_full:>7.2f}",
            flush=True,
        )

if __name__ == "__main__":
    main()
