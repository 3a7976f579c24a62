"""The Positional encoding and Scaling lab pages through AppTest: every control moved, the
figures and the stated numbers compared with the core computed independently here."""

from __future__ import annotations

import base64
import json
import math
import re

import numpy as np
import pytest

from mha_core import AttentionConfig, positional, run_attention, word_tokenize
from mha_core import permutation as pm
from mha_core import scaling as sc
from tests.app.conftest import make_app

PE = "views/positional_encoding.py"
SCALING = "views/scaling.py"
TOKENS = ["I", "want", "to", "live", "in", "Europe", "."]


def _run(page: str, **state):
    at = make_app(page, **state).run()
    assert not at.exception, at.exception
    return at


def _again(at):
    at.run()
    assert not at.exception, at.exception
    return at


def _fig(at, key: str) -> dict:
    for chart in at.get("plotly_chart"):
        if chart.proto.id.endswith("-" + key):
            return json.loads(chart.proto.spec)
    raise AssertionError(f"no chart {key}; have {[c.proto.id for c in at.get('plotly_chart')]}")


def _keys(at) -> list[str]:
    return [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]


def _arr(v) -> np.ndarray:
    if isinstance(v, dict) and "bdata" in v:
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        if "shape" in v:
            shape = v["shape"]
            a = a.reshape([int(x) for x in shape.split(",")] if isinstance(shape, str) else shape)
        return a
    return np.asarray(v)


def _text(at) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.warning]
    return "\n".join(e.value for e in parts)


# --- Positional encoding ------------------------------------------------------------------------
PE_CHARTS = [
    "pe.curves_fig",
    "pe.heatmap_fig",
    "pe.wavelength_fig",
    "pe.similarity_fig",
    "pe.offset_fig",
    "pe.layouts_fig",
    "pe.perm_fig",
    "pe.shuffle_fig_0",
    "pe.shuffle_fig_1",
]


def test_pe_default_page_shows_every_part():
    at = _run(PE)
    assert _keys(at) == PE_CHARTS
    assert at.latex  # the formula
    text = _text(at)
    table = positional.positional_table(64, 64)
    assert f"the smallest is {table.value_min:.6f}, the largest {table.value_max:.6f}" in text
    assert f"at most {table.offset_spread:.2e}" in text
    assert "Only permuted" in text and "The pattern changed" in text
    heat = _arr(_fig(at, "pe.heatmap_fig")["data"][0]["z"])
    np.testing.assert_allclose(heat, table.pe.astype(np.float32))
    curves = _fig(at, "pe.curves_fig")["data"]
    assert len(curves) == 6  # default: a few low and high dimensions
    dims = at.session_state["pe.dims"]
    assert min(dims) == 0 and max(dims) == 63
    for trace, d in zip(curves, dims):
        np.testing.assert_allclose(_arr(trace["y"]), table.pe[:, d])


def test_pe_sliders_resize_every_table():
    at = _run(PE)
    at.slider(key="pe.d_model").set_value(16)
    at.slider(key="pe.n_positions").set_value(30)
    _again(at)
    table = positional.positional_table(30, 16)
    assert _arr(_fig(at, "pe.heatmap_fig")["data"][0]["z"]).shape == (30, 16)
    assert _arr(_fig(at, "pe.similarity_fig")["data"][0]["z"]).shape == (30, 30)
    wl = _fig(at, "pe.wavelength_fig")["data"][0]
    np.testing.assert_allclose(_arr(wl["y"]), table.wavelengths, rtol=1e-6)
    left, right = _fig(at, "pe.layouts_fig")["data"]
    np.testing.assert_allclose(_arr(right["z"]), table.concatenated.astype(np.float32))
    assert "permutation of the 16 dimensions" in _text(at)
    assert "[0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13…]" in _text(at)
    # the curves' dimensions were 0..63; the ones beyond 15 are gone, the rest kept
    assert all(d < 16 for d in at.session_state["pe.dims"])


def test_pe_dimension_picker_and_empty_choice():
    at = _run(PE)
    at.multiselect(key="pe.dims").set_value([2, 5])
    _again(at)
    curves = _fig(at, "pe.curves_fig")["data"]
    table = positional.positional_table(64, 64)
    assert len(curves) == 2
    np.testing.assert_allclose(_arr(curves[1]["y"]), table.pe[:, 5])
    assert "dim 5 · cos" in curves[1]["name"]
    at.multiselect(key="pe.dims").set_value([])
    _again(at)
    assert "pe.curves_fig" not in _keys(at)
    assert "Choose at least one dimension" in _text(at)


