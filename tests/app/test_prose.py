"""What a reader sees in the text of every page (issue 18's screenshots): numbers as a person
writes them, tokens that wrap and keep their order, singular and plural, notes that say which
settings apply, each text once. A fresh AppTest per case (see tests/app/conftest.py)."""

from __future__ import annotations

import re

import pytest

from mha_core.layer.positional import positional_table
from tests.helpers.app import figure, on_sentence, page_text, run_app, shared
from ui.numbers import num
from ui.pages import BY_ID, MINILM, PAGES
from ui.strings import STRINGS
from ui.widgets import FSI, PDI

EN, ZH = STRINGS["en"], STRINGS["zh"]
E_NOTATION = re.compile(r"\d(?:\.\d+)?e[+-]?\d", re.IGNORECASE)
ARABIC = "مرحبا بالعالم and hello"  # two right-to-left words, then left-to-right ones


def _page(name: str) -> str:
    return BY_ID[name].path


def _all_text(at) -> str:
    """Every text of the page a reader sees: headers, prose, captions, notices, code."""
    parts = [*at.header, *at.subheader, *at.markdown, *at.caption, *at.info, *at.warning]
    return "\n".join([*(e.value for e in parts), *(c.value for c in at.code)])


# --- the number helper ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("x", "digits", "shown"),
    [
        (0.52, 3, "0.52"),
        (5.2e-01, 3, "0.52"),
        (0.0, 3, "0"),
        (-0.0, 3, "0"),
        (8.94e-08, 3, "8.9 × 10⁻⁸"),
        (1e-5, 3, "10⁻⁵"),
        (4.0, 4, "4"),
        (5.656854, 4, "5.657"),
        (62831.85, 6, "62,831.8"),
        (62831.85, 4, "62,832"),
        (0.001234, 3, "0.00123"),
        (2.5e6, 3, "2,500,000"),
        (-0.25, 3, "-0.25"),
        (9.9996, 3, "10"),
    ],
)
def test_num_writes_numbers_as_a_person_does(x, digits, shown):
    assert num(x, digits) == shown
    assert not E_NOTATION.search(num(x, digits))


# --- tokens -----------------------------------------------------------------------------------
@pytest.mark.parametrize("page", [p for p in PAGES if p.tokens], ids=lambda p: p.id)
def test_token_blocks_wrap_and_isolate_every_token(page):
    """The numbered tokens wrap to the page (not cut at the edge) and each token sits in a
    bidi isolate, so right-to-left tokens keep their place."""
    at = run_app(page.path, **shared(text=ARABIC), **on_sentence(page))
    blocks = [c for c in at.code if FSI in c.value]
    assert blocks, f"no token block on {page.id}"
    for block in blocks:
        assert block.proto.wrap_lines
        assert block.value.count(FSI) == block.value.count(PDI) >= 4
    first = blocks[0].value
    # MiniLM's WordPiece splits the Arabic word: its first piece
    rtl = "مرحبا" if page.model != MINILM else first.split(FSI)[2].split(PDI)[0]
    assert f"{FSI}{rtl}{PDI}" in first
    assert E_NOTATION.search(first) is None


# --- numbers in prose, every page ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("page", "state"),
    [
        *((p.id, {}) for p in PAGES),  # every page as it opens
        ("scaling", {"scaling.tau_sqrt": True, "scaling.view": "sentence"}),
        ("scaling", {"scaling.view": "saturation"}),
        *(("positional", {"positional.view": v}) for v in ("sentence", "rope", "alibi")),
        ("encoder_decoder", {"encoder_decoder.part": "padding"}),
        ("encoder_decoder", {"encoder_decoder.part": "addnorm"}),
        ("encoder_decoder", {"encoder_decoder.part": "dropout"}),
    ],
)
def test_no_e_notation_in_prose(page, state):
    text = _all_text(run_app(_page(page), **state))
    assert not E_NOTATION.findall(text), E_NOTATION.findall(text)


