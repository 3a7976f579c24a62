"""Reading heads: lines, weights against value-weighted norms, rollout, head importance, a
query/key map and "What does MiniLM look at?" over a corpus, for all-MiniLM-L6-v2."""

import streamlit as st

from mha_core.interpret import FILTERS
from ui import controls, url, widgets
from ui.compute import pretrained
from ui.compute import reading as compute
from ui.i18n import t
from ui.page import open_page, set_defaults, url_state
from ui.sections import reading as sections
from ui.sections.reading import (
    ALL,
    K_FILTER,
    K_HEAD,
    K_LAYER,
    K_LINES_HEADS,
    K_LINES_SIDE,
    K_LINES_TOKEN,
    K_QK_QUERY,
    K_QK_TRANSLATE,
    K_RESIDUAL,
    K_THRESHOLD,
    K_TOP_K,
    K_VIEW,
    SIDES,
    THRESHOLDS,
    TOP_K_MAX,
    VIEWS,
)
from ui.state import parse_bool, parse_choice, parse_int


def _parse_heads(n_heads: int):
    def parse(raw: str) -> list[int]:
        heads = [parse_int(part, 0, n_heads - 1) for part in raw.split(",")] if raw else []
        if len(set(heads)) != len(heads) or len(heads) > sections.MAX_LINE_HEADS:
            raise ValueError(raw)
        return heads

    return parse


def _parse_token(raw: str) -> int:
    return ALL if raw == str(ALL) else parse_int(raw, 0, 511)


def _parse_threshold(raw: str) -> float:
    return THRESHOLDS[THRESHOLDS.index(float(raw))]


settings = open_page("reading")
with st.spinner(t("reading.loading")):
    cfg = pretrained.model().config
L, nh = cfg.num_hidden_layers, cfg.num_attention_heads
set_defaults(
    {
        K_LAYER: 0,
        K_HEAD: 0,
        K_FILTER: "none",
        K_THRESHOLD: 0.05,
        K_TOP_K: 3,
        K_LINES_HEADS: [0, 1, 2],
        K_LINES_TOKEN: ALL,
        K_LINES_SIDE: "query",
        K_RESIDUAL: True,
        K_QK_TRANSLATE: True,
        K_QK_QUERY: ALL,
        K_VIEW: VIEWS[0],
    }
)
url_state(
    "reading",
    {
        K_LAYER: lambda r: parse_int(r, 0, L - 1),
        K_HEAD: lambda r: parse_int(r, 0, nh - 1),
        K_FILTER: parse_choice(FILTERS),
        K_THRESHOLD: _parse_threshold,
        K_TOP_K: lambda r: parse_int(r, 1, TOP_K_MAX),
        K_LINES_HEADS: _parse_heads(nh),
        K_LINES_TOKEN: _parse_token,
        K_LINES_SIDE: parse_choice(SIDES),
        K_RESIDUAL: parse_bool,
        K_QK_TRANSLATE: parse_bool,
        K_QK_QUERY: _parse_token,
        K_VIEW: parse_choice(VIEWS),
    },
)
if not settings.text.strip():
    st.info(t("msg.empty"))
    url.stop()
st.write(t("reading.intro", layers=L, heads=nh))
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
sections.clamp_token_choices(tokens)
tabs = controls.enum_tabs("reading.tab", VIEWS, key=K_VIEW)
controls.draw_open(
    tabs,
    {
        "lines": lambda: sections.lines(sentence, layer, filt),
        "norms": lambda: sections.weights_vs_norms(sentence, layer, head, filt),
        "rollout": lambda: sections.rollout(sentence, layer, filt),
        "ablation": lambda: sections.ablation(sentence, layer, head, filt),
        "qk": lambda: sections.query_key_map(sentence, layer, head),
        "corpus": lambda: sections.corpus(compute.corpus_sentences()),
    },
)
