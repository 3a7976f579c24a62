"""The Lesson page's questions, each answered from the model on the screen.

Every station of the lesson asks one question before it shows anything. Its answer is never a
fixed key: each function here takes what the core computed for the learner's sentence and
settings (a trace, statistics, a configuration) and returns a `Question`: the options (stable
values: token or head indices as text, or option ids), the set of right options, and the live
numbers the feedback quotes. torch and numpy only.

Shapes: nh heads, T tokens, C = d_model, d_k = C / nh.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

from ..efficient.kv_cache import kv_cache_bytes

# kinds of question: how the page draws the options
CHOICE = "choice"  # a few option ids, their texts from the string table
TOKEN = "token"  # a token of a sentence, by position ("3")
HEAD = "head"  # a head, by index ("2")

SHARE_BINS = ("lt25", "25to50", "50to75", "gt75")  # a weight or share in [0, 1]
SHARE_EDGES = (0.25, 0.5, 0.75)
SPREAD_RATIOS = ("1", "2", "4", "16")  # how much std(q.k) grows from d_k = 16 to 64
SHUFFLE = ("permute", "change")
CAUSAL_BINS = ("zero", "below", "above")  # 0, (0, 1/T), >= 1/T
NORM_MEANS = ("token", "feature", "both", "neither")
KV_FORMULAS = ("c", "kv", "kvt", "w")
WEIGHT_NORM = ("same", "different")
ZERO_TOL = 1e-6  # a mean or a difference this small is 0 (float32 rounding)


@dataclass(frozen=True)
class Question:
    """One station's question on the numbers on the screen."""

    station: str
    kind: str  # CHOICE, TOKEN or HEAD
    options: tuple[str, ...]  # stable values, in the order shown
    right: frozenset[str]  # the options that are right (usually one)
    facts: dict = field(default_factory=dict)  # live numbers and names the texts quote

    def __post_init__(self) -> None:
        if not self.right or not self.right <= set(self.options):
            raise ValueError(f"{self.station}: right answers {set(self.right)} not in options")

    def is_right(self, answer: str) -> bool:
        return answer in self.right

    @property
    def answer(self) -> str:
        """The right option (the first in the order shown, when several are right)."""
        return next(o for o in self.options if o in self.right)


def _np(x) -> np.ndarray:
    return x.detach().double().cpu().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


def share_bin(value: float) -> str:
    """The SHARE_BINS id of a share in [0, 1]."""
    return SHARE_BINS[int(np.searchsorted(SHARE_EDGES, value, side="right"))]


def focus(tokens: Sequence[str]) -> int:
    """The token a question follows: the last one with a letter or digit in it (a word, not the
    closing full stop), else the last token."""
    for i in range(len(tokens) - 1, -1, -1):
        if any(c.isalnum() for c in tokens[i]):
            return i
    return len(tokens) - 1


def _token_options(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(n))


def _argmax_allowed(row: np.ndarray, allowed: np.ndarray | None) -> int:
    row = np.where(allowed, row, -np.inf) if allowed is not None else row
    return int(np.argmax(row))


def _key_question(
    station: str, tokens: Sequence[str], right: frozenset, head: int, q: int, key: int, **facts
) -> Question:
    """A click on a token: which key does query q favour in `head` (`key`: the first right one)."""
    facts = {"head": head, "q": q, "key": key, **facts}
    return Question(station, TOKEN, _token_options(len(tokens)), right, facts)


# 1. why attention: equal weights against weighing ---------------------------------------------
def why_attention(tokens: Sequence[str], weights, allowed=None, head: int = 0) -> Question:
    """Which token does the focus token (`focus`) weigh most in head `head`? weights
    (nh, T, T), allowed (T, T) or None. The right answer is the argmax of that row (ties:
    every maximal key)."""
    w = _np(weights)[head]  # (T, T)
    q = focus(tokens)
    row = w[q]
    n_allowed = int(np.asarray(allowed)[q].sum()) if allowed is not None else len(tokens)
    best = float(row.max())
    right = frozenset(str(j) for j in np.flatnonzero(row >= best - ZERO_TOL))
    top = int(np.argmax(row))
    facts = {"w": best, "uniform": 1.0 / n_allowed, "n": n_allowed, "row": row}
    return _key_question("why", tokens, right, head, q, top, ratio=best * n_allowed, **facts)


