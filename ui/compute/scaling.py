"""The scaling lab: std(q.k) against d_k, softmax saturation, the sentence scaled or not."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from mha_core import AttentionConfig
from mha_core.lessons import scaling as scaling_core
from ui.compute.attention import sentence_attention


@st.cache_data(max_entries=16, show_spinner=False)
def dot_product_stats(n_samples: int, seed: int, distribution: str) -> scaling_core.DotProductStats:
    return scaling_core.dot_product_stats(scaling_core.D_K_GRID, n_samples, seed, distribution)


@st.cache_data(max_entries=32, show_spinner=False)
def saturation_curves(
    n_keys: int, n_samples: int, seed: int, distribution: str
) -> scaling_core.SaturationCurves:
    rows = scaling_core.saturation_rows(n_samples, n_keys)
    return scaling_core.saturation_curves(scaling_core.D_K_GRID, n_keys, rows, seed, distribution)


@st.cache_data(max_entries=64, show_spinner=False)
def sentence_scaling(
    tokens: tuple[str, ...], config: AttentionConfig, temperature: float
) -> scaling_core.SentenceScaling:
    """The sentence scaled, unscaled and unscaled at temperature tau (dot-product scores)."""
    dot = replace(config, scoring="dot", temperature=1.0)
    scaled = sentence_attention(tokens, replace(dot, scale=True))
    unscaled = sentence_attention(tokens, replace(dot, scale=False))
    tempered = sentence_attention(tokens, replace(dot, scale=False, temperature=temperature))
    return scaling_core.sentence_scaling(
        scaled.attention,
        unscaled.attention,
        tempered.attention,
        scaling_core.temperature_grid(),
    )
