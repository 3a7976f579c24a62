"""Attention Lens: `streamlit run app.py` serves the router (router.py) to every session.

The server starts importing PyTorch and the app's modules in the background as soon as it is
up (ui/warmup.py), while the first browser is still loading Streamlit's page, so that the first
session's run does not wait as long for them (the cold start of bench/ui_latency.py).
"""

from contextlib import asynccontextmanager

import streamlit as st

from ui import warmup


@asynccontextmanager
async def _lifespan(_app):
    warmup.start()
    yield


app = st.App("router.py", lifespan=_lifespan)
