"""The home page's weights: random (the sidebar's model) or a layer of the trained MiniLM,
re-headed by the heads slider. The switch, the URL, the disabled sidebar controls, and the
numbers against the core called here."""

from __future__ import annotations

import numpy as np
import pytest

from mha_core.pretrained import load_pretrained
from mha_core.pretrained.reheading import rehead
from tests.helpers.app import figure, make_app, page_text, rerun, run_app
from tests.helpers.grid import grid_heads
from ui import weights
from ui.strings import STRINGS

EN, ZH = STRINGS["en"], STRINGS["zh"]
TEXT = "I want to live in Europe."


@pytest.fixture(scope="module")
def minilm():
    try:
        return load_pretrained()
    except FileNotFoundError:
        pytest.skip("MiniLM's weights are not installed")


def _expected(model, text: str, layer: int, h: int) -> tuple[list[str], np.ndarray]:
    tr = model.trace(text, keep_layers=False)
    return list(tr.tokens), rehead(model, tr, layer, h).weights[0].numpy()


def _heads(at) -> np.ndarray:
    return grid_heads(figure(at, "attention.heads_fig"))


def _sidebar_disabled(at) -> dict[str, bool]:
    """Which sidebar controls are drawn disabled, by control key."""
    out = {}
    for kind in ("select_slider", "number_input", "toggle", "radio"):
        for w in getattr(at.sidebar, kind):
            key = (w.key or "").removeprefix("_w.").split(".")
            name = ".".join(key[:2]) if key and key[0] else w.label
            out[name] = bool(w.disabled)
    return out


def _weights_radio(at):
    return at.radio(key=weights.K_WEIGHTS)


def test_opens_on_random_weights_with_the_switch_and_the_layer_noted():
    at = run_app()
    assert at.session_state[weights.K_WEIGHTS] == "random"
    radio = _weights_radio(at)
    assert list(radio.options) == [EN[f"attention.weights.{w}"] for w in weights.WEIGHTS]
    assert not [s for s in at.selectbox if s.key and weights.K_LAYER in s.key]  # only noted
    text = page_text(at)
    assert EN["attention.switch.random"] in text and EN["attention.layer_random"] in text
    assert not any(_sidebar_disabled(at).get(k) for k in ("shared.seed", "shared.d_model"))
    assert at.query_params["weights"] in ("random", ["random"])


def test_one_click_gives_minilm_trained_heads_and_the_heads_slider_reheads(minilm):
    at = run_app()
    _weights_radio(at).set_value("minilm")
    at = rerun(at)
    assert at.session_state[weights.K_WEIGHTS] == "minilm"
    tokens, w = _expected(minilm, TEXT, 0, 12)
    heads = _heads(at)
    assert heads.shape == w.shape  # 12 trained heads on MiniLM's WordPiece tokens
    np.testing.assert_allclose(heads, w, atol=1e-6)
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"
    assert not at.selectbox(key=weights.K_LAYER).disabled
    assert EN["attention.switch.minilm"].format(layer=0, h=12, d_k=32) in page_text(at)
    # the sidebar: d_model shown at 384 and disabled, the rest disabled with a note
    side = " ".join(c.value for c in at.sidebar.caption)
    assert EN["attention.side_minilm"].format(d_model=384) in side
    assert EN["attention.side_minilm_unused"] in side
    sliders = {w.label: w for w in at.sidebar.select_slider}
    d_model = sliders[EN["side.d_model"]]
    assert d_model.disabled and int(d_model.value) == 384
    heads_slider = sliders[EN["side.n_heads"]]
    assert not heads_slider.disabled
    assert [int(o) for o in heads_slider.options] == list(weights.MINILM_HEAD_COUNTS)
    assert int(heads_slider.value) == 12
    assert at.sidebar.number_input[0].disabled
    model = ("shared.positional", "shared.scale")
    model_toggles = [tg for tg in at.sidebar.toggle if any(k in (tg.key or "") for k in model)]
    assert len(model_toggles) == 2 and all(tg.disabled for tg in model_toggles)
    # the heads slider still answers: 4 heads of 96 dimensions over the same projections
    heads_slider.set_value(4)
    at = rerun(at)
    _, w4 = _expected(minilm, TEXT, 0, 4)
    np.testing.assert_allclose(_heads(at), w4, atol=1e-6)
    assert at.session_state[weights.K_HEADS] == 4
    text = page_text(at)
    assert EN["attention.switch.minilm"].format(layer=0, h=4, d_k=96) in text
    assert "Re-headed" in text
    # the random model's sidebar heads are untouched
    assert at.session_state["shared.n_heads"] == 4 and at.session_state["shared.d_model"] == 64


