"""Why attention divides its scores by sqrt(d_k): the statistics behind the scaling lab.

For independent q, k in R^d_k whose components have mean 0 and variance 1,

    Var(q . k) = sum_i Var(q_i k_i) = d_k,   so   std(q . k) = sqrt(d_k),

whatever the distribution of the components. Unscaled scores therefore grow with d_k, the
softmax over them saturates (one weight -> 1, entropy -> 0) and its Jacobian, the gradient
that training needs, vanishes. Dividing by sqrt(d_k) brings the std back to 1.

Everything here is measured by seeded sampling (torch), returned as numpy in typed results.
The same settings (seed, largest d_k, purpose) always draw the same numbers.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import torch

from ..layer.config import check_seed, check_temperature
from ..layer.stats import row_entropy

DISTRIBUTIONS = ("normal", "uniform", "rademacher")
# d_k from 1 to 1024: powers of two and the points halfway between them (3 * 2^k)
D_K_GRID = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
_CHUNK = 1 << 22  # random numbers drawn at once: bounds memory at d_k = 1024
_STREAM_DOT, _STREAM_SAT = 1, 2


# --- sampling -------------------------------------------------------------------------------
def _generator(seed: int, d_max: int, stream: int) -> torch.Generator:
    """One reproducible stream per (seed, largest d_k, purpose)."""
    check_seed(seed)
    return torch.Generator().manual_seed((seed * 4099 + d_max) * 8 + stream)


def unit_variance(shape: tuple[int, ...], distribution: str, g: torch.Generator) -> torch.Tensor:
    """Independent components with mean 0 and variance 1 (float32).

    normal: N(0, 1); uniform: U(-sqrt(3), sqrt(3)); rademacher: -1 or +1 with probability 1/2.
    """
    if distribution == "normal":
        return torch.randn(shape, generator=g)
    if distribution == "uniform":
        return (torch.rand(shape, generator=g) * 2.0 - 1.0) * math.sqrt(3.0)
    if distribution == "rademacher":
        return torch.randint(0, 2, shape, generator=g).float() * 2.0 - 1.0
    raise ValueError(f"distribution must be one of {DISTRIBUTIONS}, got {distribution!r}")


def _check_d_ks(d_ks) -> tuple[int, ...]:
    d_ks = tuple(int(d) for d in d_ks)
    if not d_ks or min(d_ks) < 1:
        raise ValueError(f"every d_k must be a whole number >= 1, got {d_ks}")
    return d_ks


def _prefix_dots(q: torch.Tensor, k: torch.Tensor, d_ks: tuple[int, ...]) -> torch.Tensor:
    """(..., len(d_ks)) float64: q . k over the first d_k components, for every d_k at once."""
    partial = torch.cumsum(q.double() * k.double(), dim=-1)  # (..., D)
    return partial[..., [d - 1 for d in d_ks]]


def dot_products(d_ks, n_samples: int, seed: int = 0, distribution: str = "normal") -> np.ndarray:
    """(n_samples, len(d_ks)) float64: q . k for independent unit-variance q, k (unscaled).

    One draw of max(d_ks)-dimensional pairs; the score at d_k sums their first d_k
    components, so each column is exactly q . k in R^d_k and the curves over d_k are smooth.
    """
    d_ks = _check_d_ks(d_ks)
    if n_samples < 2:
        raise ValueError(f"need n_samples >= 2, got {n_samples}")
    d_max = max(d_ks)
    g = _generator(seed, d_max, _STREAM_DOT)
    rows = max(1, _CHUNK // (2 * d_max))
    out = []
    for start in range(0, n_samples, rows):
        n = min(rows, n_samples - start)
        q = unit_variance((n, d_max), distribution, g)  # (n, D)
        k = unit_variance((n, d_max), distribution, g)  # (n, D)
        out.append(_prefix_dots(q, k, d_ks))  # (n, len(d_ks))
    return torch.cat(out).numpy()


class DotProductStats(NamedTuple):
    """The spread of q . k against d_k: measured (sampled) next to the theory sqrt(d_k)."""

    d_k: np.ndarray  # (n,) int
    std: np.ndarray  # (n,) measured std of q . k
    scaled_std: np.ndarray  # (n,) measured std of q . k / sqrt(d_k)
    theory: np.ndarray  # (n,) sqrt(d_k)
    mean: np.ndarray  # (n,) measured mean of q . k (theory: 0)
    samples: np.ndarray  # (n_samples, n) the sampled q . k, one column per d_k
    n_samples: int
    seed: int
    distribution: str

    @property
    def scaled_theory(self) -> np.ndarray:
        """(n,) sqrt(d_k) / sqrt(d_k) = 1: the std that scaling aims at."""
        return self.theory / np.sqrt(self.d_k)

    def relative_error(self) -> np.ndarray:
        """(n,) |measured std - sqrt(d_k)| / sqrt(d_k)."""
        return np.abs(self.std - self.theory) / self.theory

    def at(self, d_k: int) -> DotProductSample:
        """The samples, unscaled and scaled, at one d_k of the grid."""
        hits = np.flatnonzero(self.d_k == d_k)
        if not len(hits):
            raise ValueError(f"d_k={d_k} was not measured; choose one of {self.d_k.tolist()}")
        j = int(hits[0])
        unscaled = self.samples[:, j]
        return DotProductSample(int(d_k), unscaled, unscaled / self.theory[j])


class DotProductSample(NamedTuple):
    d_k: int
    unscaled: np.ndarray  # (n_samples,) q . k
    scaled: np.ndarray  # (n_samples,) q . k / sqrt(d_k)

    @property
    def unscaled_range(self) -> tuple[float, float]:
        return float(self.unscaled.min()), float(self.unscaled.max())

    @property
    def scaled_range(self) -> tuple[float, float]:
        return float(self.scaled.min()), float(self.scaled.max())

    @property
    def one_std_odds(self) -> tuple[float, float, float, float]:
        """(gap, e^gap, scaled gap, e^scaled gap): two scores one sampled std apart get
        softmax weights in the ratio e^gap, unscaled and scaled."""
        gap, sgap = float(self.unscaled.std(ddof=1)), float(self.scaled.std(ddof=1))
        return gap, math.exp(gap), sgap, math.exp(sgap)


def dot_product_stats(
    d_ks=D_K_GRID, n_samples: int = 4000, seed: int = 0, distribution: str = "normal"
) -> DotProductStats:
    """Measure std(q . k) and std(q . k / sqrt(d_k)) for each d_k from n_samples pairs."""
    d_ks = _check_d_ks(d_ks)
    d_arr = np.asarray(d_ks)
    theory = np.sqrt(d_arr.astype(np.float64))
    s = dot_products(d_ks, n_samples, seed, distribution)  # (n_samples, len(d_ks))
    return DotProductStats(
        d_k=d_arr,
        std=s.std(axis=0, ddof=1),
        scaled_std=(s / theory).std(axis=0, ddof=1),
        theory=theory,
        mean=s.mean(axis=0),
        samples=s,
        n_samples=n_samples,
        seed=seed,
        distribution=distribution,
    )


# --- softmax: saturation and its Jacobian ----------------------------------------------------
def softmax_jacobian(p: torch.Tensor) -> torch.Tensor:
    """(..., T, T) d softmax / d logits = diag(p) - p p^T, for probabilities p of shape (..., T)."""
    return torch.diag_embed(p) - p[..., :, None] * p[..., None, :]


def _sum_of_others(x: torch.Tensor) -> torch.Tensor:
    """(..., T): sum_{j != i} x_j for each i, from prefix and suffix sums (no subtraction, so
    no cancellation when one x_i dominates)."""
    zero = torch.zeros_like(x[..., :1])
    before = torch.cat((zero, torch.cumsum(x, dim=-1)[..., :-1]), dim=-1)  # sum_{j < i}
    after = torch.cat((torch.cumsum(x.flip(-1), dim=-1).flip(-1)[..., 1:], zero), dim=-1)
    return before + after


def jacobian_norm(p: torch.Tensor) -> torch.Tensor:
    """(...,) Frobenius norm of the softmax Jacobian at p (..., T), without cancellation.

    ||J||_F^2 = sum_i p_i^2 (1 - p_i)^2 + sum_i p_i^2 sum_{j != i} p_j^2. Here 1 - p_i is the
    sum of the other probabilities (not subtracted from 1), so a saturated softmax
    (p_i = 1 - 1e-20) still gets its tiny but exact gradient instead of rounding noise.
    """
    p = p.double()
    p2 = p * p
    rest = _sum_of_others(p)  # (..., T) 1 - p_i
    return torch.sqrt((p2 * rest * rest + p2 * _sum_of_others(p2)).sum(dim=-1))


def row_measures(p: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Max weight, entropy (nats) and softmax-Jacobian norm of each row of p (..., T)."""
    return p.double().max(dim=-1).values, row_entropy(p), jacobian_norm(p)


