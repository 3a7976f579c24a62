"""Head statistics: what kind of head is this?

All functions take attention weights (nh, Tq, Tk) (one sentence) as a numpy array or tensor and
return numpy results. Rows that are all zero (fully masked queries) are left out of every mean.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

_EPS = 1e-12


def _as_numpy(weights) -> np.ndarray:
    w = weights.detach().cpu().numpy() if hasattr(weights, "detach") else np.asarray(weights)
    w = w.astype(np.float64)
    if w.ndim != 3:
        raise ValueError(f"weights must be (heads, Tq, Tk), got shape {w.shape}")
    return w


def row_entropy(p):
    """(...,) entropy in nats of each row of p (..., T), in float64; 0 log 0 counts as 0.
    Tensor in, tensor out; array in, array out."""
    if isinstance(p, torch.Tensor):
        x = p.double()
        return -(x * torch.log(torch.where(x > 0, x, 1.0))).sum(dim=-1)
    x = np.asarray(p, dtype=np.float64)
    return -(x * np.log(np.where(x > 0, x, 1.0))).sum(axis=-1)


def _row_mean(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Mean over query rows (axis 1) of (nh, Tq) values, counting only valid rows."""
    n = valid.sum(axis=1)
    total = np.where(valid, values, 0.0).sum(axis=1)
    return np.divide(total, n, out=np.full(values.shape[0], np.nan), where=n > 0)


# Where a query row's weight goes, by position: the key itself, the one before, the one after,
# the first. One definition for the head statistics (`head_stats`, `head_kinds`) and the reading
# page's corpus categories (mha_core.interpret.corpus.attention_shares).
POSITIONS: tuple[str, ...] = ("self", "prev", "next", "first")


