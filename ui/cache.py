"""Cached calls into the core. Models: cache_resource. Results: cache_data, bounded."""

from __future__ import annotations

import streamlit as st

from mha_core import (
    MAX_TOKENS,
    AttentionConfig,
    MultiHeadAttention,
    SentenceTrace,
    TokenizedText,
    build_attention,
    load_wordpiece,
    run_attention,
    word_tokenize,
    wordpiece_tokenize,
)


@st.cache_resource(max_entries=32, show_spinner=False)
def _layer(d_model: int, n_heads: int, scale: bool, scoring: str, seed: int) -> MultiHeadAttention:
    return build_attention(
        AttentionConfig(d_model=d_model, n_heads=n_heads, scale=scale, scoring=scoring, seed=seed)
    )


def attention_layer(config: AttentionConfig) -> MultiHeadAttention:
    """One seeded eval-mode layer per weight-relevant setting, shared read-only by all sessions."""
    return _layer(config.d_model, config.n_heads, config.scale, config.scoring, config.seed)


@st.cache_resource(show_spinner=False)
def wordpiece_tokenizer():
    return load_wordpiece()


@st.cache_data(max_entries=256, show_spinner=False)
def tokenize(text: str, tokenizer: str, limit: int = MAX_TOKENS) -> TokenizedText:
    if tokenizer == "wordpiece":
        return wordpiece_tokenize(text, wordpiece_tokenizer(), limit)
    return word_tokenize(text, limit)


@st.cache_data(max_entries=128, show_spinner=False)
def sentence_trace(tokens: tuple[str, ...], config: AttentionConfig) -> SentenceTrace:
    """The attention of one sentence under one configuration."""
    return run_attention(list(tokens), config, attention_layer(config))