class RowStats(NamedTuple):
    """Averages over rows of attention weights."""

    max_weight: float  # mean over rows of the largest weight (1/T uniform ... 1 one-hot)
    entropy: float  # mean entropy in nats (log T uniform ... 0 one-hot)
    jacobian: float  # mean Frobenius norm of the softmax Jacobian
    n_rows: int


def row_stats(weights: torch.Tensor, rows: torch.Tensor | None = None) -> RowStats:
    """RowStats of weights (..., T); `rows` (...,) bool selects the rows to average (for
    example the rows that have a key to attend to)."""
    p = weights.double().reshape(-1, weights.shape[-1])  # (N, T)
    if rows is not None:
        p = p[rows.reshape(-1)]
    if p.shape[0] == 0:
        raise ValueError("there are no rows to average over")
    mx, ent, jac = row_measures(p)
    return RowStats(float(mx.mean()), float(ent.mean()), float(jac.mean()), int(p.shape[0]))


class SaturationCurves(NamedTuple):
    """How the softmax of random scores behaves as d_k grows, unscaled against scaled."""

    d_k: np.ndarray  # (n,)
    max_weight: np.ndarray  # (2, n): [unscaled, scaled] mean max weight per row
    entropy: np.ndarray  # (2, n): mean entropy per row (nats)
    jacobian: np.ndarray  # (2, n): mean Frobenius norm of the softmax Jacobian
    n_keys: int  # T, the keys each query scores
    n_rows: int  # queries (rows) averaged per d_k
    seed: int
    distribution: str

    @property
    def uniform(self) -> RowStats:
        """The reference of uniform weights 1/T: the least saturated a row can be."""
        t = self.n_keys
        return RowStats(1.0 / t, math.log(t), math.sqrt(1.0 / t - 1.0 / t**2), 0)


