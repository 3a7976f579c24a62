"""app.py: `streamlit run app.py` serves the router as an st.App whose lifespan imports the
heavy modules in the background (ui/warmup.py)."""

from __future__ import annotations

from streamlit.web.server.app_discovery import discover_asgi_app

from tests.helpers.process import ROOT, run_python


def test_streamlit_run_app_py_serves_the_st_app():
    found = discover_asgi_app(ROOT / "app.py")
    assert found.is_asgi_app and found.app_name == "app"


def test_the_warm_up_imports_the_modules_and_wait_returns_when_it_is_done():
    code = (
        "import sys\n"
        "from ui import warmup\n"
        "warmup.wait()  # nothing started: at once\n"
        "assert 'torch' not in sys.modules\n"
        "warmup.start(); warmup.start()  # once\n"
        "warmup.wait()\n"
        "missing = [m for m in (*warmup.MODULES, 'torch') if m not in sys.modules]\n"
        "assert not missing, missing\n"
    )
    run_python(code)
