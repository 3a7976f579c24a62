"""Multi-head attention that returns every intermediate it computes.

Shapes: B batch, nh heads, Tq query tokens, Tk key tokens, C = d_model, hs = C / nh (= d_k).

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
from .masks import combine_masks


@dataclass(frozen=True, eq=False)
class AttentionTrace:
    """What one multi-head attention forward computed. All tensors are detached results."""

    q: torch.Tensor  # (B, nh, Tq, hs)
    k: torch.Tensor  # (B, nh, Tk, hs)
    v: torch.Tensor  # (B, nh, Tk, hs)
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
        qf, kf = self.q.float(), self.k.float()
        return qf @ kf.transpose(-2, -1)

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
        z = _finite_scores(self.scaled_scores, self.temperature, self.scale_factor)
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
    ) -> None:
        super().__init__()
        check_heads(d_model, n_heads)
        check_scoring(scoring)
        check_dropout(dropout)
        self.d_model, self.n_heads = d_model, n_heads
        self.scale, self.scoring, self.dropout = scale, scoring, dropout
        self.kdim = d_model if kdim is None else kdim
        self.vdim = d_model if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == d_model and self.vdim == d_model
        C = d_model
        if self._qkv_same_embed_dim:
            self.in_proj_weight = nn.Parameter(torch.empty(3 * C, C))
        else:
            self.q_proj_weight = nn.Parameter(torch.empty(C, C))
            self.k_proj_weight = nn.Parameter(torch.empty(C, self.kdim))
            self.v_proj_weight = nn.Parameter(torch.empty(C, self.vdim))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * C)) if bias else None
        self.out_proj = nn.Linear(C, C, bias=bias)
        if scoring == "additive":
            hs = self.d_k
            self.additive_q = nn.Parameter(torch.empty(n_heads, hs, hs))  # W_q per head
            self.additive_k = nn.Parameter(torch.empty(n_heads, hs, hs))  # W_k per head
            self.additive_v = nn.Parameter(torch.empty(n_heads, hs))  # v per head
        self.reset_parameters(seed)

    @property
    def d_k(self) -> int:
        """Dimensions per head (hs): d_model / n_heads."""
        return head_size(self.d_model, self.n_heads)

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
        if self.scoring == "additive":
            bound = 1.0 / math.sqrt(self.d_k)
            for p in (self.additive_q, self.additive_k, self.additive_v):
                p.uniform_(-bound, bound, generator=g)

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
        """W_Q (C, C), W_K (kdim, C), W_V (vdim, C) such that Q = X @ W_Q + b_Q."""
        if self._qkv_same_embed_dim:
            wq, wk, wv = self.in_proj_weight.chunk(3, dim=0)
        else:
            wq, wk, wv = self.q_proj_weight, self.k_proj_weight, self.v_proj_weight
        return wq.T, wk.T, wv.T

    def projection_biases(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """b_Q, b_K, b_V, each (C,); zeros when the module has no bias."""
        if self.in_proj_bias is None:
            z = torch.zeros(self.d_model, dtype=self.out_proj.weight.dtype)
            return z, z, z
        bq, bk, bv = self.in_proj_bias.chunk(3)
        return bq, bk, bv

    # --- forward: the five steps of the lesson ---------------------------------------------
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
    ) -> AttentionTrace:
        """Attend; return everything computed as an `AttentionTrace`.

        `weights_out` (optional, inference only): a tensor of the weights' shape and dtype,
        e.g. one layer's slice of a (L, nh, T, T) stack, that the softmax writes into, so that a
        caller can collect many layers' weights without copying them; the trace's `weights` is
        then that tensor.
        """
        self_attn = key is None and value is None
        query, key, value = _as_batches(query, key, value)
        check_temperature(temperature)
        self._check_inputs(query, key, value)
        B, Tq, C = query.shape
        Tk = key.shape[1]

        # 1. project X into queries, keys and values, and split them into heads
        q, k, v = self._heads(query, key, value, self_attn)  # (B, nh, T, hs) each
        qf, kf, vf = _float32(q, k, v)  # half precision: scores and softmax in float32
        # 2. + 3. score every query against every key, scaled by 1/sqrt(d_k) (and 1/temperature)
        att, scale_factor, additive = self._scaled_scores(qf, kf, temperature)  # (B,nh,Tq,Tk)
        # 3. mask: -inf where a query may not look
        allowed = combine_masks(mask, key_padding_mask, B, Tq, Tk, att.device)
        if allowed is not None:
            att = att.masked_fill(~allowed, float("-inf"))  # (B, nh, Tq, Tk)
        # 4. softmax along the keys: each row becomes weights that sum to 1
        weights = _softmax(att, allowed, out=weights_out, keep_input=att is additive)
        used, dropped = weights, None
        if self.training and self.dropout > 0.0:
            used = dropped = F.dropout(weights, self.dropout, training=True)
        # 5. weighted sum of the values per head, heads side by side, output projection W_O
        y = used @ vf  # (B, nh, Tq, hs)
        concat = y.transpose(1, 2).reshape(B, Tq, C).to(q.dtype)  # (B, Tq, C)
        output = F.linear(concat, self.out_proj.weight, self.out_proj.bias)  # (B, Tq, C)
        return AttentionTrace(
            q=q,
            k=k,
            v=v,
            weights=weights,
            head_outputs=y,
            concat=concat,
            output=output,
            allowed=allowed,
            scale_factor=scale_factor,
            temperature=float(temperature),
            scoring=self.scoring,
            dropped_weights=dropped,
            additive_scores=additive,
        )

    def _check_inputs(self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor) -> None:
        if self.d_model != query.shape[-1]:
            raise ValueError(
                f"query has {query.shape[-1]} features; this layer expects d_model={self.d_model}"
            )
        if value.shape[1] != key.shape[1] or value.shape[0] != key.shape[0]:
            raise ValueError("key and value must have the same batch size and length")

    def _heads(
        self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, self_attn: bool
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Step 1: Q = X W_Q + b_Q (and K, V), each split into nh heads of hs dimensions."""
        B, Tq, C = query.shape
        Tk = key.shape[1]
        nh, hs = self.n_heads, self.d_k
        if self_attn and self._qkv_same_embed_dim:  # one fused projection for Q, K and V
            qkv = F.linear(query, self.in_proj_weight, self.in_proj_bias)  # (B, T, 3C)
            qkv = qkv.view(B, Tq, 3, nh, hs).permute(2, 0, 3, 1, 4)  # (3, B, nh, T, hs)
            return qkv.unbind(0)  # (B, nh, T, hs) each
        q, k, v = self._project(query, key, value)  # (B, T, C) each
        q = q.view(B, Tq, nh, hs).transpose(1, 2)  # (B, nh, Tq, hs)
        k = k.view(B, Tk, nh, hs).transpose(1, 2)  # (B, nh, Tk, hs)
        v = v.view(B, Tk, nh, hs).transpose(1, 2)  # (B, nh, Tk, hs)
        return q, k, v

    def _project(
        self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Q, K, V projections for cross-attention (or separate key/value sizes)."""
        C = self.d_model
        b = self.in_proj_bias
        bq, bk, bv = (None, None, None) if b is None else (b[:C], b[C : 2 * C], b[2 * C :])
        if self._qkv_same_embed_dim:
            W = self.in_proj_weight
            q = F.linear(query, W[:C], bq)
            if key is value:
                bkv = None if b is None else b[C:]
                k, v = F.linear(key, W[C:], bkv).split(C, dim=-1)
                return q, k, v
            return q, F.linear(key, W[C : 2 * C], bk), F.linear(value, W[2 * C :], bv)
        return (
            F.linear(query, self.q_proj_weight, bq),
            F.linear(key, self.k_proj_weight, bk),
            F.linear(value, self.v_proj_weight, bv),
        )

    def _scaled_scores(
        self, q: torch.Tensor, k: torch.Tensor, temperature: float
    ) -> tuple[torch.Tensor, float, torch.Tensor | None]:
        """Steps 2-3: the scores each softmax row sees, the scale factor, and (additive scoring
        only) the raw scores, which are kept for the trace."""
        if self.scoring == "additive":
            additive = self._additive_scores(q, k)  # (B, nh, Tq, Tk)
            att = additive / temperature if temperature != 1.0 else additive
            return _finite_scores(att, temperature, 1.0), 1.0, additive
        scale_factor = 1.0 / math.sqrt(self.d_k) if self.scale else 1.0
        s = scale_factor / temperature
        # scale q (Tq x hs) instead of the scores (Tq x Tk): one small op, not a T x T pass
        att = (q * s if s != 1.0 else q) @ k.transpose(-2, -1)  # (B, nh, Tq, Tk)
        return _finite_scores(att, temperature, scale_factor), scale_factor, None

    def _additive_scores(self, q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        """Bahdanau scoring per head: v^T tanh(W_q q_i + W_k k_j)."""
        qa = torch.einsum("bhtd,hde->bhte", q, self.additive_q.to(q.dtype))  # (B, nh, Tq, hs)
        ka = torch.einsum("bhtd,hde->bhte", k, self.additive_k.to(k.dtype))  # (B, nh, Tk, hs)
        feat = torch.tanh(qa[:, :, :, None, :] + ka[:, :, None, :, :])  # (B, nh, Tq, Tk, hs)
        return torch.einsum("bhqke,he->bhqk", feat, self.additive_v.to(q.dtype))  # (B,nh,Tq,Tk)


def _as_batches(
    query: torch.Tensor, key: torch.Tensor | None, value: torch.Tensor | None
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Key and value default to the query (self-attention); (T, C) inputs become (1, T, C)."""
    key = query if key is None else key
    value = key if value is None else value
    if query.dim() == 2:
        batched = {}  # one (1, T, C) view per distinct input, so that `key is value` survives
        query, key, value = (batched.setdefault(id(x), x[None]) for x in (query, key, value))
    return query, key, value


def _float32(*tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """float16 / bfloat16 to float32 (q.k overflows float16 at 65504); others unchanged."""
    if tensors[0].dtype in (torch.float16, torch.bfloat16):
        return tuple(t.float() for t in tensors)
    return tensors


def _softmax(
    att: torch.Tensor,
    allowed: torch.Tensor | None,
    *,
    out: torch.Tensor | None = None,
    keep_input: bool = False,
) -> torch.Tensor:
    """Step 4: softmax over the keys; a row with no allowed key becomes 0, never NaN.

    Written in place into `att` (no second T x T buffer) unless something still needs the
    scores (autograd, or `keep_input`); into `out` when a caller hands a buffer.
    """
    if out is not None and (out.shape != att.shape or out.dtype != att.dtype):
        raise ValueError(
            f"weights_out must have shape {tuple(att.shape)} and dtype {att.dtype}, "
            f"got {tuple(out.shape)} and {out.dtype}"
        )
    if out is None and not att.requires_grad and not keep_input:
        out = att
    weights = torch.softmax(att, dim=-1, out=out)  # (B, nh, Tq, Tk)
    if allowed is not None:
        empty = ~allowed.any(dim=-1)  # (B|1, 1|nh, Tq)
        if bool(empty.any()):
            if weights.requires_grad:
                weights = weights.masked_fill(empty[..., None], 0.0)
            else:
                weights.masked_fill_(empty[..., None], 0.0)
    return weights


def _finite_scores(att: torch.Tensor, temperature: float, scale_factor: float) -> torch.Tensor:
    """A tiny temperature may overflow the scores: clamp to the largest finite value, never inf."""
    if temperature < 1.0 or not math.isfinite(scale_factor / temperature):
        big = torch.finfo(att.dtype).max
        return torch.nan_to_num(att, nan=0.0, posinf=big, neginf=-big)
    return att
