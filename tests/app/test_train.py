"""The Train page through streamlit.testing.v1.AppTest.

The page trains inside the script run, so an AppTest run that clicks Train trains to the end;
tiny runs (a few steps, set through the URL or session state) keep this module fast. The page's
numbers are compared with runs of the core made here (`train_toy`, `predict`), not with the
page's helpers. A fresh AppTest per case (see tests/app/conftest.py).
"""

from __future__ import annotations

import dataclasses
import io
import json

import numpy as np
import pandas as pd
import pytest
import safetensors.torch

from mha_core import TASKS, TrainSettings, predict, train_toy
from mha_core.transformer import InputProblem, read_symbols, weights_bytes
from tests.helpers.app import figure, make_app, page_text, plotly_array, rerun, run_app
from tests.helpers.grid import grid_heads, grid_tokens
from ui.compute import train as compute
from ui.compute.train import LiveRun, TrainChoice
from ui.sections import train as train_sections  # its session keys, to set up a run mid-way
from ui.strings import STRINGS

PAGE = "views/train.py"
EN, ZH = STRINGS["en"], STRINGS["zh"]
HOSTILE = '<b>x</b> <a href="https://example.com">y</a> <img src=x onerror=alert(1)> **b** $x$'
TINY = {"train.steps": 6}  # every step snapshotted (as many snapshots as the default run: 16)


def _core_defaults() -> dict:
    """The settings `train_toy()` runs with: the core's `TrainSettings()`."""
    return dataclasses.asdict(TrainSettings())


def _train(query=None, **state):
    """The page after pressing Train once (it trains to the end, then reruns)."""
    at = make_app(PAGE, query, **state).run()
    assert not at.exception, at.exception
    at.button(key="train.start").click()
    return rerun(at)


def _reference(steps=6, **kw):
    """The run the page makes for these settings, made here with the core directly."""
    choice = TrainChoice(steps=steps, **kw)  # every field of TrainChoice is a train_toy keyword
    return train_toy(**dataclasses.asdict(choice), snapshot_every=choice.snapshot_every)