def saturation_curves(
    d_ks=D_K_GRID,
    n_keys: int = 16,
    n_rows: int = 256,
    seed: int = 0,
    distribution: str = "normal",
) -> SaturationCurves:
    """For each d_k: n_rows queries each score n_keys random keys; softmax of q . k (unscaled)
    and of q . k / sqrt(d_k) (scaled); the rows' mean max weight, entropy and Jacobian norm.

    As in `dot_products`, one draw of max(d_ks)-dimensional vectors serves every d_k.
    """
    d_ks = _check_d_ks(d_ks)
    if n_keys < 2 or n_rows < 1:
        raise ValueError(f"need n_keys >= 2 and n_rows >= 1, got {n_keys}, {n_rows}")
    d_max = max(d_ks)
    g = _generator(seed, d_max, _STREAM_SAT)
    q = unit_variance((n_rows, 1, d_max), distribution, g)  # (N, 1, D)
    k = unit_variance((n_rows, n_keys, d_max), distribution, g)  # (N, T, D)
    scores = _prefix_dots(q, k, d_ks)  # (N, T, G): row of T scores at each of G d_k
    scores = scores.permute(2, 0, 1)  # (G, N, T)
    scale = torch.tensor(d_ks, dtype=torch.float64).sqrt()[:, None, None]  # (G, 1, 1)
    logits = torch.stack((scores, scores / scale))  # (2, G, N, T): unscaled, scaled
    p = torch.softmax(logits, dim=-1)  # (2, G, N, T)
    out = np.stack([m.mean(dim=-1).numpy() for m in row_measures(p)])  # (3, 2, G)
    return SaturationCurves(
        d_k=np.asarray(d_ks),
        max_weight=out[0],
        entropy=out[1],
        jacobian=out[2],
        n_keys=n_keys,
        n_rows=n_rows,
        seed=seed,
        distribution=distribution,
    )


