"""Scores besides the scaled dot product (which `MultiHeadAttention.forward` computes in plain
sight, q . k / sqrt(hs), Vaswani et al. 2017):

- `AdditiveScorer`: v_h^T tanh(W_q q + W_k k) per head (Bahdanau et al. 2015), with weights;
- `finite_scores`: scores divided by a tiny temperature, kept finite.
"""

from __future__ import annotations

import math

import torch
from torch import nn


def finite_scores(att: torch.Tensor, temperature: float, scale_factor: float) -> torch.Tensor:
    """A tiny temperature may overflow the scores: clamp to the largest finite value, never inf."""
    if temperature < 1.0 or not math.isfinite(scale_factor / temperature):
        big = torch.finfo(att.dtype).max
        return torch.nan_to_num(att, nan=0.0, posinf=big, neginf=-big)
    return att


class AdditiveScorer(nn.Module):
    """Bahdanau scores per head h: v_h^T tanh(W_q^h q_i + W_k^h k_j); never scaled."""

    def __init__(self, n_heads: int, d_k: int) -> None:
        super().__init__()
        self.w_q = nn.Parameter(torch.empty(n_heads, d_k, d_k))  # W_q per head
        self.w_k = nn.Parameter(torch.empty(n_heads, d_k, d_k))  # W_k per head
        self.v = nn.Parameter(torch.empty(n_heads, d_k))  # v per head

    @torch.no_grad()
    def reset_parameters(self, generator: torch.Generator) -> None:
        """Uniform in +-1/sqrt(hs), from the layer's seeded generator."""
        bound = 1.0 / math.sqrt(self.v.shape[-1])
        for p in (self.w_q, self.w_k, self.v):
            p.uniform_(-bound, bound, generator=generator)

    def raw_scores(self, q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        """(B, nh, Tq, Tk) v^T tanh(W_q q_i + W_k k_j)."""
        qa = torch.einsum("bhtd,hde->bhte", q, self.w_q.to(q.dtype))  # (B, nh, Tq, hs)
        ka = torch.einsum("bhtd,hde->bhte", k, self.w_k.to(k.dtype))  # (B, nh, Tk, hs)
        feat = torch.tanh(qa[:, :, :, None, :] + ka[:, :, None, :, :])  # (B, nh, Tq, Tk, hs)
        return torch.einsum("bhqke,he->bhqk", feat, self.v.to(q.dtype))  # (B, nh, Tq, Tk)

