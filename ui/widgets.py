"""Small pieces several pages share."""

from __future__ import annotations

import streamlit as st

from mha_core import MAX_TOKENS
from ui import cache
from ui.i18n import t
from ui.state import Settings


def sentence_tokens(settings: Settings, limit: int = MAX_TOKENS) -> list[str]:
    """The tokens of the sidebar sentence, with notices; stops the page when there are none."""
    if not settings.text.strip():
        st.info(t("msg.empty"))
        st.stop()
    tok = cache.tokenize(settings.text, settings.tokenizer, limit)
    if not tok.tokens:
        st.info(t("msg.no_tokens"))
        st.stop()
    if tok.truncated:
        st.warning(t("msg.truncated", n_total=tok.n_total, limit=limit))
    return tok.tokens


def token_chips(tokens: list[str]) -> None:
    """The tokens as literal text (never markup), numbered by position."""
    with st.expander(t("msg.tokens", n=len(tokens)), expanded=len(tokens) <= 16):
        st.code("  ".join(f"{i}:{tok}" for i, tok in enumerate(tokens)), language=None)


def plot(fig, key: str) -> None:
    """Every figure goes out the same way: full width, the theme's fonts, PNG in the toolbar."""
    st.plotly_chart(
        fig,
        key=key,
        width="stretch",
        theme="streamlit",
        config={"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}},
    )
