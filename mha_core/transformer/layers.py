"""Encoder and decoder layers of the Transformer (Vaswani et al. 2017) on `MultiHeadAttention`.

Every forward returns a frozen trace with the tensors a teaching page shows (each attention's
`AttentionTrace`, the "Add" and the "Norm" of every Add & Norm, the feed-forward), never
stores them on the module.

Shapes: B batch, S source tokens, T target tokens, C = d_model, F = d_ff, V vocabulary,
nh heads, hs = C / nh.

Parameter names and layout follow `torch.nn.TransformerEncoderLayer` /
`torch.nn.TransformerDecoderLayer` (self_attn, multihead_attn, linear1, linear2, norm1..3,
dropout, dropout1..3), so `EncoderLayer.from_torch` / `DecoderLayer.from_torch` are plain
state-dict copies. Our layers are always batch-first, (B, T, C).

Mask conventions are those of `mha_core.attention` (and of `F.scaled_dot_product_attention`,
NOT of `nn.Transformer`): an attention `mask` is bool and True where a query MAY attend;
`*_key_padding_mask` is bool (B, T) and True where a position is PADDING. Padded query
positions are computed like any other (their rows are not zeroed, as in torch's non-fast
path); a query with no key to attend to gets all-zero weights, never NaN.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from ..layer.attention import AttentionTrace, MultiHeadAttention
from ..layer.config import check_heads

ACTIVATIONS = ("relu", "gelu")
_ACTIVATION_FNS = {"relu": F.relu, "gelu": F.gelu}


# --- checks and seeded initialisation ------------------------------------------------------
def _check_layer_args(d_model, n_heads, d_ff, dropout, activation, layer_norm_eps) -> None:
    check_heads(d_model, n_heads)
    if not isinstance(d_ff, int) or isinstance(d_ff, bool) or d_ff < 1:
        raise ValueError(f"d_ff (feed-forward width) must be a positive whole number, got {d_ff!r}")
    if not 0.0 <= dropout < 1.0:
        raise ValueError(f"dropout must be in [0, 1), got {dropout!r}")
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}, got {activation!r}")
    if not layer_norm_eps > 0.0:
        raise ValueError(f"layer_norm_eps must be positive, got {layer_norm_eps!r}")


def _generator(seed: int | None) -> torch.Generator:
    g = torch.Generator()
    if seed is None:
        g.seed()
    else:
        g.manual_seed(seed)
    return g


def _draw_seed(g: torch.Generator) -> int:
    """A fresh seed for a sub-module, drawn from a seeded generator."""
    return int(torch.randint(0, 2**62, (1,), generator=g))


@torch.no_grad()
def _init_linear(layer: nn.Linear, g: torch.Generator) -> None:
    """torch's default nn.Linear init (kaiming-uniform, a=sqrt(5)), from generator `g`."""
    nn.init.kaiming_uniform_(layer.weight, a=math.sqrt(5), generator=g)
    if layer.bias is not None:
        bound = 1.0 / math.sqrt(layer.weight.shape[1])
        layer.bias.uniform_(-bound, bound, generator=g)


def _activation_name(fn) -> str:
    """'relu' or 'gelu' for a torch layer's activation (a function or a module)."""
    if fn is F.relu or isinstance(fn, nn.ReLU):
        return "relu"
    if fn is F.gelu or (isinstance(fn, nn.GELU) and fn.approximate == "none"):
        return "gelu"
    raise ValueError(f"only relu and (exact) gelu activations are supported, got {fn!r}")


def _batched(x: torch.Tensor, name: str, d_model: int) -> torch.Tensor:
    """(T, C) -> (1, T, C); check the feature size."""
    if x.dim() == 2:
        x = x[None]
    if x.dim() != 3:
        raise ValueError(f"{name} must have shape (B, T, C) or (T, C), got {tuple(x.shape)}")
    if x.shape[-1] != d_model:
        raise ValueError(f"{name} has {x.shape[-1]} features; this model expects {d_model}")
    return x