def test_pe_dims_out_of_range_after_d_model_shrinks_fall_back_to_defaults():
    at = _run(PE, **{"pe.dims": [40, 41]})
    at.slider(key="pe.d_model").set_value(8)
    _again(at)
    dims = at.session_state["pe.dims"]
    assert dims and all(d < 8 for d in dims) and 0 in dims and 7 in dims


def test_pe_anchor_slider_adds_its_profile():
    at = _run(PE)
    at.slider(key="pe.anchor").set_value(10)
    _again(at)
    data = _fig(at, "pe.offset_fig")["data"]
    assert [d["name"] for d in data[1:]] == ["PE(0)·PE(0+k)", "PE(10)·PE(10+k)"]
    table = positional.positional_table(64, 64)
    np.testing.assert_allclose(_arr(data[2]["y"]), table.similarity[10])
    np.testing.assert_array_equal(_arr(data[2]["x"]), np.arange(64) - 10)


def test_pe_anchor_is_kept_and_clamped_when_positions_change():
    at = _run(PE)
    at.slider(key="pe.anchor").set_value(60)
    _again(at)
    at.slider(key="pe.n_positions").set_value(100)
    _again(at)
    assert at.session_state["pe.anchor"] == 60  # kept while it fits
    at.slider(key="pe.n_positions").set_value(20)
    _again(at)
    assert at.session_state["pe.anchor"] == 19  # clamped to the last position
    names = [d["name"] for d in _fig(at, "pe.offset_fig")["data"][1:]]
    assert names == ["PE(0)·PE(0+k)", "PE(19)·PE(19+k)"]


def test_pe_shuffle_controls_and_head_picker():
    at = _run(PE)
    at.number_input(key="pe.shuffle_seed").set_value(5)
    at.selectbox(key="pe.head").set_value(2)
    _again(at)
    perm = pm.shuffle_permutation(len(TOKENS), 5)
    assert f"perm = [{', '.join(map(str, perm.tolist()))}]" in _text(at)
    shuffled = [TOKENS[i] for i in perm]
    for with_pe, key in ((False, "pe.shuffle_fig_0"), (True, "pe.shuffle_fig_1")):
        fig = _fig(at, key)
        cfg = AttentionConfig(positional=with_pe)
        a = run_attention(TOKENS, cfg).trace.weights[0, 2].numpy()
        b = run_attention(shuffled, cfg).trace.weights[0, 2].numpy()
        np.testing.assert_allclose(_arr(fig["data"][0]["z"]), a, atol=1e-7)
        np.testing.assert_allclose(_arr(fig["data"][1]["z"]), b, atol=1e-7)
        np.testing.assert_allclose(_arr(fig["data"][2]["z"]), a[perm][:, perm], atol=1e-7)
        assert fig["layout"]["xaxis2"]["ticktext"] == shuffled
    p = _arr(_fig(at, "pe.perm_fig")["data"][0]["z"])
    np.testing.assert_array_equal(p, pm.permutation_matrix(perm))
    at.button(key="pe.reshuffle").click()
    _again(at)
    assert at.session_state["pe.shuffle_seed"] == 6
    perm6 = pm.shuffle_permutation(len(TOKENS), 6)
    assert f"perm = [{', '.join(map(str, perm6.tolist()))}]" in _text(at)


def test_pe_head_resets_when_the_sidebar_has_fewer_heads():
    at = _run(PE, **{"pe.head": 3, "shared.n_heads": 2})
    assert at.session_state["pe.head"] == 0


def test_pe_verdicts_are_computed():
    at = _run(PE, **{"shared.text": "the cat saw the dog"})
    tokens = ["the", "cat", "saw", "the", "dog"]
    perm = pm.shuffle_permutation(5, 0)
    off = pm.shuffle_attention(tokens, AttentionConfig(positional=False), perm)
    on = pm.shuffle_attention(tokens, AttentionConfig(positional=True), perm)
    text = _text(at)
    assert f"over all 4 heads is {off.max_abs_diff:.2e}" in text
    assert f"by up to {on.max_abs_diff:.4f}" in text


def test_pe_causal_mask_is_explained_and_ignored():
    at = _run(PE, **{"shared.mask": "causal"})
    text = _text(at)
    assert "a causal mask is tied to positions" in text
    assert "Only permuted" in text


@pytest.mark.parametrize("text,message", [("", "Type a sentence"), ("hello", "at least two")])
def test_pe_too_short_sentences_give_a_message(text, message):
    at = _run(PE, **{"shared.text": text})
    assert message in _text(at)
    assert "pe.shuffle_fig_0" not in _keys(at)
    assert "pe.heatmap_fig" in _keys(at)  # the rest of the page still works
    assert at.session_state["shared.text"] == text


