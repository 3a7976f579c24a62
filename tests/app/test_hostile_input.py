"""Every input of quality.md through every page that takes text, and hostile URL parameters on
every page: a message or a correct figure, the text kept, no traceback, no markup in a figure."""

from __future__ import annotations

import json

import pytest

from tests.helpers.app import figures, on_sentence, run_app, shared
from tests.helpers.inputs import RAW_MARKUP, TEXTS
from ui.pages import BY_ID, PAGES

READS_TEXT = [p for p in PAGES if p.reads_sentence]


def _messages(at) -> str:
    return "\n".join(e.value for e in [*at.info, *at.warning])


@pytest.mark.parametrize("page", READS_TEXT, ids=lambda p: p.id)
@pytest.mark.parametrize("case", list(TEXTS))
def test_hostile_text_on_every_page(page, case):
    text = TEXTS[case]
    at = run_app(page.path, **shared(text=text), **on_sentence(page))
    assert at.session_state["shared.text"] == text  # nothing the user typed is lost
    if not text.strip():
        assert at.info, "an empty sentence must say what to do"
    for fig in figures(at):
        spec = json.dumps(fig, ensure_ascii=False)
        assert not any(tag in spec for tag in RAW_MARKUP), "markup reached a figure unescaped"
        assert "&quot;" not in spec and "&#" not in spec, "an entity would show as text"
    if case == "too_long" and page.id in ("attention", "step"):
        assert "600" in _messages(at)  # the notice says how many tokens the text has


@pytest.mark.parametrize("case", ["empty", "markup_1", "markup_2", "rtl", "too_long"])
def test_hostile_second_sentence_on_the_pretrained_page(case):
    pair = TEXTS[case]
    at = run_app(BY_ID["pretrained"].path, **{"pretrained.pair": pair})
    assert at.text_area(key="pretrained.pair").value == pair
    for fig in figures(at):
        spec = json.dumps(fig, ensure_ascii=False)
        assert not any(tag in spec for tag in RAW_MARKUP)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_hostile_url_parameters_fall_back_with_a_notice(page):
    query = {
        "d_model": "-1",
        "n_heads": "<script>",
        "seed": "1e99",
        "mask": "<b>causal</b>",
        "lang": "xx",
        "positional": "maybe",
    }
    at = run_app(page.path, query=query)
    notice = _messages(at)
    for name in query:
        assert name in notice, f"{name} was rejected silently"
    assert at.session_state["shared.d_model"] == 64  # the defaults
    assert at.session_state["shared.mask"] == "none"
