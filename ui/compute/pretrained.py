"""all-MiniLM-L6-v2 through our core: loaded once per process, results cached per input."""

from __future__ import annotations

import numpy as np
import streamlit as st

from mha_core import AttentionTrace
from mha_core.layer.stats import HeadStats, head_kinds, head_stats
from mha_core.layer.stats import shown_attention as shown
from mha_core.pretrained import PretrainedModel, PretrainedTrace, load_pretrained
from mha_core.pretrained.reheading import ReheadSummary, rehead_summary
from mha_core.pretrained.reheading import rehead as rehead_layer


@st.cache_resource(show_spinner=False)
def model() -> PretrainedModel:
    return load_pretrained()


@st.cache_data(max_entries=16, show_spinner=False)
def run(text: str, text_pair: str | None) -> PretrainedTrace:
    """Attentions and hidden states only (keep_layers=False): about half the memory per entry;
    a layer's full trace is recomputed on demand by `rehead`."""
    return model().trace(text, text_pair or None, keep_layers=False)


@st.cache_data(max_entries=16, show_spinner=False)
def rehead(text: str, text_pair: str | None, layer: int, n_heads: int) -> AttentionTrace:
    """Layer `layer` split into `n_heads` heads; with the model's own count, the layer itself."""
    return rehead_layer(model(), run(text, text_pair), layer, n_heads)


def _keep(trace: PretrainedTrace, hide_special: bool) -> np.ndarray | None:
    return ~trace.special_tokens_mask.numpy() if hide_special else None


@st.cache_data(max_entries=16, show_spinner=False)
def shown_attention(
    text: str, text_pair: str | None, hide_special: bool
) -> tuple[np.ndarray, list[str]]:
    """(L, nh, T', T') weights and the T' tokens shown: [CLS]/[SEP] hidden and rows
    renormalised when asked (T' = 0 when nothing is left)."""
    tr = run(text, text_pair)
    return shown(tr.attentions, tr.tokens, _keep(tr, hide_special))


@st.cache_data(max_entries=32, show_spinner=False)
def layer_statistics(
    text: str, text_pair: str | None, layer: int, hide_special: bool
) -> tuple[HeadStats, list[str]]:
    """Head statistics of one layer (on the tokens shown) and what each head looks like."""
    attn, tokens = shown_attention(text, text_pair, hide_special)
    stats = head_stats(attn[layer])  # one sentence, no padding: every key visible
    return stats, head_kinds(stats)


@st.cache_data(max_entries=16, show_spinner=False)
def rehead_comparison(
    text: str, text_pair: str | None, layer: int, n_heads: int, hide_special: bool
) -> ReheadSummary:
    tr = run(text, text_pair)
    return rehead_summary(model(), tr, layer, n_heads, _keep(tr, hide_special))
