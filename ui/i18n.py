"""t("key") in the language chosen in the sidebar."""

from __future__ import annotations

import streamlit as st

from ui.strings import LANGS, translate

LANG_KEY = "shared.lang"


def current_lang() -> str:
    lang = st.session_state.get(LANG_KEY, "en")
    return lang if lang in LANGS else "en"


def t(key: str, **kwargs) -> str:
    return translate(key, current_lang(), **kwargs)
