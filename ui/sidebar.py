"""The shared sidebar: the sentence and the model settings, the same on every page."""

from __future__ import annotations

import streamlit as st

from mha_core import valid_head_counts
from mha_core.layer.config import head_size
from ui import state
from ui.i18n import t
from ui.state import D_MODELS, DEFAULTS, EXAMPLES, MAX_CHARS, MAX_HEADS, MAX_SEED, key
from ui.strings import LANGS

_URL_LOADED = "shared._url_loaded"
_URL_REJECTED = "shared._url_rejected"
_PAGE = "shared._page"
URL_INITIAL = "shared._url_initial"  # the link the session opened with, for the pages' own keys
PAGE_URL = "shared._page_url"  # {page_id: {param: value}}: each page's own controls in the URL


def _load_url_once() -> None:
    """On a session's first run, take the settings from the URL (a shared link)."""
    if st.session_state.get(_URL_LOADED):
        return
    st.session_state[_URL_LOADED] = True
    st.session_state[URL_INITIAL] = st.query_params.to_dict()
    values, rejected = state.parse_query_params(st.query_params.to_dict())
    for name, value in values.items():
        st.session_state[key(name)] = value
    st.session_state[_URL_REJECTED] = rejected


def _set_defaults() -> None:
    for name, value in DEFAULTS.items():
        st.session_state.setdefault(key(name), value)
    d_model = st.session_state[key("d_model")]
    if d_model not in D_MODELS:
        st.session_state[key("d_model")] = d_model = DEFAULTS["d_model"]
    h = st.session_state[key("n_heads")]
    if h not in valid_head_counts(d_model, MAX_HEADS):  # d_model moved under the heads slider
        st.session_state[key("n_heads")] = state.nearest_heads(d_model, h)


def _resend_after_page_switch(page_id: str) -> None:
    """On the first run of a page, hand the sidebar's values to the browser again.

    Assigning a widget's value from the script makes Streamlit send it with the widget.
    Without this, switching pages can remount a sidebar widget at its default (a toggle turns
    off) and the next rerun reports that default. Only on a switch: re-sending on every run
    would fight a person who moves a slider several steps quickly.
    """
    if st.session_state.get(_PAGE) == page_id:
        return
    st.session_state[_PAGE] = page_id
    for name in DEFAULTS:
        st.session_state[key(name)] = st.session_state[key(name)]


def _use_example() -> None:
    example = st.session_state.get("shared.example")
    if example:
        st.session_state[key("text")] = example
    st.session_state["shared.example"] = None


def init_state() -> None:
    """Settings from a shared link (first run only), then defaults: before anything reads them
    (the page titles in the navigation are already in the chosen language)."""
    _load_url_once()
    _set_defaults()


def render_sidebar(page_id: str = "") -> state.Settings:
    """Draw the sidebar for page `page_id`, mirror the settings into the URL, return them.

    The router calls `init_state()` first, before the navigation reads the language."""
    _resend_after_page_switch(page_id)
    with st.sidebar:
        st.radio(
            t("side.lang"),
            list(LANGS),
            format_func=LANGS.__getitem__,
            key=key("lang"),
            horizontal=True,
        )
        st.text_area(t("side.text"), key=key("text"), max_chars=MAX_CHARS, help=t("side.text_help"))
        st.selectbox(
            t("side.example"),
            EXAMPLES,
            index=None,
            placeholder=t("side.example_pick"),
            key="shared.example",
            on_change=_use_example,
        )
        st.radio(
            t("side.tokenizer"),
            state.TOKENIZERS,
            format_func=lambda v: t(f"side.tok.{v}"),
            key=key("tokenizer"),
            horizontal=True,
        )
        st.subheader(t("side.model"))
        st.select_slider(t("side.d_model"), D_MODELS, key=key("d_model"))
        d_model = st.session_state[key("d_model")]
        heads = valid_head_counts(d_model, MAX_HEADS)
        st.select_slider(t("side.n_heads"), heads, key=key("n_heads"))
        n_heads = st.session_state[key("n_heads")]
        d_k = head_size(d_model, n_heads)
        st.markdown(t("side.d_k", d_model=d_model, n_heads=n_heads, d_k=d_k))
        st.number_input(t("side.seed"), min_value=0, max_value=MAX_SEED, step=1, key=key("seed"))
        st.toggle(t("side.positional"), key=key("positional"))
        additive = st.session_state[key("scoring")] == "additive"
        st.toggle(t("side.scale"), key=key("scale"), disabled=additive)
        if additive:
            st.caption(t("side.scale_additive"))
        st.radio(
            t("side.mask"),
            ("none", "causal"),
            format_func=lambda v: t(f"side.mask.{v}"),
            key=key("mask"),
        )
        st.radio(
            t("side.scoring"),
            ("dot", "additive"),
            format_func=lambda v: t(f"side.scoring.{v}"),
            key=key("scoring"),
        )
    settings = state.current()
    params = {
        **state.to_query_params(settings),
        **st.session_state.get(PAGE_URL, {}).get(page_id, {}),
    }
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)
    return settings


def url_notice() -> None:
    """Say once which settings from a shared link were invalid and reset."""
    rejected = st.session_state.get(_URL_REJECTED)
    if rejected:
        st.warning(t("msg.params_fallback", names=", ".join(rejected)))
        st.session_state[_URL_REJECTED] = []
