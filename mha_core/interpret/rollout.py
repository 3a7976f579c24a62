"""Attention rollout (Abnar & Zuidema 2020, "Quantifying Attention Flow in Transformers"): one
layer's weights do not say where information came from across layers; rollout multiplies the
layers' head-averaged weights (with the residual connection counted as half an identity).

Shapes: L layers, nh heads, T tokens.
"""

from __future__ import annotations

import numpy as np
import torch


def rollout(attentions, *, residual: bool = True):
    """Attention rollout (Abnar & Zuidema 2020) after every layer.

    `attentions` (L, nh, T, T), a tensor or a NumPy array of row-stochastic weights (rows are
    queries, columns keys). Returns (L, T, T) of the same kind (tensor in, tensor out; array in,
    array out) and the same floating dtype (float64 for integer input). Entry l is the rollout
    through layers 0..l:

        A_l = mean over heads of attentions[l]                  # (T, T)
        A_l = rownorm(0.5 * A_l + 0.5 * I)                       # with `residual` (the default)
        R_0 = A_0;  R_l = A_l @ R_{l-1}                          # later layers on the LEFT

    so R_l[i, j] is how much of token i's representation after layer l traces back to input
    token j. Every row sums to 1 when the input rows do (a row of zeros, a query with no allowed
    key, becomes the identity row with `residual`, and stays zero without it).
    """
    numpy_in = not isinstance(attentions, torch.Tensor)
    a = torch.from_numpy(np.asarray(attentions)) if numpy_in else attentions
    if a.dim() != 4 or a.shape[-1] != a.shape[-2] or a.shape[0] < 1 or a.shape[1] < 1:
        raise ValueError(
            "attentions must be shaped (layers, heads, T, T) with at least one layer and head, "
            f"got {tuple(a.shape)}"
        )
    if not a.is_floating_point():
        a = a.to(torch.float64)
    L, _, T, _ = a.shape
    A = a.mean(dim=1)  # (L, T, T) heads averaged
    if residual:
        A = 0.5 * A + 0.5 * torch.eye(T, dtype=A.dtype, device=A.device)  # (L, T, T)
        A = A / A.sum(dim=-1, keepdim=True)  # rows renormalised
    R = torch.empty_like(A)  # (L, T, T)
    R[0] = A[0]
    for i in range(1, L):
        R[i] = A[i] @ R[i - 1]  # (T, T): layer i applied after layers 0..i-1
    return R.numpy() if numpy_in else R


def row_shares(matrix):
    """Rows divided by their sums (rows summing to 0 stay 0): norms -> shares of each query's
    total. Tensor or array in, the same kind out."""
    total = matrix.sum(-1, keepdims=True) if isinstance(matrix, np.ndarray) else None
    if total is None:
        total = matrix.sum(dim=-1, keepdim=True)
        return torch.where(total > 0, matrix / total.clamp_min(torch.finfo(matrix.dtype).tiny), 0)
    safe = np.where(total > 0, total, 1.0)
    return np.where(total > 0, matrix / safe, 0.0)