def _check_padding(mask: torch.Tensor | None, B: int, T: int, name: str) -> None:
    if mask is None:
        return
    if mask.dtype != torch.bool:
        raise ValueError(f"{name} must be a bool tensor, True where a position is padding")
    if tuple(mask.shape) != (B, T):
        raise ValueError(f"{name} must have shape (B, T) = {(B, T)}, got {tuple(mask.shape)}")


# --- traces ----------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class EncoderLayerTrace:
    """What one encoder layer computed.

    Post-norm (norm_first=False, the paper): out = Norm(h + FF(h)), h = Norm(x + SelfAttn(x)).
    Pre-norm (norm_first=True): out = h + FF(Norm(h)), h = x + SelfAttn(Norm(x)).
    The `*_normed` tensors are always the input of the next sub-layer; in post-norm they are
    also the residual stream, in pre-norm the stream carries the un-normalised `*_residual` on.
    Tensors keep their autograd history when gradients are on (training).
    """

    norm_first: bool
    x: torch.Tensor  # (B, T, C) the layer's input
    attn_in: torch.Tensor  # (B, T, C) what the attention saw: x (post-norm) or norm1(x) (pre)
    self_attn: AttentionTrace  # (B, nh, T, T) weights
    attn_residual: torch.Tensor  # (B, T, C) "Add": x + dropout1(self_attn.output)
    attn_normed: torch.Tensor  # (B, T, C) "Norm": norm1(attn_residual) (post) / norm2(.) (pre)
    ff_hidden: torch.Tensor  # (B, T, F) activation(linear1(attn_normed)), before dropout
    ff_out: torch.Tensor  # (B, T, C) linear2(dropout(ff_hidden)), before dropout2
    ff_residual: torch.Tensor  # (B, T, C) "Add": attn_normed (post) / attn_residual (pre) + FF
    output: torch.Tensor  # (B, T, C) norm2(ff_residual) (post) / ff_residual (pre)


@dataclass(frozen=True, eq=False)
class DecoderLayerTrace:
    """What one decoder layer computed: masked self-attention, cross-attention, feed-forward.

    Post-norm: h1 = Norm1(y + SelfAttn(y)); h2 = Norm2(h1 + CrossAttn(h1, memory));
    out = Norm3(h2 + FF(h2)). Pre-norm: h1 = y + SelfAttn(Norm1(y));
    h2 = h1 + CrossAttn(Norm2(h1), memory); out = h2 + FF(Norm3(h2)).
    As in `EncoderLayerTrace`, `*_normed` is the input of the next sub-layer.
    """

    norm_first: bool
    y: torch.Tensor  # (B, T, C) the layer's input (target side)
    memory: torch.Tensor  # (B, S, C) the encoder's output (keys and values of cross-attention)
    self_in: torch.Tensor  # (B, T, C) y (post-norm) or norm1(y) (pre-norm)
    self_attn: AttentionTrace  # (B, nh, T, T) weights, causal by default
    self_residual: torch.Tensor  # (B, T, C) y + dropout1(self_attn.output)
    self_normed: torch.Tensor  # (B, T, C) norm1(self_residual) (post) / norm2(.) (pre)
    cross_attn: AttentionTrace  # (B, nh, T, S) weights: target queries over source keys
    cross_residual: torch.Tensor  # (B, T, C) self_normed (post) / self_residual (pre) + cross
    cross_normed: torch.Tensor  # (B, T, C) norm2(cross_residual) (post) / norm3(.) (pre)
    ff_hidden: torch.Tensor  # (B, T, F) activation(linear1(cross_normed)), before dropout
    ff_out: torch.Tensor  # (B, T, C) linear2(dropout(ff_hidden)), before dropout3
    ff_residual: torch.Tensor  # (B, T, C) cross_normed (post) / cross_residual (pre) + FF
    output: torch.Tensor  # (B, T, C) norm3(ff_residual) (post) / ff_residual (pre)

    @property
    def cross_in(self) -> torch.Tensor:
        """(B, T, C) the cross-attention's queries' input (= self_normed)."""
        return self.self_normed