def test_the_url_holds_the_weights_layer_and_heads(minilm):
    at = run_app(None, {"weights": "minilm", "layer": "2", "minilm_heads": "6"})
    assert at.session_state[weights.K_WEIGHTS] == "minilm"
    assert at.session_state[weights.K_LAYER] == 2 and at.session_state[weights.K_HEADS] == 6
    _, w = _expected(minilm, TEXT, 2, 6)
    np.testing.assert_allclose(_heads(at), w, atol=1e-6)
    # the sidebar was drawn for MiniLM too (the page reran once after reading the link)
    sliders = {w.label: w for w in at.sidebar.select_slider}
    assert sliders[EN["side.d_model"]].disabled and int(sliders[EN["side.n_heads"]].value) == 6
    qp = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert qp["weights"] == "minilm" and qp["layer"] == "2" and qp["minilm_heads"] == "6"


def test_bad_url_values_are_named_and_keep_their_defaults():
    at = run_app(None, {"weights": "gpt5", "layer": "30", "minilm_heads": "5"})
    assert at.session_state[weights.K_WEIGHTS] == "random"
    assert at.session_state[weights.K_LAYER] == 0 and at.session_state[weights.K_HEADS] == 12
    warned = " ".join(w.value for w in at.warning)
    assert "weights" in warned and "layer" in warned and "minilm_heads" in warned


def test_back_to_random_restores_the_sidebar_model(minilm):
    at = run_app(None, {"weights": "minilm"}, **{"shared.d_model": 32, "shared.n_heads": 2})
    _weights_radio(at).set_value("random")
    at = rerun(at)
    assert _heads(at).shape[0] == 2
    sliders = {w.label: w for w in at.sidebar.select_slider}
    assert not sliders[EN["side.d_model"]].disabled and int(sliders[EN["side.d_model"]].value) == 32
    assert not [s for s in at.selectbox if s.key and weights.K_LAYER in s.key]  # only noted


def test_minilm_statistics_similarity_and_chinese(minilm):
    at = run_app(None, {"weights": "minilm", "layer": "1"}, **{"attention.view": "stats"})
    assert at.dataframe and len(at.dataframe[0].value) == 12
    at = make_app(None, {"weights": "minilm"}, **{"shared.lang": "zh"}).run()
    assert not at.exception, at.exception
    text = page_text(at)
    assert ZH["attention.switch.minilm"].format(layer=0, h=12, d_k=32) in text
    side = " ".join(c.value for c in at.sidebar.caption)
    assert ZH["attention.side_minilm_unused"] in side


def test_an_empty_text_on_minilm_says_so():
    at = make_app(None, {"weights": "minilm"}, **{"shared.text": "   "}).run()
    assert not at.exception, at.exception
    assert any(EN["msg.empty"] in i.value for i in at.info)


def test_smollm2_layer_with_its_nine_causal_heads():
    from mha_core import load_llm

    try:
        model = load_llm()
    except (FileNotFoundError, ValueError):
        pytest.skip("SmolLM2 is not installed")
    cfg = model.config
    assert (cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == (
        weights.LLM_D_MODEL,
        weights.LLM_LAYERS,
        weights.LLM_HEADS,
        weights.LLM_KV_HEADS,
    )
    at = run_app(None, {"weights": "llm", "layer": "3"})
    ids = model.tokenizer.encode(TEXT)
    w = model.trace(ids, layers=[3], rows=[0], residual=False).layers[3].attn.weights[0].numpy()
    heads = _heads(at)
    assert heads.shape == (9, len(ids), len(ids))
    np.testing.assert_allclose(heads, w, atol=1e-5)
    assert np.all(np.triu(heads, 1) == 0)  # causal: nothing above the diagonal
    text = page_text(at)
    assert EN["attention.switch.llm"].format(layer=3, h=9, kv=3) in text
    sliders = {s.label: s for s in at.sidebar.select_slider}
    assert sliders[EN["side.n_heads"]].disabled and int(sliders[EN["side.n_heads"]].value) == 9
    assert sliders[EN["side.d_model"]].disabled and int(sliders[EN["side.d_model"]].value) == 576
    side = " ".join(c.value for c in at.sidebar.caption)
    assert EN["attention.side_llm_unused"] in side


def test_strings_exist_in_both_languages():
    keys = {k for k in EN if k.startswith("attention.")}
    assert keys == {k for k in ZH if k.startswith("attention.")}
