"""The pretrained model: loaded once per process, traces cached per input."""

from __future__ import annotations

import streamlit as st

from mha_core import AttentionTrace
from mha_core.pretrained import PretrainedModel, PretrainedTrace, load_pretrained


@st.cache_resource(show_spinner=False)
def model() -> PretrainedModel:
    return load_pretrained()


@st.cache_data(max_entries=32, show_spinner=False)
def trace(text: str, text_pair: str | None) -> PretrainedTrace:
    return model().trace(text, text_pair or None)


@st.cache_data(max_entries=32, show_spinner=False)
def rehead(text: str, text_pair: str | None, layer: int, n_heads: int) -> AttentionTrace:
    return model().rehead(trace(text, text_pair), layer, n_heads)
