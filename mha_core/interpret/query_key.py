"""The query/key map (AttentionViz, Yeh et al. 2023): one head's queries and keys projected
together to 2-D.

NumPy in, NumPy out. Shapes: Tq, Tk tokens, hs = d_k the size of a head.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


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
