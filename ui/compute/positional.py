"""The sinusoidal table, its offsets, and the shuffle test on the sentence."""

from __future__ import annotations

import numpy as np
import streamlit as st

from mha_core import AttentionConfig, embed_tokens
from mha_core.layer import ShiftTest, alibi_attention, alibi_bias, shift_test
from mha_core.layer import positional as positional_core
from mha_core.lessons import permutation as perm_core
from ui.compute.attention import attention_layer, sentence_attention


@st.cache_data(max_entries=32, show_spinner=False)
def positional_table(n_positions: int, d_model: int) -> positional_core.PositionalTable:
    return positional_core.positional_table(n_positions, d_model)


@st.cache_data(max_entries=64, show_spinner=False)
def encoding_norms(n_positions: int, d_model: int) -> tuple[float, float]:
    """Mean ‖PE(pos)‖ over the table's positions, and mean ‖E‖ of this app's token embeddings
    (standardised vectors, the same norm for every token: a few words measure it)."""
    pe = positional_core.sinusoidal_encoding(n_positions, d_model).double()
    e = embed_tokens(["the", "cat", "sat", "on", "mat"], d_model).double()
    return float(pe.norm(dim=-1).mean()), float(e.norm(dim=-1).mean())


@st.cache_data(max_entries=64, show_spinner=False)
def offset_similarity(n_positions: int, d_model: int) -> tuple[np.ndarray, np.ndarray]:
    """Offsets -(P-1)..P-1 and the closed form sum_i cos(k w_i) at each."""
    k = np.arange(-(n_positions - 1), n_positions)
    return k, positional_core.offset_similarity(k, d_model)


@st.cache_data(max_entries=64, show_spinner=False)
def shuffle_attention(
    tokens: tuple[str, ...], config: AttentionConfig, perm: tuple[int, ...]
) -> perm_core.ShuffleResult:
    return perm_core.shuffle_attention(list(tokens), config, perm, attention_layer(config))


@st.cache_data(max_entries=32, show_spinner=False)
def rope_shift(tokens: tuple[str, ...], config: AttentionConfig, shift: int) -> ShiftTest:
    """RoPE against added sinusoidal PE on the sentence's q and k (the layer without PE)."""
    trace = sentence_attention(tokens, config).attention
    return shift_test(trace.q, trace.k, shift)


@st.cache_data(max_entries=32, show_spinner=False)
def alibi_heads(tokens: tuple[str, ...], config: AttentionConfig) -> tuple[np.ndarray, np.ndarray]:
    """The ALiBi bias (nh, T, T) and the sentence's heads with it, causal (nh, T, T)."""
    trace = sentence_attention(tokens, config).attention
    res = alibi_attention(trace.q, trace.k, trace.v, causal=True)
    return alibi_bias(config.n_heads, len(tokens)).numpy(), res.weights[0].numpy()
