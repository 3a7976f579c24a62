"""Sinusoidal positional encoding (Vaswani et al. 2017, section 3.5).

PE[pos, 2i]   = sin(pos / base^(2i/d))
PE[pos, 2i+1] = cos(pos / base^(2i/d))
"""

from __future__ import annotations

import math

import torch

LAYOUTS = ("interleaved", "concatenated")


def _check(n_positions: int, d_model: int, base: float) -> None:
    if n_positions < 0:
        raise ValueError(f"n_positions must be >= 0, got {n_positions}")
    if d_model < 1:
        raise ValueError(f"d_model must be >= 1, got {d_model}")
    if not base > 1.0:
        raise ValueError(f"base must be > 1, got {base}")


def frequencies(d_model: int, base: float = 10000.0) -> torch.Tensor:
    """Angular frequency of each sin/cos pair i: 1 / base^(2i/d), shape (ceil(d/2),)."""
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d/2),)
    return torch.exp(-math.log(base) * two_i / d_model)


def wavelengths(d_model: int, base: float = 10000.0) -> torch.Tensor:
    """Wavelength in positions of each pair i: 2*pi * base^(2i/d), shape (ceil(d/2),)."""
    return (2 * math.pi / frequencies(d_model, base)).float()


def sinusoidal_encoding(
    n_positions: int, d_model: int, *, base: float = 10000.0, layout: str = "interleaved"
) -> torch.Tensor:
    """The (n_positions, d_model) table, float32.

    layout="interleaved": sin at even dimensions, cos at odd ones (the paper's formula).
    layout="concatenated": all sines first, then all cosines (as some codebases write it);
    it equals the interleaved table with its columns permuted.
    """
    _check(n_positions, d_model, base)
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    pos = torch.arange(n_positions, dtype=torch.float64)[:, None]  # (P, 1)
    angles = pos * frequencies(d_model, base)[None, :]  # (P, ceil(d/2))
    n_sin, n_cos = (d_model + 1) // 2, d_model // 2
    pe = torch.empty(n_positions, d_model, dtype=torch.float64)
    if layout == "interleaved":
        pe[:, 0::2] = torch.sin(angles)
        pe[:, 1::2] = torch.cos(angles[:, :n_cos])
    else:
        pe[:, :n_sin] = torch.sin(angles)
        pe[:, n_sin:] = torch.cos(angles[:, :n_cos])
    return pe.float()


def layout_permutation(d_model: int) -> torch.Tensor:
    """perm such that concatenated[:, perm] == interleaved (a fixed permutation of dimensions)."""
    n_sin = (d_model + 1) // 2
    perm = torch.empty(d_model, dtype=torch.long)
    perm[0::2] = torch.arange(n_sin)
    perm[1::2] = n_sin + torch.arange(d_model // 2)
    return perm
