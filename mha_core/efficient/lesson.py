"""What the Efficient attention page computes on one sentence's heads (q, k, v of one layer).

Every function takes the layer's queries, keys and values (1, nh, T, hs) and returns numpy at
the boundary, with the differences the page prints computed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import torch

from ..layer.attention import MultiHeadAttention
from ..layer.grouped import grouped_query_attention, kv_head_of, mean_pool_kv
from .flash import FlashResult, flash_attention
from .kv_cache import decode_with_cache
from .masks import ReceptiveField, attention_mask, receptive_field


def _max_abs(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a - b).abs().max()) if a.numel() else 0.0


def grouped_layer(mha: MultiHeadAttention, n_kv_heads: int) -> MultiHeadAttention:
    """The same layer with n_kv_heads key/value heads: the key and value projections of each
    group of heads mean-pooled, as Ainslie et al. (2023) turn a multi-head checkpoint into a
    grouped-query one. Query and output projections are kept; n_kv_heads = n_heads is a copy."""
    if not mha._qkv_same_embed_dim or mha.scoring != "dot":
        raise ValueError("grouping needs a dot-product self-attention layer (kdim = vdim = C)")
    nh, hs, C = mha.n_heads, mha.d_k, mha.d_model
    out = MultiHeadAttention(
        C, nh, n_kv_heads=n_kv_heads, scale=mha.scale, bias=mha.in_proj_bias is not None
    )
    group = nh // n_kv_heads

    def pool(rows: torch.Tensor) -> torch.Tensor:  # (nh hs, ...) -> (n_kv hs, ...)
        return rows.reshape(n_kv_heads, group, hs, -1).mean(dim=1).reshape(n_kv_heads * hs, -1)

    with torch.no_grad():
        wq, wk, wv = mha.in_proj_weight.split(C)  # (C, C) each
        out.in_proj_weight.copy_(torch.cat([wq, pool(wk), pool(wv)]))
        if mha.in_proj_bias is not None:
            bq, bk, bv = mha.in_proj_bias.split(C)
            pooled = [pool(bk[:, None])[:, 0], pool(bv[:, None])[:, 0]]
            out.in_proj_bias.copy_(torch.cat([bq, *pooled]))
        out.out_proj.load_state_dict(mha.out_proj.state_dict())
    return out.eval()


class GroupedHeads(NamedTuple):
    """The sentence's heads through the layer with n_kv key/value heads (`grouped_layer`)."""

    n_kv_heads: int
    kv_head: tuple[int, ...]  # (nh,) the key/value head each query head reads
    weights: np.ndarray  # (nh, T, T)
    output: np.ndarray  # (nh, T, hs)
    max_diff_mha: float  # max |output - multi-head output| (0 when n_kv == nh)
    max_diff_sdpa: float  # max |output - F.scaled_dot_product_attention(enable_gqa=True)|


def grouped_heads(
    mha: MultiHeadAttention, x: torch.Tensor, n_kv_heads: int, causal: bool
) -> GroupedHeads:
    """The sentence x (T, C) through `grouped_layer(mha, n_kv_heads)`, compared with the
    multi-head layer and with SDPA(enable_gqa=True) on the grouped layer's own q, k, v."""
    mask = "causal" if causal else None
    with torch.inference_mode():
        tr = grouped_layer(mha, n_kv_heads)(x, mask=mask)  # k, v: (1, n_kv, T, hs)
        mha_tr = mha(x, mask=mask)
        ref = torch.nn.functional.scaled_dot_product_attention(
            tr.q, tr.k, tr.v, is_causal=causal, enable_gqa=True
        )  # (1, nh, T, hs)
    return GroupedHeads(
        n_kv_heads=n_kv_heads,
        kv_head=tuple(kv_head_of(mha.n_heads, n_kv_heads)),
        weights=tr.weights[0].numpy(),
        output=tr.head_outputs[0].numpy(),
        max_diff_mha=_max_abs(tr.head_outputs, mha_tr.head_outputs),
        max_diff_sdpa=_max_abs(tr.head_outputs, ref),
    )


