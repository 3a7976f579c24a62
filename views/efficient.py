"""Efficient attention: attention as today's language models use it, on the sidebar sentence:
grouped-query attention, the KV cache, window / sink / global masks, FlashAttention's tiles."""

import streamlit as st

from mha_core.layer import valid_kv_head_counts
from ui import controls, widgets
from ui.i18n import t
from ui.page import open_page, set_defaults, url_state
from ui.sections import efficient as sections
from ui.sections.efficient import (
    BLOCKS,
    CACHE_STEPS,
    DTYPES,
    K_BATCH,
    K_BLOCK,
    K_DTYPE,
    K_GLOBAL,
    K_HEAD,
    K_KV,
    K_LAYERS,
    K_MODEL,
    K_ROW,
    K_SINKS,
    K_STEP,
    K_TILE,
    K_TOKENS,
    K_VIEW,
    K_WINDOW,
    MAX_BATCH,
    MAX_CONTEXT,
    MAX_GLOBAL,
    MAX_LAYERS,
    MAX_SINKS,
    MAX_WINDOW,
    MODELS,
    VIEWS,
)
from ui.state import MAX_HEADS, parse_choice, parse_int


def _parse_global(raw: str) -> list[int]:
    tokens = [parse_int(part, 0, 511) for part in raw.split(",")] if raw else []
    if len(set(tokens)) != len(tokens) or len(tokens) > MAX_GLOBAL:
        raise ValueError(raw)
    return tokens


ss = st.session_state
settings = open_page("efficient")
set_defaults(
    {
        K_KV: settings.n_heads,
        K_STEP: CACHE_STEPS - 1,  # the last step the sentence has (clamped)
        K_MODEL: "Llama-3-8B",
        K_TOKENS: 8192,
        K_BATCH: 1,
        K_DTYPE: "bfloat16",
        K_WINDOW: 3,
        K_SINKS: 0,
        K_GLOBAL: [],
        K_LAYERS: 2,
        K_BLOCK: 4,
        K_HEAD: 0,
        K_ROW: 0,
        K_TILE: 0,
        K_VIEW: VIEWS[0],
    }
)
PARSERS = {
    K_KV: lambda r: parse_int(r, 1, MAX_HEADS),
    K_STEP: lambda r: parse_int(r, 0, 511),
    K_MODEL: parse_choice(MODELS),
    K_TOKENS: lambda r: parse_int(r, 1, MAX_CONTEXT),
    K_BATCH: lambda r: parse_int(r, 1, MAX_BATCH),
    K_DTYPE: parse_choice(DTYPES),
    K_WINDOW: lambda r: parse_int(r, 1, MAX_WINDOW),
    K_SINKS: lambda r: parse_int(r, 0, MAX_SINKS),
    K_GLOBAL: _parse_global,
    K_LAYERS: lambda r: parse_int(r, 1, MAX_LAYERS),
    K_BLOCK: lambda r: BLOCKS[BLOCKS.index(parse_int(r, 1, 64))],
    K_HEAD: lambda r: parse_int(r, 0, MAX_HEADS - 1),
    K_ROW: lambda r: parse_int(r, 0, 511),
    K_TILE: lambda r: parse_int(r, 0, 511),
    K_VIEW: parse_choice(VIEWS),
}
url_state("efficient", PARSERS)
st.markdown(t("efficient.intro"))
# the choices that depend on the heads stay valid while their tabs are closed, and while an
# empty sentence stops the page below
nh = settings.n_heads
kv_options = valid_kv_head_counts(nh)
controls.clamp(K_KV, kv_options)
controls.clamp(K_HEAD, range(nh))
# every view draws each head cell by cell: 16 heads x 512 tokens was 60 MB and 13 s a step
tokens = widgets.view_tokens(
    widgets.sentence_tokens(settings), widgets.GRID_FULL, t("efficient.tokens_capped")
)
config = settings.config(scoring="dot", scale=True)
# the choices that depend on the tokens too, whichever tab is open (a closed tab's stale choice
# would stay in the URL and change when the tab opens)
T = len(tokens)
controls.clamp(K_STEP, range(min(T, sections.CACHE_STEPS)))
row = controls.clamp(K_ROW, range(T))
ss[K_GLOBAL] = [g for g in ss[K_GLOBAL] if g < T]
keys = row + 1 if config.mask == "causal" else T  # the keys row `row` reads, in tiles
controls.clamp(K_TILE, range(-(-keys // ss[K_BLOCK])))
mask_text = t(f"efficient.mask.{config.mask}")
st.caption(
    t("efficient.layer_note", d_model=config.d_model, nh=config.n_heads, d_k=config.d_k,
      seed=config.seed, mask=mask_text)
)  # fmt: skip
widgets.token_chips(tokens)
sentence = sections.Sentence(tokens, config)


def _kv_heads() -> int:
    return controls.select_slider(
        t("efficient.kv_heads"), kv_options, key=K_KV, help=t("efficient.kv_heads_help", nh=nh),
        stable=True,  # its options follow the heads: a heads step updates it, no new widget
    )  # fmt: skip


# Only the open tab is drawn: a sidebar step redraws one tab's charts, not twelve.
tabs = controls.enum_tabs("efficient.tab", VIEWS, key=K_VIEW)
draw = {
    "gqa": lambda: sections.grouped(sentence, _kv_heads()),
    "cache": lambda: sections.kv_cache(sentence, _kv_heads()),
    "calculator": sections.calculator,
    "masks": lambda: sections.masks(sentence),
    "flash": lambda: sections.flash(sentence),
}
controls.draw_open(tabs, draw)
