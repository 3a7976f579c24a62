"""The encoder-decoder Transformer (Vaswani et al. 2017) built on our `MultiHeadAttention`.

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
from typing import NamedTuple

import torch
import torch.nn.functional as F
from torch import nn

from .attention import AttentionTrace, MultiHeadAttention
from .config import check_heads
from .positional import sinusoidal_encoding

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
    """What encoder and decoder layers share: the feed-forward block and its settings."""

    def __init__(self, d_model, n_heads, d_ff, dropout, activation, norm_first, layer_norm_eps):
        super().__init__()
        _check_layer_args(d_model, n_heads, d_ff, dropout, activation, layer_norm_eps)
        self.d_model, self.n_heads, self.d_ff = d_model, n_heads, d_ff
        self.activation_name, self.norm_first = activation, bool(norm_first)
        self.activation = _ACTIVATION_FNS[activation]

    def _feed_forward(self, h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = self.activation(self.linear1(h))  # (B, T, F)
        return hidden, self.linear2(self.dropout(hidden))  # (B, T, C)

    @classmethod
    def _torch_kwargs(cls, layer: nn.Module) -> dict:
        return dict(
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

    def _copy_from(self, layer: nn.Module) -> None:
        p = next(layer.parameters())
        self.to(device=p.device, dtype=p.dtype)
        self.load_state_dict(layer.state_dict())
        self.train(layer.training)


class EncoderLayer(_Layer):
    """Self-attention + feed-forward, each wrapped in residual + LayerNorm (+ dropout).

    Same parameters as `torch.nn.TransformerEncoderLayer(d_model, n_heads, d_ff, dropout,
    activation, layer_norm_eps, batch_first=True, norm_first)`; `dropout` also applies to the
    attention weights (training mode only), as in torch.
    """

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
        d_ff = 4 * d_model if d_ff is None else d_ff
        super().__init__(d_model, n_heads, d_ff, dropout, activation, norm_first, layer_norm_eps)
        g = _generator(seed)
        self.self_attn = MultiHeadAttention(
            d_model, n_heads, dropout=dropout, bias=bias, seed=_draw_seed(g)
        )
        self.linear1 = nn.Linear(d_model, d_ff, bias=bias)
        self.dropout = nn.Dropout(dropout)
        self.linear2 = nn.Linear(d_ff, d_model, bias=bias)
        self.norm1 = nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.norm2 = nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)
        _init_linear(self.linear1, g)
        _init_linear(self.linear2, g)

    @classmethod
    def from_torch(cls, layer: nn.TransformerEncoderLayer) -> EncoderLayer:
        """Copy a `torch.nn.TransformerEncoderLayer` (either batch_first; ours is batch-first)."""
        ours = cls(**cls._torch_kwargs(layer))
        ours._copy_from(layer)
        return ours

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
        attn_residual = x + self.dropout1(sa.output)  # (B, T, C)
        norm = self.norm2 if self.norm_first else self.norm1
        attn_normed = norm(attn_residual)  # (B, T, C)
        ff_hidden, ff_out = self._feed_forward(attn_normed)  # (B, T, F), (B, T, C)
        stream = attn_residual if self.norm_first else attn_normed
        ff_residual = stream + self.dropout2(ff_out)  # (B, T, C)
        output = ff_residual if self.norm_first else self.norm2(ff_residual)  # (B, T, C)
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
        d_ff = 4 * d_model if d_ff is None else d_ff
        super().__init__(d_model, n_heads, d_ff, dropout, activation, norm_first, layer_norm_eps)
        g = _generator(seed)
        self.self_attn = MultiHeadAttention(
            d_model, n_heads, dropout=dropout, bias=bias, seed=_draw_seed(g)
        )
        self.multihead_attn = MultiHeadAttention(
            d_model, n_heads, dropout=dropout, bias=bias, seed=_draw_seed(g)
        )
        self.linear1 = nn.Linear(d_model, d_ff, bias=bias)
        self.dropout = nn.Dropout(dropout)
        self.linear2 = nn.Linear(d_ff, d_model, bias=bias)
        self.norm1 = nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.norm2 = nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.norm3 = nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)
        self.dropout3 = nn.Dropout(dropout)
        _init_linear(self.linear1, g)
        _init_linear(self.linear2, g)

    @classmethod
    def from_torch(cls, layer: nn.TransformerDecoderLayer) -> DecoderLayer:
        """Copy a `torch.nn.TransformerDecoderLayer` (either batch_first; ours is batch-first)."""
        ours = cls(**cls._torch_kwargs(layer))
        ours._copy_from(layer)
        return ours

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
        S = memory.shape[1]
        _check_padding(tgt_key_padding_mask, B, T, "tgt_key_padding_mask")
        _check_padding(memory_key_padding_mask, B, S, "memory_key_padding_mask")
        pre = self.norm_first

        self_in = self.norm1(y) if pre else y  # (B, T, C)
        sa = self.self_attn(self_in, mask=tgt_mask, key_padding_mask=tgt_key_padding_mask)
        self_residual = y + self.dropout1(sa.output)  # (B, T, C)
        self_normed = (self.norm2 if pre else self.norm1)(self_residual)  # (B, T, C)

        ca = self.multihead_attn(
            self_normed, memory, memory, key_padding_mask=memory_key_padding_mask
        )  # (B, nh, T, S) weights
        stream = self_residual if pre else self_normed
        cross_residual = stream + self.dropout2(ca.output)  # (B, T, C)
        cross_normed = (self.norm3 if pre else self.norm2)(cross_residual)  # (B, T, C)

        ff_hidden, ff_out = self._feed_forward(cross_normed)  # (B, T, F), (B, T, C)
        stream = cross_residual if pre else cross_normed
        ff_residual = stream + self.dropout3(ff_out)  # (B, T, C)
        output = ff_residual if pre else self.norm3(ff_residual)  # (B, T, C)
        return DecoderLayerTrace(
            norm_first=pre,
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


# --- the whole model -------------------------------------------------------------------------
@dataclass(frozen=True)
class EncoderDecoderConfig:
    """Everything that decides what an `EncoderDecoder` computes (and its seeded weights)."""

    src_vocab: int
    tgt_vocab: int
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2  # encoder layers = decoder layers = n_layers
    d_ff: int | None = None  # feed-forward width; None -> 4 * d_model (resolved on creation)
    dropout: float = 0.0  # embeddings, attention weights, residual branches, feed-forward
    norm_first: bool = False  # False: post-norm (the paper); True: pre-norm + final LayerNorms
    activation: str = "relu"  # "relu" or "gelu"
    max_len: int = 64  # longest source / target sequence (rows of the positional table)
    scale_embeddings: bool = True  # token embedding * sqrt(d_model), as in the paper
    layer_norm_eps: float = 1e-5
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("src_vocab", "tgt_vocab", "n_layers", "max_len"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be a positive whole number, got {v!r}")
        if self.d_ff is None:
            check_heads(self.d_model, self.n_heads)
            object.__setattr__(self, "d_ff", 4 * self.d_model)
        _check_layer_args(
            self.d_model,
            self.n_heads,
            self.d_ff,
            self.dropout,
            self.activation,
            self.layer_norm_eps,
        )
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {self.seed!r}")

    @property
    def d_k(self) -> int:
        """Dimensions per head: d_model / n_heads."""
        return self.d_model // self.n_heads


class EncoderOutput(NamedTuple):
    memory: torch.Tensor  # (B, S, C) last encoder layer's output (+ final norm in pre-norm)
    layers: tuple[EncoderLayerTrace, ...]


class DecoderOutput(NamedTuple):
    hidden: torch.Tensor  # (B, T, C) last decoder layer's output (+ final norm in pre-norm)
    logits: torch.Tensor  # (B, T, V) hidden @ W_out^T + b_out
    layers: tuple[DecoderLayerTrace, ...]


@dataclass(frozen=True, eq=False)
class EncoderDecoderTrace:
    """One forward of an `EncoderDecoder`: inputs, every layer's trace, memory and logits."""

    src_x: torch.Tensor  # (B, S, C) what entered the first encoder layer
    tgt_x: torch.Tensor  # (B, T, C) what entered the first decoder layer
    src_key_padding_mask: torch.Tensor | None  # (B, S) True = padding
    tgt_key_padding_mask: torch.Tensor | None  # (B, T) True = padding
    encoder_layers: tuple[EncoderLayerTrace, ...]  # n_layers
    memory: torch.Tensor  # (B, S, C) encoder output (after encoder_norm in pre-norm)
    decoder_layers: tuple[DecoderLayerTrace, ...]  # n_layers
    decoder_out: torch.Tensor  # (B, T, C) decoder output (after decoder_norm in pre-norm)
    logits: torch.Tensor  # (B, T, V) scores over the target vocabulary (before softmax)

    @property
    def encoder_self(self) -> tuple[AttentionTrace, ...]:
        """Encoder self-attention per layer: weights (B, nh, S, S)."""
        return tuple(t.self_attn for t in self.encoder_layers)

    @property
    def decoder_self(self) -> tuple[AttentionTrace, ...]:
        """Decoder (masked) self-attention per layer: weights (B, nh, T, T)."""
        return tuple(t.self_attn for t in self.decoder_layers)

    @property
    def decoder_cross(self) -> tuple[AttentionTrace, ...]:
        """Decoder cross-attention per layer: weights (B, nh, T, S)."""
        return tuple(t.cross_attn for t in self.decoder_layers)