def position_shares(w: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """(4, ...) the mean share of each row's weight on `POSITIONS`, of weights w (..., T, T).

    Every share is a mean over the same query rows (`valid` (..., T), default all): a row
    without a previous (row 0) or a next token (row T-1) counts 0 there, so the four read on
    one footing (a perfect previous-token head reads (T-1)/T on "prev"). They overlap: on row 0
    the key itself is the first, on row 1 the previous one is.
    """
    w = np.asarray(w, dtype=np.float64)
    T = w.shape[-1]
    if valid is None:
        valid = np.ones(w.shape[:-1], dtype=bool)
    per_row = np.zeros((len(POSITIONS), *w.shape[:-1]))  # (4, ..., T)
    per_row[0] = np.diagonal(w, axis1=-2, axis2=-1)
    if T > 1:
        per_row[1][..., 1:] = np.diagonal(w, offset=-1, axis1=-2, axis2=-1)
        per_row[2][..., :-1] = np.diagonal(w, offset=1, axis1=-2, axis2=-1)
    per_row[3] = w[..., :, 0]
    n = valid.sum(axis=-1)
    total = np.where(valid, per_row, 0.0).sum(axis=-1)  # (4, ...)
    return np.divide(total, n, out=np.full(total.shape, np.nan), where=n > 0)


@dataclass(frozen=True)
class HeadStats:
    """One value per head, each a mean over the query rows that attend somewhere."""

    entropy: np.ndarray  # (nh,) nats; 0 = one key only, uniform_entropy = uniform
    max_weight: np.ndarray  # (nh,) the largest weight in a row
    mean_distance: np.ndarray  # (nh,) sum_j w_ij |i - j|, in tokens (short vs long range)
    # (nh,) `position_shares`: over the same rows, a missing neighbour counting 0
    self_share: np.ndarray  # w_ii
    prev_share: np.ndarray  # w_i,i-1
    next_share: np.ndarray  # w_i,i+1
    first_share: np.ndarray  # w_i,0
    # (nh,) the entropy of a head that spreads each row evenly over the keys the mask lets it
    # see: the mean of ln(visible keys) over the same rows (ln Tk without a mask; under a causal
    # mask row i sees i + 1 keys). Not a column of the table: it describes the mask, not the head.
    uniform_entropy: np.ndarray

    @property
    def n_heads(self) -> int:
        return len(self.entropy)

    def as_dict(self) -> dict[str, np.ndarray]:
        return {
            "entropy": self.entropy,
            "max_weight": self.max_weight,
            "mean_distance": self.mean_distance,
            "self_share": self.self_share,
            "prev_share": self.prev_share,
            "next_share": self.next_share,
            "first_share": self.first_share,
        }


def head_stats(weights, allowed=None) -> HeadStats:
    """Statistics of every head of a self-attention pattern (nh, T, T).

    `allowed`: the mask the weights were computed under, bool broadcastable to (nh, T, T), True
    where a query may attend to a key (None: every key). It sets the uniform reference.
    """
    w = _as_numpy(weights)  # (nh, T, T)
    nh, t_q, t_k = w.shape
    if t_q != t_k:
        raise ValueError("head statistics need self-attention (a square pattern)")
    T = t_q
    valid = w.sum(axis=-1) > 0.5  # (nh, T) rows that attend somewhere
    if allowed is None:
        n_visible = np.full((nh, T), float(T))
    else:
        a = allowed.detach().cpu().numpy() if hasattr(allowed, "detach") else np.asarray(allowed)
        n_visible = np.broadcast_to(a.astype(bool), w.shape).sum(axis=-1).astype(np.float64)
    uniform = np.log(np.maximum(n_visible, 1.0))  # (nh, T) ln(visible keys); 0 for one key
    ent = row_entropy(w)  # (nh, T)
    pos = np.arange(T)
    dist = np.abs(pos[:, None] - pos[None, :])  # (T, T)
    mean_dist = (w * dist[None]).sum(axis=-1)  # (nh, T)
    on_self, on_prev, on_next, on_first = position_shares(w, valid)  # (nh,) each
    return HeadStats(
        entropy=_row_mean(ent, valid),
        max_weight=_row_mean(w.max(axis=-1), valid),
        mean_distance=_row_mean(mean_dist, valid),
        self_share=on_self,
        prev_share=on_prev,
        next_share=on_next,
        first_share=on_first,
        uniform_entropy=_row_mean(uniform, valid),
    )


def head_similarity(weights) -> np.ndarray:
    """(nh, nh) similarity of heads' patterns: 1 - Jensen-Shannon divergence (bits).

    Averaged over the query rows both heads use. 1 = the same distribution on every row,
    0 = no key in common on any row.
    """
    w = _as_numpy(weights)  # (nh, Tq, Tk)
    nh = w.shape[0]
    valid = w.sum(axis=-1) > 0.5  # (nh, Tq)

    def plogp(a):  # a log2 a, with 0 log 0 = 0
        return a * np.log2(np.clip(a, _EPS, None))

    # JS(p, q) = H(m) - (H(p) + H(q)) / 2 with m = (p + q) / 2: one head against the heads
    # after it at a time, (nh, Tq, Tk) at most (all pairs at once would be nh times that)
    neg_h = plogp(w).sum(-1)  # (nh, Tq) -H(p)
    js = np.zeros((nh, nh, w.shape[1]))  # (nh, nh, Tq)
    for i in range(nh):
        m = 0.5 * (w[i] + w[i:])  # (nh - i, Tq, Tk)
        js[i, i:] = 0.5 * (neg_h[i] + neg_h[i:]) - plogp(m).sum(-1)
        js[i:, i] = js[i, i:]
    both = valid[:, None] & valid[None, :]  # (nh, nh, Tq)
    n = both.sum(-1)
    total = np.where(both, js, 0).sum(-1)  # (nh, nh)
    sim = 1.0 - np.divide(total, n, out=np.full((nh, nh), np.nan), where=n > 0)
    return np.clip(sim, 0.0, 1.0)


def head_kinds(stats: HeadStats, *, share: float = 0.5, broad: float = 0.9) -> list[str]:
    """A one-word reading of each head: "self", "prev", "next", "first", "broad" or "mixed".

    A head is "self"/"prev"/"next"/"first" when on average at least `share` of a row's weight goes
    there (largest wins); "broad" when its entropy is at least `broad` x the entropy of a head
    uniform over the keys each row may see (`stats.uniform_entropy`, which follows the mask);
    otherwise "mixed".
    """
    kinds = []
    for h in range(stats.n_heads):
        max_ent = stats.uniform_entropy[h]
        shares = {
            "self": stats.self_share[h],
            "prev": stats.prev_share[h],
            "next": stats.next_share[h],
            "first": stats.first_share[h],
        }
        shares = {k: v for k, v in shares.items() if np.isfinite(v)}
        best = max(shares, key=shares.get) if shares else None
        if best is not None and shares[best] >= share:
            kinds.append(best)
        elif np.isfinite(max_ent) and max_ent > 0 and stats.entropy[h] >= broad * max_ent:
            kinds.append("broad")
        else:
            kinds.append("mixed")
    return kinds


def hide_tokens(weights, keep) -> np.ndarray:
    """Drop the rows and columns of hidden tokens and renormalise every row to sum to 1.

    weights (..., T, T), keep (T,) bool. A row whose kept weights are all 0 stays all 0.
    """
    w = weights.detach().cpu().numpy() if hasattr(weights, "detach") else np.asarray(weights)
    keep = np.asarray(keep, dtype=bool)
    if keep.shape != (w.shape[-1],) or w.shape[-1] != w.shape[-2]:
        raise ValueError(f"keep {keep.shape} does not fit weights {w.shape}")
    sub = w[..., keep, :][..., :, keep].astype(np.float64)  # (..., T', T')
    total = sub.sum(axis=-1, keepdims=True)
    out = np.divide(sub, total, out=np.zeros_like(sub), where=total > 0)
    return out.astype(np.float32)


def shown_attention(weights, tokens, keep) -> tuple[np.ndarray, list[str]]:
    """weights (..., T, T) and their T tokens with the tokens where `keep` (T,) is False hidden
    (`hide_tokens`: rows renormalised); keep None shows every token; nothing kept gives
    (..., 0, 0) and no tokens."""
    w = weights.detach().cpu().numpy() if hasattr(weights, "detach") else np.asarray(weights)
    if keep is None:
        return w, list(tokens)
    keep = np.asarray(keep, dtype=bool)
    if not keep.any():
        return w[..., :0, :0], []
    return hide_tokens(w, keep), [tok for tok, k in zip(tokens, keep, strict=True) if k]


# What a head looks at most, by the mean weight of its rows on one place: the query's own token,
# the one before or after it (offsets, square patterns only), or one key position for every row.
FOCUS_KINDS = ("self", "previous", "next", "key")


@dataclass(frozen=True)
class HeadFocus:
    """Where one head puts the largest mean weight: `kind` (FOCUS_KINDS), the key position for
    "key" (else None) and that mean weight over the query rows that can have it."""

    head: int
    kind: str
    key: int | None
    weight: float


def is_attention(weights, tol: float = 1e-3) -> bool:
    """True when every row of (nh, Tq, Tk) is a distribution (sums to 1) or empty (all 0, a
    fully masked query), and some row is not empty: attention weights, not scores."""
    w = _as_numpy(weights)
    if not w.size or not np.isfinite(w).all() or (w < -tol).any():
        return False
    sums = w.sum(axis=-1)
    whole = np.abs(sums - 1) <= tol
    return bool(whole.any() and (whole | (sums <= tol)).all())


def head_focus(weights) -> list[HeadFocus]:
    """For each head of attention weights (nh, Tq, Tk): the place its rows weigh most on average.

    Candidates: w_ii ("self"), w_i,i-1 ("previous"), w_i,i+1 ("next") when Tq == Tk, as
    `position_shares` reads them (the head statistics' one definition: a row without that
    neighbour counts 0), and each key column j ("key"), each a mean over the rows that attend
    somewhere. A tie goes to the earlier candidate in that order, so a one-token sentence is
    "self". Rows that are all zero are left out."""
    w = _as_numpy(weights)  # (nh, Tq, Tk)
    nh, t_q, t_k = w.shape
    valid = w.sum(axis=-1) > 0.5  # (nh, Tq)
    out = []
    for h in range(nh):
        cands: list[tuple[float, str, int | None]] = []
        if t_q == t_k and valid[h].any():
            shares = position_shares(w[h], valid[h])  # (4,) self, previous, next, first
            for kind, share in zip(("self", "previous", "next"), shares[:3], strict=False):
                cands.append((float(share), kind, None))
        if valid[h].any():
            cols = w[h][valid[h]].mean(axis=0)  # (Tk,)
            j = int(np.argmax(cols))
            cands.append((float(cols[j]), "key", j))
        if not cands:
            continue
        best = max(cands, key=lambda c: c[0])  # max keeps the first of equal ones
        out.append(HeadFocus(h, best[1], best[2], best[0]))
    return out
