"""The Induction page through AppTest: it opens on the finished default run stored with the app
(the untrained probe when the file is missing), trains a tiny pair to the end, keeps it, and
reads it (scores, probe, next-token prediction, sink); a live pair trains on while another page
is open. Tiny runs (20 steps) keep it fast; numbers are checked against the core called here."""

from __future__ import annotations

import time

import numpy as np
import pytest

from mha_core.gpt import direct_logit_attribution, next_token
from mha_core.transformer import InputProblem
from tests.helpers.app import figures_by_key, make_app, page_text, plotly_array, rerun, run_app
from ui.compute import induction as compute
from ui.compute.induction import InductionChoice, LivePair
from ui.strings import STRINGS
from viz.labels import escape_label

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


def test_opens_on_the_stored_default_run_at_its_last_snapshot():
    at = run_app(PAGE)
    assert "induction._live" not in at.session_state
    assert "induction._run" not in at.session_state
    fin = compute.stored_pair()
    assert fin is not None and fin.stored and fin.choice == InductionChoice()
    run = fin.model_run
    snap = run.snapshots[max(run.snapshots)]
    # layer 1's head that scores highest on the induction pattern, by default: the stripe
    best = int(np.argmax(snap.scores["induction"][1]))
    _assert_probe(at, "induction.fig.probe", compute.probe_tokens(run.task), snap, 1, best)
    figs = figures_by_key(at)
    assert {"induction.fig.curves", "induction.fig.top", "induction.fig.sink"} <= set(figs)
    acc = {"acc2": f"{run.accuracy:.1%}", "acc1": f"{fin.runs[1].accuracy:.1%}"}
    stored = EN["induction.stored"].format(steps=1800, seed=0, **acc)
    assert stored in page_text(at)
    assert "induction.fig.untrained" not in figs
    # scrubbed at once: the first snapshot is the untrained model
    at.session_state["induction.snapshot"] = 0
    at = rerun(at)
    first = run.snapshots[0]
    best0 = int(np.argmax(first.scores["induction"][1]))
    _assert_probe(at, "induction.fig.probe", compute.probe_tokens(run.task), first, 1, best0)


def test_opens_with_the_untrained_probe_when_no_run_is_stored(monkeypatch):
    monkeypatch.setattr(compute, "STORED_RUN", compute.STORED_RUN.with_name("missing.npz"))
    compute.stored_pair.clear()
    try:
        at = run_app(PAGE)
        tokens, snap = compute.untrained_probe(0)
        best = int(np.argmax(snap.scores["induction"][1]))
        _assert_probe(at, "induction.fig.untrained", tokens, snap, 1, best)
    finally:
        compute.stored_pair.clear()


def test_a_live_pair_trains_on_while_another_page_is_open():
    steps = 100
    at = make_app(PAGE, None, **{"induction.steps": steps}).run()
    live = LivePair.start(InductionChoice(steps=steps))
    live.run_in_background()  # as the page's Train both does, before its script is left
    at.session_state["induction._live"] = live
    at.switch_page("views/step.py")
    at = rerun(at)
    deadline = time.monotonic() + 120
    while not live.done and time.monotonic() < deadline:
        time.sleep(0.1)
    assert live.done and live.step == steps  # trained to the end with the Induction page closed
    at.switch_page(PAGE)
    at = rerun(at)
    fin = at.session_state["induction._run"]
    assert all(r.steps_done == steps and not r.stopped for r in fin.runs.values())
    assert "induction._live" not in at.session_state


def _head_picker(at):
    """The head picker of the probe chart."""
    (picker,) = [w for w in at.radio if "induction.head" in (w.key or "")]
    return picker


def _assert_probe(at, key, tokens, snap, layer, head) -> None:
    """The probe chart `key` shows `head` of `layer` in `snap`, token by token."""
    fig = figures_by_key(at)[key]
    z = plotly_array(fig["data"][0]["z"]).reshape(len(tokens), len(tokens))
    np.testing.assert_array_equal(z, snap.probe_attention[layer, head])
    labels = [escape_label(s) for s in tokens]
    assert fig["layout"]["xaxis"]["ticktext"] == fig["layout"]["yaxis"]["ticktext"] == labels
    kind = "previous" if layer == 0 else "induction"
    score = f"{snap.scores[kind][layer, head]:.2f}"
    assert f"{layer}, head {head} · {kind} {score}" in fig["layout"]["title"]["text"]


