"""Attention Lens: router and shared sidebar, the script every session runs (app.py serves it)."""

import streamlit as st

from ui import warmup

warmup.now()  # a fresh server's first session: the imports of what follows begin now
# always drawn, so that the page's elements keep their places from the first run on
_preload = st.empty()
if warmup.running() and (script := warmup.preload_script()):
    _preload.html(script, unsafe_allow_javascript=True)  # the browser loads code meanwhile
warmup.wait()  # the background import of what follows

from ui import a11y, pages, url  # noqa: E402
from ui.controls import catch_up  # noqa: E402
from ui.failover import reload_on_new_replica  # noqa: E402
from ui.i18n import t  # noqa: E402
from ui.memory import freeze_once  # noqa: E402
from ui.sidebar import init_state, render_sidebar  # noqa: E402

catch_up()  # a widget change whose copy a new request cut short, before anything reads it
st.set_page_config(page_title="Attention Lens", page_icon="🔍", layout="wide")
a11y.page_style()
init_state()

PAGES = [st.Page(p.path, title=t(p.title_key), icon=p.icon, default=p.home) for p in pages.PAGES]

page = st.navigation(PAGES)
page_id = page.url_path or pages.HOME.id  # the default page's URL path is ""
url.set_page(page_id)
render_sidebar(page_id)
a11y.document_language()
reload_on_new_replica()
try:
    page.run()
finally:  # also when the page asked for a rerun (a stopped page wrote it: ui.url.stop)
    url.write(page_id)
freeze_once(page_id)  # Streamlit's gc after each run skips what lives on
