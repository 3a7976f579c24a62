"""Where the home page's weights come from: random (the sidebar's d_model, heads, seed, ...
apply), or a layer of the pretrained all-MiniLM-L6-v2, whose trained projections the heads
slider splits into h heads (re-heading, as on the Pretrained page).

The sidebar reads this before the page runs (which model settings apply, and which heads
slider to draw); the page owns the controls (keys "attention.*", in its URL)."""

from __future__ import annotations

import streamlit as st

from mha_core import valid_head_counts
from mha_core.layer.limits import MAX_HEADS

HOME = "attention"
WEIGHTS = ("random", "minilm", "llm")
K_WEIGHTS = "attention.weights"
K_LAYER = "attention.layer"  # the MiniLM layer shown
K_HEADS = "attention.minilm_heads"  # how many heads MiniLM's layer is split into
MINILM_D_MODEL, MINILM_LAYERS, MINILM_HEADS = 384, 6, 12  # all-MiniLM-L6-v2's own
MINILM_HEAD_COUNTS = tuple(valid_head_counts(MINILM_D_MODEL, MAX_HEADS))
# SmolLM2-135M-Instruct's own (checked against the loaded model's config in the tests): its 9
# query heads share 3 key/value heads, so its layers are shown as they are, not re-headed
LLM_D_MODEL, LLM_LAYERS, LLM_HEADS, LLM_KV_HEADS = 576, 30, 9, 3
LLM_TOKENS = 256  # the home page reads at most this many of the text's tokens on SmolLM2
N_LAYERS = {"minilm": MINILM_LAYERS, "llm": LLM_LAYERS}
DEFAULTS = {K_WEIGHTS: "random", K_LAYER: 0, K_HEADS: MINILM_HEADS}
_DRAWN = "attention._sidebar_weights"  # what the sidebar drew this run: (weights, heads)


def parse_heads(raw: str) -> int:
    value = int(raw) if raw.isdigit() and len(raw) < 4 else -1
    if value not in MINILM_HEAD_COUNTS:
        raise ValueError(raw)
    return value


def trained(page_id: str) -> str | None:
    """ "minilm" when page `page_id` is the home page set to MiniLM's weights, else None."""
    if page_id != HOME:
        return None
    value = st.session_state.get(K_WEIGHTS, DEFAULTS[K_WEIGHTS])
    return None if value == "random" else value


def set_defaults() -> None:
    """The controls' first values (the sidebar may draw the heads before the page runs)."""
    for k, v in DEFAULTS.items():
        st.session_state.setdefault(k, v)


def _state(weights: str | None) -> tuple:
    if weights == "minilm":
        return (weights, st.session_state.get(K_HEADS))
    return (weights or "random",)


def note_drawn(weights: str | None) -> None:
    """The sidebar says which weights (and MiniLM heads) it drew its model settings for."""
    st.session_state[_DRAWN] = _state(weights)


def sidebar_matches() -> bool:
    """The sidebar of this run was drawn for the page's weights and heads as they are now (a
    shared link's values are read by the page, after the sidebar: then the page reruns once)."""
    ss = st.session_state
    return ss.get(_DRAWN) == _state(ss.get(K_WEIGHTS))
