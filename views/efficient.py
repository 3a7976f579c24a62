"""Efficient attention: attention as today's language models use it, on the sidebar sentence:
grouped-query attention, the KV cache, window / sink / global masks, FlashAttention's tiles."""

import streamlit as st

from mha_core.layer import valid_kv_head_counts
from ui import controls, present, widgets
from ui.i18n import t
from ui.page import clamp_to_tokens, open_page
from ui.sections import efficient as sections

settings = open_page("efficient", sections.PARAMS)
ss = st.session_state
present.prose(t("efficient.intro"))
nh = settings.n_heads
kv_options = valid_kv_head_counts(nh)
# every view draws each head cell by cell: at most widgets.GRID_FULL tokens of them
tokens = widgets.view_tokens(
    widgets.sentence_tokens(settings), widgets.GRID_FULL, t("efficient.tokens_capped")
)
config = settings.config(scoring="dot", scale=True)
# the choices that depend on the tokens too, whichever view is open (a closed view's stale
# choice would stay in the URL and change when the view opens)
T = len(tokens)
clamp_to_tokens(sections.PARAMS, T)  # the cache's step, the query row
row = ss[sections.K_ROW]
ss[sections.K_GLOBAL] = [g for g in ss[sections.K_GLOBAL] if g < T]
keys = row + 1 if config.mask == "causal" else T  # the keys row `row` reads, in tiles
controls.clamp(sections.K_TILE, range(-(-keys // ss[sections.K_BLOCK])))
mask_text = t(f"efficient.mask.{config.mask}")
st.caption(
    t("efficient.layer_note", d_model=config.d_model, nh=config.n_heads, d_k=config.d_k,
      seed=config.seed, mask=mask_text)
)  # fmt: skip
widgets.token_chips(tokens)
sentence = sections.Sentence(tokens, config)


def _kv_heads() -> int:
    return controls.select_slider(
        t("efficient.kv_heads"), kv_options, key=sections.K_KV,
        help=t("efficient.kv_heads_help", nh=nh),
        stable=True,  # its options follow the heads: a heads step updates it, no new widget
    )  # fmt: skip


# Only the open view is drawn: a sidebar step redraws one view's charts, not twelve.
views = controls.enum_views("efficient.view", sections.VIEWS, key=sections.K_VIEW)
draw = {
    "gqa": lambda: sections.grouped(sentence, _kv_heads()),
    "cache": lambda: sections.kv_cache(sentence, _kv_heads()),
    "calculator": sections.calculator,
    "masks": lambda: sections.masks(sentence),
    "flash": lambda: sections.flash(sentence),
}
controls.draw_open(views, draw)