# --- layers ----------------------------------------------------------------------------------
class _Layer(nn.Module):
    """What encoder and decoder layers share: their parameters (torch's names and order), the
    feed-forward block and the Add & Norm around each sub-layer.

    Same parameters as `torch.nn.TransformerEncoderLayer` / `TransformerDecoderLayer`; `dropout`
    also applies to the attention weights (training mode only), as in torch.
    """

    _cross = False  # a decoder layer also attends over the encoder's memory

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        *,
        d_ff: int | None = None,
        dropout: float = 0.0,
        activation: str = "relu",
        norm_first: bool = False,
        layer_norm_eps: float = 1e-5,
        bias: bool = True,
        seed: int | None = 0,
    ) -> None:
        super().__init__()
        d_ff = 4 * d_model if d_ff is None else d_ff
        _check_layer_args(d_model, n_heads, d_ff, dropout, activation, layer_norm_eps)
        self.d_model, self.n_heads, self.d_ff = d_model, n_heads, d_ff
        self.activation_name, self.norm_first = activation, bool(norm_first)
        self.activation = _ACTIVATION_FNS[activation]
        g = _generator(seed)
        attn = dict(dropout=dropout, bias=bias)
        self.self_attn = MultiHeadAttention(d_model, n_heads, seed=_draw_seed(g), **attn)
        if self._cross:
            self.multihead_attn = MultiHeadAttention(d_model, n_heads, seed=_draw_seed(g), **attn)
        self.linear1 = nn.Linear(d_model, d_ff, bias=bias)
        self.dropout = nn.Dropout(dropout)
        self.linear2 = nn.Linear(d_ff, d_model, bias=bias)
        n_sub = 3 if self._cross else 2  # sub-layers, each with its own norm and dropout
        for i in range(1, n_sub + 1):
            setattr(self, f"norm{i}", nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias))
        for i in range(1, n_sub + 1):
            setattr(self, f"dropout{i}", nn.Dropout(dropout))
        _init_linear(self.linear1, g)
        _init_linear(self.linear2, g)

    @classmethod
    def from_torch(cls, layer: nn.Module):
        """Copy a `torch.nn.TransformerEncoderLayer` (for `EncoderLayer`) or
        `TransformerDecoderLayer` (for `DecoderLayer`), either batch_first; ours is batch-first."""
        ours = cls(
            d_model=layer.self_attn.embed_dim,
            n_heads=layer.self_attn.num_heads,
            d_ff=layer.linear1.out_features,
            dropout=layer.dropout.p,
            activation=_activation_name(layer.activation),
            norm_first=layer.norm_first,
            layer_norm_eps=layer.norm1.eps,
            bias=layer.linear1.bias is not None,
            seed=0,
        )
        p = next(layer.parameters())
        ours.to(device=p.device, dtype=p.dtype)
        ours.load_state_dict(layer.state_dict())
        ours.train(layer.training)
        return ours

    def _add_norm(
        self, i: int, stream: torch.Tensor, out: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Add & Norm around sub-layer i (1-based) that is not the last: the residual sum, its
        norm (post-norm: norm i, the layer's stream; pre-norm: norm i + 1, the next sub-layer's
        input) and the stream the next sub-layer adds to."""
        residual = stream + getattr(self, f"dropout{i}")(out)  # (B, T, C)
        normed = getattr(self, f"norm{i + 1 if self.norm_first else i}")(residual)  # (B, T, C)
        return residual, normed, (residual if self.norm_first else normed)

    def _feed_forward(
        self, i: int, stream: torch.Tensor, h: torch.Tensor
    ) -> tuple[torch.Tensor, ...]:
        """The feed-forward sub-layer (the last, i) on its input h, with its Add & Norm:
        (hidden, out, residual, output)."""
        hidden = self.activation(self.linear1(h))  # (B, T, F)
        out = self.linear2(self.dropout(hidden))  # (B, T, C)
        residual = stream + getattr(self, f"dropout{i}")(out)  # (B, T, C)
        output = residual if self.norm_first else getattr(self, f"norm{i}")(residual)  # (B, T, C)
        return hidden, out, residual, output


class EncoderLayer(_Layer):
    """Self-attention + feed-forward, each wrapped in residual + LayerNorm (+ dropout).

    Same parameters as `torch.nn.TransformerEncoderLayer(d_model, n_heads, d_ff, dropout,
    activation, layer_norm_eps, batch_first=True, norm_first)`; `dropout` also applies to the
    attention weights (training mode only), as in torch.
    """

    def forward(
        self,
        x: torch.Tensor,
        key_padding_mask: torch.Tensor | None = None,
        *,
        mask: torch.Tensor | str | None = None,
    ) -> EncoderLayerTrace:
        """x (B, T, C) or (T, C); key_padding_mask (B, T) True = padding; mask True = may attend."""
        x = _batched(x, "x", self.d_model)  # (B, T, C)
        B, T, _ = x.shape
        _check_padding(key_padding_mask, B, T, "key_padding_mask")
        attn_in = self.norm1(x) if self.norm_first else x  # (B, T, C)
        sa = self.self_attn(attn_in, mask=mask, key_padding_mask=key_padding_mask)
        attn_residual, attn_normed, stream = self._add_norm(1, x, sa.output)  # (B, T, C) each
        ff_hidden, ff_out, ff_residual, output = self._feed_forward(2, stream, attn_normed)
        return EncoderLayerTrace(
            norm_first=self.norm_first,
            x=x,
            attn_in=attn_in,
            self_attn=sa,
            attn_residual=attn_residual,
            attn_normed=attn_normed,
            ff_hidden=ff_hidden,
            ff_out=ff_out,
            ff_residual=ff_residual,
            output=output,
        )


class DecoderLayer(_Layer):
    """Masked self-attention, cross-attention over the encoder's memory, feed-forward; each
    wrapped in residual + LayerNorm (+ dropout). Same parameters as
    `torch.nn.TransformerDecoderLayer(..., batch_first=True)`.
    """

    _cross = True

    @property
    def cross_attn(self) -> MultiHeadAttention:
        """The cross-attention module (torch's name for it is `multihead_attn`)."""
        return self.multihead_attn

    def forward(
        self,
        y: torch.Tensor,
        memory: torch.Tensor,
        *,
        tgt_mask: torch.Tensor | str | None = "causal",
        tgt_key_padding_mask: torch.Tensor | None = None,
        memory_key_padding_mask: torch.Tensor | None = None,
    ) -> DecoderLayerTrace:
        """y (B, T, C) target side, memory (B, S, C) encoder output (or unbatched (T, C), (S, C)).

        tgt_mask: "causal" (default: token t sees targets 0..t), None / "none", or a bool
        (T, T) / (B, T, T) tensor, True where a query may attend. Padding masks: True = pad.
        """
        y = _batched(y, "y", self.d_model)  # (B, T, C)
        memory = _batched(memory, "memory", self.d_model)  # (B, S, C)
        B, T, _ = y.shape
        if memory.shape[0] != B:
            raise ValueError(f"memory has batch size {memory.shape[0]}, the target has {B}")
        _check_padding(tgt_key_padding_mask, B, T, "tgt_key_padding_mask")
        _check_padding(memory_key_padding_mask, B, memory.shape[1], "memory_key_padding_mask")

        self_in = self.norm1(y) if self.norm_first else y  # (B, T, C)
        sa = self.self_attn(self_in, mask=tgt_mask, key_padding_mask=tgt_key_padding_mask)
        self_residual, self_normed, stream = self._add_norm(1, y, sa.output)  # (B, T, C) each
        ca = self.multihead_attn(
            self_normed, memory, memory, key_padding_mask=memory_key_padding_mask
        )  # (B, nh, T, S) weights
        cross_residual, cross_normed, stream = self._add_norm(2, stream, ca.output)
        ff_hidden, ff_out, ff_residual, output = self._feed_forward(3, stream, cross_normed)
        return DecoderLayerTrace(
            norm_first=self.norm_first,
            y=y,
            memory=memory,
            self_in=self_in,
            self_attn=sa,
            self_residual=self_residual,
            self_normed=self_normed,
            cross_attn=ca,
            cross_residual=cross_residual,
            cross_normed=cross_normed,
            ff_hidden=ff_hidden,
            ff_out=ff_out,
            ff_residual=ff_residual,
            output=output,
        )