class EncoderDecoder(nn.Module):
    """A small seeded encoder-decoder Transformer whose forward returns every trace.

    ids -> token embedding (* sqrt(d_model) if `scale_embeddings`) + sinusoidal positional
    encoding -> dropout -> N encoder layers (-> encoder_norm in pre-norm) = memory;
    target ids -> the same embedding recipe -> N decoder layers (causal self-attention,
    cross-attention over memory) (-> decoder_norm in pre-norm) -> output_proj = logits.

    Embedding tables are initialised N(0, 1/d_model) when scaled (N(0, 1) when not), so the
    token vectors entering the model have unit-variance entries either way, like
    `mha_core.embed_tokens`. `forward_embeddings` runs on given vectors instead of ids.
    """

    def __init__(self, config: EncoderDecoderConfig) -> None:
        super().__init__()
        self.config = cfg = config
        C = cfg.d_model
        g = _generator(cfg.seed)
        self.src_embed = nn.Embedding(cfg.src_vocab, C)
        self.tgt_embed = nn.Embedding(cfg.tgt_vocab, C)
        self.register_buffer("pe", sinusoidal_encoding(cfg.max_len, C), persistent=False)
        self.dropout = nn.Dropout(cfg.dropout)
        kw = dict(
            d_ff=cfg.d_ff,
            dropout=cfg.dropout,
            activation=cfg.activation,
            norm_first=cfg.norm_first,
            layer_norm_eps=cfg.layer_norm_eps,
        )
        self.encoder_layers = nn.ModuleList(
            EncoderLayer(C, cfg.n_heads, seed=_draw_seed(g), **kw) for _ in range(cfg.n_layers)
        )
        self.decoder_layers = nn.ModuleList(
            DecoderLayer(C, cfg.n_heads, seed=_draw_seed(g), **kw) for _ in range(cfg.n_layers)
        )
        if cfg.norm_first:  # pre-norm leaves the residual stream un-normalised: norm it once
            self.encoder_norm = nn.LayerNorm(C, eps=cfg.layer_norm_eps)
            self.decoder_norm = nn.LayerNorm(C, eps=cfg.layer_norm_eps)
        else:
            self.encoder_norm = self.decoder_norm = None
        self.output_proj = nn.Linear(C, cfg.tgt_vocab)
        self.embed_scale = math.sqrt(C) if cfg.scale_embeddings else 1.0
        with torch.no_grad():
            std = 1.0 / self.embed_scale
            self.src_embed.weight.normal_(0.0, std, generator=g)
            self.tgt_embed.weight.normal_(0.0, std, generator=g)
        _init_linear(self.output_proj, g)

    # --- embeddings ------------------------------------------------------------------------
    def _embed(self, ids: torch.Tensor, table: nn.Embedding, name: str) -> torch.Tensor:
        if ids.dim() == 1:
            ids = ids[None]
        if ids.dim() != 2 or ids.dtype not in (torch.int64, torch.int32):
            raise ValueError(f"{name} must be integer token ids of shape (B, T)")
        n_tok = ids.shape[1]
        if n_tok > self.config.max_len:
            raise ValueError(
                f"{name} has {n_tok} tokens; this model takes at most max_len={self.config.max_len}"
            )
        V = table.num_embeddings
        if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= V):
            raise ValueError(f"{name} must be token ids in [0, {V - 1}]")
        x = table(ids) * self.embed_scale + self.pe[:n_tok]  # (B, T, C)
        return self.dropout(x)

    def embed_src(self, src_ids: torch.Tensor) -> torch.Tensor:
        """(B, S) ids -> (B, S, C): embedding (* sqrt(C)) + positional encoding, dropout."""
        return self._embed(src_ids, self.src_embed, "src_ids")

    def embed_tgt(self, tgt_ids: torch.Tensor) -> torch.Tensor:
        """(B, T) ids -> (B, T, C): embedding (* sqrt(C)) + positional encoding, dropout."""
        return self._embed(tgt_ids, self.tgt_embed, "tgt_ids")

    # --- the two stacks --------------------------------------------------------------------
    def encode(
        self, src_x: torch.Tensor, *, src_key_padding_mask: torch.Tensor | None = None
    ) -> EncoderOutput:
        """Run the encoder stack on embeddings src_x (B, S, C)."""
        h = _batched(src_x, "src_x", self.config.d_model)  # (B, S, C)
        traces = []
        for layer in self.encoder_layers:
            tr = layer(h, src_key_padding_mask)
            traces.append(tr)
            h = tr.output  # (B, S, C)
        if self.encoder_norm is not None:
            h = self.encoder_norm(h)
        return EncoderOutput(memory=h, layers=tuple(traces))

    def decode(
        self,
        tgt_x: torch.Tensor,
        memory: torch.Tensor,
        *,
        tgt_mask: torch.Tensor | str | None = "causal",
        tgt_key_padding_mask: torch.Tensor | None = None,
        memory_key_padding_mask: torch.Tensor | None = None,
    ) -> DecoderOutput:
        """Run the decoder stack on embeddings tgt_x (B, T, C) over memory (B, S, C)."""
        h = _batched(tgt_x, "tgt_x", self.config.d_model)  # (B, T, C)
        traces = []
        for layer in self.decoder_layers:
            tr = layer(
                h,
                memory,
                tgt_mask=tgt_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
            )
            traces.append(tr)
            h = tr.output  # (B, T, C)
        if self.decoder_norm is not None:
            h = self.decoder_norm(h)
        logits = self.output_proj(h)  # (B, T, V)
        return DecoderOutput(hidden=h, logits=logits, layers=tuple(traces))

    # --- forward ---------------------------------------------------------------------------
    def forward_embeddings(
        self,
        src_x: torch.Tensor,
        tgt_x: torch.Tensor,
        *,
        src_key_padding_mask: torch.Tensor | None = None,
        tgt_key_padding_mask: torch.Tensor | None = None,
        tgt_mask: torch.Tensor | str | None = "causal",
    ) -> EncoderDecoderTrace:
        """Run on given vectors src_x (B, S, C), tgt_x (B, T, C) instead of ids.

        They enter the first layers as they are: no scaling, positional encoding or dropout is
        added (e.g. pass `embed_tokens(tokens, d_model, seed, positional=True)[None]`).
        """
        src_x = _batched(src_x, "src_x", self.config.d_model)  # (B, S, C)
        tgt_x = _batched(tgt_x, "tgt_x", self.config.d_model)  # (B, T, C)
        if src_x.shape[0] != tgt_x.shape[0]:
            raise ValueError(
                f"source and target batch sizes differ: {src_x.shape[0]} vs {tgt_x.shape[0]}"
            )
        enc = self.encode(src_x, src_key_padding_mask=src_key_padding_mask)
        dec = self.decode(
            tgt_x,
            enc.memory,
            tgt_mask=tgt_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=src_key_padding_mask,
        )
        return EncoderDecoderTrace(
            src_x=src_x,
            tgt_x=tgt_x,
            src_key_padding_mask=src_key_padding_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            encoder_layers=enc.layers,
            memory=enc.memory,
            decoder_layers=dec.layers,
            decoder_out=dec.hidden,
            logits=dec.logits,
        )

    def forward(
        self,
        src_ids: torch.Tensor,
        tgt_ids: torch.Tensor,
        *,
        src_key_padding_mask: torch.Tensor | None = None,
        tgt_key_padding_mask: torch.Tensor | None = None,
        tgt_mask: torch.Tensor | str | None = "causal",
    ) -> EncoderDecoderTrace:
        """src_ids (B, S), tgt_ids (B, T) long; masks (B, S) / (B, T) bool, True = padding.

        Teacher forcing: feed the target shifted right (BOS first) and compare logits[:, t]
        with the target token t; the causal tgt_mask keeps position t from seeing t+1.
        """
        return self.forward_embeddings(
            self.embed_src(src_ids),
            self.embed_tgt(tgt_ids),
            src_key_padding_mask=src_key_padding_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            tgt_mask=tgt_mask,
        )


