"""ALiBi: attention with linear biases (Press et al. 2022, "Train Short, Test Long").

No positional encoding is added to the embeddings; instead each head h adds
-slope_h * (i - j) to the score of query i on key j: the farther back a key, the lower its
score, at a rate that differs per head. Press et al. (abstract) report that a 1.3B model
trained on 1,024 tokens with ALiBi, evaluated on 2,048, matches the perplexity of a sinusoidal
model trained on 2,048 tokens, and trains 11% faster.
"""

from __future__ import annotations

import math

import torch

from .grouped import GroupedAttention, grouped_query_attention


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """The slope of each head, shape (nh,), float32.

    For a power of two H: 2^(-8h/H) for h = 1 .. H (a geometric sequence starting at 2^(-8/H)).
    Otherwise BLOOM's rule (as in Press et al.'s code): the slopes of the closest smaller power
    of two P, followed by every other slope of 2P (the odd ones) until there are H.
    """
    if not isinstance(n_heads, int) or n_heads < 1:
        raise ValueError(f"n_heads must be a positive whole number, got {n_heads!r}")
    p = 2 ** math.floor(math.log2(n_heads))  # closest power of two <= n_heads

    def powers(n: int) -> list[float]:
        return [2.0 ** (-8.0 * h / n) for h in range(1, n + 1)]

    slopes = powers(p) + powers(2 * p)[0::2][: n_heads - p]
    return torch.tensor(slopes, dtype=torch.float32)


def alibi_bias(n_heads: int, t: int) -> torch.Tensor:
    """(nh, T, T) float32 bias added to the scores: -slope_h * (i - j) on and below the diagonal.

    Above the diagonal (keys after the query, which a causal model masks) the bias is
    -slope_h * |i - j|, the symmetric form that bidirectional ALiBi variants use.
    """
    if t < 0:
        raise ValueError(f"t must be >= 0, got {t}")
    pos = torch.arange(t)
    distance = (pos[:, None] - pos[None, :]).abs().float()  # (T, T) |i - j|
    return -alibi_slopes(n_heads)[:, None, None] * distance  # (nh, T, T)


def alibi_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool = True
) -> GroupedAttention:
    """Attention of q (B, nh, T, hs) over k, v with each head's ALiBi bias added to its scaled
    scores (q and k carry no positional encoding: the bias is the only position signal)."""
    nh, T = q.shape[1], q.shape[2]
    bias = alibi_bias(nh, T).to(device=q.device, dtype=q.dtype)  # (nh, T, T)
    return grouped_query_attention(q, k, v, causal=causal, bias=bias)
