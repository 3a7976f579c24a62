"""The shared sidebar: the sentence and the model settings, the same on every page."""

from __future__ import annotations

import streamlit as st

from mha_core import valid_head_counts
from mha_core.layer.config import head_size
from ui import a11y, controls, pages, present, state, url, weights
from ui.i18n import t
from ui.state import (
    D_MODELS,
    DEFAULTS,
    EXAMPLES,
    MAX_CHARS,
    MAX_HEADS,
    MAX_SEED,
    URL_TEXT_CHARS,
    key,
)
from ui.strings import LANGS

_PAGE = "shared._page"
K_EXAMPLE = "shared.example"


def _set_defaults() -> None:
    controls.defaults({key(name): value for name, value in DEFAULTS.items()})
    controls.defaults({a11y.TABLE_KEY: False})
    st.session_state.setdefault(K_EXAMPLE, None)
    d_model = controls.clamp(key("d_model"), D_MODELS, DEFAULTS["d_model"])
    # d_model moved under the heads slider: the nearest head count that still divides it
    controls.clamp(key("n_heads"), valid_head_counts(d_model, MAX_HEADS))


def _resend_after_page_switch(page_id: str) -> None:
    """On the first run of a page, hand the sidebar's values to the browser again.

    Without this, switching pages can remount a sidebar widget at its default (a toggle turns
    off) and the next rerun reports that default. Only on a switch: re-sending on every run
    would fight a person who moves a slider several steps quickly."""
    if st.session_state.get(_PAGE) == page_id:
        return
    st.session_state[_PAGE] = page_id
    controls.forget_widgets("shared.")


def _use_example() -> None:
    example = st.session_state.get(K_EXAMPLE)
    if example is not None:
        st.session_state[key("text")] = EXAMPLES[example]
    st.session_state[K_EXAMPLE] = None


def init_state() -> None:
    """Settings from a shared link (first run only), then defaults: before anything reads them
    (the page titles in the navigation are already in the chosen language)."""
    url.load_once()
    _set_defaults()


# pages on MiniLM: the model settings do not apply
PRETRAINED_PAGES = frozenset(p.id for p in pages.PAGES if p.model == pages.MINILM)
# the sidebar's model settings, in their order there
MODEL_SETTINGS = ("d_model", "n_heads", "seed", "positional", "scale", "mask", "scoring")


def unused_settings(page_id: str) -> frozenset[str]:
    """The model settings page `page_id` ignores: drawn disabled, with a note (issue #42: they
    stayed live on the Encoder-decoder, Train and Induction pages and changed nothing)."""
    page = pages.BY_ID.get(page_id)
    if page is None:
        return frozenset()
    if page.model != pages.SIDEBAR:
        return frozenset(MODEL_SETTINGS)
    return frozenset(page.unused)


def _model_size(page_id: str, trained) -> dict[str, bool]:
    """The model's size (d_model, heads, d_k) for page `page_id`; returns which of the model
    settings are drawn disabled."""
    st.subheader(t("side.model"))
    unused = unused_settings(page_id)
    if page_id in PRETRAINED_PAGES:  # MiniLM has its own size: say so beside the sliders
        st.caption(t("side.model_unused"))
    elif unused == frozenset(MODEL_SETTINGS):  # a model of the page's own
        st.caption(t("side.model_own"))
    elif unused:  # which ones, and why: the page's own note (strings "side.unused_<id>")
        st.caption(t(f"side.unused_{page_id}"))
    # on trained weights (the home page) the model's own settings replace the sidebar's
    off = {name: name in unused or bool(trained) for name in MODEL_SETTINGS}
    if trained == "llm":  # SmolLM2's own size: d_model and its grouped heads, both fixed
        st.caption(t("attention.side_llm", d_model=weights.LLM_D_MODEL,
                     n_heads=weights.LLM_HEADS, kv=weights.LLM_KV_HEADS))  # fmt: skip
        d_model, n_heads = weights.LLM_D_MODEL, weights.LLM_HEADS
        controls.shown_slider(t("side.d_model"), D_MODELS, d_model)
        controls.shown_slider(t("side.n_heads"), [n_heads], n_heads)
    else:
        if trained:  # d_model is MiniLM's; the heads slider re-heads its trained layer
            weights.set_defaults()
            st.caption(t("attention.side_minilm", d_model=weights.MINILM_D_MODEL))
            controls.shown_slider(t("side.d_model"), D_MODELS, weights.MINILM_D_MODEL)
            d_model = weights.MINILM_D_MODEL
            heads_key, heads = weights.K_HEADS, weights.MINILM_HEAD_COUNTS
        else:
            d_model = controls.select_slider(
                t("side.d_model"), D_MODELS, key=key("d_model"), disabled=off["d_model"]
            )
            heads_key, heads = key("n_heads"), valid_head_counts(d_model, MAX_HEADS)
        n_heads = controls.select_slider(
            t("side.n_heads"), heads, key=heads_key, disabled=off["n_heads"] and not trained
        )
    d_k = head_size(d_model, n_heads)
    st.markdown(t("side.d_k", d_model=d_model, n_heads=n_heads, d_k=d_k))
    return off


