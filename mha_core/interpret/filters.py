"""The threshold / top-k filter shown on every heatmap of the Reading heads page, and the share of
attention mass it hides.

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
