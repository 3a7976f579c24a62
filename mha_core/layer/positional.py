"""Sinusoidal positional encoding (Vaswani et al. 2017, section 3.5).

PE[pos, 2i]   = sin(pos / base^(2i/d))
PE[pos, 2i+1] = cos(pos / base^(2i/d))

What the table shows a learner (`positional_table`):
- relative offsets are easy to read: with w_i = 1 / 10000^(2i/d),
  PE(p) . PE(q) = sum_i sin(p w_i) sin(q w_i) + cos(p w_i) cos(q w_i) = sum_i cos((p - q) w_i),
  a function of the offset p - q alone (for even d_model, where every sine has its cosine);
- the interleaved and concatenated layouts are the same numbers in a different column order:
  a fixed permutation of the dimensions.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import torch

from .config import check_d_model

LAYOUTS = ("interleaved", "concatenated")


def _check(n_positions: int, d_model: int, base: float) -> None:
    if n_positions < 0:
        raise ValueError(f"n_positions must be >= 0, got {n_positions}")
    check_d_model(d_model)
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


# --- the sinusoidal table ----------------------------------------------------------------------
def offset_similarity(offsets, d_model: int, base: float = 10000.0) -> np.ndarray:
    """sum_i cos(k w_i) for each offset k: the closed form of PE(p) . PE(p + k), even d_model."""
    if d_model % 2:
        raise ValueError(
            f"d_model={d_model} is odd: the last sine has no cosine partner, so PE(p) . PE(q) "
            "is not a function of p - q alone; use an even d_model"
        )
    k = np.asarray(offsets, dtype=np.float64)
    w = frequencies(d_model, base).numpy()  # (d/2,)
    return np.cos(k[..., None] * w).sum(axis=-1)


class PositionalTable(NamedTuple):
    """The sinusoidal table and what can be read from it, for one (n_positions, d_model)."""

    pe: np.ndarray  # (P, d) interleaved: sin at even, cos at odd dimensions
    concatenated: np.ndarray  # (P, d) all sines, then all cosines
    layout_perm: np.ndarray  # (d,) concatenated[:, layout_perm] == pe
    layout_max_diff: float  # max |concatenated[:, layout_perm] - pe| (0: only the order differs)
    wavelengths: np.ndarray  # (ceil(d/2),) 2 pi 10000^(2i/d), in positions
    similarity: np.ndarray  # (P, P) PE PE^T
    offset_spread: float  # max |PE(p) . PE(q) - PE(0) . PE(|p - q|)|: 0 if only p - q matters
    offset_max_dev: float  # max |PE PE^T - closed form sum_i cos((p - q) w_i)|
    value_min: float
    value_max: float

    def offset_profile(self, anchor: int) -> tuple[np.ndarray, np.ndarray]:
        """Offsets k = q - anchor and the similarity PE(anchor) . PE(q), over all positions q."""
        n = self.similarity.shape[0]
        if not 0 <= anchor < n:
            raise ValueError(f"anchor must be a position 0..{n - 1}, got {anchor}")
        return np.arange(n) - anchor, self.similarity[anchor]


def positional_table(n_positions: int, d_model: int) -> PositionalTable:
    """Everything the positional-encoding explorer shows, computed from the core's table."""
    if n_positions < 1:
        raise ValueError(f"n_positions must be >= 1, got {n_positions}")
    pe = sinusoidal_encoding(n_positions, d_model).double().numpy()  # (P, d)
    concat = sinusoidal_encoding(n_positions, d_model, layout="concatenated").double().numpy()
    perm = layout_permutation(d_model).numpy()
    sim = pe @ pe.T  # (P, P)
    pos = np.arange(n_positions)
    offset = np.abs(pos[:, None] - pos[None, :])  # (P, P) |p - q|
    # same offset, same similarity: compare every entry with the first row's entry at |p - q|
    spread = float(np.abs(sim - sim[0][offset]).max())
    if d_model % 2 == 0:
        closed = offset_similarity(pos, d_model)[offset]  # (P, P) sum_i cos((p - q) w_i)
        max_dev = float(np.abs(sim - closed).max())
    else:
        max_dev = float("nan")  # odd d_model: no closed form in p - q
    return PositionalTable(
        pe=pe,
        concatenated=concat,
        layout_perm=perm,
        layout_max_diff=float(np.abs(concat[:, perm] - pe).max()),
        wavelengths=wavelengths(d_model).double().numpy(),
        similarity=sim,
        offset_spread=spread,
        offset_max_dev=max_dev,
        value_min=float(pe.min()),
        value_max=float(pe.max()),
    )