def render_sidebar(page_id: str = "") -> state.Settings:
    """Draw the sidebar for page `page_id` and return its settings. The router calls
    `init_state()` first, before the navigation reads the language, and writes the URL at the
    end of the run (`ui.url.write`)."""
    _resend_after_page_switch(page_id)
    with st.sidebar:
        controls.radio(
            t("side.lang"), list(LANGS), format_func=LANGS.__getitem__, key=key("lang"),
            horizontal=True,
        )  # fmt: skip
        controls.toggle(t("side.table"), key=a11y.TABLE_KEY, help=t("side.table_help"))
        controls.toggle(t("side.present"), key=key("present"), help=t("side.present_help"))
        present.style()
        controls.text(
            t("side.text"), key=key("text"), limit=MAX_CHARS, area=True, help=t("side.text_help")
        )
        n_chars = controls.too_long(key("text"), MAX_CHARS)
        if n_chars:
            st.warning(t("msg.too_long", n=n_chars, limit=MAX_CHARS))
        n_text = len(st.session_state.get(key("text")) or "")
        if n_text > URL_TEXT_CHARS:  # ui/state.py leaves it out of the URL: say so here
            st.warning(t("msg.not_in_link", n=f"{n_text:,}", limit=f"{URL_TEXT_CHARS:,}"))
        controls.selectbox(
            t("side.example"),
            [None, *range(len(EXAMPLES))],
            format_func=lambda i: t("side.example_pick") if i is None else EXAMPLES[i],
            placeholder=t("side.example_pick"),
            key=K_EXAMPLE,
            on_change=_use_example,
        )
        trained = weights.trained(page_id)  # the home page on MiniLM's trained weights
        weights.note_drawn(trained)
        controls.enum_radio(
            "side.tokenizer", state.TOKENIZERS, labels="side.tok", key=key("tokenizer"),
            disabled=bool(trained),
        )  # fmt: skip
        off = _model_size(page_id, trained)
        if trained:
            st.caption(t(f"attention.side_{trained}_unused"))
        controls.number_input(
            t("side.seed"), min_value=0, max_value=MAX_SEED, step=1, key=key("seed"),
            disabled=off["seed"],
        )  # fmt: skip
        controls.toggle(t("side.positional"), key=key("positional"), disabled=off["positional"])
        additive = st.session_state[key("scoring")] == "additive"
        controls.toggle(t("side.scale"), key=key("scale"), disabled=additive or off["scale"])
        if additive and not off["scale"]:
            st.caption(t("side.scale_additive"))
        controls.enum_radio(
            "side.mask", ("none", "causal"), key=key("mask"), horizontal=False,
            disabled=off["mask"],
        )  # fmt: skip
        controls.enum_radio(
            "side.scoring", ("dot", "additive"), key=key("scoring"), horizontal=False,
            disabled=off["scoring"],
        )  # fmt: skip
    return state.current()
