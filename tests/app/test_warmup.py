"""app.py: `streamlit run app.py` serves the router as an st.App whose lifespan schedules the
background import of the heavy modules (ui/warmup.py); the first session's browser is told to
load Streamlit's chart and widget code meanwhile."""

from __future__ import annotations

import re
from pathlib import Path

import streamlit as st
from streamlit.web.server.app_discovery import discover_asgi_app

from tests.helpers.process import ROOT, run_python
from ui import warmup


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


def test_a_scheduled_warm_up_starts_at_the_first_session_or_after_its_delay():
    code = (
        "import gc, sys, time\n"
        "from ui import warmup\n"
        "warmup.now()  # nothing scheduled (AppTest, streamlit run router.py): nothing starts\n"
        "assert not warmup.running() and 'torch' not in sys.modules\n"
        "warmup.schedule(after=60)\n"
        "time.sleep(0.2)\n"
        "assert not warmup.running() and 'torch' not in sys.modules  # not before its time\n"
        "warmup.now()  # the first session\n"
        "assert warmup.running()\n"
        "warmup.wait()\n"
        "assert not warmup.running() and 'torch' in sys.modules\n"
        "assert gc.isenabled() and gc.get_freeze_count() > 100_000  # on again; imports frozen\n"
    )
    run_python(code)
    code = (
        "import sys, time\n"
        "from ui import warmup\n"
        "warmup.schedule(after=0.1)  # no session comes\n"
        "deadline = time.monotonic() + 120\n"
        "while 'torch' not in sys.modules or warmup.running():\n"
        "    assert time.monotonic() < deadline\n"
        "    time.sleep(0.05)\n"
    )
    run_python(code)


def test_the_preload_names_this_streamlit_s_own_code_each_element_once():
    js = Path(st.__file__).parent / "static" / "static" / "js"
    urls = warmup.code_urls()
    names = [u.rsplit("/", 1)[1] for u in urls]
    assert [n.split(".", 1)[0] for n in names] == list(warmup.BROWSER_CODE)
    assert all((js / n).is_file() for n in names)
    script = warmup.preload_script()
    assert re.fullmatch(r"<script>Promise\.allSettled\(\[.*\]\);</script>", script)
    assert re.findall(r'import\("([^"]+)"\)', script) == list(urls)
