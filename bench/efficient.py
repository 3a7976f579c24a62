"""The figures of the Efficient attention page and of RoPE / ALiBi, with the references they are
checked against, measured in this run:

- largest differences to independent references (Hugging Face LLaMA's rotary code, BLOOM's ALiBi
  slopes, F.scaled_dot_product_attention with enable_gqa, causal recomputation);
- the KV-cache arithmetic for the published configurations;
- time of the tiled (teaching, Python-loop) attention and of token-by-token decoding against
  SDPA on the same inputs, as ratios.

    python bench/efficient.py [--t 512] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mha_core.efficient import (  # noqa: E402
    PUBLISHED_CONFIGS,
    decode_with_cache,
    flash_attention,
    window_reach,
)
from mha_core.layer import alibi_slopes, apply_rope, grouped_query_attention  # noqa: E402
from ui.numbers import size  # noqa: E402


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def references(T: int) -> None:
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    from transformers.models.llama.modeling_llama import (
        LlamaConfig,
        LlamaRotaryEmbedding,
        apply_rotary_pos_emb,
    )

    g = torch.Generator().manual_seed(0)
    x = torch.randn(1, 8, T, 64, generator=g)
    cfg = LlamaConfig(hidden_size=512, num_attention_heads=8, head_dim=64, rope_theta=10000.0)
    cos, sin = LlamaRotaryEmbedding(cfg)(x, torch.arange(T)[None])
    hf, _ = apply_rotary_pos_emb(x, x, cos, sin)
    diff = float((apply_rope(x) - hf).abs().max())
    print(f"RoPE vs HF LLaMA (T={T}, d_k=64):        max |diff| = {diff:.1e}")
    worst = max(
        float((alibi_slopes(h) - build_alibi_tensor(torch.ones(1, 2), h, torch.float32)[:, 0, 1])
              .abs().max())
        for h in range(1, 65)
    )  # fmt: skip
    print(f"ALiBi slopes vs BLOOM (1..64 heads):     max |diff| = {worst:.1e}")
    q = torch.randn(1, 8, T, 64, generator=g)
    k, v = torch.randn(1, 2, T, 64, generator=g), torch.randn(1, 2, T, 64, generator=g)
    for causal in (False, True):
        ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
        gqa = grouped_query_attention(q, k, v, causal=causal).output
        tiled = flash_attention(q, k, v, 64, causal, record=False).output
        print(f"causal={causal!s:5}  GQA vs SDPA(enable_gqa): {(gqa - ref).abs().max():.1e}   "
              f"tiles (64) vs SDPA: {(tiled - ref).abs().max():.1e}")  # fmt: skip
    dec = decode_with_cache(q[:, :, :128], k[:, :, :128], v[:, :, :128])
    print(f"KV cache vs recomputing the prefix (128 steps): max |diff| = {dec.max_diff:.1e}")


def cache_table() -> None:
    print("\nKV cache, published configurations (2 x layers x KV heads x d_k x tokens x bytes):")
    for c in PUBLISHED_CONFIGS:
        print(f"  {c.name:12} {c.n_layers} layers, {c.n_heads} heads, {c.n_kv_heads} KV heads of "
              f"{c.d_k}, {c.dtype}: {size(c.bytes_per_token)} a token, "
              f"{size(c.cache_bytes(c.context))} at {c.context:,} tokens [{c.source}]")
    print(f"  Mistral 7B reach: window 4,096 x 32 layers -> {window_reach(4096, 32):,} tokens")


def speed(T: int, repeats: int) -> None:
    g = torch.Generator().manual_seed(1)
    q, k, v = (torch.randn(1, 8, T, 64, generator=g) for _ in range(3))
    sdpa = _median_ms(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True), repeats)
    tiled = _median_ms(lambda: flash_attention(q, k, v, 64, True, record=False), repeats)
    n = min(T, 128)
    dec = _median_ms(lambda: decode_with_cache(q[:, :, :n], k[:, :, :n], v[:, :, :n]), repeats)
    print(f"\nT={T}, 8 heads of 64, causal: SDPA {sdpa:.2f} ms; tiled (Python loop, block 64) "
          f"{tiled:.1f} ms = {tiled / sdpa:.0f}x SDPA (a lesson, not a kernel); "
          f"decoding {n} tokens with the cache and a recomputed check: {dec:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--t", type=int, default=512)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    references(args.t)
    cache_table()
    speed(args.t, args.repeats)
