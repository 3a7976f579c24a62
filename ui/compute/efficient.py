"""Cached calls of the Efficient attention page: the sentence's heads through the core's
grouped-query attention, KV cache, masks and tiled attention (bounded caches)."""

from __future__ import annotations

import streamlit as st

from mha_core import AttentionConfig
from mha_core.efficient import lesson
from ui.compute.attention import attention_layer, sentence_attention


def _qkv(tokens: tuple[str, ...], config: AttentionConfig):
    """The seeded layer's q, k, v (1, nh, T, hs) on the sentence (scaled dot-product)."""
    trace = sentence_attention(tokens, config).attention
    return trace.q, trace.k, trace.v


@st.cache_data(max_entries=32, show_spinner=False)
def grouped(tokens: tuple[str, ...], config: AttentionConfig, n_kv: int) -> lesson.GroupedHeads:
    x = sentence_attention(tokens, config).x  # (T, C) the layer's input
    return lesson.grouped_heads(attention_layer(config), x, n_kv, config.mask == "causal")


@st.cache_data(max_entries=32, show_spinner=False)
def cache_run(
    tokens: tuple[str, ...], config: AttentionConfig, n_kv: int, n_steps: int
) -> lesson.CacheRun:
    return lesson.cache_run(*_qkv(tokens, config), n_kv, n_steps)


@st.cache_data(max_entries=32, show_spinner=False)
def masked(
    tokens: tuple[str, ...],
    config: AttentionConfig,
    window: int,
    n_sinks: int,
    global_tokens: tuple[int, ...],
    n_layers: int,
) -> lesson.MaskedHeads:
    return lesson.masked_heads(
        *_qkv(tokens, config),
        window=window,
        n_sinks=n_sinks,
        global_tokens=global_tokens,
        n_layers=n_layers,
    )


@st.cache_data(max_entries=32, show_spinner=False)
def flash_row(
    tokens: tuple[str, ...], config: AttentionConfig, block_size: int, head: int, row: int
) -> lesson.FlashRow:
    return lesson.flash_row(
        *_qkv(tokens, config),
        block_size=block_size,
        causal=config.mask == "causal",
        head=head,
        row=row,
    )