# --- before training --------------------------------------------------------------------------
def test_defaults_are_train_toys_and_nothing_trains_before_the_button():
    at = run_app(PAGE)
    core = _core_defaults()
    ss = at.session_state
    assert ss["train.task"] == core["task"] == "reverse"
    assert ss["train.dim"] == core["d_model"]
    assert ss["train.heads"] == core["n_heads"]
    assert ss["train.layers"] == core["n_layers"]
    assert ss["train.steps"] == core["steps"]
    assert ss["train.lr"] == core["lr"]
    assert ss["train.run_seed"] == core["seed"]
    assert at.title[0].value == EN["train.title"]
    assert EN["train.none"] in [i.value for i in at.info]
    assert [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")] == ["train.fig.before"]
    assert at.button(key="train.stop").disabled
    assert not at.button(key="train.start").disabled
    heads = at.select_slider(key="train.heads")
    assert [int(h) for h in heads.options] == [1, 2, 4, 8]  # divisors of 64, up to 8


@pytest.mark.parametrize(("kind", "layer"), [("cross", 0), ("encoder_self", 1)])
def test_before_training_the_page_shows_the_untrained_heads_on_the_probe(kind, layer):
    """The picture the page opens with is step 0 of the run the settings would train: the
    seeded model before any step, on the probe (compared with the core's own run)."""
    state = {"train.kind": kind, "train.layer": layer, "train.layers": 2, "train.run_seed": 3}
    at = run_app(PAGE, **state)
    text = page_text(at)
    assert EN["train.before.title"] in [h.value for h in at.header]
    assert EN["train.before.text"].format(probe=" ".join(TASKS["reverse"].probe), seed=3) in text
    snap = _reference(steps=1, n_layers=2, seed=3).snapshots[0]
    want = {"cross": snap.cross, "encoder_self": snap.encoder_self}[kind][layer]
    heads = grid_heads(figure(at, "train.fig.before"))
    assert len(heads) == want.shape[0]
    for z, w in zip(heads, want):
        np.testing.assert_allclose(z, w, rtol=1e-5, atol=1e-7)
    other = _reference(steps=1, n_layers=2, seed=4).snapshots[0]  # the seed matters
    assert not np.allclose(heads[0], {"cross": other.cross, "encoder_self": other.encoder_self}[
        kind][layer][0])


def test_before_training_is_gone_once_a_run_exists(small_run):
    at = _with_run(small_run)
    assert EN["train.before.title"] not in [h.value for h in at.header]
    assert "train.fig.before" not in [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]


@pytest.mark.parametrize(
    ("d_model", "wanted", "options", "kept"),
    [(48, 4, [1, 2, 3, 4, 6, 8], 4), (96, 8, [1, 2, 3, 4, 6, 8], 8), (16, 6, [1, 2, 4, 8], 4)],
)
def test_heads_offer_only_divisors_of_d_model(d_model, wanted, options, kept):
    at = run_app(PAGE, **{"train.dim": d_model, "train.heads": wanted})
    assert [int(h) for h in at.select_slider(key="train.heads").options] == options
    assert at.session_state["train.heads"] == kept  # 6 does not divide 16: the nearest, 4
    assert f"{d_model} / {kept} = **{d_model // kept}**" in page_text(at)


def test_settings_come_from_and_go_to_the_url():
    query = {"task": "copy", "dim": "32", "heads": "2", "layers": "2", "steps": "40"}
    query |= {"lr": "0.01", "run_seed": "7"}
    at = run_app(PAGE, query=query)
    ss = at.session_state
    assert (ss["train.task"], ss["train.dim"], ss["train.heads"]) == ("copy", 32, 2)
    assert (ss["train.layers"], ss["train.steps"], ss["train.lr"]) == (2, 40, 0.01)
    assert ss["train.run_seed"] == 7
    for name, value in query.items():
        assert at.query_params[name] == value, name
    assert "d_model" in at.query_params  # the sidebar's own settings keep their names


def test_invalid_url_settings_are_named_and_keep_their_defaults():
    query = {"task": "<b>x</b>", "dim": "33", "lr": "0.5", "steps": "0", "heads": "7"}
    at = run_app(PAGE, query=query)
    warning = " ".join(w.value for w in at.warning)
    for name in ("task", "dim", "lr", "steps"):
        assert name in warning
    assert "<b>" not in warning  # names only, never the values
    ss = at.session_state
    assert (ss["train.task"], ss["train.dim"], ss["train.lr"], ss["train.steps"]) == (
        "reverse",
        64,
        0.03,
        300,
    )
    assert ss["train.heads"] == 8  # 7 parses but does not divide 64: the nearest divisor


# --- training to the end, then scrubbing ------------------------------------------------------
def test_trains_a_tiny_run_to_the_end_and_scrubs_the_snapshots():
    at = _train(query={"steps": "6"})
    ref = _reference(steps=6)
    assert _done_steps(at) == 6 and not at.warning  # trained to the end, not stopped
    assert [h.value for h in at.header][:1] == [EN["train.result.title"]]
    assert at.button(key="train.stop").disabled  # nothing is training any more
    # the curve: one point per step, the core's numbers (same ops in the same order)
    curves = figure(at, "train.fig.curves")
    np.testing.assert_array_equal(plotly_array(curves["data"][0]["x"]), np.arange(1, 7))
    np.testing.assert_array_equal(
        plotly_array(curves["data"][0]["y"]), [r.loss for r in ref.history]
    )
    np.testing.assert_array_equal(
        plotly_array(curves["data"][2]["y"]), [r.exact_acc for r in ref.history]
    )
    # the scrubber: one position per snapshot, the last one first
    slider = at.select_slider(key="train.snapshot")
    assert [int(s) for s in slider.options] == list(ref.snapshot_steps) == list(range(7))
    assert slider.value == 6
    align = figure(at, "train.fig.align")
    assert len(align["data"]) == 4  # one line per cross-attention head
    for step in (0, 3, 6):
        at.select_slider(key="train.snapshot").set_value(step)
        rerun(at)
        heads = grid_heads(figure(at, "train.fig.snapshot"))
        assert len(heads) == 4
        for h, z in enumerate(heads):
            np.testing.assert_array_equal(z, ref.snapshots[step].cross[0][h])
        caption = f"Step {step} of 6 trained · loss on the probe {ref.snapshots[step].loss:.4f}"
        assert caption in page_text(at)
        # the curves are the whole run's, the same at every snapshot: not drawn again
        assert figure(at, "train.fig.curves") == curves
        assert figure(at, "train.fig.align") == align


def test_every_kind_of_attention_per_layer():
    at = _train(**TINY, **{"train.layers": 2, "train.heads": 2})
    ref = _reference(steps=6, n_layers=2, n_heads=2)
    assert [int(o) for o in at.selectbox(key="train.layer").options] == [0, 1]
    at.radio(key="train.kind").set_value("decoder_self")
    at.selectbox(key="train.layer").set_value(1)
    rerun(at)
    heads = grid_heads(figure(at, "train.fig.snapshot"))
    for h, z in enumerate(heads):
        np.testing.assert_array_equal(z, ref.snapshots[6].decoder_self[1][h])
        assert np.triu(z, 1).max() == 0.0  # the causal mask: exactly 0 above the diagonal
    fig = figure(at, "train.fig.snapshot")
    assert grid_tokens(fig, "y") == ["&lt;bos&gt;", *"hgfedcba"]
    assert EN["train.hint.decoder_self"] in page_text(at)
    at.radio(key="train.kind").set_value("encoder_self")
    rerun(at)
    heads = grid_heads(figure(at, "train.fig.snapshot"))
    np.testing.assert_array_equal(heads[0], ref.snapshots[6].encoder_self[1][0])
    assert grid_tokens(figure(at, "train.fig.snapshot"))[-1] == "&lt;eos&gt;"


def test_a_new_run_replaces_the_old_one():
    at = _train(**TINY)
    at.select_slider(key="train.snapshot").set_value(2)
    rerun(at)
    at.number_input(key="train.steps").set_value(4)
    at.button(key="train.start").click()
    rerun(at)
    assert _done_steps(at) == 4
    assert [int(s) for s in at.select_slider(key="train.snapshot").options][-1] == 4
    assert [int(s) for s in at.select_slider(key="train.snapshot").options] == list(range(5))
    assert at.session_state["train.snapshot"] == 4  # the new run's scrubber starts at its end


# --- stopping and resuming across reruns ----------------------------------------------------
def test_a_rerun_during_training_goes_on_with_the_same_run():
    """A click interrupts the script between two chunks; the next run trains on."""
    live = LiveRun.start(TrainChoice(steps=8, seed=3))
    live.chunk = 3
    live.advance()  # 3 of 8 steps done when the "click" came
    assert live.step == 3
    at = run_app(PAGE, **{train_sections.LIVE: live})
    ref = _reference(steps=8, seed=3)
    assert _done_steps(at) == 8 and not at.warning
    assert at.button(key="train.stop").disabled  # nothing is training any more
    curves = figure(at, "train.fig.curves")
    np.testing.assert_array_equal(
        plotly_array(curves["data"][0]["y"]), [r.loss for r in ref.history]
    )


def test_stop_ends_the_run_and_keeps_it():
    live = LiveRun.start(TrainChoice(steps=50))
    live.chunk = 3
    live.advance()
    at = run_app(PAGE, **{train_sections.LIVE: live, train_sections.STOP: True})
    assert _done_steps(at) == 4  # the step that saw the stop
    assert at.button(key="train.stop").disabled
    assert EN["train.stopped"].format(steps_done=4, steps=50) in [w.value for w in at.warning]
    steps = [int(s) for s in at.select_slider(key="train.snapshot").options]
    assert steps[-1] == 4  # the model as it was stopped can be scrubbed to
    curves = figure(at, "train.fig.curves")
    assert len(plotly_array(curves["data"][0]["x"])) == 4
    # the steps run (issue #42: after Stop the axis spanned all 50 planned steps, and the
    # snapshot's caption said "of 50" for steps never run)
    assert curves["layout"]["xaxis2"]["range"] == [0, 4]
    assert any(c.value.startswith("Step 4 of 4 trained") for c in at.caption)


# --- the try-it box -----------------------------------------------------------------------------
def _done_steps(at) -> int:
    """The steps the finished run reports on the page ("Trained 6 steps in ...")."""
    prefix, _ = EN["train.done"].split("{steps_done}", 1)
    done = [m.value for m in at.markdown if m.value.startswith(prefix)]
    assert len(done) == 1, page_text(at)
    return int(done[0][len(prefix) :].split()[0])


def _with_run(fin, text=None, **state):
    if text is not None:
        state["train.try"] = text
    return run_app(PAGE, **{train_sections.RUN: fin}, **state)


def test_try_it_shows_the_models_answer_and_its_attention(small_run):
    at = _with_run(small_run)
    assert at.text_input(key="train.try").value == "cabbage"
    p = predict(small_run.run, "cabbage")
    answer = EN["train.try.answer"].format(
        input="c a b b a g e",
        output=" ".join(p.output) or EN["train.try.empty_output"],
        expected="e g a b b a c",
    )
    assert answer in page_text(at)
    verdict = [s.value for s in at.success] + [e.value for e in at.error]
    assert verdict == [EN["train.try.right"] if p.correct else EN["train.try.wrong"]]
    heads = grid_heads(figure(at, "train.fig.try"))
    for h, z in enumerate(heads):  # the page predicts on one torch thread: other sum order
        np.testing.assert_allclose(z, p.cross[0][h], rtol=1e-5, atol=1e-7)
    fig = figure(at, "train.fig.try")
    assert grid_tokens(fig) == [*"cabbage", "&lt;eos&gt;"]
    assert grid_tokens(fig, "y")[0] == "&lt;bos&gt;"


def test_try_it_short_input_says_it_is_outside_training(small_run):
    at = _with_run(small_run, "ba")
    n = len(predict(small_run.run, "ba").input)
    assert n == 2
    assert EN["train.try.outside"].format(n=2, min_len=4, max_len=8) in page_text(at)


def test_try_it_one_symbol_is_singular(small_run):
    text = page_text(_with_run(small_run, "b"))
    assert EN["train.try.outside_one"].format(min_len=4, max_len=8) in text
    assert "1 symbols" not in text


@pytest.mark.parametrize(
    ("text", "kind", "shown"),
    [
        ("", "empty", None),
        ("   ", "empty", None),
        ("caxz!", "unknown", "x z !"),
        ("ABC", "unknown", "A B C"),
        ("abcdefgha", "length", None),
    ],
)
def test_try_it_invalid_input_gets_a_message_and_keeps_the_text(small_run, text, kind, shown):
    at = _with_run(small_run, text)
    assert at.text_input(key="train.try").value == text
    assert not at.get("plotly_chart") or "train.fig.try" not in [
        c.key for c in at.get("plotly_chart")
    ]
    alphabet = "a b c d e f g h"
    if kind == "empty":
        assert EN["train.try.empty"].format(alphabet=alphabet) in [i.value for i in at.info]
    elif kind == "unknown":
        assert [e.value for e in at.error] == [EN["train.try.unknown"].format(alphabet=alphabet)]
        assert shown in [c.value for c in at.code]
    else:
        assert [e.value for e in at.error] == [EN["train.try.length"].format(max_len=8, n=9)]


def test_hostile_text_in_the_try_box_stays_literal(small_run):
    at = _with_run(small_run, HOSTILE)
    assert at.text_input(key="train.try").value == HOSTILE
    code = [c.value for c in at.code]
    task = TASKS["reverse"]
    problem = read_symbols(HOSTILE, task.alphabet, task.max_len)
    assert isinstance(problem, InputProblem) and problem.kind == "unknown"
    assert " ".join(problem.unknown) in code  # every odd symbol, literally, once
    assert "<" in problem.unknown and "*" in problem.unknown and "$" in problem.unknown
    for md in at.markdown:
        assert "<b>" not in md.value and "<img" not in md.value
    json_figs = json.dumps([c.proto.spec for c in at.get("plotly_chart")])
    assert "<img" not in json_figs


# --- downloads and language ---------------------------------------------------------------------
def test_downloads_hold_the_weights_and_the_history(small_run):
    run = small_run.run
    tensors = safetensors.torch.load(weights_bytes(run))
    state = run.model.state_dict()
    assert tensors.keys() == state.keys()
    for name, value in state.items():
        assert (tensors[name] == value).all(), name
    history = pd.read_csv(io.BytesIO(compute.history_csv(run)))
    assert list(history.columns) == ["step", "loss", "token_acc", "exact_acc", "lr", "elapsed_s"]
    assert history["step"].tolist() == list(range(1, 41))
    assert history["loss"].tolist() == [r.loss for r in run.history]
    at = _with_run(small_run)
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == [EN["train.download_weights"], EN["train.download_history"]]


def test_chinese(small_run):
    at = run_app(PAGE, **{"shared.lang": "zh", train_sections.RUN: small_run})
    assert at.title[0].value == ZH["train.title"]
    assert at.button(key="train.start").label == ZH["train.start"]
    assert ZH["train.snap.title"] in [h.value for h in at.header]
    assert figure(at, "train.fig.curves")["data"][0]["name"] == ZH["train.axis.loss"]


# --- what the page reads off a run ----------------------------------------------------------------
def test_the_default_run_is_train_toys_and_snapshots_stay_bounded():
    core = _core_defaults()
    choice = TrainChoice()
    assert (choice.task, choice.d_model, choice.n_heads, choice.n_layers) == (
        core["task"],
        core["d_model"],
        core["n_heads"],
        core["n_layers"],
    )
    assert (choice.steps, choice.lr, choice.seed) == (core["steps"], core["lr"], core["seed"])
    assert choice.snapshot_every == core["snapshot_every"]
    for steps in range(1, compute.MAX_STEPS + 1):
        every = TrainChoice(steps=steps).snapshot_every
        assert every >= 1
        assert min(steps, compute.MIN_SNAPSHOTS) <= steps // every <= compute.MAX_SNAPSHOTS


def test_hostile_shared_url_parameters_are_named_on_this_page_too():
    query = {"d_model": "-1", "n_heads": "<script>", "seed": "1e99", "dim": "<b>64</b>"}
    at = run_app(PAGE, query=query)
    notice = "\n".join(w.value for w in at.warning)
    for name in query:
        assert name in notice, f"{name} was rejected silently"
    assert "<script>" not in notice and "<b>" not in notice
    assert at.session_state["train.dim"] == 64
