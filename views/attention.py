"""Home: type a sentence, see every head's attention weights."""

import streamlit as st

import viz
from ui import controls, widgets
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
    {K_SCALE: "shared", K_PALETTE: viz.PALETTES[0], K_VIEW: VIEWS[0], K_HEAD: 0, K_LONG: "head"},
    {
        K_SCALE: parse_choice(SCALES),
        K_PALETTE: parse_choice(viz.PALETTES),
        K_VIEW: parse_choice(VIEWS),
        K_HEAD: lambda r: parse_int(r, 0, MAX_HEADS - 1),
        K_LONG: parse_choice(LONG_VIEWS),
    },
)
# the long-text head picker (heads tab, over 64 tokens) stays valid for the sidebar's heads
# wherever it is not drawn: the URL never holds a head that changes when it shows
controls.clamp(K_HEAD, range(settings.n_heads))
tokens = widgets.sentence_tokens(settings)
config = settings.config()
result = sentence_attention(tuple(tokens), config)
sentence = sections.Sentence(tokens, config, result.attention.weights[0].numpy())  # (nh, T, T)

st.write(t("attention.intro", d_k=settings.d_k))
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
scale_mode, palette = st.session_state[K_SCALE], st.session_state[K_PALETTE]
if view == "heads":
    scale_mode = controls.enum_radio(
        "attention.colour_scale", SCALES, labels="attention.scale", key=K_SCALE, where=c1
    )
if view != "stats":
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
