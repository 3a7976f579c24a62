"""Home: type a sentence, see every head's attention weights."""

import streamlit as st

import viz
from ui import controls, present, weights, widgets
from ui.compute.attention import sentence_attention
from ui.i18n import t
from ui.page import open_page
from ui.sections import attention as sections
from ui.sections.attention import (
    K_HEAD,
    K_LONG,
    K_PALETTE,
    K_SCALE,
    K_VIEW,
    LONG_VIEWS,
    SCALES,
    VIEWS,
)
from ui.state import MAX_HEADS, parse_choice, parse_int

settings = open_page(
    "attention",
    {
        K_SCALE: "shared", K_PALETTE: viz.PALETTES[0], K_VIEW: VIEWS[0], K_HEAD: 0,
        K_LONG: "head", **weights.DEFAULTS,
    },
    {
        K_SCALE: parse_choice(SCALES),
        K_PALETTE: parse_choice(viz.PALETTES),
        K_VIEW: parse_choice(VIEWS),
        K_HEAD: lambda r: parse_int(r, 0, MAX_HEADS - 1),
        K_LONG: parse_choice(LONG_VIEWS),
        weights.K_WEIGHTS: parse_choice(weights.WEIGHTS),
        weights.K_LAYER: lambda r: parse_int(r, 0, weights.LLM_LAYERS - 1),
        weights.K_HEADS: weights.parse_heads,
    },
)  # fmt: skip
if not weights.sidebar_matches():  # a shared link's weights, read after the sidebar drew
    st.rerun()
source = sections.weights_switch()  # "random", "minilm" or "llm"
n_heads = {"minilm": st.session_state[weights.K_HEADS], "llm": weights.LLM_HEADS}.get(
    source, settings.n_heads
)
# the long-text head picker (heads tab, over 64 tokens) stays valid for the heads shown
# wherever it is not drawn: the URL never holds a head that changes when it shows
controls.clamp(K_HEAD, range(n_heads))
if source == "minilm":
    sentence = sections.minilm_sentence(settings.text)
    tokens = sentence.tokens
elif source == "llm":
    sentence = sections.llm_sentence(settings.text)
    tokens = sentence.tokens
else:
    tokens = widgets.sentence_tokens(settings)
    config = settings.config()
    result = sentence_attention(tuple(tokens), config)
    weights_now = result.attention.weights[0].numpy()  # (nh, T, T)
    sentence = sections.Sentence(tokens, config, weights_now)
    present.prose(t("attention.intro", d_k=settings.d_k))
    if settings.scoring == "additive":
        st.caption(t("attention.intro_additive"))
    st.caption(t("attention.random_note", seed=settings.seed))
widgets.token_chips(tokens)

c1, c2 = st.columns(2)
scale_mode = controls.enum_radio(
    "attention.colour_scale", SCALES, labels="attention.scale", key=K_SCALE, where=c1
)
palette = controls.selectbox(t("attention.palette"), viz.PALETTES, key=K_PALETTE, where=c2)

# Only the open tab is drawn: a slider step redraws one view, not four.
tabs = controls.enum_tabs("attention.tab", VIEWS, key=K_VIEW)
draw = {
    "heads": lambda: sections.heads(sentence, settings, scale_mode, palette),
    "mean": lambda: sections.mean(sentence, palette),
    "stats": lambda: sections.stats(sentence),
    "similarity": lambda: sections.similarity(sentence, palette),
}
controls.draw_open(tabs, draw)

sections.downloads(sentence)
