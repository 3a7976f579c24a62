"""One head's arithmetic, piece by piece, for the "Step by step" page.

Every piece is in the row convention: rows are tokens and a projection is a
right product (X @ W), with T tokens, C = d_model, nh heads and d_k = C / nh:

    X   = E + PE                          # (T, C)  embeddings + positional encoding
    Q_h = X @ W_Q^h + b_Q^h               # (T, d_k), W_Q^h = columns h*d_k:(h+1)*d_k of W_Q
    K_h = X @ W_K^h + b_K^h               # (T, d_k)
    V_h = X @ W_V^h + b_V^h               # (T, d_k)
    S   = Q_h @ K_h^T                     # (T, T)  dot-product scores
    S'  = S / sqrt(d_k)                   # (T, T)  scaled (when scaling is on)
    M   = S' with -inf where masked       # (T, T)
    α_h = softmax(M) row by row           # (T, T)  every allowed row sums to 1
    O_h = α_h @ V_h                       # (T, d_k) this head's output
    concat = [O_0 | O_1 | ... | O_{nh-1}] # (T, C)
    Y   = concat @ W_O + b_O              # (T, C)  the layer's output

Additive (Bahdanau) scoring replaces S by S[i, j] = v_h^T tanh(q_i W_q^h + k_j W_k^h); the
1/sqrt(d_k) factor does not apply to it.

The pieces the core computed (Q_h, K_h, V_h, scores, weights, head outputs, concat, output) are
taken from its `AttentionTrace`, not recomputed, so the page shows exactly what the layer did;
the weights come from the layer itself. Tests recompose the pieces and compare them with the
trace and with independent computations.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..layer.attention import MultiHeadAttention
from ..layer.embed import embed_tokens
from ..layer.pipeline import SentenceAttention
from ..layer.positional import sinusoidal_encoding


@dataclass(frozen=True, eq=False)
class AdditiveParts:
    """The additive (Bahdanau) scoring of one head, for the chosen query i."""

    w_q: torch.Tensor  # (d_k, d_k) W_q^h, applied as q_i @ W_q^h
    w_k: torch.Tensor  # (d_k, d_k) W_k^h, applied as k_j @ W_k^h
    v: torch.Tensor  # (d_k,) v_h
    features: torch.Tensor  # (T, d_k) row j: tanh(q_i W_q^h + k_j W_k^h)
    row_scores: torch.Tensor  # (T,) features @ v_h: the query's row of scores


@dataclass(frozen=True, eq=False)
class HeadSteps:
    """Every piece of one head's computation, for one chosen query token."""

    tokens: list[str]  # T tokens
    head: int  # h, 0-based
    query: int  # i, 0-based position of the chosen query token
    n_heads: int
    d_model: int  # C
    d_k: int  # C / nh
    scoring: str  # "dot" or "additive"
    mask: str  # "none" or "causal"
    positional: bool  # whether PE was added to X
    scale_factor: float  # 1/sqrt(d_k) when scaling dot-product scores, else 1
    temperature: float
    # step 0: the input
    embeddings: torch.Tensor  # (T, C) E, token embeddings
    positional_encoding: torch.Tensor  # (T, C) PE (zeros when positional encoding is off)
    x: torch.Tensor  # (T, C) X = E + PE
    # step 1: linear projections of this head
    w_q: torch.Tensor  # (C, d_k) W_Q^h
    w_k: torch.Tensor  # (C, d_k) W_K^h
    w_v: torch.Tensor  # (C, d_k) W_V^h
    b_q: torch.Tensor  # (d_k,) b_Q^h
    b_k: torch.Tensor  # (d_k,) b_K^h
    b_v: torch.Tensor  # (d_k,) b_V^h
    q: torch.Tensor  # (T, d_k) Q_h
    k: torch.Tensor  # (T, d_k) K_h
    v: torch.Tensor  # (T, d_k) V_h
    # step 2: scores
    scores: torch.Tensor  # (T, T) Q_h K_h^T (dot) or v^T tanh(W_q q + W_k k) (additive)
    scaled_scores: torch.Tensor  # (T, T) scores * scale_factor / temperature
    allowed: torch.Tensor  # (T, T) bool, True where query i may attend to key j
    masked_scores: torch.Tensor  # (T, T) scaled scores, -inf where not allowed
    # step 3: softmax and weighted sum
    weights: torch.Tensor  # (T, T) α_h = softmax(masked_scores)
    head_output: torch.Tensor  # (T, d_k) α_h V_h
    # steps 4 and 5: concatenation and final projection
    concat: torch.Tensor  # (T, C) all heads side by side
    w_o: torch.Tensor  # (C, C) W_O, applied as concat @ W_O
    b_o: torch.Tensor  # (C,) b_O
    output: torch.Tensor  # (T, C) concat @ W_O + b_O
    # before attention: naive summation of values, for the chosen query
    naive_weights: torch.Tensor  # (T,) 1/n on the n allowed keys, 0 elsewhere
    naive_sum: torch.Tensor  # (d_k,) naive_weights @ V_h: every relation weighted equally
    attention_sum: torch.Tensor  # (d_k,) α_h[i] @ V_h: weighted by attention
    additive: AdditiveParts | None = None  # only for additive scoring

    @property
    def head_columns(self) -> tuple[int, int]:
        """[start, stop) of this head's columns in concat (and rows of W_O)."""
        return self.head * self.d_k, (self.head + 1) * self.d_k

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)

    @property
    def row_sum(self) -> float:
        """Sum of the chosen query's weights: 1 (0 only for a query with no allowed key)."""
        return float(self.weights[self.query].double().sum())

    @property
    def n_allowed(self) -> int:
        """How many keys the chosen query may attend to."""
        return int(self.allowed[self.query].sum())

    @property
    def biases_zero(self) -> bool:
        """True when b_Q^h, b_K^h and b_V^h are all exactly 0 (as initialised)."""
        return not any(bool(b.any()) for b in (self.b_q, self.b_k, self.b_v))

    @property
    def naive_attention_distance(self) -> float:
        """Euclidean distance between the naive sum and the attention-weighted sum."""
        return float((self.naive_sum.double() - self.attention_sum.double()).norm())


