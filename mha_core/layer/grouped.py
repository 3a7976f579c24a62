"""Grouped-query attention (Ainslie et al. 2023) on heads that are already projected.

nh query heads share n_kv key/value heads: query head h reads key/value head h // (nh / n_kv)
(as in Hugging Face's `repeat_kv` and `F.scaled_dot_product_attention(..., enable_gqa=True)`).
n_kv = nh is multi-head attention, n_kv = 1 multi-query attention (Shazeer 2019).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch


def valid_kv_head_counts(n_heads: int) -> list[int]:
    """Every n_kv_heads that divides n_heads, smallest first (1 = MQA, n_heads = MHA)."""
    return [g for g in range(1, n_heads + 1) if n_heads % g == 0]


def check_kv_heads(n_heads: int, n_kv_heads: int) -> None:
    if not isinstance(n_kv_heads, int) or n_kv_heads < 1:
        raise ValueError(f"n_kv_heads must be a positive whole number, got {n_kv_heads!r}")
    if n_heads % n_kv_heads:
        raise ValueError(
            f"n_heads={n_heads} is not divisible by n_kv_heads={n_kv_heads}: "
            "each key/value head serves a group of n_heads / n_kv_heads query heads"
        )


def kv_head_of(n_heads: int, n_kv_heads: int) -> list[int]:
    """For each query head, the index of the key/value head it reads."""
    check_kv_heads(n_heads, n_kv_heads)
    group = n_heads // n_kv_heads
    return [h // group for h in range(n_heads)]


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """(B, n_kv, T, hs) -> (B, n_kv * n_rep, T, hs), each key/value head repeated n_rep times."""
    return x if n_rep == 1 else x.repeat_interleave(n_rep, dim=1)


def grouped_matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a (B, nh, Tq, X) @ b (B, n_kv, X, Y) -> (B, nh, Tq, Y), query head h against key/value
    head h // g (g = nh / n_kv): the g heads of a group stacked as g Tq rows of one matmul, so
    K and V are read in place rather than copied g times (`repeat_kv`)."""
    B, nh, Tq, X = a.shape
    n_kv = b.shape[1]
    if n_kv == nh:
        return a @ b
    out = a.reshape(B, n_kv, (nh // n_kv) * Tq, X) @ b  # (B, n_kv, g Tq, Y)
    return out.view(B, nh, Tq, b.shape[-1])


def mean_pool_kv(x: torch.Tensor, n_kv_heads: int) -> torch.Tensor:
    """(B, nh, T, hs) keys or values -> (B, n_kv, T, hs): the mean of each group of nh / n_kv
    consecutive heads. Ainslie et al. 2023 turn a multi-head checkpoint into a grouped-query one
    this way (mean-pooling the key and value projections of a group, which, the projection
    being linear, is mean-pooling its keys and values)."""
    B, nh, T, hs = x.shape
    check_kv_heads(nh, n_kv_heads)
    return x.view(B, n_kv_heads, nh // n_kv_heads, T, hs).mean(dim=2)  # (B, n_kv, T, hs)


class GroupedAttention(NamedTuple):
    """What grouped-query attention computed, per query head."""

    output: torch.Tensor  # (B, nh, Tq, hs)
    weights: torch.Tensor  # (B, nh, Tq, Tk); a row with no allowed key is all 0
    kv_head: tuple[int, ...]  # (nh,) the key/value head each query head reads
    n_kv_heads: int


def grouped_query_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    mask: torch.Tensor | None = None,
    bias: torch.Tensor | None = None,
    scale: float | None = None,
) -> GroupedAttention:
    """softmax(q k^T * scale + bias, masked) v with q (B, nh, Tq, hs), k, v (B, n_kv, Tk, hs).

    mask: bool, True where a query may attend, broadcastable to (B, nh, Tq, Tk); `causal`
    adds the causal mask (aligned to the last query, as for a decoder). bias: float, added to
    the scaled scores (e.g. ALiBi's), broadcastable to (B, nh, Tq, Tk). scale: 1/sqrt(hs) by
    default.
    """
    if q.dim() != 4 or k.dim() != 4 or v.shape != k.shape:
        raise ValueError("q must be (B, nh, Tq, hs), k and v the same shape (B, n_kv, Tk, hs)")
    B, nh, Tq, hs = q.shape
    n_kv, Tk = k.shape[1], k.shape[2]
    kv_head = kv_head_of(nh, n_kv)
    k = repeat_kv(k, nh // n_kv)  # (B, nh, Tk, hs)
    v = repeat_kv(v, nh // n_kv)  # (B, nh, Tk, hs)
    scale = 1.0 / math.sqrt(hs) if scale is None else scale
    att = (q * scale) @ k.transpose(-2, -1)  # (B, nh, Tq, Tk)
    if bias is not None:
        att = att + bias
    allowed = mask
    if causal:
        tri = torch.ones(Tq, Tk, dtype=torch.bool, device=q.device).tril(Tk - Tq)  # (Tq, Tk)
        allowed = tri if allowed is None else allowed & tri
    if allowed is not None:
        att = att.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(att, dim=-1)  # (B, nh, Tq, Tk)
    if allowed is not None:
        weights = weights.nan_to_num(0.0)  # a row with no allowed key: 0, not NaN
    return GroupedAttention(
        output=weights @ v, weights=weights, kv_head=tuple(kv_head), n_kv_heads=n_kv
    )
