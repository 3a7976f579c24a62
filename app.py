"""Attention Lens: router and shared sidebar. Run with `streamlit run app.py`."""

import streamlit as st

from ui.i18n import t
from ui.sidebar import render_sidebar

st.set_page_config(page_title="Attention Lens", page_icon="🔍", layout="wide")

PAGES = [
    st.Page("pages/attention.py", title=t("nav.attention"), icon="🔍", default=True),
]

page = st.navigation(PAGES)
render_sidebar()
page.run()
