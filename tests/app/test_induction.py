"""The Induction page through AppTest: it opens with the untrained probe, trains a tiny pair to
the end, keeps it, and reads it (scores, probe, next-token prediction, sink). Tiny runs (20
steps) keep it fast; numbers are checked against the core called here."""

from __future__ import annotations

import numpy as np
import pytest

from mha_core.gpt import direct_logit_attribution
from tests.helpers.app import figures_by_key, make_app, page_text, plotly_array, rerun, run_app
from ui.compute import induction as compute
from ui.compute.induction import InductionChoice, LivePair, TypedProblem
from ui.strings import STRINGS

PAGE = "views/induction.py"
EN, ZH = STRINGS["en"], STRINGS["zh"]
TINY = {"induction.steps": min(compute.STEP_CHOICES)}
HOSTILE = "<b>x</b> <img src=x onerror=alert(1)> **b** $x$"


@pytest.fixture(scope="module")
def tiny_pair():
    live = LivePair.start(InductionChoice(steps=min(compute.STEP_CHOICES)))
    while not live.done:
        live.advance()
    return live.finish()


def _trained(query=None, **state):
    at = make_app(PAGE, query, **{**TINY, **state}).run()
    assert not at.exception, at.exception
    at.button(key="induction.start").click()
    return rerun(at)


def test_opens_with_the_untrained_probe_and_no_training():
    at = run_app(PAGE)
    figs = figures_by_key(at)
    tokens, att = compute.untrained_probe(0)
    assert [k for k in figs if k.startswith("induction.fig.untrained")] == [
        f"induction.fig.untrained.{h}" for h in range(att.shape[1])
    ]  # a chart per head
    assert "induction._live" not in at.session_state
    assert "induction._run" not in at.session_state
    for h in range(att.shape[1]):
        z = plotly_array(figs[f"induction.fig.untrained.{h}"]["data"][0]["z"])
        assert z.size == len(tokens) ** 2
        np.testing.assert_allclose(z.reshape(att.shape[-2:]), att[1, h], rtol=1e-6)


def test_trains_both_models_and_shows_every_section():
    at = _trained()
    fin = at.session_state["induction._run"]
    assert set(fin.runs) == {1, 2}
    assert all(r.steps_done == min(compute.STEP_CHOICES) for r in fin.runs.values())
    figs = figures_by_key(at)
    for key in ("curves", "scores.previous", "scores.induction", "probe.0", "top", "parts"):
        assert f"induction.fig.{key}" in figs, key
    assert "induction.fig.sink" in figs
    # MiniLM's sentence under its chart, not in the title (plotly cuts a long title, unwrapped)
    if "induction.fig.sink_minilm" in figs:
        title = figs["induction.fig.sink_minilm"]["layout"]["title"]["text"]
        assert compute.MINILM_SENTENCE not in title
        assert compute.MINILM_SENTENCE in " ".join(c.value for c in at.caption)


def test_settings_come_from_and_go_to_the_url():
    at = run_app(PAGE, {"steps": "300", "run_seed": "7", "layer": "0", "typed": "abcabc"})
    ss = at.session_state
    assert ss["induction.steps"] == 300 and ss["induction.run_seed"] == 7
    assert ss["induction.layer"] == 0 and ss["induction.typed"] == "abcabc"
    assert at.query_params["steps"] == ["300"] or at.query_params["steps"] == "300"


def test_invalid_url_settings_keep_their_defaults():
    at = run_app(PAGE, {"steps": "17", "run_seed": "-1", "layer": "9"})
    ss = at.session_state
    assert ss["induction.steps"] == InductionChoice().steps
    assert ss["induction.run_seed"] == 0 and ss["induction.layer"] == 1
    assert any("steps" in w.value for w in at.warning)


def test_stop_keeps_the_pair():
    at = make_app(PAGE, None, **{"induction.steps": 2000}).run()
    at.session_state["induction._live"] = LivePair.start(InductionChoice(steps=2000))
    at.session_state["induction._stop"] = True
    at = rerun(at)
    fin = at.session_state["induction._run"]
    assert all(r.stopped and r.steps_done == 1 for r in fin.runs.values())


def test_next_token_parts_add_up_to_the_logit(tiny_pair):
    run = tiny_pair.model_run
    p = compute.next_token(run, "abcdeabcd")
    assert not isinstance(p, TypedProblem)
    assert abs(p.parts_sum - p.logit) < 1e-4
    ids = run.task.encode(tuple("abcdeabcd"))
    ref = direct_logit_attribution(run.model, ids)
    chosen = run.task.vocab.index(p.chosen)
    assert p.logit == pytest.approx(float(ref.logits[-1, chosen]), rel=1e-6)
    assert p.top[0][0] == p.chosen and len(p.top) == compute.TOP_K
    assert all(tok != "<bos>" for tok, _ in p.top)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("", "empty"),
        ("   ", "empty"),
        (HOSTILE, "unknown"),
        ("🙂a", "unknown"),
        ("a" * 60, "length"),
    ],
)
def test_bad_typed_sequences_are_explained(tiny_pair, text, kind):
    p = compute.next_token(tiny_pair.model_run, text)
    assert isinstance(p, TypedProblem) and p.kind == kind


def test_hostile_typed_text_stays_literal_in_the_page(tiny_pair):
    at = make_app(PAGE, None, **{"induction._run": tiny_pair, "induction.typed": HOSTILE}).run()
    assert not at.exception, at.exception
    assert at.error and EN["induction.try.unknown"] in at.error[0].value
    codes = " ".join(c.value for c in at.code)
    assert {"<", ">", "=", "*", "$"} <= set(codes.split())  # literal code, never markup
    assert at.session_state["induction.typed"] == HOSTILE


def test_chinese(tiny_pair):
    at = make_app(PAGE, None, **{"induction._run": tiny_pair, "shared.lang": "zh"}).run()
    assert not at.exception, at.exception
    text = page_text(at)
    assert at.title[0].value == ZH["induction.title"]
    assert ZH["induction.sink.text"].split("`")[0] in text
    assert any(h.value == ZH["induction.sink.title"] for h in at.header)


def test_strings_exist_in_both_languages():
    keys = {k for k in EN if k.startswith("induction.")}
    assert keys == {k for k in ZH if k.startswith("induction.")}
