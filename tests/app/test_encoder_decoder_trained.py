"""The Encoder-decoder page on the model trained on the Train page: offered once this session
has one, in the URL (`weights=`), its attentions equal to the core's prediction on the probe."""

from __future__ import annotations

import numpy as np

from mha_core.transformer.prediction import predict
from tests.helpers.app import figure, make_app, page_text, rerun, run_app
from tests.helpers.grid import grid_heads
from ui.sections.encoder_decoder_trained import K_MODEL
from ui.strings import STRINGS

PAGE = "views/encoder_decoder.py"
EN, ZH = STRINGS["en"], STRINGS["zh"]


def test_without_a_trained_model_no_choice_and_a_link_says_so():
    at = run_app(PAGE)
    assert not [r for r in at.radio if K_MODEL in (r.key or "")]
    at = run_app(PAGE, {"weights": "trained"})
    assert any(EN["encoder_decoder.trained_none"] in i.value for i in at.info)
    assert "encoder_decoder.fig.encoder_self" in {c.key for c in at.get("plotly_chart")}


def test_the_trained_model_is_offered_and_drawn(small_run):
    at = make_app(PAGE, None, **{"train._run": small_run}).run()
    assert not at.exception, at.exception
    radio = at.radio(key=K_MODEL)
    assert list(radio.options) == [
        EN["encoder_decoder.weights.seeded"],
        EN["encoder_decoder.weights.trained"],
    ]
    radio.set_value("trained")
    at = rerun(at)
    pred = predict(small_run.run, small_run.run.task.probe)
    enc = grid_heads(figure(at, "encoder_decoder.fig.encoder_self"))
    np.testing.assert_allclose(enc, pred.encoder_self[0], atol=1e-6)
    assert "the right answer" in page_text(at)
    assert at.query_params["weights"] in ("trained", ["trained"])
    at.session_state["encoder_decoder.view"] = "cross"
    at = rerun(at)
    cross = grid_heads(figure(at, "encoder_decoder.fig.cross"))
    np.testing.assert_allclose(cross, pred.cross[0], atol=1e-6)


def test_chinese_and_strings(small_run):
    at = make_app(PAGE, {"weights": "trained"}, **{"train._run": small_run, "shared.lang": "zh"})
    at = at.run()
    assert not at.exception, at.exception
    assert ZH["encoder_decoder.trained_note"] in page_text(at)
    keys = {k for k in EN if k.startswith("encoder_decoder.")}
    assert keys == {k for k in ZH if k.startswith("encoder_decoder.")}
