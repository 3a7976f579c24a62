"""How every page opens, and the page-local state helpers the pages share."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui import state
from ui.i18n import t
from ui.sidebar import PAGE_URL, URL_INITIAL, url_notice


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


def url_state(page_id: str, parsers: dict[str, Callable[[str], object]]) -> None:
    """Mirror a page's own controls (session-state keys, e.g. "step.head") into the URL.

    `parsers` maps each key to a function that turns the URL's text back into a valid value
    or raises ValueError. Call it after the page's defaults are set and before its widgets are
    drawn: on the page's first run in a session the values of the link it was opened with are
    taken (invalid ones are named in a warning and keep their defaults); on every run the current
    values are written to the URL, under the key's name after the page prefix ("head").
    `page_id` is the page's URL path (its file name), the same the router passes the sidebar.
    """
    ss = st.session_state
    loaded = f"{page_id}._url_loaded"
    if not ss.get(loaded):
        ss[loaded] = True
        initial = ss.get(URL_INITIAL, {})
        rejected = []
        for key, parse in parsers.items():
            param = key.split(".", 1)[1]
            if param in initial:
                try:
                    ss[key] = parse(str(initial[param]))
                except (ValueError, TypeError, IndexError):
                    rejected.append(param)
        if rejected:
            st.warning(t("msg.params_fallback", names=", ".join(rejected)))
    own = {key.split(".", 1)[1]: _url_text(ss[key]) for key in parsers if key in ss}
    ss.setdefault(PAGE_URL, {})[page_id] = own
    for param, value in own.items():
        if st.query_params.get(param) != value:
            st.query_params[param] = value


def _url_text(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)
