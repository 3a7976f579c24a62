"""Reading heads: lines, weights against value-weighted norms, rollout, head importance, a
query/key map and "What does MiniLM look at?" over a corpus, for all-MiniLM-L6-v2."""

import streamlit as st

from mha_core.interpret import FILTERS
from ui import controls, present, url, widgets
from ui.compute import pretrained
from ui.compute import reading as compute
from ui.i18n import t
from ui.page import clamp_to_tokens, open_page
from ui.sections import reading as sections
from ui.sections.reading import (
    K_FILTER,
    K_HEAD,
    K_LAYER,
    K_THRESHOLD,
    K_TOP_K,
    K_VIEW,
    PARAMS,
    THRESHOLDS,
    TOP_K_MAX,
    VIEWS,
)

settings = open_page("reading", PARAMS)
with st.spinner(t("reading.loading")):
    cfg = pretrained.model().config
L, nh = cfg.num_hidden_layers, cfg.num_attention_heads
if not settings.text.strip():
    st.info(t("msg.empty"))
    url.stop()
present.prose(t("reading.intro", layers=L, heads=nh))
text = settings.text
tr = pretrained.run(text, None)
tokens = list(tr.tokens)
if tr.truncated:
    st.warning(t("reading.truncated", n_total=tr.n_total_tokens, limit=len(tokens)))
with st.expander(t("reading.tokens", n=len(tokens)), expanded=len(tokens) <= 24):
    widgets.token_code(tokens)

# --- the page's own controls: layer, head, filter ---------------------------------------------
c_layer, c_head, c_filter, c_amount = st.columns([1, 1, 2, 2])
pickers_help = t("reading.pickers_help")
layer = controls.selectbox(
    t("reading.layer"), range(L), key=K_LAYER, help=pickers_help, where=c_layer
)
head = controls.selectbox(t("reading.head"), range(nh), key=K_HEAD, help=pickers_help, where=c_head)
mode = controls.enum_radio(
    "reading.filter",
    FILTERS,
    key=K_FILTER,
    help=t("reading.filter_help"),
    where=c_filter,
    horizontal=False,
)
if mode == "threshold":
    controls.select_slider(t("reading.threshold"), THRESHOLDS, key=K_THRESHOLD, where=c_amount)
elif mode == "top_k":
    controls.slider(t("reading.top_k"), 1, TOP_K_MAX, key=K_TOP_K, where=c_amount)
filt = sections.Filter(mode, st.session_state[K_THRESHOLD], st.session_state[K_TOP_K])

sentence = sections.Sentence(text, tokens, tr.attentions.numpy())
clamp_to_tokens(PARAMS, len(tokens))
views = controls.enum_views("reading.view", VIEWS, key=K_VIEW)
controls.draw_open(
    views,
    {
        "lines": lambda: sections.lines(sentence, layer, filt),
        "norms": lambda: sections.weights_vs_norms(sentence, layer, head, filt),
        "rollout": lambda: sections.rollout(sentence, layer, filt),
        "ablation": lambda: sections.ablation(sentence, layer, head, filt),
        "qk": lambda: sections.query_key_map(sentence, layer, head),
        "corpus": lambda: sections.corpus(compute.corpus_sentences()),
    },
)
