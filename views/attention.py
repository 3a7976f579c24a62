"""Home: type a sentence, see every head's attention weights."""

import streamlit as st

import viz
from ui import controls, widgets
from ui.compute.attention import sentence_attention
from ui.i18n import t
from ui.page import open_page
from ui.sections import attention as sections
from ui.sections.attention import COLOUR_SCALES, K_COLOUR_SCALE, K_PALETTE, K_VIEW, PARAMS, VIEWS

settings = open_page("attention", PARAMS)
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
scale_mode = controls.enum_radio(
    "attention.colour_scale", COLOUR_SCALES, key=K_COLOUR_SCALE, where=c1
)
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
