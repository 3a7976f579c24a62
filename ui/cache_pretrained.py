"""The pretrained model: loaded once per process, traces cached per input (bounded)."""

from __future__ import annotations

import streamlit as st

from mha_core import AttentionTrace
from mha_core.pretrained import PretrainedModel, PretrainedTrace, load_pretrained


@st.cache_resource(show_spinner=False)
def model() -> PretrainedModel:
    return load_pretrained()


@st.cache_data(max_entries=16, show_spinner=False)
def trace(text: str, text_pair: str | None) -> PretrainedTrace:
    """Attentions and hidden states only (keep_layers=False): about half the memory per entry;
    a layer's full trace is recomputed on demand by `rehead`."""
    return model().trace(text, text_pair or None, keep_layers=False)


@st.cache_data(max_entries=16, show_spinner=False)
def rehead(text: str, text_pair: str | None, layer: int, n_heads: int) -> AttentionTrace:
    """Layer `layer` split into `n_heads` heads; with the model's own count, the layer itself."""
    return model().rehead(trace(text, text_pair), layer, n_heads)