def test_positional_checks_state_their_differences_in_plain_numbers():
    """The float32 checks print the core's differences through `num` (tiny: a power of ten)."""
    table = positional_table(64, 64)  # the page's defaults
    at = run_app(_page("positional"))
    spread, dev = num(table.offset_spread), num(table.offset_max_dev)
    check = EN["positional.similarity_check"].format(
        spread=spread, dev=dev, peak=num(table.similarity[0, 0], 6), d=64
    )
    assert check in page_text(at)
    assert not E_NOTATION.search(spread + dev)


# --- page by page -------------------------------------------------------------------------------
def test_step_intro_counts_the_tabs_it_stands_above():
    at = run_app(_page("step"))
    n_tabs = len(at.segmented_control[0].options)
    assert n_tabs == 6
    assert "tab 0" in at.markdown[0].value + page_text(at)
    assert f"tabs 1 to {n_tabs - 1}" in page_text(at)
    assert f"第 1 到 {n_tabs - 1} 个标签页" in ZH["step.intro"]


@pytest.mark.parametrize(("d_model", "n_heads", "tau"), [(64, 4, "4"), (64, 2, "5.66")])
def test_scaling_with_sqrt_dk_the_slider_shows_the_temperature_used(d_model, n_heads, tau):
    at = run_app(
        _page("scaling"),
        **shared(d_model=d_model, n_heads=n_heads),
        **{"scaling.tau_sqrt": True, "scaling.tau": 1.0, "scaling.view": "sentence"},
    )
    shown = [s for s in at.select_slider if s.disabled]
    assert len(shown) == 1
    assert num(shown[0].value) == tau  # the slider's value is sqrt(d_k), not the stored 1
    title = figure(at, "scaling.temp_fig")["layout"]["title"]["text"]
    assert title.endswith(f"τ = {tau}") or f"τ = {tau}" in title
    assert at.session_state["scaling.tau"] == 1.0  # the learner's choice is kept for later


def test_scaling_without_sqrt_dk_the_slider_is_the_control():
    state = {"scaling.tau_sqrt": False, "scaling.tau": 2.0, "scaling.view": "sentence"}
    at = run_app(_page("scaling"), **state)
    assert not [s for s in at.select_slider if s.disabled]
    assert "τ = 2" in figure(at, "scaling.temp_fig")["layout"]["title"]["text"]


def test_add_and_norm_intro_is_printed_once():
    at = run_app(_page("encoder_decoder"), **{"encoder_decoder.part": "addnorm"})
    intros = [m.value for m in at.markdown if m.value.startswith("**Add & Norm**")]
    intros += [m.value for m in at.markdown if m.value.startswith("In pre-norm")]
    assert len(intros) == 1


def test_add_and_norm_with_a_one_token_second_sentence_is_singular():
    at = run_app(
        _page("encoder_decoder"), **{"encoder_decoder.part": "addnorm", "encoder_decoder.cut": 1}
    )
    text = page_text(at)
    assert "the first token of your sentence" in text
    assert "first 1 tokens" not in text


def test_rollout_of_layer_zero_is_not_a_range():
    at = run_app(_page("reading"), **{"reading.layer": 0, "reading.view": "rollout"})
    title = figure(at, "reading.fig.rollout")["layout"]["title"]["text"]
    assert "layer 0 alone" in title and "0–0" not in title
    assert "layers 0 to 0" not in page_text(at)
    at = run_app(_page("reading"), **{"reading.layer": 2, "reading.view": "rollout"})
    assert "layers 0 to 2" in figure(at, "reading.fig.rollout")["layout"]["title"]["text"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_sidebar_says_when_its_model_settings_do_not_apply(page):
    at = run_app(page.path)
    notes = [c.value for c in at.sidebar.caption if c.value == EN["side.model_unused"]]
    assert len(notes) == (1 if page.model == MINILM else 0)
