"""The KV cache: decode token by token, keeping every past key and value instead of
recomputing them.

A decoder generates one token per step. Causal attention never lets a token look ahead, so the
keys and values of the prefix do not change when a token is appended: keep them (the cache),
compute only the new token's query, key and value, and attend over the cache. The result is
the same as recomputing causal attention over the whole prefix at every step.

Memory: 2 (K and V) x layers x KV heads x d_k x tokens x bytes per value x batch.
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from ..layer.grouped import grouped_query_attention


def kv_cache_bytes(
    *,
    n_layers: int,
    n_kv_heads: int,
    d_k: int,
    n_tokens: int,
    bytes_per_value: int | float = 2,
    batch: int = 1,
) -> int:
    """Bytes of the cache: 2 x n_layers x n_kv_heads x d_k x n_tokens x bytes_per_value x batch."""
    for name, value in (
        ("n_layers", n_layers),
        ("n_kv_heads", n_kv_heads),
        ("d_k", d_k),
        ("n_tokens", n_tokens),
        ("batch", batch),
    ):
        if not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    if not bytes_per_value > 0:
        raise ValueError(f"bytes_per_value must be positive, got {bytes_per_value!r}")
    return int(round(2 * n_layers * n_kv_heads * d_k * n_tokens * bytes_per_value * batch))


BYTES_PER_VALUE = {"float32": 4, "bfloat16": 2, "float16": 2, "int8": 1}


class PublishedConfig(NamedTuple):
    """The attention shape of a published model, with where the numbers come from."""

    name: str
    n_layers: int
    n_heads: int  # query heads
    n_kv_heads: int  # key/value heads (= n_heads: MHA; fewer: GQA)
    d_k: int
    context: int  # tokens the model was trained to read
    window: int | None  # sliding-window size (the cache never holds more), None if full
    dtype: str  # the released weights' dtype
    source: str

    @property
    def bytes_per_token(self) -> int:
        """KV-cache bytes for one token (batch 1) in the released dtype."""
        return kv_cache_bytes(
            n_layers=self.n_layers,
            n_kv_heads=self.n_kv_heads,
            d_k=self.d_k,
            n_tokens=1,
            bytes_per_value=BYTES_PER_VALUE[self.dtype],
        )

    def cache_bytes(self, n_tokens: int, batch: int = 1, bytes_per_value=None) -> int:
        """Cache bytes after n_tokens; a sliding window caps the cache at `window` tokens."""
        kept = n_tokens if self.window is None else min(n_tokens, self.window)
        bpv = BYTES_PER_VALUE[self.dtype] if bytes_per_value is None else bytes_per_value
        return kv_cache_bytes(
            n_layers=self.n_layers,
            n_kv_heads=self.n_kv_heads,
            d_k=self.d_k,
            n_tokens=kept,
            bytes_per_value=bpv,
            batch=batch,
        )


PUBLISHED_CONFIGS: tuple[PublishedConfig, ...] = (
    PublishedConfig(
        "GPT-2 small", 12, 12, 12, 64, 1024, None, "float32",
        "Radford et al. 2019; Hugging Face gpt2 config.json (n_layer 12, n_head 12, n_embd 768)",
    ),
    PublishedConfig(
        "Llama-2-7B", 32, 32, 32, 128, 4096, None, "float16",
        "Touvron et al. 2023 (Llama 2), Table 1 (GQA only for 34B/70B); "
        "meta-llama/Llama-2-7b-hf config.json",
    ),
    PublishedConfig(
        "Llama-3-8B", 32, 32, 8, 128, 8192, None, "bfloat16",
        "Meta 2024, Llama 3 model card; meta-llama/Meta-Llama-3-8B config.json "
        "(32 layers, 32 heads, 8 key/value heads, hidden 4096)",
    ),
    PublishedConfig(
        "Mistral-7B", 32, 32, 8, 128, 8192, 4096, "bfloat16",
        "Jiang et al. 2023 (Mistral 7B), Table 1: 32 layers, 32 heads, 8 kv heads, "
        "head_dim 128, window 4096",
    ),
)  # fmt: skip


class CacheStep(NamedTuple):
    """One decoding step: the new token attends over the cache (itself included)."""

    position: int  # index of the new token
    cache_length: int  # tokens in the cache after appending this one (= position + 1)
    output: torch.Tensor  # (B, nh, hs) the new token's attention output
    weights: torch.Tensor  # (B, nh, cache_length) its weights over the cache
    recomputed: torch.Tensor  # (B, nh, hs) the same row from causal attention over the prefix
    max_diff: float  # max |output - recomputed|


class CachedDecode(NamedTuple):
    """Token-by-token decoding with a cache, checked against recomputation at every step."""

    steps: tuple[CacheStep, ...]
    output: torch.Tensor  # (B, nh, T, hs) the outputs of every step, stacked
    keys: torch.Tensor  # (B, n_kv, T, hs) the final cache
    values: torch.Tensor  # (B, n_kv, T, hs)
    max_diff: float  # max over steps of |cached - recomputed|


def decode_with_cache(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, n_steps: int | None = None
) -> CachedDecode:
    """Decode the first n_steps tokens (all by default) one at a time with a KV cache.

    q (B, nh, T, hs), k and v (B, n_kv, T, hs): each token's projections (they depend on that
    token only, so computing them ahead changes nothing). At step t the cache receives k_t and
    v_t and q_t attends over it; the check recomputes causal attention over tokens 0..t from
    scratch, as a decoder without a cache would, and keeps its last row.
    """
    if q.dim() != 4 or k.dim() != 4 or v.shape != k.shape or q.shape[2] != k.shape[2]:
        raise ValueError("q must be (B, nh, T, hs), k and v (B, n_kv, T, hs), same T")
    T = q.shape[2]
    n_steps = T if n_steps is None else min(n_steps, T)
    cache_k, cache_v = k[:, :, :0], v[:, :, :0]  # (B, n_kv, 0, hs): empty
    steps = []
    for t in range(n_steps):
        cache_k = torch.cat((cache_k, k[:, :, t : t + 1]), dim=2)  # (B, n_kv, t+1, hs)
        cache_v = torch.cat((cache_v, v[:, :, t : t + 1]), dim=2)
        new = grouped_query_attention(q[:, :, t : t + 1], cache_k, cache_v)  # one query row
        full = grouped_query_attention(
            q[:, :, : t + 1], k[:, :, : t + 1], v[:, :, : t + 1], causal=True
        )  # no cache: the whole prefix again
        out, ref = new.output[:, :, 0], full.output[:, :, t]  # (B, nh, hs)
        steps.append(
            CacheStep(
                position=t,
                cache_length=cache_k.shape[2],
                output=out,
                weights=new.weights[:, :, 0],
                recomputed=ref,
                max_diff=float((out - ref).abs().max()),
            )
        )
    output = torch.stack([s.output for s in steps], dim=2) if steps else q[:, :, :0]
    return CachedDecode(
        steps=tuple(steps),
        output=output,
        keys=cache_k,
        values=cache_v,
        max_diff=max((s.max_diff for s in steps), default=0.0),
    )