def test_trains_both_models_and_shows_every_section():
    at = _trained()
    fin = at.session_state["induction._run"]
    assert set(fin.runs) == {1, 2}
    assert all(r.steps_done == min(compute.STEP_CHOICES) for r in fin.runs.values())
    figs = figures_by_key(at)
    for key in ("curves", "scores.previous", "scores.induction", "probe", "top", "parts"):
        assert f"induction.fig.{key}" in figs, key
    assert "induction.fig.sink" in figs
    # MiniLM's sentence under its chart, not in the title (plotly cuts a long title, unwrapped)
    if "induction.fig.sink_minilm" in figs:
        title = figs["induction.fig.sink_minilm"]["layout"]["title"]["text"]
        assert compute.MINILM_SENTENCE not in title
        assert compute.MINILM_SENTENCE in " ".join(c.value for c in at.caption)


def test_the_snapshot_slider_shows_that_snapshot_on_the_probe(tiny_pair):
    at = make_app(PAGE, None, **{"induction._run": tiny_pair}).run()
    assert not at.exception, at.exception
    run = tiny_pair.model_run
    steps = list(run.snapshots)
    (slider,) = [w for w in at.select_slider if "induction.snapshot" in (w.key or "")]
    assert [int(s) for s in slider.options] == steps and int(slider.value) == steps[-1]
    curves = {k: v for k, v in figures_by_key(at).items() if ".scores." in k}
    assert len(curves) == 2
    picker = _head_picker(at)
    assert list(picker.options)[0].startswith("highest score") and len(picker.options) == 5
    for step, layer, head in ((steps[0], 1, "best"), (steps[len(steps) // 2], 0, 2),
                              (steps[-1], 0, "best"), (steps[-1], 1, 3)):  # fmt: skip
        at.session_state["induction.snapshot"] = step
        at.session_state["induction.layer"] = layer
        at.session_state["induction.head"] = head
        at = rerun(at)
        snap = run.snapshots[step]
        kind = "previous" if layer == 0 else "induction"
        shown = int(np.argmax(snap.scores[kind][layer])) if head == "best" else head
        _assert_probe(at, "induction.fig.probe", compute.probe_tokens(run.task), snap, layer, shown)
        # every head offered with its score at this step
        layer_scores = snap.scores[kind][layer]
        scores = [f"head {h} · {kind} {x:.2f}" for h, x in enumerate(layer_scores)]
        assert list(_head_picker(at).options)[1:] == scores
        assert f"Step {step}:" in page_text(at)
        assert at.query_params["head"] in (str(head), [str(head)])
        # the score curves are the whole run's: the same at every snapshot (not drawn again)
        assert {k: v for k, v in figures_by_key(at).items() if ".scores." in k} == curves


def test_settings_come_from_and_go_to_the_url():
    query = {"steps": "300", "run_seed": "7", "layer": "0", "head": "2", "typed": "abcabc"}
    at = run_app(PAGE, query)
    ss = at.session_state
    assert ss["induction.steps"] == 300 and ss["induction.run_seed"] == 7
    assert ss["induction.layer"] == 0 and ss["induction.typed"] == "abcabc"
    assert ss["induction.head"] == 2
    assert at.query_params["steps"] == ["300"] or at.query_params["steps"] == "300"


def test_invalid_url_settings_keep_their_defaults():
    at = run_app(PAGE, {"steps": "17", "run_seed": "-1", "layer": "9", "head": "4"})
    ss = at.session_state
    assert ss["induction.head"] == "best"
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
    p = next_token(run.model, run.task, "abcdeabcd")
    assert not isinstance(p, InputProblem)
    assert abs(p.parts_sum - p.logit) < 1e-4
    ids = run.task.encode(tuple("abcdeabcd"))
    ref = direct_logit_attribution(run.model, ids)
    chosen = run.task.vocab.index(p.chosen)
    assert p.logit == pytest.approx(float(ref.logits[-1, chosen]), rel=1e-6)
    assert p.top[0][0] == p.chosen and len(p.top) == 5
    assert all(tok != "<bos>" for tok, _ in p.top)


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


def test_stop_ends_a_pair_training_in_the_background():
    live = LivePair.start(InductionChoice(steps=2000))
    live.run_in_background()
    deadline = time.monotonic() + 60
    while live.recorded < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    fin = live.stop()  # returns after the chunk under way: long before the 2,000 steps
    assert all(r.stopped and 3 <= r.steps_done < 2000 for r in fin.runs.values())
    live._thread.join(timeout=10)
    assert not live.running and live.step == fin.model_run.steps_done
