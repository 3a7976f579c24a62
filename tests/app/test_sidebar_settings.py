"""The sidebar's model settings are disabled, with a note, on the pages that ignore them
(issue #42: on Encoder-decoder, Train and Induction they stayed live and changed nothing)."""

from __future__ import annotations

import pytest

from tests.helpers.app import run_app
from ui import pages
from ui.sidebar import MODEL_SETTINGS, unused_settings
from ui.strings import STRINGS

EN = STRINGS["en"]
LABELS = {  # the sidebar's label of each model setting
    "d_model": EN["side.d_model"],
    "n_heads": EN["side.n_heads"],
    "seed": EN["side.seed"],
    "positional": EN["side.positional"],
    "scale": EN["side.scale"],
    "mask": EN["side.mask"],
    "scoring": EN["side.scoring"],
}


def _disabled(at) -> dict[str, bool]:
    """Each model setting's widget in the sidebar: disabled or not."""
    widgets = [
        *at.sidebar.select_slider,
        *at.sidebar.number_input,
        *at.sidebar.toggle,
        *at.sidebar.radio,
    ]
    by_label = {w.label: w for w in widgets}
    return {name: bool(by_label[label].disabled) for name, label in LABELS.items()}


def test_which_pages_ignore_which_settings():
    assert unused_settings("attention") == frozenset()
    assert unused_settings("encoder_decoder") == {"scale", "mask", "scoring"}
    for page in pages.PAGES:
        if page.model != pages.SIDEBAR:
            assert unused_settings(page.id) == frozenset(MODEL_SETTINGS), page.id


# the home page (every setting live), pages with some settings unused, and the pages that train
# their own model (not the LLM page: it loads SmolLM2 on its first run)
CHECKED = [
    p.id for p in pages.PAGES if p.home or p.unused or (p.model == pages.OWN and p.id != "llm")
]


@pytest.mark.parametrize("page_id", CHECKED)
def test_settings_a_page_ignores_are_disabled_with_a_note(page_id):
    at = run_app(pages.BY_ID[page_id].path)
    off = _disabled(at)
    assert {name for name, d in off.items() if d} == unused_settings(page_id)
    notes = "\n".join(c.value for c in at.sidebar.caption)
    if pages.BY_ID[page_id].model == pages.OWN:
        assert EN["side.model_own"] in notes
    elif page_id == "encoder_decoder":
        assert EN["side.unused_encoder_decoder"] in notes
    else:
        assert EN["side.model_own"] not in notes


def test_a_text_left_out_of_the_link_says_so():
    """Issue #42: past URL_TEXT_CHARS a text silently dropped out of shared links (the link
    opened the default sentence). Where the link is taken from, the page now says so."""
    from ui.state import URL_TEXT_CHARS

    note = EN["msg.not_in_link"].split(":")[0]  # "Not in the link"
    short = run_app(**{"shared.text": "a " * (URL_TEXT_CHARS // 2)})  # 2,000 characters
    assert short.query_params["text"] and note not in _warnings(short)
    long = run_app(**{"shared.text": "a " * (URL_TEXT_CHARS // 2 + 1)})
    assert "text" not in long.query_params
    assert f"{note}: this text (2,002 characters) is longer than 2,000" in _warnings(long)
    target = "b " * (URL_TEXT_CHARS // 2 + 1)
    at = run_app(pages.BY_ID["encoder_decoder"].path, **{"encoder_decoder.target": target})
    assert "target" not in at.query_params and note in _warnings(at)


def _warnings(at) -> str:
    return "\n".join(w.value for w in at.warning)
