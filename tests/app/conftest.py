"""AppTest helpers. A fresh AppTest per case: with Streamlit 1.67, AppTest drops the widgets that
an st.navigation entry script (app.py) creates from its element tree after the first rerun."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def make_app(page: str | None = None, query: dict | None = None, **state) -> AppTest:
    """An AppTest of the whole app, with session state and URL parameters set before the run."""
    at = AppTest.from_file(APP, default_timeout=90)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    for k, v in state.items():
        at.session_state[k] = v
    if page:
        at.switch_page(page)
    return at


@pytest.fixture
def app():
    return make_app
