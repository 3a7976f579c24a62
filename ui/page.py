"""How every page opens: the one call a page makes before it draws anything."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ui import controls, params, state, url
from ui.i18n import t
from ui.params import NEAREST, Param


def open_page(name: str, page_params: Sequence[Param] = ()) -> state.Settings:
    """The sidebar's settings; draws the page's title (`{name}.title`) and, once, which values of
    a shared link were invalid and reset. The page's own controls (`page_params`, declared in its
    section module) get their first values, their mirror in the URL (on the page's first run in
    a session, the link's values), and are clamped to the sidebar's model (`Param.within`)."""
    settings = state.current()
    st.title(t(f"{name}.title"))
    url.notice()
    controls.defaults(params.defaults(page_params, settings))
    url.page_controls(name, params.parsers(page_params, st.session_state))
    for p in page_params:
        options = p.within(settings) if p.within is not None else None
        if options is not None:
            controls.clamp(p.key, options, *(() if p.fallback is NEAREST else (p.fallback,)))
    return settings


def clamp_to_tokens(page_params: Sequence[Param], n_tokens: int) -> None:
    """Clamp the page's controls that pick among the sentence's tokens (`Param.for_tokens`) to
    a sentence of `n_tokens`, whichever view is open."""
    for p in page_params:
        if p.for_tokens is not None:
            controls.clamp(p.key, p.for_tokens(n_tokens))
