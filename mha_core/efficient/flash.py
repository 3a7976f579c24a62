"""FlashAttention's idea (Dao et al. 2022): attention tile by tile with an online softmax.

The plain computation holds a T x T score matrix. FlashAttention walks over blocks of keys
for each block of queries and never holds more than one block x block tile of scores. The
softmax needs the whole row, so it keeps, for every query row, a running max m, a running sum
l = sum exp(s - m) and an unnormalised output acc = sum exp(s - m) v. When a new key block
raises the max from m to m', the earlier sum and output are rescaled by exp(m - m'):

    m' = max(m, max_j s_j)         l' = exp(m - m') l + sum_j exp(s_j - m')
    acc' = exp(m - m') acc + sum_j exp(s_j - m') v_j          output = acc / l at the end

This is exact (not an approximation): the result equals softmax(q k^T / sqrt(d_k)) v up to
float rounding. Here the loop is written in PyTorch for reading, not for speed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import torch

from ..layer.grouped import repeat_kv


class FlashStep(NamedTuple):
    """The state of one query block after one key block (one tile) has been read."""

    query_block: int
    key_block: int
    q_start: int  # the tile covers queries q_start .. q_stop-1
    q_stop: int
    k_start: int  # and keys k_start .. k_stop-1
    k_stop: int
    tile_max: torch.Tensor  # (B, nh, bq) max score of each row in this tile
    m: torch.Tensor  # (B, nh, bq) running max after this tile
    l: torch.Tensor  # (B, nh, bq) running sum of exp(s - m) after this tile
    rescale: torch.Tensor  # (B, nh, bq) exp(m_before - m): the earlier sum and output shrink by it
    partial: torch.Tensor  # (B, nh, bq, hs) acc / l: the output if the keys ended at this tile


class FlashResult(NamedTuple):
    """Tiled attention: the output and, if recorded, every tile's step."""

    output: torch.Tensor  # (B, nh, Tq, hs)
    steps: tuple[FlashStep, ...]  # in the order computed (query block, then key block)
    block_size: int
    n_tiles: int  # tiles computed
    n_skipped: int  # tiles skipped because the causal mask hides them entirely
    m: torch.Tensor  # (B, nh, Tq) final row max
    l: torch.Tensor  # (B, nh, Tq) final row sum

    def steps_for_row(self, row: int) -> tuple[FlashStep, ...]:
        """The steps of the query block that holds `row`."""
        return tuple(s for s in self.steps if s.q_start <= row < s.q_stop)


def _check(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_size: int, causal: bool):
    if q.dim() != 4 or k.dim() != 4 or v.shape != k.shape:
        raise ValueError("q must be (B, nh, Tq, hs), k and v the same shape (B, n_kv, Tk, hs)")
    if q.shape[1] % k.shape[1]:
        raise ValueError(f"{q.shape[1]} query heads cannot share {k.shape[1]} key/value heads")
    if not isinstance(block_size, int) or block_size < 1:
        raise ValueError(f"block_size must be a whole number >= 1, got {block_size!r}")
    if causal and q.shape[2] != k.shape[2]:
        raise ValueError("causal tiled attention needs as many queries as keys")


def flash_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    block_size: int = 16,
    causal: bool = False,
    *,
    scale: float | None = None,
    record: bool = True,
    query_block: int | None = None,
) -> FlashResult:
    """Attention of q (B, nh, Tq, hs) over k, v (B, n_kv, Tk, hs) in block x block tiles.

    record: keep every tile's step (False: only the output). query_block: record only that
    query block's steps (what a page needs for one query row).
    """
    _check(q, k, v, block_size, causal)
    B, nh, Tq, hs = q.shape
    Tk = k.shape[2]
    k, v = repeat_kv(k, nh // k.shape[1]), repeat_kv(v, nh // v.shape[1])  # (B, nh, Tk, hs)
    scale = 1.0 / math.sqrt(hs) if scale is None else scale
    output = torch.zeros_like(q)  # (B, nh, Tq, hs)
    m_all = torch.full((B, nh, Tq), float("-inf"), dtype=q.dtype, device=q.device)
    l_all = torch.zeros(B, nh, Tq, dtype=q.dtype, device=q.device)
    steps, n_tiles, n_skipped = [], 0, 0
    for i, q0 in enumerate(range(0, Tq, block_size)):
        q1 = min(q0 + block_size, Tq)
        qi = q[:, :, q0:q1] * scale  # (B, nh, bq, hs)
        m = torch.full((B, nh, q1 - q0), float("-inf"), dtype=q.dtype, device=q.device)
        l = torch.zeros(B, nh, q1 - q0, dtype=q.dtype, device=q.device)
        acc = torch.zeros(B, nh, q1 - q0, hs, dtype=q.dtype, device=q.device)
        keep = record and (query_block is None or query_block == i)
        for j, k0 in enumerate(range(0, Tk, block_size)):
            if causal and k0 > q1 - 1:  # every key of this block is after every query
                n_skipped += 1
                continue
            k1 = min(k0 + block_size, Tk)
            s = qi @ k[:, :, k0:k1].transpose(-2, -1)  # (B, nh, bq, bk): one tile of scores
            if causal:
                rows, cols = torch.arange(q0, q1)[:, None], torch.arange(k0, k1)[None, :]
                s = s.masked_fill(cols > rows, float("-inf"))
            tile_max = s.amax(dim=-1)  # (B, nh, bq)
            m_new = torch.maximum(m, tile_max)  # (B, nh, bq)
            safe = torch.where(torch.isinf(m_new), 0.0, m_new)  # a row with no key yet
            p = torch.exp(s - safe[..., None])  # (B, nh, bq, bk)
            rescale = torch.exp(m - safe)  # (B, nh, bq) exp(m_old - m_new); 0 at the start
            l = rescale * l + p.sum(dim=-1)  # (B, nh, bq)
            acc = rescale[..., None] * acc + p @ v[:, :, k0:k1]  # (B, nh, bq, hs)
            m = m_new
            n_tiles += 1
            if keep:
                partial = acc / torch.where(l > 0, l, 1.0)[..., None]  # (B, nh, bq, hs)
                steps.append(FlashStep(i, j, q0, q1, k0, k1, tile_max, m, l, rescale, partial))
        output[:, :, q0:q1] = acc / torch.where(l > 0, l, 1.0)[..., None]  # (B, nh, bq, hs)
        m_all[:, :, q0:q1], l_all[:, :, q0:q1] = m, l
    return FlashResult(output, tuple(steps), block_size, n_tiles, n_skipped, m_all, l_all)


class ScoreMemory(NamedTuple):
    """Scores held at once, plain against tiled, over sequence lengths T."""

    t: np.ndarray  # (n,) sequence lengths
    plain: np.ndarray  # (n,) T x T scores (per head)
    tiled: np.ndarray  # (n,) one tile: min(T, block)^2 scores (per head)
    block_size: int


def score_memory(t_values: Sequence[int], block_size: int) -> ScoreMemory:
    """How many scores each method holds in memory at once, per head, for each T."""
    if block_size < 1:
        raise ValueError(f"block_size must be >= 1, got {block_size}")
    t = np.asarray(t_values, dtype=np.int64)
    if (t < 0).any():
        raise ValueError("sequence lengths must be >= 0")
    b = np.minimum(t, block_size)
    return ScoreMemory(t=t, plain=t * t, tiled=b * b, block_size=block_size)
