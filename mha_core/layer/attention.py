"""Multi-head attention that returns every intermediate it computes.

Shapes: B batch, nh heads, Tq query tokens, Tk key tokens, C = d_model, hs = C / nh (= d_k),
n_kv key/value heads (= nh for multi-head attention; fewer for grouped-query attention, where
query head h reads key/value head h // (nh / n_kv); 1 for multi-query attention).

Conventions:
- inputs are batch-first, (B, T, C); a (T, C) input is treated as B = 1;
- `mask` is boolean and True where a query MAY attend to a key (as in
  `F.scaled_dot_product_attention`), broadcastable to (B, nh, Tq, Tk); the string "causal"
  builds the causal mask;
- `key_padding_mask` is boolean (B, Tk) and True where a key is PADDING (as in
  `nn.MultiheadAttention`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import torch
import torch.nn.functional as F
from torch import nn

from .config import check_dropout, check_heads, check_scoring, check_temperature, head_size
from .grouped import check_kv_heads, grouped_matmul, repeat_kv
from .masks import combine_masks, mask_scores, softmax_buffer, zero_empty_rows
from .positional_rope import rope_cos_sin as rope_cos_sin_of
from .positional_rope import rope_frequencies, rotate_half
from .scoring import AdditiveScorer, finite_scores


@dataclass(frozen=True, eq=False)
class AttentionTrace:
    """What one multi-head attention forward computed. All tensors are detached results."""

    q: torch.Tensor  # (B, nh, Tq, hs)
    k: torch.Tensor  # (B, n_kv, Tk, hs): n_kv = nh unless the layer groups its key/value heads
    v: torch.Tensor  # (B, n_kv, Tk, hs)
    weights: torch.Tensor  # (B, nh, Tq, Tk) softmax(masked_scores); empty rows are all 0
    head_outputs: torch.Tensor  # (B, nh, Tq, hs) weights @ v, per head
    concat: torch.Tensor  # (B, Tq, C) heads side by side
    output: torch.Tensor  # (B, Tq, C) concat @ W_O^T + b_O
    allowed: torch.Tensor | None  # (B|1, 1|nh, Tq, Tk) bool, True where attending is allowed
    scale_factor: float  # 1/sqrt(hs) when scaling, else 1
    temperature: float
    scoring: str  # "dot" or "additive"
    dropped_weights: torch.Tensor | None = None  # (B, nh, Tq, Tk) after dropout, training only
    additive_scores: torch.Tensor | None = field(default=None, repr=False)

    @cached_property
    def scores(self) -> torch.Tensor:
        """(B, nh, Tq, Tk) raw scores: Q K^T for dot-product, v^T tanh(.) for additive."""
        if self.additive_scores is not None:
            return self.additive_scores
        return grouped_matmul(self.q.float(), self.k.float().transpose(-2, -1))

    @property
    def scaled_scores(self) -> torch.Tensor:
        """(B, nh, Tq, Tk) scores * scale_factor / temperature, before the mask."""
        return self.scores * (self.scale_factor / self.temperature)

    @cached_property
    def empty_rows(self) -> torch.Tensor:
        """(B, nh, Tq) bool, True for a query with no allowed key (its weights are all 0)."""
        B, nh, Tq, _ = self.weights.shape
        if self.allowed is None:
            return torch.zeros(B, nh, Tq, dtype=torch.bool, device=self.weights.device)
        return (~self.allowed.any(dim=-1)).expand(B, nh, Tq)

    @cached_property
    def masked_scores(self) -> torch.Tensor:
        """(B, nh, Tq, Tk) what the softmax saw: scaled scores, -inf where masked.

        Recomputed on demand (the forward softmaxes its scores in place, so that a T x T
        buffer is neither copied nor kept); equal to the forward's up to float rounding.
        """
        z = finite_scores(self.scaled_scores, self.temperature, self.scale_factor)
        if self.allowed is not None:
            z = z.masked_fill(~self.allowed, float("-inf"))
        return z

    @property
    def n_heads(self) -> int:
        return self.q.shape[1]

    @property
    def mean_weights(self) -> torch.Tensor:
        """(B, Tq, Tk) the weights averaged over heads."""
        return self.weights.mean(dim=1)


class MultiHeadAttention(nn.Module):
    """Multi-head attention whose forward returns an `AttentionTrace`.

    Parameter names and layout follow `torch.nn.MultiheadAttention` (in_proj_weight (3C, C),
    in_proj_bias (3C,), out_proj), so `from_torch` is a plain state-dict copy.

    n_kv_heads (default n_heads): fewer key/value heads than query heads (grouped-query
    attention, Ainslie et al. 2023; 1 is multi-query attention, Shazeer 2019). The key and
    value projections then have n_kv_heads * d_k outputs each: in_proj_weight is
    (C + 2 n_kv hs, C), and the trace's k and v are (B, n_kv_heads, T, hs).

    rope_base (default None: no rotation): rotary position embedding (RoPE, rotate-half, as in
    LLaMA) with this base, applied to q and k right after their projections; the trace's q and
    k are then the rotated ones. The forward's `positions` says where the tokens are (default
    0 .. T-1, after any `past_kv`), and `past_kv` = (k, v) of earlier tokens (B, n_kv, Tp, hs),
    already rotated, is put before this call's keys and values: a KV cache.
    """

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        *,
        scale: bool = True,
        scoring: str = "dot",
        dropout: float = 0.0,
        bias: bool = True,
        kdim: int | None = None,
        vdim: int | None = None,
        seed: int | None = 0,
        n_kv_heads: int | None = None,
        rope_base: float | None = None,
    ) -> None:
        super().__init__()
        check_heads(d_model, n_heads)
        self.n_kv_heads = n_heads if n_kv_heads is None else n_kv_heads
        check_kv_heads(n_heads, self.n_kv_heads)
        check_scoring(scoring)
        check_dropout(dropout)
        self.d_model, self.n_heads = d_model, n_heads
        self.d_k = head_size(d_model, n_heads)  # dimensions per head (hs): d_model / n_heads
        self.scale, self.scoring, self.dropout = scale, scoring, dropout
        self.kdim = d_model if kdim is None else kdim
        self.vdim = d_model if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == d_model and self.vdim == d_model
        C, kv = d_model, self.kv_dim
        if self._qkv_same_embed_dim:
            self.in_proj_weight = nn.Parameter(torch.empty(C + 2 * kv, C))  # W_Q; W_K; W_V
        else:
            self.q_proj_weight = nn.Parameter(torch.empty(C, C))
            self.k_proj_weight = nn.Parameter(torch.empty(kv, self.kdim))
            self.v_proj_weight = nn.Parameter(torch.empty(kv, self.vdim))
        self.in_proj_bias = nn.Parameter(torch.zeros(C + 2 * kv)) if bias else None
        self.out_proj = nn.Linear(C, C, bias=bias)
        # additive scoring has weights of its own; dot-product scores are computed in forward
        self.scorer = AdditiveScorer(n_heads, self.d_k) if scoring == "additive" else None
        if rope_base is not None:
            rope_frequencies(self.d_k, rope_base)  # checks: an even d_k, a base > 1
        self.rope_base = rope_base
        self.reset_parameters(seed)

    @property
    def kv_dim(self) -> int:
        """Outputs of the key (and of the value) projection: n_kv_heads * d_k (= C for MHA)."""
        return self.n_kv_heads * self.d_k

    @torch.no_grad()
    def reset_parameters(self, seed: int | None = 0) -> None:
        """Xavier-uniform projections and zero biases (torch's scheme), from a seeded generator."""
        g = torch.Generator()
        if seed is None:
            g.seed()
        else:
            g.manual_seed(seed)
        if self._qkv_same_embed_dim:
            nn.init.xavier_uniform_(self.in_proj_weight, generator=g)
        else:
            for w in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                nn.init.xavier_uniform_(w, generator=g)
        nn.init.xavier_uniform_(self.out_proj.weight, generator=g)
        if self.in_proj_bias is not None:
            self.in_proj_bias.zero_()
            self.out_proj.bias.zero_()
        if self.scorer is not None:
            self.scorer.reset_parameters(g)

    @classmethod
    def from_torch(cls, module: nn.MultiheadAttention) -> MultiHeadAttention:
        """Copy the weights of a `torch.nn.MultiheadAttention` (scaled dot-product)."""
        if module.bias_k is not None or module.bias_v is not None or module.add_zero_attn:
            raise ValueError("bias_k, bias_v and add_zero_attn are not supported")
        ours = cls(
            module.embed_dim,
            module.num_heads,
            dropout=module.dropout,
            bias=module.in_proj_bias is not None,
            kdim=module.kdim,
            vdim=module.vdim,
            seed=None,
        )
        p = next(module.parameters())
        ours.to(device=p.device, dtype=p.dtype)
        ours.load_state_dict(module.state_dict())
        ours.train(module.training)
        return ours

    # --- weights in the math convention (X @ W), for the teaching pages ------------------------
    def projection_weights(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """W_Q (C, C), W_K (kdim, n_kv hs), W_V (vdim, n_kv hs) such that Q = X @ W_Q + b_Q."""
        if self._qkv_same_embed_dim:
            wq, wk, wv = self.in_proj_weight.split(self._sizes, dim=0)
        else:
            wq, wk, wv = self.q_proj_weight, self.k_proj_weight, self.v_proj_weight
        return wq.T, wk.T, wv.T

    def projection_biases(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """b_Q (C,), b_K, b_V (n_kv hs,); zeros when the module has no bias."""
        if self.in_proj_bias is None:
            dtype = self.out_proj.weight.dtype
            return tuple(torch.zeros(n, dtype=dtype) for n in self._sizes)
        bq, bk, bv = self.in_proj_bias.split(self._sizes)
        return bq, bk, bv

    @property
    def _sizes(self) -> tuple[int, int, int]:
        """Rows of W_Q, W_K, W_V in in_proj_weight (and entries of in_proj_bias)."""
        return self.d_model, self.kv_dim, self.kv_dim

    # --- forward: the steps of the lesson (numbered as on the Step page) --------------------
    def forward(
        self,
        query: torch.Tensor,
        key: torch.Tensor | None = None,
        value: torch.Tensor | None = None,
        *,
        mask: torch.Tensor | str | None = None,
        key_padding_mask: torch.Tensor | None = None,
        temperature: float = 1.0,
        weights_out: torch.Tensor | None = None,
        positions: torch.Tensor | None = None,
        past_kv: tuple[torch.Tensor, torch.Tensor] | None = None,
        rope_cos_sin: tuple[torch.Tensor, torch.Tensor] | None = None,
    ) -> AttentionTrace:
        """Attend; return everything computed as an `AttentionTrace`.

        `weights_out`: a tensor the softmax writes the weights into (inference only; e.g. one
        layer's slice of a (L, nh, T, T) stack). `positions`, `past_kv` (self-attention only)
        and `rope_cos_sin` (the cos and sin a model computes once for all its layers): see the
        class docstring and `rotate`; with a `past_kv`, "causal" is moved right (`with_cache`).
        """
        check_temperature(temperature)
        if (past_kv is not None or positions is not None) and not (key is None and value is None):
            raise ValueError("positions and past_kv are for self-attention only")
        # 0. input X: one row per token; keys and values read xk, xv (= X in self-attention)
        x, xk, xv = batch_first(query, key, value)  # (B, Tq, C), (B, Tk, kdim), (B, Tk, vdim)
        self._check_inputs(x, xk, xv)
        B, Tq, C = x.shape
        Tk = xk.shape[1]

        # 1. Q = X W_Q + b_Q, K = X W_K + b_K, V = X W_V + b_V, each split into heads
        if key is None and value is None and self._qkv_same_embed_dim:
            q, k, v = self.self_attention_heads(x)  # (B, nh, T, hs) each, one fused matmul
        else:
            q, k, v = self.cross_attention_heads(x, xk, xv)  # (B, nh|n_kv, Tq|Tk, hs)
        if self.rope_base is not None:  # (RoPE) turn each pair of q and k by its position
            q, k = self.rotate(q, k, positions, rope_cos_sin, past_kv)
        if past_kv is not None:  # the cache: earlier keys and values, then this call's
            k, v, mask = with_cache(k, v, past_kv, mask)  # (B, n_kv, Tp + Tq, hs)
            Tk = k.shape[2]
        qf, kf, vf = in_float32(q, k, v)  # half precision: q.k overflows float16 at 65504

        # 2. scores: every query against every key, Q K^T / sqrt(hs) (and / temperature),
        #    then -inf where the mask forbids a pair
        if self.scoring == "dot":
            scale_factor = 1.0 / math.sqrt(self.d_k) if self.scale else 1.0
            # the scale goes on q (Tq x hs) rather than on the scores (Tq x Tk): fewer products
            qs = qf * (scale_factor / temperature)  # (B, nh, Tq, hs)
            att = grouped_matmul(qs, kf.transpose(-2, -1))  # (B, nh, Tq, Tk); GQA: h reads h // g
            raw = None
        else:  # additive (Bahdanau): v^T tanh(W_q q + W_k k), never scaled
            scale_factor = 1.0
            kf_h = repeat_kv(kf, self.n_heads // self.n_kv_heads)  # (B, nh, Tk, hs)
            raw = self.scorer.raw_scores(qf, kf_h)  # (B, nh, Tq, Tk), kept for the trace
            att = raw / temperature  # a new tensor: the softmax may overwrite it, not raw
        att = finite_scores(att, temperature, scale_factor)  # a tiny temperature: never inf
        allowed = combine_masks(mask, key_padding_mask, B, Tq, Tk, att.device)
        if allowed is not None:
            att = mask_scores(att, allowed)  # (B, nh, Tq, Tk)

        # 3. softmax along the keys (each row sums to 1; a row with no allowed key is all 0),
        #    then each query's weighted sum of the values
        weights = torch.softmax(att, dim=-1, out=softmax_buffer(att, weights_out))
        weights = zero_empty_rows(weights, allowed)  # (B, nh, Tq, Tk)
        dropped = None
        if self.training and self.dropout > 0.0:
            dropped = F.dropout(weights, self.dropout, training=True)  # (B, nh, Tq, Tk)
        y = grouped_matmul(weights if dropped is None else dropped, vf)  # (B, nh, Tq, hs)

        # 4. concatenate: the heads side by side
        concat = y.transpose(1, 2).reshape(B, Tq, C)  # (B, Tq, C)
        concat = in_dtype_of(concat, q)  # back to half precision if the layer is

        # 5. output: the projection W_O
        output = F.linear(concat, self.out_proj.weight, self.out_proj.bias)  # (B, Tq, C)
        return AttentionTrace(
            q=q, k=k, v=v, weights=weights, head_outputs=y, concat=concat, output=output,
            allowed=allowed, scale_factor=scale_factor, temperature=float(temperature),
            scoring=self.scoring, dropped_weights=dropped, additive_scores=raw,
        )  # fmt: skip

    def rotate(self, q, k, positions=None, rope_cos_sin=None, past_kv=None):
        """RoPE on q (B, nh, Tq, hs) and k (B, n_kv, Tq, hs): each pair turned by its position
        (0.. by default, after the `past_kv`'s Tp cached ones), as `apply_rope` does."""
        if rope_cos_sin is None:
            if positions is None:
                past = 0 if past_kv is None else past_kv[0].shape[2]
                positions = torch.arange(past, past + q.shape[2], device=q.device)  # (Tq,)
            rope_cos_sin = rope_cos_sin_of(positions, self.d_k, self.rope_base, q.dtype)
        cos, sin = rope_cos_sin  # (Tq, hs) or (B, Tq, hs)
        if cos.dim() == 3:
            cos, sin = cos[:, None], sin[:, None]  # (B, 1, Tq, hs)
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin

    def _check_inputs(self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor) -> None:
        if self.d_model != query.shape[-1]:
            raise ValueError(
                f"query has {query.shape[-1]} features; this layer expects d_model={self.d_model}"
            )
        if value.shape[1] != key.shape[1] or value.shape[0] != key.shape[0]:
            raise ValueError("key and value must have the same batch size and length")

    # --- step 1, the fast ways (each tested equal to X @ W_Q + b_Q, ... split into heads) ------
    def self_attention_heads(
        self, x: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Q, K, V of self-attention from one fused projection X W_QKV + b_QKV, (B, nh, T, hs)
        each (views of one (B, T, 3C) buffer); K and V (B, n_kv, T, hs) when grouped. Needs
        kdim = vdim = d_model."""
        B, T, _ = x.shape
        nh, n_kv, hs = self.n_heads, self.n_kv_heads, self.d_k
        qkv = F.linear(x, self.in_proj_weight, self.in_proj_bias)  # (B, T, C + 2 n_kv hs)
        if n_kv == nh:
            qkv = qkv.view(B, T, 3, nh, hs).permute(2, 0, 3, 1, 4)  # (3, B, nh, T, hs)
            return qkv.unbind(0)  # (B, nh, T, hs) each
        return self._split_heads(*qkv.split(self._sizes, dim=-1))  # (B, T, C), (B, T, n_kv hs) x 2

    def cross_attention_heads(
        self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Q from the query, K and V from the key and value (one fused K/V projection when they
        are the same tensor), each split into heads: (B, nh, Tq, hs), (B, n_kv, Tk, hs) x 2."""
        return self._split_heads(*self._project(query, key, value))

    def _split_heads(
        self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(B, Tq, C) Q and (B, Tk, n_kv hs) K, V split into heads."""
        B, Tq, _ = q.shape
        Tk = k.shape[1]
        nh, n_kv, hs = self.n_heads, self.n_kv_heads, self.d_k
        q = q.view(B, Tq, nh, hs).transpose(1, 2)  # (B, nh, Tq, hs)
        k = k.view(B, Tk, n_kv, hs).transpose(1, 2)  # (B, n_kv, Tk, hs)
        v = v.view(B, Tk, n_kv, hs).transpose(1, 2)  # (B, n_kv, Tk, hs)
        return q, k, v

    def _project(
        self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Q, K, V projections for cross-attention (or separate key/value sizes)."""
        C, kv = self.d_model, self.kv_dim
        b = self.in_proj_bias
        bq, bk, bv = (None, None, None) if b is None else b.split(self._sizes)
        if self._qkv_same_embed_dim:
            wq, wk, wv = self.in_proj_weight.split(self._sizes)
            q = F.linear(query, wq, bq)
            if key is value:  # one (B, Tk, 2 kv) matmul for K and V
                bkv = None if b is None else b[C:]
                k, v = F.linear(key, self.in_proj_weight[C:], bkv).split(kv, dim=-1)
                return q, k, v
            return q, F.linear(key, wk, bk), F.linear(value, wv, bv)
        return (
            F.linear(query, self.q_proj_weight, bq),
            F.linear(key, self.k_proj_weight, bk),
            F.linear(value, self.v_proj_weight, bv),
        )


def batch_first(
    query: torch.Tensor, key: torch.Tensor | None, value: torch.Tensor | None
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Key and value default to the query (self-attention); (T, C) inputs become (1, T, C).

    Inputs that were one tensor stay one tensor (`key is value` survives), so that the fused
    key/value projection still applies."""
    key = query if key is None else key
    value = key if value is None else value
    if query.dim() != 2:
        return query, key, value
    q = query[None]  # (1, Tq, C)
    k = q if key is query else key[None]  # (1, Tk, kdim)
    v = k if value is key else q if value is query else value[None]  # (1, Tk, vdim)
    return q, k, v


# --- the forward's helpers: dtypes and where the softmax writes --------------------------------
def with_cache(k, v, past_kv, mask):
    """The KV cache's keys and values (B, n_kv, Tp, hs) before this call's (B, n_kv, Tq, hs),
    and the causal mask moved right by Tp: query i, at position Tp + i, sees keys 0 .. Tp + i."""
    k = torch.cat((past_kv[0], k), dim=2)  # (B, n_kv, Tp + Tq, hs)
    v = torch.cat((past_kv[1], v), dim=2)
    Tk = k.shape[2]
    Tq = Tk - past_kv[0].shape[2]
    if isinstance(mask, str) and mask == "causal":
        # one new token after the cache sees every key; more: the diagonal moved right by Tp
        ones = torch.ones(Tq, Tk, dtype=torch.bool, device=k.device)
        mask = None if Tq == 1 else ones.tril(Tk - Tq)  # (Tq, Tk)
    return k, v, mask


def in_float32(*tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """float16 / bfloat16 to float32 (q.k overflows float16 at 65504); others unchanged."""
    if tensors[0].dtype in (torch.float16, torch.bfloat16):
        return tuple(t.float() for t in tensors)
    return tensors


def in_dtype_of(t: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    """`t` in `like`'s dtype (the heads' float32 result back to a half-precision layer's)."""
    return t if t.dtype == like.dtype else t.to(like.dtype)