def test_pe_markup_tokens_are_literal():
    text = "<b>x</b> <img src=x onerror=alert(1)> plain"
    at = _run(PE, **{"shared.text": text})
    tokens = word_tokenize(text).tokens
    escaped = [t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") for t in tokens]
    fig = _fig(at, "pe.shuffle_fig_0")
    assert fig["layout"]["xaxis"]["ticktext"] == escaped
    assert "<b>" not in json.dumps(fig["layout"])


def test_pe_in_chinese():
    at = _run(PE, **{"shared.lang": "zh"})
    assert at.title[0].value == "位置编码"
    assert "只是置换" in _text(at)


# --- Scaling lab ------------------------------------------------------------------------------
SCALING_CHARTS = [
    "scaling.std_fig",
    "scaling.hist_fig",
    "scaling.sat_fig",
    "scaling.pair_fig",
    "scaling.temp_fig",
    "scaling.temp_curve_fig",
]


def test_scaling_default_page_states_numbers_computed_from_the_core():
    at = _run(SCALING)
    assert _keys(at) == SCALING_CHARTS
    stats = sc.dot_product_stats(sc.D_K_GRID, 4000, 0, "normal")
    text = _text(at)
    assert f"measured std of q·k is **{stats.std[-1]:.3f}** against √d_k = 32.000" in text
    assert f"between **{stats.scaled_std.min():.3f}** and **{stats.scaled_std.max():.3f}**" in text
    fig = _fig(at, "scaling.std_fig")
    np.testing.assert_allclose(_arr(fig["data"][0]["y"]), stats.std)
    np.testing.assert_allclose(_arr(fig["data"][1]["y"]), np.sqrt(sc.D_K_GRID))
    curves = sc.saturation_curves(sc.D_K_GRID, 16, 250, 0, "normal")
    assert f"mean max weight **{curves.max_weight[0, -1]:.3f}**" in text
    sat = _fig(at, "scaling.sat_fig")["data"]
    np.testing.assert_allclose(_arr(sat[0]["y"]), curves.max_weight[0])
    np.testing.assert_allclose(_arr(sat[4]["y"]), curves.entropy[1])


@pytest.mark.parametrize("distribution", sc.DISTRIBUTIONS)
def test_scaling_distribution_radio(distribution):
    at = _run(SCALING)
    at.radio(key="scaling.distribution").set_value(distribution)
    _again(at)
    stats = sc.dot_product_stats(sc.D_K_GRID, 4000, 0, distribution)
    np.testing.assert_allclose(_arr(_fig(at, "scaling.std_fig")["data"][0]["y"]), stats.std)
    assert f"**{stats.std[-1]:.3f}**" in _text(at)


def test_scaling_samples_and_histogram_d_k():
    at = _run(SCALING)
    at.select_slider(key="scaling.samples").set_value(1000)
    at.select_slider(key="scaling.hist_d_k").set_value(256)
    _again(at)
    stats = sc.dot_product_stats(sc.D_K_GRID, 1000, 0, "normal")
    s = stats.at(256)
    text = _text(at)
    assert "With 1,000 samples per d_k" in text
    lo, hi = s.unscaled_range
    assert f"At d_k = 256 the sampled unscaled scores range from {lo:.2f} to {hi:.2f}" in text
    hist = _fig(at, "scaling.hist_fig")["data"]
    np.testing.assert_allclose(_arr(hist[0]["x"]), s.unscaled)
    np.testing.assert_allclose(_arr(hist[1]["x"]), s.scaled)


def test_scaling_keys_per_query_slider():
    at = _run(SCALING)
    at.slider(key="scaling.n_keys").set_value(4)
    _again(at)
    curves = sc.saturation_curves(sc.D_K_GRID, 4, 1000, 0, "normal")
    text = _text(at)
    assert "Measured with T = 4 keys, 1000 queries per d_k" in text
    assert f"entropy **{curves.entropy[0, -1]:.3f}** nats" in text
    assert f"max weight {0.25:.4f}, entropy {math.log(4):.3f} nats" in text


def test_scaling_sidebar_seed_changes_the_draws():
    at = _run(SCALING, **{"shared.seed": 7})
    stats = sc.dot_product_stats(sc.D_K_GRID, 4000, 7, "normal")
    np.testing.assert_allclose(_arr(_fig(at, "scaling.std_fig")["data"][0]["y"]), stats.std)
    assert "sidebar (7)" in _text(at)


def _sentence_weights(tokens, head, **kw):
    scaled = run_attention(tokens, AttentionConfig(scale=True, **kw)).trace
    unscaled = run_attention(tokens, AttentionConfig(scale=False, **kw)).trace
    return scaled.weights[0, head].numpy(), unscaled.weights[0, head].numpy(), unscaled


def test_scaling_head_picker_shows_that_heads_weights():
    at = _run(SCALING)
    at.selectbox(key="scaling.head").set_value(3)
    _again(at)
    scaled, unscaled, _ = _sentence_weights(TOKENS, 3)
    left, right = _fig(at, "scaling.pair_fig")["data"]
    np.testing.assert_allclose(_arr(left["z"]), scaled, atol=1e-7)
    np.testing.assert_allclose(_arr(right["z"]), unscaled, atol=1e-7)
    assert left["coloraxis"] == right["coloraxis"]


def test_scaling_temperature_slider_and_sqrt_toggle():
    at = _run(SCALING)
    at.select_slider(key="scaling.tau").set_value(2.0)
    _again(at)
    _, _, unscaled = _sentence_weights(TOKENS, 0)
    raw = unscaled.scores[0].double()  # (nh, T, T) Q K^T
    z = _arr(_fig(at, "scaling.temp_fig")["data"][0]["z"])
    np.testing.assert_allclose(z, (raw[0] / 2.0).softmax(-1).numpy(), atol=1e-6)
    tempered = run_attention(TOKENS, AttentionConfig(scale=False, temperature=2.0)).trace
    scaled = run_attention(TOKENS, AttentionConfig(scale=True)).trace
    diff = float((tempered.weights - scaled.weights).abs().max())
    assert diff > 1e-2  # tau = 2 is not sqrt(d_k) = 4
    text = _text(at)
    assert f"**{diff:.2e}**" in text and "At τ = 2:" in text
    at.toggle(key="scaling.tau_sqrt").set_value(True)
    _again(at)
    assert at.select_slider(key="scaling.tau").disabled
    assert "At τ = 4:" in _text(at)
    assert "**0.00e+00**" in _text(at)
    z = _arr(_fig(at, "scaling.temp_fig")["data"][0]["z"])
    np.testing.assert_allclose(z, _arr(_fig(at, "scaling.pair_fig")["data"][0]["z"]))


def test_scaling_uses_the_sidebar_model_and_mask():
    at = _run(SCALING, **{"shared.d_model": 96, "shared.n_heads": 6, "shared.mask": "causal"})
    scaled, unscaled, _ = _sentence_weights(TOKENS, 0, d_model=96, n_heads=6, mask="causal")
    left, right = _fig(at, "scaling.pair_fig")["data"]
    np.testing.assert_allclose(_arr(right["z"]), unscaled, atol=1e-7)
    assert np.triu(_arr(left["z"]), 1).max() == 0.0
    assert "d_k = 16" in _text(at)
    assert len(at.selectbox(key="scaling.head").options) == 6


def test_scaling_additive_sidebar_falls_back_to_dot_product():
    at = _run(SCALING, **{"shared.scoring": "additive"})
    assert "additive scores" in _text(at)
    scaled, _, _ = _sentence_weights(TOKENS, 0)
    np.testing.assert_allclose(
        _arr(_fig(at, "scaling.pair_fig")["data"][0]["z"]), scaled, atol=1e-7
    )


def test_scaling_head_resets_when_the_sidebar_has_fewer_heads():
    at = _run(SCALING, **{"scaling.head": 3, "shared.n_heads": 1})
    assert at.session_state["scaling.head"] == 0


def test_scaling_empty_sentence_keeps_the_random_vector_parts():
    at = _run(SCALING, **{"shared.text": "   "})
    assert _keys(at) == SCALING_CHARTS[:3]
    assert "Type a sentence" in _text(at)


def test_scaling_single_token_has_no_nan():
    at = _run(SCALING, **{"shared.text": "hello"})
    assert not re.search(r"\bnan\b", _text(at).lower())
    z = _arr(_fig(at, "scaling.pair_fig")["data"][0]["z"])
    assert z.shape == (1, 1) and z[0, 0] == 1.0


def test_scaling_in_chinese():
    at = _run(SCALING, **{"shared.lang": "zh"})
    assert at.title[0].value == "缩放实验:为什么除以 √d_k?"
    assert "实测标准差" in _text(at)


def test_scaling_extreme_settings_stay_finite():
    """d_k = 512 unscaled at the lowest temperature: saturated but never NaN or inf."""
    at = _run(SCALING, **{"shared.d_model": 512, "shared.n_heads": 1, "scaling.tau": 0.25})
    assert not re.search(r"\b(nan|inf)\b", _text(at).lower())
    for key in ("scaling.pair_fig", "scaling.temp_fig"):
        for trace in _fig(at, key)["data"]:
            z = _arr(trace["z"]).astype(np.float64)
            assert np.isfinite(z).all()
            np.testing.assert_allclose(z.sum(axis=1), 1.0, atol=1e-5)
    curve = _fig(at, "scaling.temp_curve_fig")["data"]
    assert all(np.isfinite(_arr(d["y"]).astype(float)).all() for d in curve)