# 2. queries, keys and values: the dot-product scores ------------------------------------------
def qkv_scores(tokens: Sequence[str], scores, allowed=None, head: int | None = None) -> Question:
    """Which key gets the focus token's highest score q.k in head `head` (default: the last
    head)? scores (nh, T, T) raw, before scaling; allowed (T, T) or None (masked keys are not
    candidates)."""
    s = _np(scores)
    head = s.shape[0] - 1 if head is None else head
    q = focus(tokens)
    ok = None if allowed is None else np.asarray(allowed)[q]
    row = s[head, q]
    top = _argmax_allowed(row, ok)
    cand = row if ok is None else np.where(ok, row, -np.inf)
    right = frozenset(str(j) for j in np.flatnonzero(cand >= row[top] - ZERO_TOL))
    order = np.argsort(-cand, kind="stable")
    second = int(order[1]) if len(order) > 1 and np.isfinite(cand[order[1]]) else None
    return _key_question(
        "qkv",
        tokens,
        right,
        head,
        q,
        top,
        score=float(row[top]),
        second=second,
        second_score=None if second is None else float(row[second]),
        d_k=None,
    )


# 3. scaling by 1/sqrt(d_k) --------------------------------------------------------------------
def spread_growth(
    d_ks: Sequence[int], std: Sequence[float], lo: int = 16, hi: int = 64
) -> Question:
    """std(q.k) goes from d_k = lo to d_k = hi: by about how much does it grow? The measured
    ratio std[hi] / std[lo], and the nearest option (on a log scale) is right."""
    d_ks, std = list(d_ks), _np(std)
    ratio = float(std[d_ks.index(hi)] / std[d_ks.index(lo)])
    nearest = min(SPREAD_RATIOS, key=lambda r: abs(np.log(float(r)) - np.log(ratio)))
    return Question(
        "scaling",
        CHOICE,
        SPREAD_RATIOS,
        frozenset({nearest}),
        {
            "lo": lo,
            "hi": hi,
            "ratio": ratio,
            "std_lo": float(std[d_ks.index(lo)]),
            "std_hi": float(std[d_ks.index(hi)]),
            "sqrt_ratio": float(np.sqrt(hi / lo)),
            "d_ks": d_ks,
            "std": std,
        },
    )


# 4. softmax and the weighted sum of values ----------------------------------------------------
def softmax_top(tokens: Sequence[str], weights, head: int | None = None) -> Question:
    """After the softmax, how much weight does the focus token give its top key in head `head`
    (default: the last head)? The right option is the SHARE_BINS bin of that weight."""
    w = _np(weights)
    head = w.shape[0] - 1 if head is None else head
    q = focus(tokens)
    row = w[head, q]
    top = int(np.argmax(row))
    return Question(
        "softmax",
        CHOICE,
        SHARE_BINS,
        frozenset({share_bin(float(row[top]))}),
        {"head": head, "q": q, "key": top, "w": float(row[top]), "sum": float(row.sum())},
    )


