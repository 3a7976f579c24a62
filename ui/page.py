"""How every page opens, and the page-local state helpers the pages share."""

from __future__ import annotations

import streamlit as st

from ui import state
from ui.i18n import t
from ui.sidebar import url_notice


def open_page(name: str) -> state.Settings:
    """The sidebar's settings; draws the page's title (`{name}.title`) and, once, which values of
    a shared link were invalid and reset."""
    settings = state.current()
    st.title(t(f"{name}.title"))
    url_notice()
    return settings


def set_defaults(defaults: dict) -> None:
    """Give the page's own controls their first values (kept across reruns afterwards)."""
    for name, value in defaults.items():
        st.session_state.setdefault(name, value)


def keep_valid(key: str, options: list, fallback=None) -> None:
    """A choice that the sidebar made impossible (fewer heads, tokens, dims) falls back: to
    `fallback` when given, else to the nearest option still offered."""
    ss = st.session_state
    if key in ss and ss[key] not in options:
        ss[key] = fallback if fallback is not None else min(options, key=lambda o: abs(o - ss[key]))