class CacheRun(NamedTuple):
    """Token-by-token decoding of the sentence with a cache of n_kv heads."""

    n_kv_heads: int
    n_steps: int
    cache_lengths: np.ndarray  # (S,) tokens in the cache after each step
    weights: tuple[np.ndarray, ...]  # step t: (nh, t+1) the new token's weights over the cache
    max_diffs: np.ndarray  # (S,) max |cached - recomputed| at each step
    max_diff: float


def cache_run(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, n_kv_heads: int, n_steps: int
) -> CacheRun:
    """Decode the first n_steps tokens with a KV cache of n_kv_heads (pooled) heads."""
    dec = decode_with_cache(q, mean_pool_kv(k, n_kv_heads), mean_pool_kv(v, n_kv_heads), n_steps)
    return CacheRun(
        n_kv_heads=n_kv_heads,
        n_steps=len(dec.steps),
        cache_lengths=np.array([s.cache_length for s in dec.steps]),
        weights=tuple(s.weights[0].numpy() for s in dec.steps),
        max_diffs=np.array([s.max_diff for s in dec.steps]),
        max_diff=dec.max_diff,
    )


class MaskedHeads(NamedTuple):
    """The sentence's heads under a window / sink / global mask, and how far layers reach."""

    mask: np.ndarray  # (T, T) bool
    weights: np.ndarray  # (nh, T, T)
    field: ReceptiveField


def masked_heads(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    window: int,
    n_sinks: int,
    global_tokens: Sequence[int],
    n_layers: int,
) -> MaskedHeads:
    """Causal attention restricted to the mask, and the receptive field after n_layers."""
    T = q.shape[2]
    mask = attention_mask(T, window=window, n_sinks=n_sinks, global_tokens=global_tokens)
    res = grouped_query_attention(q, k, v, mask=mask)
    special = sorted({*range(min(n_sinks, T)), *global_tokens})
    return MaskedHeads(
        mask=mask.numpy(),
        weights=res.weights[0].numpy(),
        field=receptive_field(mask, n_layers, special),
    )


class FlashRow(NamedTuple):
    """Tiled attention on the sentence, followed for one head and one query row."""

    result: FlashResult  # steps recorded for the row's query block only
    plain: np.ndarray  # (T, T) the head's plain weights softmax(q k^T / sqrt(d_k))
    scores: np.ndarray  # (T, T) the head's scaled scores (masked: -inf)
    key_ranges: tuple[tuple[int, int], ...]  # (S,) the key block of each step
    m: np.ndarray  # (S,) the row's running max after each step
    l: np.ndarray  # (S,) running sum
    rescale: np.ndarray  # (S,) exp(m_before - m)
    partial: np.ndarray  # (S, hs) the row's partial output after each step
    final: np.ndarray  # (hs,) the row of the plain computation
    max_diff_row: float  # max |tiled row - plain row|
    max_diff: float  # max |tiled - plain| over every head and row


def flash_row(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    block_size: int,
    causal: bool,
    head: int,
    row: int,
) -> FlashRow:
    """The tiles of one query row of one head, and the whole result against the plain one."""
    T, hs = q.shape[2], q.shape[3]
    res = flash_attention(q, k, v, block_size, causal, query_block=row // block_size)
    plain = grouped_query_attention(q, k, v, causal=causal)
    scores = (q[0, head] @ k[0, head].T) / hs**0.5  # (T, T)
    if causal:
        scores = scores.masked_fill(~torch.ones(T, T, dtype=torch.bool).tril(), float("-inf"))
    r = row - res.steps[0].q_start
    steps = res.steps
    return FlashRow(
        result=res,
        plain=plain.weights[0, head].numpy(),
        scores=scores.numpy(),
        key_ranges=tuple((s.k_start, s.k_stop) for s in steps),
        m=np.array([float(s.m[0, head, r]) for s in steps]),
        l=np.array([float(s.l[0, head, r]) for s in steps]),
        rescale=np.array([float(s.rescale[0, head, r]) for s in steps]),
        partial=np.stack([s.partial[0, head, r].numpy() for s in steps]),
        final=plain.output[0, head, row].numpy(),
        max_diff_row=_max_abs(res.output[0, head, row], plain.output[0, head, row]),
        max_diff=_max_abs(res.output, plain.output),
    )
