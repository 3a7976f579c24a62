"""One head's arithmetic, piece by piece (bounded: a few MB each at d_model = 512)."""

from __future__ import annotations

import streamlit as st

from mha_core import AttentionConfig
from mha_core.lessons.steps import HeadSteps
from mha_core.lessons.steps import head_steps as _head_steps
from ui.compute.attention import attention_layer, sentence_attention


@st.cache_data(max_entries=16, show_spinner=False)
def head_steps(
    tokens: tuple[str, ...], config: AttentionConfig, head: int, query: int
) -> HeadSteps:
    """Every piece of head `head` on the sentence, following query token `query`."""
    return _head_steps(sentence_attention(tokens, config), attention_layer(config), head, query)
