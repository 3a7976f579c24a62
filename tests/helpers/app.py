"""AppTest helpers (`from tests.helpers.app import run_app, figure, ...`). A fresh AppTest per
case: with Streamlit 1.67, AppTest drops the widgets that an st.navigation entry script (router.py)
creates from its element tree after the first rerun."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import ElementList

from ui.controls import widget_key
from ui.pages import Page

APP = str(Path(__file__).resolve().parents[2] / "router.py")


def _by_control_key(self, key: str):
    """`at.selectbox(key="step.head")` finds the widget of control "step.head": the app's
    widgets are keyed `_w.<control key>[.<digest of the labels>]` (ui/controls.py), and a test
    names the control, as the page's code does."""
    for e in self._list:
        if getattr(e, "key", None) == key:
            return e
    wkey = widget_key(key)
    for e in self._list:
        k = getattr(e, "key", None) or ""
        if k == wkey or k.startswith(wkey + "."):
            return e
    raise KeyError(key)


ElementList.__call__ = _by_control_key


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


def shared(**values) -> dict:
    """Sidebar settings as session-state entries: shared(d_model=96) -> {"shared.d_model": 96}."""
    return {f"shared.{k}": v for k, v in values.items()}


def on_sentence(page: Page) -> dict:
    """Session state that opens `page` (a ui.pages.Page) on the view that draws the sentence."""
    return {f"{page.id}.view": page.sentence_view} if page.sentence_view else {}


def run_app(page: str | None = None, query: dict | None = None, **state) -> AppTest:
    """A fresh app run once; the run must not raise."""
    at = make_app(page, query, **state).run()
    assert not at.exception, at.exception
    return at


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def figures(at: AppTest) -> list[dict]:
    """Every Plotly figure of the page, in order, as its JSON spec."""
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def figures_by_key(at: AppTest) -> dict[str, dict]:
    """Every Plotly figure of the page by its widget key ("step.fig.x", ...)."""
    return {c.key: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def plotly_array(v) -> np.ndarray:
    """A Plotly array from a JSON spec: a plain list, or the typed-array encoding
    ({"bdata", "dtype", "shape"}); numeric lists become float (None -> nan)."""
    if isinstance(v, dict) and "bdata" in v:
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        if "shape" in v:
            shape = v["shape"]
            if isinstance(shape, str):  # "7, 64"
                shape = [int(n) for n in shape.split(",")]
            a = a.reshape(shape)
        return a
    try:
        return np.asarray(v, dtype=float)
    except (TypeError, ValueError):
        return np.asarray(v)


def page_text(at: AppTest) -> str:
    """The page's markdown, captions, infos and warnings as one string."""
    return "\n".join(e.value for e in [*at.markdown, *at.caption, *at.info, *at.warning])


def figure(at: AppTest, key: str) -> dict:
    """The figure drawn with widget key `key`; fails naming the keys there are."""
    figs = figures_by_key(at)
    assert key in figs, f"no chart {key}; have {list(figs)}"
    return figs[key]
