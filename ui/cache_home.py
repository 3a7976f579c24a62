"""Cached derived results for the home page (statistics, exports)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from mha_core import AttentionConfig
from mha_core.export import trace_json, weights_csv
from mha_core.stats import HeadStats, head_kinds, head_similarity, head_stats
from ui.cache import sentence_trace


@st.cache_data(max_entries=64, show_spinner=False)
def stats(
    tokens: tuple[str, ...], config: AttentionConfig
) -> tuple[HeadStats, list[str], np.ndarray]:
    w = sentence_trace(tokens, config).trace.weights[0]
    s = head_stats(w)
    return s, head_kinds(s, len(tokens)), head_similarity(w)


def csv_bytes(tokens: tuple[str, ...], config: AttentionConfig) -> bytes:
    r = sentence_trace(tokens, config)
    return weights_csv(r.trace.weights[0], list(tokens)).encode("utf-8")


def json_bytes(tokens: tuple[str, ...], config: AttentionConfig) -> bytes:
    return trace_json(sentence_trace(tokens, config)).encode("utf-8")
