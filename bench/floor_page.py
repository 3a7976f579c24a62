"""Streamlit's floor for bench/ui_latency.py: one sidebar select_slider, one 12x12 heatmap.

The slider has the app's key (`shared.n_heads`), so the bench moves it the same way; the
chart goes out full width with the app's toolbar options, and with Streamlit's default theme, as
a plain Streamlit page sends it (the app's charts go out unthemed since 2026-11-27: viz/theme.py;
plotly.js alone redraws its 12x12 heatmap in ~15 ms).

    streamlit run bench/floor_page.py
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

st.set_page_config(page_title="floor", layout="wide")
heads = st.sidebar.select_slider("heads", (1, 2, 4, 8, 16), value=4, key="shared.n_heads")
z = np.random.default_rng(heads).random((12, 12))
st.plotly_chart(
    go.Figure(go.Heatmap(z=z)),
    key="floor",
    width="stretch",
    theme="streamlit",
    config={"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}},
)
