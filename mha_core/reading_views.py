"""The arithmetic behind two views of the Reading heads page: the threshold / top-k filter shown
on every heatmap (and the share of attention mass it hides), and the query/key map (AttentionViz,
Yeh et al. 2023: one head's queries and keys projected together to 2-D).

NumPy in, NumPy out; nothing here knows about pages or figures.
Shapes: T (or Tq, Tk) tokens, hs = d_k the size of a head.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

FILTERS = ("none", "threshold", "top_k")


class FilteredAttention(NamedTuple):
    """A matrix with some cells hidden, and how much of its mass that hides."""

    shown: np.ndarray  # (..., Tq, Tk) float: the matrix, NaN where hidden
    hidden: np.ndarray  # (..., Tq, Tk) bool: True where hidden
    hidden_share: float  # hidden mass / total mass (0.0 when nothing is hidden or the total is 0)
    n_hidden: int  # cells hidden


def filter_attention(matrix, mode: str = "none", *, threshold: float = 0.0, top_k: int = 1):
    """Hide cells of an attention matrix (..., Tq, Tk) of non-negative values.

    - mode "none": nothing hidden;
    - mode "threshold": cells below `threshold` hidden (a cell equal to it stays);
    - mode "top_k": each row keeps its `top_k` largest cells (ties broken by position, the
      earlier key first), the rest hidden.

    `hidden_share` is the hidden cells' sum over the whole matrix's sum: for one row-stochastic
    (T, T) matrix, the mean over query rows of the weight each row loses. Cells already NaN count
    as hidden and as no mass.
    """
    m = np.asarray(matrix, dtype=np.float64)
    if m.ndim < 2:
        raise ValueError(f"matrix must be at least (Tq, Tk), got shape {m.shape}")
    if mode not in FILTERS:
        raise ValueError(f"filter must be one of {FILTERS}, got {mode!r}")
    values = np.where(np.isnan(m), 0.0, m)
    if (values < 0).any():
        raise ValueError("the filter works on attention (weights or shares), which is never < 0")
    if mode == "threshold":
        if not (math.isfinite(threshold) and threshold >= 0):
            raise ValueError(f"threshold must be a number >= 0, got {threshold!r}")
        hidden = values < threshold
    elif mode == "top_k":
        if int(top_k) != top_k or top_k < 1:
            raise ValueError(f"top-k must be a whole number >= 1, got {top_k!r}")
        order = np.argsort(-values, axis=-1, kind="stable")  # (..., Tq, Tk) largest first
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, np.arange(m.shape[-1]), axis=-1)  # rank of each cell
        hidden = ranks >= int(top_k)
    else:
        hidden = np.zeros(m.shape, dtype=bool)
    hidden = hidden | np.isnan(m)
    total = float(values.sum())
    lost = float(values[hidden].sum())
    return FilteredAttention(
        shown=np.where(hidden, np.nan, m),
        hidden=hidden,
        hidden_share=lost / total if total > 0 else 0.0,
        n_hidden=int(hidden.sum()),
    )


class QueryKeyMap(NamedTuple):
    """One head's queries and keys in the same 2-D plane."""

    queries: np.ndarray  # (Tq, 2) coordinates of each query
    keys: np.ndarray  # (Tk, 2) coordinates of each key (translated when asked)
    explained: np.ndarray  # (2,) share of the variance of all points along each axis
    translation: np.ndarray  # (hs,) what was added to every key (zeros when not translated)


def query_key_map(q, k, *, translate_keys: bool = True) -> QueryKeyMap:
    """PCA of one head's queries q (Tq, hs) and keys k (Tk, hs) together, one projection for
    both (AttentionViz). With `translate_keys`, the keys are first moved so that their mean is the
    queries' mean: q . (k_j + c) = q . k_j + q . c adds the same number to a query's scores for
    every key, so softmax (the attention) is unchanged, and queries sit among the keys they
    score highly instead of in a separate cloud.

    Axes: the two directions of largest variance of the Tq + Tk points (signs fixed so that the
    largest coefficient of each is positive). Fewer than two directions (e.g. one token): the
    missing axis is all zeros, with 0 variance explained.
    """
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    if q.ndim != 2 or k.ndim != 2 or q.shape[1] != k.shape[1] or not len(q) or not len(k):
        raise ValueError(
            f"queries and keys must be (T, d_k) with the same d_k, got {q.shape} and {k.shape}"
        )
    shift = q.mean(axis=0) - k.mean(axis=0) if translate_keys else np.zeros(q.shape[1])  # (hs,)
    pts = np.concatenate([q, k + shift])  # (Tq + Tk, hs)
    centred = pts - pts.mean(axis=0)  # (Tq + Tk, hs)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)  # vt (r, hs), s (r,)
    axes = np.zeros((2, q.shape[1]))  # (2, hs)
    n = min(2, vt.shape[0])
    axes[:n] = vt[:n]
    for a in axes:
        big = np.argmax(np.abs(a))
        if a[big] < 0:
            a *= -1.0
    var = s**2
    explained = np.zeros(2)
    if var.sum() > 0:
        explained[:n] = var[:n] / var.sum()
    coords = centred @ axes.T  # (Tq + Tk, 2)
    return QueryKeyMap(
        queries=coords[: len(q)], keys=coords[len(q) :], explained=explained, translation=shift
    )