def _piece(t: torch.Tensor) -> torch.Tensor:
    """A detached copy that owns its storage (a view would pickle the whole trace tensor)."""
    return t.detach().clone()


def _check_head_steps(
    sentence: SentenceAttention, layer: MultiHeadAttention, head: int, query: int
) -> None:
    tr, cfg = sentence.attention, sentence.config
    T = sentence.x.shape[0]
    nh, hs = layer.n_heads, layer.d_k
    if (layer.d_model, nh, layer.scoring) != (cfg.d_model, cfg.n_heads, cfg.scoring):
        raise ValueError("the layer does not match the settings the sentence was run with")
    if tr.q.shape != (1, nh, T, hs):
        raise ValueError(f"expected a trace of one sentence, got q of shape {tuple(tr.q.shape)}")
    if not 0 <= head < nh:
        raise ValueError(f"head must be between 0 and {nh - 1} (there are {nh} heads), got {head}")
    if not 0 <= query < T:
        raise ValueError(
            f"query must be a token position between 0 and {T - 1} ({T} tokens), got {query}"
        )


def _additive_parts(
    layer: MultiHeadAttention, head: int, q_i: torch.Tensor, k: torch.Tensor
) -> AdditiveParts:
    """Head `head`'s additive scoring of one query q_i (d_k,) against the keys k (T, d_k)."""
    aq, ak, av = layer.scorer.w_q[head], layer.scorer.w_k[head], layer.scorer.v[head]
    feats = torch.tanh(q_i @ aq + k @ ak)  # (T, d_k)
    return AdditiveParts(
        w_q=_piece(aq),
        w_k=_piece(ak),
        v=_piece(av),
        features=_piece(feats),
        row_scores=_piece(feats @ av),  # (T,)
    )


def head_steps(
    sentence: SentenceAttention, layer: MultiHeadAttention, head: int, query: int
) -> HeadSteps:
    """The pieces of head `head` of `layer` on `sentence`, following query token `query`.

    `sentence` must come from `run_attention(tokens, config, layer)` with this `layer`.
    """
    _check_head_steps(sentence, layer, head, query)
    tr, cfg = sentence.attention, sentence.config
    T, C = sentence.x.shape  # tokens, d_model
    nh, hs = layer.n_heads, layer.d_k  # heads, d_k
    cols = slice(head * hs, (head + 1) * hs)  # this head's columns of W_Q, W_K, W_V

    with torch.no_grad():
        E = embed_tokens(sentence.tokens, C, cfg.seed, positional=False)  # (T, C)
        PE = sinusoidal_encoding(T, C) if cfg.positional else torch.zeros(T, C)  # (T, C)
        wq, wk, wv = layer.projection_weights()  # (C, C) each, Q = X @ W_Q + b_Q
        bq, bk, bv = layer.projection_biases()  # (C,) each

        q, k, v = tr.q[0, head], tr.k[0, head], tr.v[0, head]  # (T, d_k) each
        scores = tr.scores[0, head]  # (T, T)
        scaled = tr.scaled_scores[0, head]  # (T, T)
        if tr.allowed is None:
            allowed = torch.ones(T, T, dtype=torch.bool)  # (T, T)
        else:
            allowed = tr.allowed.expand(1, nh, T, T)[0, head]  # (T, T)
        masked = scaled.masked_fill(~allowed, float("-inf"))  # (T, T)
        weights = tr.weights[0, head]  # (T, T)

        keep = allowed[query].to(v.dtype)  # (T,)
        n = keep.sum()
        naive_w = keep / n if n > 0 else keep  # (T,) uniform over the allowed keys
        naive_sum = naive_w @ v  # (d_k,)
        attention_sum = weights[query] @ v  # (d_k,)

        out = layer.out_proj
        b_o = out.bias if out.bias is not None else torch.zeros(C, dtype=out.weight.dtype)

        additive = _additive_parts(layer, head, q[query], k) if tr.scoring == "additive" else None

        return HeadSteps(
            tokens=list(sentence.tokens),
            head=head,
            query=query,
            n_heads=nh,
            d_model=C,
            d_k=hs,
            scoring=tr.scoring,
            mask=cfg.mask,
            positional=cfg.positional,
            scale_factor=tr.scale_factor,
            temperature=tr.temperature,
            embeddings=_piece(E),
            positional_encoding=_piece(PE),
            x=_piece(sentence.x),
            w_q=_piece(wq[:, cols]),
            w_k=_piece(wk[:, cols]),
            w_v=_piece(wv[:, cols]),
            b_q=_piece(bq[cols]),
            b_k=_piece(bk[cols]),
            b_v=_piece(bv[cols]),
            q=_piece(q),
            k=_piece(k),
            v=_piece(v),
            scores=_piece(scores),
            scaled_scores=_piece(scaled),
            allowed=_piece(allowed),
            masked_scores=_piece(masked),
            weights=_piece(weights),
            head_output=_piece(tr.head_outputs[0, head]),
            concat=_piece(tr.concat[0]),
            w_o=_piece(out.weight.T),
            b_o=_piece(b_o),
            output=_piece(tr.output[0]),
            naive_weights=_piece(naive_w),
            naive_sum=_piece(naive_sum),
            attention_sum=_piece(attention_sum),
            additive=additive,
        )
