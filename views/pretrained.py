"""Pretrained heads: all-MiniLM-L6-v2 through our own attention core."""

import streamlit as st

from ui import controls, present, url
from ui.compute import pretrained as compute
from ui.i18n import t
from ui.page import open_page
from ui.sections import pretrained as sections
from ui.sections.pretrained import K_HEAD, K_HIDE, K_LAYER, K_PAIR, PAIR_CHARS, PARAMS

settings = open_page("pretrained", PARAMS)
if not settings.text.strip():
    st.info(t("msg.empty"))
    url.stop()
with st.spinner(t("pretrained.loading")):
    cfg = compute.model().config
L, nh = cfg.num_hidden_layers, cfg.num_attention_heads
present.prose(t("pretrained.intro", layers=L, heads=nh, d_model=cfg.hidden_size, d_k=cfg.d_k))
pair = controls.text(  # a text area: "Press Ctrl+Enter to apply" stays under a short text
    t("pretrained.pair"), key=K_PAIR, limit=PAIR_CHARS, area=True, help=t("pretrained.pair_help")
)
n_chars = controls.too_long(K_PAIR, PAIR_CHARS)
if n_chars:
    st.warning(t("msg.too_long", n=n_chars, limit=PAIR_CHARS))
text, text_pair = settings.text, pair.strip() or None
tr = compute.run(text, text_pair)
sections.tokens(tr, text_pair)

c1, c2, c3 = st.columns(3)
layer = controls.selectbox(t("pretrained.layer"), range(tr.n_layers), key=K_LAYER, where=c1)
head = controls.selectbox(t("pretrained.head"), range(tr.n_heads), key=K_HEAD, where=c2)
hide = controls.toggle(
    t("pretrained.hide_special"), key=K_HIDE, help=t("pretrained.hide_special_help"), where=c3
)
attn, tokens = compute.shown_attention(text, text_pair, hide)  # (L, nh, T, T), T tokens
if not tokens:
    st.info(t("pretrained.nothing_left"))
    url.stop()

shown = sections.Shown(text, text_pair, hide, attn, list(tokens))
sections.mosaic(shown, layer, head)
sections.enlarged(shown, layer, head)
sections.layer_stats(shown, layer)
sections.rehead(shown, layer, cfg.hidden_size)
