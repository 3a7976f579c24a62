"""Attention Lens: `streamlit run app.py` serves the router (router.py) to every session.

The server starts importing PyTorch and the app's modules in the background as soon as it is
up, while the first browser is still loading Streamlit's page, so that the first session's run
does not wait for them (a cold start measured by bench/ui_latency.py).
"""

import importlib
import threading
from contextlib import asynccontextmanager

import streamlit as st


# What the router and the home page import (PyTorch through mha_core: most of the time)
WARM = ("ui.url", "ui.sidebar", "ui.failover", "ui.memory", "ui.sections.attention", "viz")


def _warm() -> None:
    for name in WARM:
        importlib.import_module(name)


@asynccontextmanager
async def _lifespan(_app):
    threading.Thread(target=_warm, name="warm-imports", daemon=True).start()
    yield


app = st.App("router.py", lifespan=_lifespan)
