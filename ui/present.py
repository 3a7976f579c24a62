"""Presentation mode (a shared setting, `present=1` in the URL): charts projector-sized
(viz/present.py, applied by ui/widgets.plot), the page's text larger, and explanations folded
into an expander (`prose`)."""

from __future__ import annotations

import streamlit as st

from ui.i18n import t
from ui.state import key

# larger text and widget labels for a projector at 1280 x 720; charts are scaled on their own.
# On a phone (the figure is the same at every width) a chart's tick labels keep the normal size:
# at 16.5 px they overlapped in the ~12 px rows of a squared head grid 358 px wide
STYLE = """<style>
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stWidgetLabel"] p { font-size: 1.25rem; }
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stCaptionContainer"] p { font-size: 1.05rem; }
[data-testid="stMain"] [data-baseweb="select"] div { font-size: 1.1rem; }
[data-testid="stMain"] h1 { font-size: 3rem; }
@media (max-width: 480px) {
  [data-testid="stPlotlyChart"] g[class$="tick"] > text { font-size: 12px !important; }
}
</style>"""


def on() -> bool:
    return bool(st.session_state.get(key("present")))


def style() -> None:
    """The page's text style in presentation mode (nothing otherwise)."""
    if on():
        st.html(STYLE)


def prose(text: str, where=None) -> None:
    """An explanation: shown as it is, or in presentation mode folded into an expander."""
    where = where or st
    if on():
        where.expander(t("present.more")).markdown(text)
    else:
        where.markdown(text)
