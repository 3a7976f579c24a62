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


def test_while_the_warm_up_imports_the_first_run_draws_an_empty_chart_then_clears_it():
    # a fresh process: PyTorch's import (~1 s) is still running when the script asks
    script = (
        "import streamlit as st\n"
        "from ui import warmup\n"
        "warmup.start()\n"
        "slot = warmup.preload_chart_code()\n"
        "st.session_state.preloaded = slot is not None\n"
        "warmup.wait()\n"
        "assert warmup.preload_chart_code() is None  # done: nothing more to preload\n"
        "slot.empty()\n"
        "st.write('page')\n"
    )
    code = (
        "from streamlit.testing.v1 import AppTest\n"
        f"at = AppTest.from_string({script!r}, default_timeout=120).run()\n"
        "assert not at.exception, at.exception\n"
        "assert at.session_state.preloaded\n"
        "assert len(at.get('plotly_chart')) == 0, 'the placeholder was emptied'\n"
        "assert len(at.markdown) == 1, 'the preload links went with it'\n"
        "assert at.markdown[0].value == 'page'\n"
    )
    run_python(code)


def test_without_a_warm_up_the_router_draws_no_preload_chart():
    from ui import warmup

    assert warmup.preload_chart_code() is None


def test_the_preload_names_the_widget_code_this_streamlit_has_and_not_what_it_loads_first():
    from pathlib import Path

    import streamlit as st

    from ui import warmup

    static = Path(st.__file__).parent / "static"
    urls = warmup.widget_code_urls()
    names = [u.removeprefix("/static/js/") for u in urls]
    assert all(u.startswith("/static/js/") for u in urls)
    assert all((static / "static" / "js" / n).is_file() for n in names)
    for widget in warmup.WIDGET_CODE:  # each named widget's own script is there
        assert any(n.startswith(widget + ".") for n in names), widget
    # what the page loads at its start is not named again; what a widget imports is
    first = (static / "index.html").read_text()
    assert not [n for n in names if f"static/js/{n}" in first]
    radio = next(n for n in names if n.startswith("Radio."))
    imported = warmup._IMPORT.findall((static / "static" / "js" / radio).read_text())
    assert {n for n in imported if f"static/js/{n}" not in first} <= set(names)
    assert warmup.widget_code_urls(("NoSuchWidget",)) == []