def saturation_rows(n_samples: int, n_keys: int, min_rows: int = 64) -> int:
    """Rows (queries) per d_k so that rows x keys stays near the sample budget."""
    return max(min_rows, n_samples // n_keys)


# --- temperature ------------------------------------------------------------------------------
def tempered_softmax(
    scores: torch.Tensor, temperature: float, allowed: torch.Tensor | None = None
) -> torch.Tensor:
    """softmax(scores / temperature) over the last axis, in float64; masked keys get 0 and a row
    with no allowed key is all 0 (never NaN)."""
    check_temperature(temperature)
    logits = scores.double() / temperature
    if allowed is not None:
        logits = logits.masked_fill(~allowed, float("-inf"))
        empty = ~allowed.any(dim=-1, keepdim=True)
        logits = logits.masked_fill(empty, 0.0)
        return torch.softmax(logits, dim=-1).masked_fill(empty, 0.0)
    return torch.softmax(logits, dim=-1)


def equivalent_temperature(d_k: int) -> float:
    """The softmax temperature that equals scaling the scores by 1/sqrt(d_k): sqrt(d_k)."""
    return math.sqrt(d_k)


class TemperatureSweep(NamedTuple):
    """Row statistics of softmax(scores / tau) for each temperature tau."""

    temperatures: np.ndarray  # (n,)
    max_weight: np.ndarray  # (n,)
    entropy: np.ndarray  # (n,)
    jacobian: np.ndarray  # (n,)


def temperature_sweep(
    scores: torch.Tensor, temperatures, allowed: torch.Tensor | None = None
) -> TemperatureSweep:
    """RowStats of softmax(scores / tau) over all rows that have a key to attend to.

    scores (..., Tq, Tk) raw; allowed broadcastable to it, True where attending is allowed.
    """
    taus = np.asarray(temperatures, dtype=np.float64)
    rows = None
    if allowed is not None:
        allowed = allowed.expand(scores.shape)
        rows = allowed.any(dim=-1)  # (..., Tq)
    stats = [row_stats(tempered_softmax(scores, float(tau), allowed), rows) for tau in taus]
    return TemperatureSweep(
        temperatures=taus,
        max_weight=np.array([s.max_weight for s in stats]),
        entropy=np.array([s.entropy for s in stats]),
        jacobian=np.array([s.jacobian for s in stats]),
    )


def temperature_grid(lo: float = 0.25, hi: float = 128.0, per_octave: int = 2) -> tuple:
    """Geometric temperatures lo, lo*2^(1/per_octave), ..., hi (rounded to 4 digits)."""
    n = round(math.log2(hi / lo) * per_octave)
    return tuple(round(lo * 2 ** (i / per_octave), 4) for i in range(n + 1))


# --- the user's sentence ---------------------------------------------------------------------
class SentenceScaling(NamedTuple):
    """One sentence through one layer: scaled, unscaled and at a chosen temperature tau."""

    d_k: int
    scaled: np.ndarray  # (nh, T, T) softmax(QK^T / sqrt(d_k)), from the layer
    unscaled: np.ndarray  # (nh, T, T) softmax(QK^T)
    tempered: np.ndarray  # (nh, T, T) softmax(QK^T / tau)
    temperature: float  # tau
    score_std: float  # std (population) of the raw scores QK^T (allowed entries, all heads)
    scaled_score_std: float  # std of QK^T / sqrt(d_k)
    stats: dict[str, RowStats]  # "unscaled", "scaled", "tempered": averages over all rows
    tempered_vs_scaled: float  # max |softmax(QK^T / tau) - softmax(QK^T / sqrt(d_k))|
    sweep: TemperatureSweep  # statistics of softmax(QK^T / tau) over a grid of tau


def sentence_scaling(scaled, unscaled, tempered, temperatures) -> SentenceScaling:
    """Compare three traces of the same sentence and layer (AttentionTrace, batch of one):
    scaled (1/sqrt(d_k)), unscaled, and unscaled at temperature tau; sweep tau over
    `temperatures` on the raw scores."""
    for tr in (scaled, unscaled, tempered):
        if tr.scoring != "dot":
            raise ValueError("the scaling lab needs dot-product scores (scoring='dot')")
    raw = unscaled.scores[0].double()  # (nh, T, T) Q K^T
    if not torch.equal(raw, scaled.scores[0].double()) or unscaled.scale_factor != 1.0:
        raise ValueError("the traces must come from the same layer, the unscaled one unscaled")
    d_k = scaled.q.shape[-1]
    allowed = None if scaled.allowed is None else scaled.allowed[0].expand(raw.shape)
    rows = ~scaled.empty_rows[0]  # (nh, T)
    entries = raw if allowed is None else raw[allowed]
    stats = {
        name: row_stats(tr.weights[0], rows)
        for name, tr in (("unscaled", unscaled), ("scaled", scaled), ("tempered", tempered))
    }
    return SentenceScaling(
        d_k=d_k,
        scaled=scaled.weights[0].double().numpy(),
        unscaled=unscaled.weights[0].double().numpy(),
        tempered=tempered.weights[0].double().numpy(),
        temperature=tempered.temperature,
        score_std=float(entries.std(correction=0)),
        scaled_score_std=float((entries / math.sqrt(d_k)).std(correction=0)),
        stats=stats,
        tempered_vs_scaled=float((tempered.weights[0] - scaled.weights[0]).abs().max()),
        sweep=temperature_sweep(raw, temperatures, allowed),
    )
