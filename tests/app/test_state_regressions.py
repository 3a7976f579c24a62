"""One regression test per bug of the sequences issue (#16): each is a short sequence of the
actions that broke the page, as a user did them (the walk through every page in random order is
tests/app/test_sequences.py and tests/browser/test_random_walk.py)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.app import make_app, rerun, run_app, shared
from ui.controls import widget_key
from ui.pages import PAGES
from ui.state import MAX_CHARS
from ui.strings import STRINGS

EN, ZH = STRINGS["en"], STRINGS["zh"]
LONG = "the quick brown fox jumps over the lazy dog"


def _lang(at, lang: str):
    at.session_state["shared.lang"] = lang
    return rerun(at)


def _params(at) -> dict:
    return dict(at.query_params.items())


# --- Step by step crashed after the tokens changed ----------------------------------------------
def test_step_query_picked_on_a_long_sentence_survives_a_shorter_one():
    at = run_app("views/step.py", **shared(text=LONG))
    at.selectbox(key="step.query").set_value(8)  # "8: dog", picked with the widget
    rerun(at)
    at.session_state["shared.text"] = "a cat"  # a new sentence: 2 tokens
    rerun(at)
    at.session_state["shared.n_heads"] = 8  # then any control
    rerun(at)
    assert at.session_state["step.query"] == 1  # the nearest token that is left
    assert at.selectbox(key="step.query").value == 1
    assert at.query_params["query"] == "1"


def test_step_query_survives_switching_to_wordpiece_and_next():
    at = run_app("views/step.py", **shared(text="unbelievable tokenization"))
    at.selectbox(key="step.query").set_value(1)
    rerun(at)
    at.session_state["shared.tokenizer"] = "wordpiece"
    rerun(at)
    at.button(key="step.next_0").click()
    rerun(at)
    assert at.session_state["step.stage"] == "1"
    assert isinstance(at.session_state["step.query"], int)


# --- Train crashed on a language round trip ------------------------------------------------------
@pytest.mark.parametrize("task", ["reverse", "sort"])
def test_train_survives_a_language_round_trip(task):
    at = run_app("views/train.py")
    at.radio(key="train.task").set_value(task)
    rerun(at)
    _lang(at, "zh")
    _lang(at, "en")
    assert at.session_state["train.task"] == task
    assert at.radio(key="train.task").value == task


# --- A language switch lost settings -------------------------------------------------------------
def test_sidebar_choices_survive_a_language_switch_and_the_next_action():
    at = run_app(**shared(mask="causal", tokenizer="wordpiece", scoring="additive"))
    _lang(at, "zh")
    at.session_state["shared.seed"] = 1  # the next action
    rerun(at)
    values = {k: at.session_state[f"shared.{k}"] for k in ("mask", "tokenizer", "scoring")}
    assert values == {"mask": "causal", "tokenizer": "wordpiece", "scoring": "additive"}
    assert (at.query_params["mask"], at.query_params["lang"]) == ("causal", "zh")
    _lang(at, "en")
    assert at.session_state["shared.mask"] == "causal"


def test_home_colour_scale_and_tab_survive_a_language_switch():
    at = run_app()
    at.radio(key="attention.colour_scale").set_value("per_head")
    at.session_state["attention.view"] = "stats"
    rerun(at)
    before = _params(at)
    _lang(at, "zh")
    assert at.session_state["attention.colour_scale"] == "per_head"
    assert at.session_state["attention.view"] == "stats"
    assert {**_params(at), "lang": "en"} == before
    # the colour controls are drawn only on the views they act on (issue #42): back on the heads
    at.session_state["attention.view"] = "heads"
    rerun(at)
    assert at.radio(key="attention.colour_scale").value == "per_head"


def test_encoder_decoder_part_survives_a_language_switch():
    at = run_app("views/encoder_decoder.py")
    at.radio(key="encoder_decoder.part").set_value("addnorm")
    rerun(at)
    _lang(at, "zh")
    at.session_state["shared.seed"] = 2
    rerun(at)
    assert at.session_state["encoder_decoder.part"] == "addnorm"
    assert at.query_params["part"] == "addnorm"


# --- Display text used as a value ----------------------------------------------------------------
def test_reading_url_holds_values_not_translated_labels():
    at = run_app("views/reading.py", **shared(text="The cat sat on the mat."))
    at.radio(key="reading.lines_side").set_value("key")
    rerun(at)
    _lang(at, "zh")
    _lang(at, "en")
    assert at.query_params["filter"] == "none"
    assert at.query_params["lines_side"] == "key"


# --- Choices reset for no reason -----------------------------------------------------------------
@pytest.mark.parametrize(
    "page,choices",
    [
        ("reading", {"reading.layer": 3, "reading.head": 7, "reading.filter": "top_k"}),
        ("pretrained", {"pretrained.layer": 4, "pretrained.head": 9}),
    ],
)
def test_an_empty_sentence_then_a_new_one_keeps_the_choices(page, choices):
    at = run_app(f"views/{page}.py", **shared(text="The cat sat on the mat."), **choices)
    at.session_state["shared.text"] = ""
    rerun(at)
    assert at.info  # says why the page is empty
    at.session_state["shared.text"] = "A dog ran in the park."
    rerun(at)
    assert {k: at.session_state[k] for k in choices} == choices


def test_reading_heads_drawn_survive_an_empty_sentence():
    at = run_app("views/reading.py", **shared(text="The cat sat on the mat."))
    at.multiselect(key="reading.lines_heads").set_value([4, 5])
    rerun(at)
    at.session_state["shared.text"] = ""
    rerun(at)
    at.session_state["shared.text"] = "The cat sat on the mat."
    rerun(at)
    assert at.session_state["reading.lines_heads"] == [4, 5]
    assert at.query_params["lines_heads"] == "4,5"


# --- Shared links open another view --------------------------------------------------------------
# for every page, a link that moves its own controls off their defaults
LINKS = {
    "lesson": {"station": "softmax", "pick": "lt25", "answers": "why:0:0123abcd"},
    "attention": {"colour_scale": "per_head", "palette": "Cividis", "view": "mean"},
    "step": {"stage": "3", "head": "1", "query": "2"},
    "scaling": {"distribution": "uniform", "n_keys": "32", "tau": "4.0", "head": "1"},
    "positional": {"pe_d_model": "32", "n_positions": "100", "anchor": "12", "head": "2"},
    "pretrained": {"layer": "4", "head": "9", "pair": "a second sentence"},
    "encoder_decoder": {"view": "cross", "layer": "1", "layers": "3"},
    "train": {"task": "sort", "dim": "32", "heads": "2", "layers": "2", "run_seed": "3"},
    "reading": {"layer": "3", "head": "7", "filter": "top_k", "view": "rollout"},
    "efficient": {"view": "cache", "kv_heads": "2", "head": "3"},
    "induction": {"steps": "300", "run_seed": "2", "layer": "0", "head": "3"},
    "llm": {"question": "Why is the sky blue?", "temperature": "0.7", "top_k": "5",
            "view": "arithmetic", "layer": "3", "head": "4", "query": "5", "score": "previous",
            "stage": "rope", "pair": "7"},
}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_a_link_reproduces_the_page_controls(page):
    link = LINKS[page.id]
    at = run_app(page.path, query=link)
    assert not at.warning, [w.value for w in at.warning]
    for param, value in link.items():
        assert at.query_params[param] == value
        assert str(at.session_state[f"{page.id}.{param}"]) == value


def test_step_url_follows_the_heads_down():
    at = run_app("views/step.py", **shared(n_heads=4))
    at.selectbox(key="step.head").set_value(2)
    rerun(at)
    at.session_state["shared.n_heads"] = 1
    rerun(at)
    assert at.query_params["head"] == "0"


def test_a_page_remembers_its_controls_across_a_visit_elsewhere():
    at = run_app("views/scaling.py")
    at.radio(key="scaling.distribution").set_value("uniform")
    rerun(at)
    at.switch_page("views/attention.py")
    rerun(at)
    at.switch_page("views/scaling.py")
    rerun(at)
    assert at.session_state["scaling.distribution"] == "uniform"
    assert at.query_params["distribution"] == "uniform"


# --- Silent refusal of an over-long paste ------------------------------------------------------
def test_a_paste_past_the_sidebar_limit_is_kept_and_named():
    text = "word " * (MAX_CHARS // 5 + 200)
    at = run_app(**shared(text=text))
    assert at.session_state["shared.text"] == text  # nothing typed is lost
    warning = " ".join(w.value for w in at.warning)
    assert f"{MAX_CHARS:,}" in warning and f"{len(text):,}" in warning


def test_a_paste_past_the_try_it_limit_is_named():
    at = make_app("views/train.py", **{"train.steps": 6}).run()
    at.button(key="train.start").click()
    rerun(at)  # trains to the end, then reruns
    at.text_input(key="train.try").input("abc" * 100)
    rerun(at)
    assert any("200" in w.value for w in at.warning)
    assert at.session_state["train.try"] == "abc" * 100


def test_widget_keys_follow_the_labels():
    # the mechanism behind all of the above: new labels make a new widget, seeded from the value
    en = widget_key("shared.mask", [EN["side.mask.none"], EN["side.mask.causal"]])
    zh = widget_key("shared.mask", [ZH["side.mask.none"], ZH["side.mask.causal"]])
    assert en != zh and en.startswith(widget_key("shared.mask") + ".")


def test_a_widget_key_never_comes_back_after_another_replaced_it():
    # d_model 64 -> 48 -> 32 offers the heads [1, 2, 4, 8, 16], then [..., 12, 16], then
    # [1, 2, 4, 8, 16] again: reusing the first widget key let the browser answer for it with
    # its default (1 head) in a quick run of slider steps (tests/browser/test_attention.py)
    at = run_app("views/attention.py", **shared(d_model=64, n_heads=16))
    keys = []
    for d_model in (48, 32, 24):
        keys.append(next(s.key for s in at.select_slider if s.key.startswith("_w.shared.n_heads.")))
        at.session_state["shared.d_model"] = d_model
        rerun(at)
    keys.append(next(s.key for s in at.select_slider if s.key.startswith("_w.shared.n_heads.")))
    assert len(set(keys)) == 4, keys
    assert at.session_state["shared.n_heads"] == 12  # 16 kept while valid, then the nearest


def _sent(at, prefix: str) -> bool:
    """Whether this run sent the value of the slider whose widget key starts with `prefix`."""
    sliders = [*at.select_slider, *at.slider]
    return next(s.proto.set_value for s in sliders if s.key.startswith(prefix))


def test_a_run_no_slider_started_sends_no_slider_value_back():
    # The walk's "lost" rope_shift (and n_heads, n_positions): a run that a slider did not start
    # re-sent every slider's value; when it reached the browser after the person's next key
    # step, the browser kept the old value while the URL showed the new one, and the next
    # action brought the old value back. Only a value set by code is sent.
    at = run_app("views/positional.py", **shared())
    sliders = ("_w.shared.d_model.", "_w.shared.n_heads.", "_w.positional.n_positions.")
    at.session_state["shared.positional"] = not at.session_state["shared.positional"]
    rerun(at)
    assert not any(_sent(at, prefix) for prefix in sliders)
    at.session_state["positional.n_positions"] = 40  # code (a link, a clamp) sets a value
    rerun(at)
    assert _sent(at, "_w.positional.n_positions.")
    assert at.slider(key="positional.n_positions").value == 40
    assert not _sent(at, "_w.shared.n_heads.")


def test_reading_token_choices_of_closed_tabs_follow_a_shorter_sentence():
    # only the open tab is drawn: the query/key map's query (closed) still follows the tokens,
    # so the URL never holds a choice that changes when its tab opens
    at = run_app("views/reading.py", **shared(text=LONG))  # 11 WordPiece tokens
    at.session_state["reading.qk_query"] = 9
    at.session_state["reading.lines_token"] = 8
    rerun(at)
    assert at.query_params["view"] == "lines" and at.query_params["qk_query"] == "9"
    at.session_state["shared.text"] = "a cat"  # [CLS] a cat [SEP]
    rerun(at)
    assert at.session_state["reading.qk_query"] == 3 and at.query_params["qk_query"] == "3"
    assert at.session_state["reading.lines_token"] == 3
    at.session_state["reading.view"] = "qk"
    rerun(at)
    assert at.selectbox(key="reading.qk_query").value == 3 and at.query_params["qk_query"] == "3"


@pytest.fixture
def request_during_callbacks(monkeypatch):
    """The browser's next request arrives while the callbacks of its last one run (a commit by
    blur followed at once by a click elsewhere): once, a rerun with the same widget states is
    requested when the callbacks start. Streamlit stops a run for a new request at any access to
    st.session_state, a callback's included; the request then runs next (its states unchanged,
    so no callback of its own fires)."""
    from streamlit.runtime.scriptrunner import RerunData, get_script_run_ctx
    from streamlit.runtime.state.session_state import SessionState

    original, armed = SessionState._call_callbacks, [False]

    def call_callbacks(self, **kw):
        ctx = get_script_run_ctx()
        if armed[0] and ctx is not None and ctx.script_requests is not None:
            armed[0] = False
            ctx.script_requests.request_rerun(
                RerunData(
                    query_string=ctx.query_string,
                    page_script_hash=ctx.page_script_hash,
                    widget_states=self._current_interaction_widget_states,
                )
            )
        return original(self, **kw)

    monkeypatch.setattr(SessionState, "_call_callbacks", call_callbacks)
    return armed


def _two_boxes():
    """A script with one text input and one text area of the widget layer, as pages draw them."""
    import streamlit as st

    from ui import controls

    for key in ("box.input", "box.area"):
        st.session_state.setdefault(key, "older text")
    controls.text("input", key="box.input", limit=100)
    controls.text("area", key="box.area", limit=100, area=True)


def test_a_commit_cut_short_by_the_next_request_is_not_lost(request_during_callbacks):
    # Issue 43: the Pretrained page's second sentence went back to an older text after a language
    # switch. The commit's callback, which copies the widget's text to the value, was stopped by
    # the next request at its first st.session_state access; the next run saw no change, still
    # had the old value, and sent it to the box.
    old = " ".join(f"word{i}" for i in range(90))
    at = run_app("views/pretrained.py", **{"pretrained.pair": old})
    at.text_area(key="pretrained.pair").input("abc\n")
    request_during_callbacks[0] = True
    rerun(at)
    assert not request_during_callbacks[0]  # the request came during the callbacks
    assert at.session_state["pretrained.pair"] == "abc\n"
    assert at.query_params["pair"] == "abc\n"
    box = at.text_area(key="pretrained.pair")
    assert box.value == "abc\n"
    assert not box.proto.set_value  # the browser's text is not replaced by the older one


@pytest.mark.parametrize("kind", ["text_input", "text_area"])
def test_every_text_box_keeps_a_commit_cut_short(request_during_callbacks, kind):
    at = AppTest.from_function(_two_boxes).run()
    key = "box.input" if kind == "text_input" else "box.area"
    getattr(at, kind)(key=key).input("typed")
    request_during_callbacks[0] = True
    at.run()
    assert not at.exception and not request_during_callbacks[0]
    box = getattr(at, kind)(key=key)
    assert (at.session_state[key], box.value, box.proto.set_value) == ("typed", "typed", False)
