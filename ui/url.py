"""The URL mirror of the app's state, in one place.

Every control that changes what a page shows is in the URL as a stable value: the sidebar's
settings under their own names (`text`, `d_model`, ...), a page's own controls under the name
after the page prefix (`step.head` -> `head`). A link opened in a fresh browser reproduces the
view: the session's first run reads the sidebar's settings from it, and each page reads its own
controls on its first run in the session (invalid values are named in a warning and keep their
defaults). The URL is written once, at the end of every run (`write`), from the values as they
are then (clamped to the current tokens and heads), so it never shows a stale choice.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NoReturn

import streamlit as st

from ui import state
from ui.i18n import t

_LOADED = "url._loaded"  # the session's first run has read the link
_INITIAL = "url._initial"  # the link the session opened with, for the pages' own controls
_REJECTED = "url._rejected"  # sidebar settings of the link that were invalid
_PAGE_KEYS = "url._page_keys"  # {page_id: [session keys]}: each page's controls in the URL
_PAGE = "url._page"  # the page of this run
TABLE, TABLE_KEY = "table", "shared.table"  # every chart's numbers as tables (ui/a11y.py)


def set_page(page_id: str) -> None:
    """The page this run draws (the router says so before the page runs)."""
    st.session_state[_PAGE] = page_id


def load_once() -> None:
    """On a session's first run, take the sidebar's settings from the URL (a shared link)."""
    ss = st.session_state
    if ss.get(_LOADED):
        return
    ss[_LOADED] = True
    ss[_INITIAL] = st.query_params.to_dict()
    values, rejected = state.parse_query_params(ss[_INITIAL])
    for name, value in values.items():
        ss[state.key(name)] = value
    if ss[_INITIAL].get(TABLE) in ("0", "1"):  # "Show charts as tables" (ui/a11y.py)
        ss[TABLE_KEY] = ss[_INITIAL][TABLE] == "1"
    ss[_REJECTED] = rejected


def notice() -> None:
    """Say once which sidebar settings of a shared link were invalid and reset."""
    rejected = st.session_state.get(_REJECTED)
    if rejected:
        st.warning(t("msg.params_fallback", names=", ".join(rejected)))
        st.session_state[_REJECTED] = []


def param(key: str) -> str:
    """The URL name of a page control: the key after its page prefix ("step.head" -> "head")."""
    return key.split(".", 1)[1]


def page_controls(page_id: str, parsers: dict[str, Callable[[str], object]]) -> None:
    """Mirror a page's own controls (session keys such as "step.head") in the URL.

    `parsers` maps each key to a function that turns the URL's text back into a valid value or
    raises ValueError. Call it after the page's defaults are set: on the page's first run in a
    session the values of the link it was opened with are taken. The URL itself is written at
    the end of the run (`write`)."""
    ss = st.session_state
    clash = {param(k) for k in parsers} & {*state.DEFAULTS, TABLE}
    if clash:  # a page's parameter would overwrite a sidebar setting in the link
        raise ValueError(f"{page_id}: URL parameters {sorted(clash)} are sidebar settings")
    ss.setdefault(_PAGE_KEYS, {})[page_id] = list(parsers)
    loaded = f"url._loaded.{page_id}"
    if ss.get(loaded):
        return
    ss[loaded] = True
    initial = ss.get(_INITIAL, {})
    rejected = []
    for key, parse in parsers.items():
        if param(key) in initial:
            try:
                ss[key] = parse(str(initial[param(key)]))
            except (ValueError, TypeError, IndexError):
                rejected.append(param(key))
    if rejected:
        st.warning(t("msg.params_fallback", names=", ".join(rejected)))


def text_of(value) -> str:
    """A value as the URL writes it: booleans as 1/0, lists comma-separated."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)


def params(page_id: str) -> dict[str, str]:
    """What the URL holds for page `page_id` now: the sidebar's settings, then the page's own."""
    ss = st.session_state
    out = state.to_query_params(state.current())
    if ss.get(TABLE_KEY):
        out[TABLE] = "1"
    for key in ss.get(_PAGE_KEYS, {}).get(page_id, []):
        if key in ss:
            out[param(key)] = text_of(ss[key])
    return out


def write(page_id: str) -> None:
    """Write the URL for page `page_id`, at the end of every run. Always: after a page change
    the browser's URL and the server's copy of it can disagree (the browser drops the old page's
    parameters), and a write skipped because the copy looked right left the link stale."""
    st.query_params.from_dict(params(page_id))


def stop() -> NoReturn:
    """End the run here (`st.stop`), with the URL written first: Streamlit drops what a run
    sends after it was stopped, the URL included."""
    write(st.session_state.get(_PAGE, ""))
    st.stop()


def fragment(func: Callable) -> Callable:
    """`st.fragment` for a page's section whose own widgets change only what it draws: moving
    one reruns the section alone, so only its charts are sent and drawn again. The URL is
    written at its end, as the router does at the end of a whole run (a section's rerun never
    reaches the router's `write`)."""

    @functools.wraps(func)
    def section(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        finally:
            write(st.session_state.get(_PAGE, ""))

    return st.fragment(section)
