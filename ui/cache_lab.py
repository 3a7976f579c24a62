"""Cached calls into the core for the two lab pages (positional encoding, scaling).

Every function is keyed by small hashable settings, never by free text alone, and bounded by
max_entries, so that many users and long runs of settings keep memory flat.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import streamlit as st

from mha_core import AttentionConfig
from mha_core import permutation as perm_core
from mha_core import positional as positional_core
from mha_core import scaling as scaling_core
from ui import cache

SATURATION_MIN_ROWS = 64


# --- positional encoding ----------------------------------------------------------------------
@st.cache_data(max_entries=32, show_spinner=False)
def positional_table(n_positions: int, d_model: int) -> positional_core.PositionalTable:
    return positional_core.positional_table(n_positions, d_model)


@st.cache_data(max_entries=64, show_spinner=False)
def offset_similarity(n_positions: int, d_model: int):
    """Offsets -(P-1)..P-1 and the closed form sum_i cos(k w_i) at each."""
    k = np.arange(-(n_positions - 1), n_positions)
    return k, positional_core.offset_similarity(k, d_model)


@st.cache_data(max_entries=64, show_spinner=False)
def shuffle_attention(
    tokens: tuple[str, ...], config: AttentionConfig, perm: tuple[int, ...]
) -> perm_core.ShuffleResult:
    return perm_core.shuffle_attention(list(tokens), config, perm, cache.attention_layer(config))


# --- scaling ----------------------------------------------------------------------------------
@st.cache_data(max_entries=16, show_spinner=False)
def dot_product_stats(n_samples: int, seed: int, distribution: str) -> scaling_core.DotProductStats:
    return scaling_core.dot_product_stats(scaling_core.D_K_GRID, n_samples, seed, distribution)


def saturation_rows(n_samples: int, n_keys: int) -> int:
    """Rows (queries) per d_k so that rows x keys stays near the sample budget."""
    return max(SATURATION_MIN_ROWS, n_samples // n_keys)


@st.cache_data(max_entries=32, show_spinner=False)
def saturation_curves(
    n_keys: int, n_samples: int, seed: int, distribution: str
) -> scaling_core.SaturationCurves:
    return scaling_core.saturation_curves(
        scaling_core.D_K_GRID, n_keys, saturation_rows(n_samples, n_keys), seed, distribution
    )


@st.cache_data(max_entries=64, show_spinner=False)
def sentence_scaling(
    tokens: tuple[str, ...], config: AttentionConfig, temperature: float
) -> scaling_core.SentenceScaling:
    """The sentence scaled, unscaled and unscaled at temperature tau (dot-product scores)."""
    dot = replace(config, scoring="dot", temperature=1.0)
    scaled = cache.sentence_trace(tokens, replace(dot, scale=True))
    unscaled = cache.sentence_trace(tokens, replace(dot, scale=False))
    tempered = cache.sentence_trace(tokens, replace(dot, scale=False, temperature=temperature))
    return scaling_core.sentence_scaling(
        scaled.trace, unscaled.trace, tempered.trace, scaling_core.temperature_grid()
    )


def sqrt_d_k(d_k: int) -> float:
    """The temperature that equals scaling by 1/sqrt(d_k)."""
    return math.sqrt(d_k)
