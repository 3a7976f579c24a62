"""Long texts at a glance: every head's weights averaged over blocks of tokens."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np


class Binned(NamedTuple):
    """(nh, Bq, Bk) mean weights over blocks of `size_q` queries x `size_k` keys, a label per
    block."""

    weights: np.ndarray
    q_labels: list[str]
    k_labels: list[str]
    size_q: int
    size_k: int


def _labels(n: int, size: int) -> list[str]:
    return [f"{b * size}–{min(n, (b + 1) * size) - 1}" for b in range(math.ceil(n / size))]


def bin_heads(weights: np.ndarray, most: int = 64) -> Binned:
    """(nh, Tq, Tk) -> (nh, Bq, Bk), at most `most` blocks a side: each cell the mean weight of
    a block of size_q x size_k tokens, each axis binned only as much as its own length needs
    (6 target tokens against 512 source tokens keep their 6 rows); the last blocks may be
    shorter; NaN cells are left out. Labels give each block's positions ("24–31")."""
    w = np.asarray(weights, dtype=np.float32)
    if w.ndim != 3:
        raise ValueError(f"weights must be (heads, Tq, Tk), got shape {w.shape}")
    nh, t_q, t_k = w.shape
    s_q, s_k = max(1, math.ceil(t_q / most)), max(1, math.ceil(t_k / most))
    b_q, b_k = math.ceil(t_q / s_q), math.ceil(t_k / s_k)
    blocks = (nh, b_q, s_q, b_k, s_k)

    def block_sums(a: np.ndarray) -> np.ndarray:  # (nh, Tq, Tk) -> (nh, Bq, Bk), zero-padded
        if a.shape[1:] != (b_q * s_q, b_k * s_k):
            a = np.pad(a, ((0, 0), (0, b_q * s_q - t_q), (0, b_k * s_k - t_k)))
        return a.reshape(blocks).sum(axis=(2, 4), dtype=np.float64)

    # sums / counts, not np.nanmean over a NaN-padded copy: a tenth of the time at 16 x 512
    nan = np.isnan(w)
    if nan.any():  # the NaN cells count neither in the sum nor in the count
        total, n = block_sums(np.where(nan, 0.0, w)), block_sums(~nan)
    else:  # every block full but the last row and column of blocks
        rows = np.minimum(s_q, t_q - s_q * np.arange(b_q))  # (Bq,) tokens in each block
        cols = np.minimum(s_k, t_k - s_k * np.arange(b_k))  # (Bk,)
        total, n = block_sums(w), np.outer(rows, cols)[None].astype(np.float64)
    mean = np.divide(total, n, out=np.full(total.shape, np.nan), where=n > 0).astype(np.float32)
    return Binned(mean, _labels(t_q, s_q), _labels(t_k, s_k), s_q, s_k)
