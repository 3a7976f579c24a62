"""The encoder-decoder Transformer (Vaswani et al. 2017): its config, the model (embeddings,
`EncoderLayer`s, `DecoderLayer`s, output projection) and greedy decoding.

Shapes: B batch, S source tokens, T target tokens, C = d_model, V vocabulary. Mask conventions
are those of `mha_core.layer.attention` (see `layers.py`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import torch
from torch import nn

from ..layer.attention import AttentionTrace
from ..layer.config import check_heads, head_size
from ..layer.positional import sinusoidal_encoding
from .layers import (
    DecoderLayer,
    DecoderLayerTrace,
    EncoderLayer,
    EncoderLayerTrace,
    _batched,
    _check_layer_args,
    _draw_seed,
    _generator,
    _init_linear,
)


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
        return head_size(self.d_model, self.n_heads)

    @classmethod
    def vectors_in(cls, **settings) -> EncoderDecoderConfig:
        """A model that sentences enter as vectors (the encoder-decoder page, the tests): the
        vocabularies are never used, so they have one entry each."""
        return cls(src_vocab=1, tgt_vocab=1, **settings)


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
