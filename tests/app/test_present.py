"""Presentation mode (`present=1`, a sidebar toggle): projector-sized charts, explanations
folded into an expander, in the URL only when on; every page still opens without an error."""

from __future__ import annotations

import pytest

from tests.helpers.app import figure, make_app, rerun, run_app
from ui import pages
from ui.strings import STRINGS

EN, ZH = STRINGS["en"], STRINGS["zh"]


def _params(at) -> dict:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def test_off_by_default_and_not_in_the_url():
    at = run_app()
    assert at.session_state["shared.present"] is False
    assert "present" not in _params(at)
    grid = figure(at, "attention.heads_fig")
    assert not any("scaleanchor" in v for k, v in grid["layout"].items() if k.startswith("yaxis"))
    assert not [e for e in at.expander if e.label == EN["present.more"]]


def test_the_link_turns_it_on_charts_grow_and_the_intro_folds():
    at = run_app(None, {"present": "1"})
    assert at.session_state["shared.present"] is True and _params(at)["present"] == "1"
    grid = figure(at, "attention.heads_fig")
    layout = grid["layout"]
    assert layout["font"]["size"] == 18
    assert any(v.get("scaleanchor") for k, v in layout.items() if k.startswith("yaxis"))
    (more,) = [e for e in at.expander if e.label == EN["present.more"]]
    intro = EN["attention.intro"].split("(")[0]
    assert any(intro in m.value for m in more.markdown)


def test_the_sidebar_toggle_switches_it_and_chinese():
    at = run_app()
    at.sidebar.toggle(key="shared.present").set_value(True)
    at = rerun(at)
    assert _params(at)["present"] == "1"
    at = make_app(None, {"present": "1"}, **{"shared.lang": "zh"}).run()
    assert not at.exception, at.exception
    assert [e for e in at.expander if e.label == ZH["present.more"]]


@pytest.mark.parametrize("page", [p for p in pages.PAGES if p.id != "llm"], ids=lambda p: p.id)
def test_every_page_opens_in_presentation_mode(page):
    at = make_app(page.path, {"present": "1"}).run()
    assert not at.exception, at.exception


# --- every page: its intro folded only in presentation mode; every view opens in both languages ---

from importlib import import_module  # noqa: E402

from streamlit.testing.v1.element_tree import Block, Expander, Markdown  # noqa: E402


def _markdown(node, folded: bool = False):
    """(text, inside an expander) of every markdown element (captions too) under `node`."""
    if isinstance(node, Block):
        inside = folded or isinstance(node, Expander)
        for child in node.children.values():
            yield from _markdown(child, inside)
    elif isinstance(node, Markdown):
        yield node.value, folded


def _intro(page, strings: dict) -> str:
    """The start of the page's intro, before its first placeholder or markup."""
    text = strings[f"{page.id}.intro"]
    for stop in "{*`(":
        text = text.split(stop)[0]
    assert len(text) >= 8, (page.id, text)
    return text[:40]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("present", [True, False], ids=["present", "plain"])
@pytest.mark.parametrize("page", pages.PAGES, ids=lambda p: p.id)
def test_every_pages_intro_is_folded_only_in_presentation_mode(page, present, lang):
    query = {"present": "1"} if present else {}
    at = make_app(page.path, query, **{"shared.lang": lang}).run()
    assert not at.exception, at.exception
    strings = STRINGS[lang]
    intro = _intro(page, strings)
    found = [folded for text, folded in _markdown(at.main) if intro in text]
    assert found, f"{page.id}: intro not drawn"
    assert all(f is present for f in found), f"{page.id}: intro folded={found}"
    labels = [e.label for e in at.expander]
    assert (strings["present.more"] in labels) is present


def _views():
    """(page, view key, view) of every page with views (ui/sections/<id>.py's K_VIEW, VIEWS)."""
    for page in pages.PAGES:
        module = import_module(f"ui.sections.{page.id}")
        if hasattr(module, "VIEWS") and hasattr(module, "K_VIEW"):
            for view in module.VIEWS:
                yield pytest.param(page, module.K_VIEW, view, id=f"{page.id}-{view}")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("page", "view_key", "view"), list(_views()))
def test_every_view_opens_in_presentation_mode(page, view_key, view, lang):
    at = make_app(page.path, {"present": "1"}, **{"shared.lang": lang, view_key: view}).run()
    assert not at.exception, at.exception
    assert at.session_state[view_key] == view
