"""Order: what self-attention sees of word order, and how sinusoidal positions relate.

1. Without positional encoding, self-attention is permutation-equivariant. Shuffle the tokens
   (shuffled[i] = tokens[perm[i]], i.e. X' = P X with P[i, perm[i]] = 1) and the weights become
   A' = P A P^T: every row and column moves with its token and no value changes. Adding the
   positional encoding breaks this, because the same word now gets a different vector at its
   new position.
2. The sinusoidal table makes relative offsets easy to read: with w_i = 1 / 10000^(2i/d),
   PE(p) . PE(q) = sum_i sin(p w_i) sin(q w_i) + cos(p w_i) cos(q w_i) = sum_i cos((p - q) w_i),
   a function of the offset p - q alone (for even d_model, where every sine has its cosine).
3. The interleaved and concatenated layouts of the table are the same numbers in a different
   column order: a fixed permutation of the dimensions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch

from .attention import MultiHeadAttention
from .config import AttentionConfig
from .pipeline import build_attention, run_attention
from .positional import frequencies, layout_permutation, sinusoidal_encoding, wavelengths


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
    a = run_attention(list(tokens), config, layer).trace.weights[0].double().numpy()
    b = run_attention(shuffled, config, layer).trace.weights[0].double().numpy()
    return ShuffleResult(
        tokens=list(tokens),
        perm=perm,
        shuffled_tokens=shuffled,
        weights=a,
        shuffled_weights=b,
        predicted=permute_attention(a, perm),
        positional=config.positional,
    )


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
