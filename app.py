"""Attention Lens: `streamlit run app.py` serves the router (router.py) to every session.

The server imports PyTorch and the app's modules in the background once the first session comes,
or a few seconds after it started (ui/warmup.py), and the first session's browser loads the
chart code meanwhile (the cold start of bench/ui_latency.py).
"""

from contextlib import asynccontextmanager

import streamlit as st

from ui import warmup


@asynccontextmanager
async def _lifespan(_app):
    warmup.schedule()  # the imports start at the first session, or in a few seconds
    yield


app = st.App("router.py", lifespan=_lifespan)
