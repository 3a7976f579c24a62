"""How every page opens, and the page-local state helpers the pages share."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui import controls, state, url
from ui.i18n import t


def open_page(
    name: str,
    defaults: dict | None = None,
    parsers: dict[str, Callable[[str], object]] | None = None,
) -> state.Settings:
    """The sidebar's settings; draws the page's title (`{name}.title`) and, once, which values of
    a shared link were invalid and reset. With `defaults` and `parsers`, the page's own controls
    get their first values (`set_defaults`) and their mirror in the URL (`url_state`)."""
    settings = state.current()
    st.title(t(f"{name}.title"))
    url.notice()
    if defaults is not None:
        set_defaults(defaults)
    if parsers is not None:
        url_state(name, parsers)
    return settings


def set_defaults(defaults: dict) -> None:
    """Give the page's own controls their first values (kept across reruns afterwards)."""
    controls.defaults(defaults)


def url_state(page_id: str, parsers: dict[str, Callable[[str], object]]) -> None:
    """Mirror a page's own controls in the URL (see `ui.url.page_controls`)."""
    url.page_controls(page_id, parsers)