@torch.no_grad()
def greedy_decode(
    model: EncoderDecoder,
    src_ids: torch.Tensor,
    bos_id: int,
    max_len: int,
    *,
    src_key_padding_mask: torch.Tensor | None = None,
    eos_id: int | None = None,
) -> torch.Tensor:
    """Greedy decoding: (B, 1 + n) long ids, BOS first, n <= max_len generated tokens.

    Encodes once, then appends the arg-max token max_len times (re-running the decoder on the
    prefix; no cache, the models are tiny). With `eos_id`, a row that produced EOS keeps
    producing EOS, and decoding stops early once every row has. Uses the model's current
    mode: call `model.eval()` first, or dropout stays on.
    """
    cfg = model.config
    if not 0 <= bos_id < cfg.tgt_vocab:
        raise ValueError(f"bos_id must be a target token id in [0, {cfg.tgt_vocab - 1}]")
    if eos_id is not None and not 0 <= eos_id < cfg.tgt_vocab:
        raise ValueError(f"eos_id must be a target token id in [0, {cfg.tgt_vocab - 1}]")
    if not isinstance(max_len, int) or not 1 <= max_len <= cfg.max_len:
        raise ValueError(f"max_len must be a whole number in [1, {cfg.max_len}], got {max_len!r}")
    if src_ids.dim() == 1:
        src_ids = src_ids[None]
    B = src_ids.shape[0]
    memory = model.encode(
        model.embed_src(src_ids), src_key_padding_mask=src_key_padding_mask
    ).memory  # (B, S, C)
    ys = torch.full((B, 1), bos_id, dtype=torch.long, device=src_ids.device)  # (B, 1)
    done = torch.zeros(B, dtype=torch.bool, device=src_ids.device)  # (B,)
    for _ in range(max_len):
        logits = model.decode(
            model.embed_tgt(ys), memory, memory_key_padding_mask=src_key_padding_mask
        ).logits  # (B, t, V)
        nxt = logits[:, -1].argmax(dim=-1)  # (B,)
        if eos_id is not None:
            nxt = nxt.masked_fill(done, eos_id)
            done = done | (nxt == eos_id)
        ys = torch.cat([ys, nxt[:, None]], dim=1)  # (B, t + 1)
        if eos_id is not None and bool(done.all()):
            break
    return ys