# 5. many heads ----------------------------------------------------------------------------------
def farthest_head(mean_distance, d_model: int, n_tokens: int | None = None) -> Question:
    """Which head looks farthest (the largest mean attention distance sum_j w_ij |i - j|)?
    mean_distance (nh,) from `head_stats`. The facts add what h heads of d_model/h cost: the
    same 4 d_model^2 projection weights (+ 4 d_model biases) for every h, and (with n_tokens T)
    the multiplications of the scores, h x T^2 x d_k = T^2 x d_model, one full-width head's."""
    d = _np(mean_distance)
    d = np.where(np.isfinite(d), d, -np.inf)
    best = float(d.max())
    right = frozenset(str(h) for h in np.flatnonzero(d >= best - ZERO_TOL))
    top, low = int(np.argmax(d)), int(np.argmin(np.where(np.isfinite(d), d, np.inf)))
    return Question(
        "heads",
        HEAD,
        tuple(str(h) for h in range(len(d))),
        right,
        {
            "head": top,
            "dist": best,
            "near": low,
            "near_dist": float(d[low]),
            "params": 4 * d_model * d_model + 4 * d_model,
            "n_heads": len(d),
            "d_k": d_model // len(d),
            "T": n_tokens,
            "score_mults": None if n_tokens is None else len(d) * n_tokens**2 * (d_model // len(d)),
            "full_mults": None if n_tokens is None else n_tokens**2 * d_model,
        },
    )


# 6. positional encoding: shuffling the words ----------------------------------------------------
def shuffle_effect(
    max_abs_diff: float, positional: bool, plain_diff: float | None = None
) -> Question:
    """Shuffle the words: does the attention only move (A' = P A P^T) or change? Right:
    "permute" when the measured max |A' - P A P^T| is 0 (to float32 rounding), else "change".
    plain_diff: the same shuffle's difference without positional encoding and without a mask
    (the contrast the feedback quotes), or None."""
    permutes = max_abs_diff < ZERO_TOL
    return Question(
        "positional",
        CHOICE,
        SHUFFLE,
        frozenset({"permute" if permutes else "change"}),
        {
            "diff": float(max_abs_diff),
            "positional": positional,
            "plain_diff": None if plain_diff is None else float(plain_diff),
        },
    )


# 7. the decoder's mask ----------------------------------------------------------------------------
def causal_weight(tokens: Sequence[str], causal_weights, head: int = 0) -> Question:
    """With the causal mask, how much weight does token 0 give the last token? causal_weights
    (nh, T, T) computed under the causal mask. Right: "zero" when it is exactly 0, else the bin
    against 1/T. Needs T >= 2."""
    w = _np(causal_weights)
    T = len(tokens)
    if T < 2:
        raise ValueError("the causal mask needs two tokens: type a second word")
    value = float(w[head, 0, T - 1])
    right = "zero" if value == 0.0 else ("below" if value < 1.0 / T else "above")
    return Question(
        "mask",
        CHOICE,
        CAUSAL_BINS,
        frozenset({right}),
        {
            "head": head,
            "q": 0,
            "key": T - 1,
            "w": value,
            "uniform": 1.0 / T,
            "above_max": float(np.triu(w, k=1).max()) if T > 1 else 0.0,
        },
    )


# 8. Add & Norm ------------------------------------------------------------------------------------
def _means(normed) -> tuple[float, float]:
    """The largest |mean| of a token over its features and of a feature over the tokens."""
    y = _np(normed)
    if y.ndim == 3:
        y = y[0]
    return float(np.abs(y.mean(axis=-1)).max()), float(np.abs(y.mean(axis=0)).max())


def norm_means(layer_normed, batch_normed=None) -> Question:
    """After LayerNorm of the residual sum x + attention(x) (T, C): whose mean is 0, each
    token's over its features, each feature's over the tokens, both or neither? Measured. With
    batch_normed (BatchNorm of the same sum, statistics over the tokens) the facts add its two
    means too: the contrast the feedback quotes."""
    token_mean, feature_mean = _means(layer_normed)  # over features (T,), over tokens (C,)
    bn = (None, None) if batch_normed is None else _means(batch_normed)
    tok, feat = token_mean < 1e-5, feature_mean < 1e-5
    right = {(True, False): "token", (False, True): "feature", (True, True): "both"}.get(
        (tok, feat), "neither"
    )
    return Question(
        "addnorm",
        CHOICE,
        NORM_MEANS,
        frozenset({right}),
        {
            "token_mean": token_mean,
            "feature_mean": feature_mean,
            "bn_token_mean": bn[0],
            "bn_feature_mean": bn[1],
        },
    )


# 9. the Transformer: cross-attention --------------------------------------------------------------
def cross_top(src_tokens: Sequence[str], tgt_tokens: Sequence[str], cross) -> Question:
    """In the decoder's cross-attention (Tq target tokens x Tk source tokens, one head), which
    source token does the target's focus token weigh most? cross (T_tgt, T_src)."""
    w = _np(cross)
    q = focus(tgt_tokens)
    row = w[q]
    best = float(row.max())
    right = frozenset(str(j) for j in np.flatnonzero(row >= best - ZERO_TOL))
    return Question(
        "transformer",
        TOKEN,
        _token_options(len(src_tokens)),
        right,
        {
            "q": q,
            "key": int(np.argmax(row)),
            "w": best,
            "n_src": len(src_tokens),
            "n_tgt": len(tgt_tokens),
        },
    )


# 10. cost: the KV cache -------------------------------------------------------------------------
def kv_candidates(d_model: int, n_tokens: int, bytes_per_value: int = 4) -> dict[str, int]:
    """The numbers the options offer: d_model x b (keys only), 2 x d_model x b (keys and
    values), that times T, and the 4 d_model^2 weights x b."""
    b = bytes_per_value
    return {
        "c": d_model * b,
        "kv": 2 * d_model * b,
        "kvt": 2 * d_model * b * n_tokens,
        "w": 4 * d_model * d_model * b,
    }


def kv_cache_question(
    d_model: int, n_heads: int, n_tokens: int, bytes_per_value: int = 4
) -> Question:
    """How many bytes of KV cache does this one-layer model need per token (float32)? Computed
    with `kv_cache_bytes` from the configuration; every option with that number is right."""
    d_k = d_model // n_heads
    per_token = kv_cache_bytes(
        n_layers=1, n_kv_heads=n_heads, d_k=d_k, n_tokens=1, bytes_per_value=bytes_per_value
    )
    cands = kv_candidates(d_model, n_tokens, bytes_per_value)
    right = frozenset(k for k, v in cands.items() if v == per_token)
    scores_bytes = n_heads * n_tokens * n_tokens * bytes_per_value
    # grouped-query attention at its extreme: one key/value head shared by every head (MQA)
    mqa = kv_cache_bytes(
        n_layers=1, n_kv_heads=1, d_k=d_k, n_tokens=1, bytes_per_value=bytes_per_value
    )
    return Question(
        "cost",
        CHOICE,
        KV_FORMULAS,
        right,
        {
            "bytes": per_token,
            "T": n_tokens,
            "total": per_token * n_tokens,
            "scores_bytes": scores_bytes,
            "mqa_bytes": mqa,
            "d_k": d_k,
            "n_heads": n_heads,
            "d_model": d_model,
            **{f"opt_{k}": v for k, v in cands.items()},
        },
    )


# 11. a real model: the attention sink -------------------------------------------------------------
def sink_share(last_rows) -> Question:
    """In the real language model, what share of the last token's attention goes to position
    0, on average over every layer and head? last_rows (L, nh, T): each head's weights at the
    last query. The right option is the SHARE_BINS bin of the mean."""
    w = _np(last_rows)
    shares = w[..., 0]  # (L, nh)
    mean = float(shares.mean())
    return Question(
        "real",
        CHOICE,
        SHARE_BINS,
        frozenset({share_bin(mean)}),
        {
            "share": mean,
            "shares": shares,
            "n_heads_total": int(shares.size),
            "over_half": int((shares > 0.5).sum()),
            "T": int(w.shape[-1]),
        },
    )


# 12. what attention does not tell you -------------------------------------------------------------
def received(matrix) -> np.ndarray:
    """(T,) what each key receives: (nh, T, T) rows averaged over heads and queries."""
    m = _np(matrix)
    return m.mean(axis=(0, 1))


def weights_vs_norms(tokens: Sequence[str], weights, norm_shares) -> Question:
    """Does the token that receives the most attention weight also receive the largest share of
    the value-weighted norms ||alpha_ij f(x_j)|| (Kobayashi et al. 2020)? weights and
    norm_shares (nh, T, T) of one layer (norm rows divided by their sums)."""
    by_weight, by_norm = received(weights), received(norm_shares)
    top_w, top_n = int(np.argmax(by_weight)), int(np.argmax(by_norm))
    return Question(
        "limits",
        CHOICE,
        WEIGHT_NORM,
        frozenset({"same" if top_w == top_n else "different"}),
        {
            "top_w": top_w,
            "top_n": top_n,
            "w": float(by_weight[top_w]),
            "w_norm": float(by_norm[top_w]),
            "n": float(by_norm[top_n]),
            "n_weight": float(by_weight[top_n]),
            "by_weight": by_weight,
            "by_norm": by_norm,
        },
    )
