"""The encoder-decoder page: one seeded model per model setting, its results per input."""

from __future__ import annotations

import streamlit as st

from mha_core import MAX_TOKENS, EncoderDecoder, EncoderDecoderConfig
from mha_core.lessons.encoder_decoder import (
    DropoutComparison,
    PaddedBatch,
    PairAttention,
    dropout_comparison,
    padded_batch,
    pair_attention,
)

MAX_LAYERS = 4


def model_config(
    d_model: int, n_heads: int, n_layers: int, norm_first: bool, seed: int
) -> EncoderDecoderConfig:
    """The page's model: the sidebar's size and seed, N layers, post- or pre-norm, no dropout
    inside (the page shows dropout on its own). Sentences enter as vectors, so the vocabularies
    are never used (size 1)."""
    return EncoderDecoderConfig.vectors_in(
        d_model=d_model,
        n_heads=n_heads,
        n_layers=n_layers,
        norm_first=norm_first,
        max_len=MAX_TOKENS,
        seed=seed,
    )


@st.cache_resource(max_entries=6, show_spinner=False)
def _model(
    d_model: int, n_heads: int, n_layers: int, norm_first: bool, seed: int
) -> EncoderDecoder:
    return EncoderDecoder(model_config(d_model, n_heads, n_layers, norm_first, seed)).eval()


def model(cfg: EncoderDecoderConfig) -> EncoderDecoder:
    """One eval-mode model per setting, shared read-only by every session."""
    return _model(cfg.d_model, cfg.n_heads, cfg.n_layers, cfg.norm_first, cfg.seed)


@st.cache_data(max_entries=32, show_spinner=False)
def pair(
    src: tuple[str, ...], tgt: tuple[str, ...], cfg: EncoderDecoderConfig, positional: bool
) -> PairAttention:
    """Encoder self-, decoder masked self- and cross-attention of every layer."""
    return pair_attention(model(cfg), src, tgt, positional=positional)


@st.cache_data(max_entries=16, show_spinner=False)
def batch(
    sentences: tuple[tuple[str, ...], ...], cfg: EncoderDecoderConfig, layer: int, positional: bool
) -> PaddedBatch:
    """The padded batch through the encoder, seen at `layer`: padding, Add & Norm."""
    return padded_batch(model(cfg), sentences, layer, positional=positional)


@st.cache_data(max_entries=32, show_spinner=False)
def dropout(
    src: tuple[str, ...],
    tgt: tuple[str, ...],
    cfg: EncoderDecoderConfig,
    positional: bool,
    layer: int,
    head: int,
    p: float,
    seed: int,
) -> DropoutComparison:
    """Dropout on one head of the encoder self-attention (training against eval)."""
    weights = pair(src, tgt, cfg, positional).encoder_self[layer, head]  # (S, S)
    return dropout_comparison(weights, p, seed)
