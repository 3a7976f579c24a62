"""How a query scores a key: one scorer per kind, chosen by `scoring` ("dot" or "additive").

- `DotProductScorer`: q . k / sqrt(hs), the scaled dot product (Vaswani et al. 2017);
- `AdditiveScorer`: v_h^T tanh(W_q q + W_k k) per head (Bahdanau et al. 2015), with weights.

A scorer maps q (B, nh, Tq, hs), k (B, nh, Tk, hs) and a temperature to `Scores`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch
from torch import nn


class Scores(NamedTuple):
    scaled: torch.Tensor  # (B, nh, Tq, Tk) scores * scale_factor / temperature, before the mask
    scale_factor: float  # 1/sqrt(hs) for scaled dot products, else 1
    raw: torch.Tensor | None  # (B, nh, Tq, Tk) additive only: the raw scores, kept for the trace


def finite_scores(att: torch.Tensor, temperature: float, scale_factor: float) -> torch.Tensor:
    """A tiny temperature may overflow the scores: clamp to the largest finite value, never inf."""
    if temperature < 1.0 or not math.isfinite(scale_factor / temperature):
        big = torch.finfo(att.dtype).max
        return torch.nan_to_num(att, nan=0.0, posinf=big, neginf=-big)
    return att


class DotProductScorer(nn.Module):
    """Scaled dot-product scores q . k / sqrt(hs) (no weights of its own)."""

    def __init__(self, d_k: int, scale: bool = True) -> None:
        super().__init__()
        self.d_k, self.scale = d_k, scale

    def reset_parameters(self, generator: torch.Generator) -> None:
        """Nothing to draw."""

    def forward(self, q: torch.Tensor, k: torch.Tensor, temperature: float = 1.0) -> Scores:
        scale_factor = 1.0 / math.sqrt(self.d_k) if self.scale else 1.0
        s = scale_factor / temperature
        # scale q (Tq x hs) instead of the scores (Tq x Tk): one small op, not a T x T pass
        att = (q * s if s != 1.0 else q) @ k.transpose(-2, -1)  # (B, nh, Tq, Tk)
        return Scores(finite_scores(att, temperature, scale_factor), scale_factor, None)


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

    def forward(self, q: torch.Tensor, k: torch.Tensor, temperature: float = 1.0) -> Scores:
        raw = self.raw_scores(q, k)  # (B, nh, Tq, Tk)
        att = raw / temperature if temperature != 1.0 else raw
        return Scores(finite_scores(att, temperature, 1.0), 1.0, raw)


def make_scorer(scoring: str, n_heads: int, d_k: int, *, scale: bool = True) -> nn.Module:
    """The scorer for `scoring` ("dot" or "additive")."""
    if scoring == "additive":
        return AdditiveScorer(n_heads, d_k)
    if scoring == "dot":
        return DotProductScorer(d_k, scale)
    raise ValueError(f"unknown scoring {scoring!r}")
