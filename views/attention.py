"""Home: type a sentence, see every head's attention weights."""

import streamlit as st

import viz
from ui import controls, present, weights, widgets
from ui.compute.attention import sentence_attention
from ui.i18n import t
from ui.page import open_page
from ui.sections import attention as sections
from ui.sections.attention import COLOUR_SCALES, K_COLOUR_SCALE, K_PALETTE, K_VIEW, PARAMS, VIEWS

settings = open_page("attention", PARAMS)
if not weights.sidebar_matches():  # a shared link's weights, read after the sidebar drew
    st.rerun()
source = sections.weights_switch()  # "random", "minilm" or "llm"
n_heads = {"minilm": st.session_state[weights.K_HEADS], "llm": weights.LLM_HEADS}.get(
    source, settings.n_heads
)
# the long-text head picker (heads view, over 64 tokens) stays valid for the heads shown
# wherever it is not drawn: the URL never holds a head that changes when it shows
controls.clamp(sections.K_HEAD, range(n_heads))
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
# the colour controls only where they act (issue #42: they stayed on the statistics table, where
# they did nothing): the scale on the heads' grid, the palette on every chart. Not drawn
# disabled: axe reads a disabled radio group's label as text of too little contrast. Their
# values stay (ui/controls.py keeps them under their own keys).
view = st.session_state.get(K_VIEW, VIEWS[0])
scale_mode, palette = st.session_state[K_COLOUR_SCALE], st.session_state[K_PALETTE]
if view == "heads":
    scale_mode = controls.enum_radio(
        "attention.colour_scale", COLOUR_SCALES, key=K_COLOUR_SCALE, where=c1
    )
if view != "stats":
    palette = controls.selectbox(t("attention.palette"), viz.PALETTES, key=K_PALETTE, where=c2)

# Only the open view is drawn: a slider step redraws one view, not four.
views = controls.enum_views("attention.view", VIEWS, key=K_VIEW)
draw = {
    "heads": lambda: sections.heads(sentence, settings, scale_mode, palette),
    "mean": lambda: sections.mean(sentence, palette),
    "stats": lambda: sections.stats(sentence),
    "similarity": lambda: sections.similarity(sentence, palette),
}
controls.draw_open(views, draw)

sections.downloads(sentence)
