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
