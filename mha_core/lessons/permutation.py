"""Order: what self-attention sees of word order.

1. Without positional encoding, self-attention is permutation-equivariant. Shuffle the tokens
   (shuffled[i] = tokens[perm[i]], i.e. X' = P X with P[i, perm[i]] = 1) and the weights become
   A' = P A P^T: every row and column moves with its token and no value changes. Adding the
   positional encoding breaks this, because the same word now gets a different vector at its
   new position.
The sinusoidal table itself (offsets, layouts) is in `positional.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..layer.attention import MultiHeadAttention
from ..layer.config import AttentionConfig
from ..layer.pipeline import build_attention, run_attention


# --- shuffling a sentence ----------------------------------------------------------------------
def shuffle_permutation(n: int, seed: int = 0) -> np.ndarray:
    """A seeded random order of n positions; never the identity when n >= 2."""
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    g = torch.Generator().manual_seed(int(seed))
    perm = torch.randperm(n, generator=g).numpy()
    if n >= 2 and np.array_equal(perm, np.arange(n)):
        perm = np.roll(perm, 1)  # a shuffle that changes nothing would show nothing
    return perm


def permutation_matrix(perm) -> np.ndarray:
    """(n, n) P with P[i, perm[i]] = 1, so that (P X)[i] = X[perm[i]]."""
    perm = np.asarray(perm)
    _check_perm(perm, len(perm))
    p = np.zeros((len(perm), len(perm)))
    p[np.arange(len(perm)), perm] = 1.0
    return p


def permute_attention(weights: np.ndarray, perm) -> np.ndarray:
    """P A P^T for weights (..., T, T): row i and column j of the result are row perm[i] and
    column perm[j] of A."""
    perm = np.asarray(perm)
    _check_perm(perm, weights.shape[-1])
    return weights[..., perm, :][..., :, perm]


def _check_perm(perm: np.ndarray, n: int) -> None:
    if perm.shape != (n,) or not np.array_equal(np.sort(perm), np.arange(n)):
        raise ValueError(f"perm must be a permutation of 0..{n - 1}, got {perm.tolist()}")


@dataclass(frozen=True, eq=False)
class ShuffleResult:
    """One sentence and its shuffle through the same attention layer."""

    tokens: list[str]
    perm: np.ndarray  # (T,) shuffled_tokens[i] = tokens[perm[i]]
    shuffled_tokens: list[str]
    weights: np.ndarray  # (nh, T, T) attention of the sentence in its own order
    shuffled_weights: np.ndarray  # (nh, T, T) attention of the shuffled sentence
    predicted: np.ndarray  # (nh, T, T) P A P^T: the original weights, rows and columns moved
    positional: bool

    @property
    def difference(self) -> np.ndarray:
        """(nh, T, T) A' - P A P^T: zero everywhere if shuffling only permutes."""
        return self.shuffled_weights - self.predicted

    @property
    def max_abs_diff(self) -> float:
        return float(np.abs(self.difference).max()) if self.difference.size else 0.0


def shuffle_attention(
    tokens: list[str], config: AttentionConfig, perm, layer: MultiHeadAttention | None = None
) -> ShuffleResult:
    """Attention of `tokens` and of `tokens` reordered by `perm`, with the same layer and
    embeddings, and the prediction P A P^T that holds exactly when there is no positional
    encoding (and no causal mask, which is itself tied to positions)."""
    perm = np.asarray(perm)
    _check_perm(perm, len(tokens))
    layer = build_attention(config) if layer is None else layer
    shuffled = [tokens[i] for i in perm]
    a = run_attention(list(tokens), config, layer).attention.weights[0].double().numpy()
    b = run_attention(shuffled, config, layer).attention.weights[0].double().numpy()
    return ShuffleResult(
        tokens=list(tokens),
        perm=perm,
        shuffled_tokens=shuffled,
        weights=a,
        shuffled_weights=b,
        predicted=permute_attention(a, perm),
        positional=config.positional,
    )
