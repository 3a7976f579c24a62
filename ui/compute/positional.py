"""The sinusoidal table, its offsets, and the shuffle test on the sentence."""

from __future__ import annotations

import numpy as np
import streamlit as st

from mha_core import AttentionConfig
from mha_core.layer import positional as positional_core
from mha_core.lessons import permutation as perm_core
from ui.compute.attention import attention_layer


@st.cache_data(max_entries=32, show_spinner=False)
def positional_table(n_positions: int, d_model: int) -> positional_core.PositionalTable:
    return positional_core.positional_table(n_positions, d_model)


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
