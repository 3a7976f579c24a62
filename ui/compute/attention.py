"""The attention of the sidebar's sentence: tokens, the seeded layer, its trace, statistics."""

from __future__ import annotations

import numpy as np
import streamlit as st

from mha_core import (
    MAX_TOKENS,
    AttentionConfig,
    MultiHeadAttention,
    SentenceAttention,
    TokenizedText,
    build_attention,
    load_wordpiece,
    run_attention,
    word_tokenize,
    wordpiece_tokenize,
)
from mha_core.layer.stats import HeadStats, head_kinds, head_similarity, head_stats


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


@st.cache_resource(max_entries=128, show_spinner=False)
def sentence_attention(tokens: tuple[str, ...], config: AttentionConfig) -> SentenceAttention:
    """The attention of one sentence under one configuration, shared read-only by all sessions
    (as the layers are): computing it takes ~7 ms at 512 tokens x 16 heads, and st.cache_data
    spent ~43 ms pickling its 18 MB on a miss and ~20 ms unpickling them on every call."""
    return run_attention(list(tokens), config, attention_layer(config))


@st.cache_data(max_entries=64, show_spinner=False)
def head_statistics(
    tokens: tuple[str, ...], config: AttentionConfig
) -> tuple[HeadStats, list[str], np.ndarray]:
    """Per-head statistics, what each head looks like, and the head-similarity matrix."""
    trace = sentence_attention(tokens, config).attention
    w = trace.weights[0]
    allowed = None if trace.allowed is None else trace.allowed[0]  # (1|nh, T, T)
    s = head_stats(w, allowed)
    return s, head_kinds(s), head_similarity(w)


@st.cache_data(max_entries=32, show_spinner=False)
def minilm_attention(
    text: str, layer: int, n_heads: int
) -> tuple[np.ndarray, tuple[str, ...], int]:
    """all-MiniLM-L6-v2's layer `layer` on `text`, its trained projections split into `n_heads`
    heads (with 12, the layer itself): the weights (nh, T, T), the WordPiece tokens ([CLS] and
    [SEP] included) and how many tokens the text had before MiniLM's limit."""
    from ui.compute import pretrained  # MiniLM is loaded on first use only

    tr = pretrained.run(text, None)
    w = pretrained.rehead(text, None, layer, n_heads).weights[0].numpy()
    return w, tuple(tr.tokens), tr.n_total_tokens


@st.cache_data(max_entries=32, show_spinner=False)
def minilm_statistics(
    text: str, layer: int, n_heads: int
) -> tuple[HeadStats, list[str], np.ndarray]:
    """Per-head statistics, kinds and similarity of `minilm_attention(text, layer, n_heads)`."""
    w = minilm_attention(text, layer, n_heads)[0]
    s = head_stats(w)
    return s, head_kinds(s), head_similarity(w)


@st.cache_data(max_entries=16, show_spinner=False)
def llm_attention(text: str, layer: int) -> tuple[np.ndarray, tuple[str, ...], int]:
    """SmolLM2-135M-Instruct's layer `layer` on `text` (its first `LLM_TOKENS` tokens, no chat
    template): the weights (nh, T, T) of its 9 query heads (causal), the tokens as text, and
    how many tokens the text had."""
    from ui.compute import llm  # the chat model is loaded on first use only
    from ui.weights import LLM_TOKENS

    m = llm.model()
    ids = m.tokenizer.encode(text)
    kept = ids[:LLM_TOKENS]
    tr = m.trace(kept, layers=[layer], rows=[0], residual=False)
    w = tr.layers[layer].attn.weights[0].numpy().copy()  # (nh, T, T)
    return w, tuple(llm.token_texts(kept)), len(ids)


@st.cache_data(max_entries=16, show_spinner=False)
def llm_statistics(text: str, layer: int) -> tuple[HeadStats, list[str], np.ndarray]:
    """Statistics, kinds and similarity of `llm_attention(text, layer)` (causal: each row's
    uniform reference is over the keys it may see)."""
    w = llm_attention(text, layer)[0]
    T = w.shape[-1]
    s = head_stats(w, np.tril(np.ones((T, T), dtype=bool))[None])
    return s, head_kinds(s), head_similarity(w)
