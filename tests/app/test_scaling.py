"""The Scaling lab page through AppTest: every control moved, the figures and the stated
numbers compared with the core computed independently here."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from mha_core import AttentionConfig, run_attention
from mha_core.lessons import scaling as sc
from tests.helpers.app import figure, figures_by_key, page_text, plotly_array, rerun, run_app
from ui.numbers import num
from ui.strings import STRINGS

SCALING = "views/scaling.py"
TOKENS = ["I", "want", "to", "live", "in", "Europe", "."]


# --- Scaling lab ------------------------------------------------------------------------------
SCALING_CHARTS = {  # by tab: only the open one is drawn
    "spread": ["scaling.std_fig", "scaling.hist_fig"],
    "saturation": ["scaling.sat_fig"],
    "sentence": ["scaling.pair_fig", "scaling.temp_fig", "scaling.temp_curve_fig"],
}
SAT, SENTENCE = {"scaling.view": "saturation"}, {"scaling.view": "sentence"}


@pytest.mark.parametrize("view", list(SCALING_CHARTS))
def test_scaling_each_tab_draws_its_charts_only(view):
    at = run_app(SCALING, **{"scaling.view": view})
    assert list(figures_by_key(at)) == SCALING_CHARTS[view]
    assert at.query_params["view"] == view
    # the sampling controls only where samples are drawn (issue #42: they stayed live on the
    # sentence view and did nothing there)
    labels = [w.label for w in (*at.main.radio, *at.main.select_slider)]
    sampled = view != "sentence"
    assert (STRINGS["en"]["scaling.distribution"] in labels) is sampled
    assert (STRINGS["en"]["scaling.samples"] in labels) is sampled
    assert all(not label.rstrip().endswith("=") for label in labels)  # "... at d_k ="
    assert "‖J‖_F" not in str(figures_by_key(at))  # a literal underscore in a chart's text


def test_scaling_default_page_states_numbers_computed_from_the_core():
    at = run_app(SCALING)
    assert list(figures_by_key(at)) == SCALING_CHARTS["spread"]
    stats = sc.dot_product_stats(sc.D_K_GRID, 4000, 0, "normal")
    text = page_text(at)
    assert f"measured std of q·k is **{stats.std[-1]:.3f}** against √d_k = 32.000" in text
    assert f"between **{stats.scaled_std.min():.3f}** and **{stats.scaled_std.max():.3f}**" in text
    fig = figure(at, "scaling.std_fig")
    np.testing.assert_allclose(plotly_array(fig["data"][0]["y"]), stats.std)
    np.testing.assert_allclose(plotly_array(fig["data"][1]["y"]), np.sqrt(sc.D_K_GRID))
    curves = sc.saturation_curves(sc.D_K_GRID, 16, 250, 0, "normal")
    at = run_app(SCALING, **SAT)
    text = page_text(at)
    assert f"mean max weight **{curves.max_weight[0, -1]:.3f}**" in text
    # the ratio compares softmax-Jacobian norms (not parameter gradients)
    ratio = num(curves.jacobian[1, -1] / curves.jacobian[0, -1])
    assert f"‖J‖ ratio, scaled to unscaled: {ratio}×" in text
    sat = figure(at, "scaling.sat_fig")["data"]
    np.testing.assert_allclose(plotly_array(sat[0]["y"]), curves.max_weight[0])
    np.testing.assert_allclose(plotly_array(sat[4]["y"]), curves.entropy[1])


@pytest.mark.parametrize("distribution", sc.DISTRIBUTIONS)
def test_scaling_distribution_radio(distribution):
    at = run_app(SCALING)
    at.radio(key="scaling.distribution").set_value(distribution)
    rerun(at)
    stats = sc.dot_product_stats(sc.D_K_GRID, 4000, 0, distribution)
    np.testing.assert_allclose(
        plotly_array(figure(at, "scaling.std_fig")["data"][0]["y"]), stats.std
    )
    assert f"**{stats.std[-1]:.3f}**" in page_text(at)


def test_scaling_samples_and_histogram_d_k():
    at = run_app(SCALING)
    at.select_slider(key="scaling.samples").set_value(1000)
    at.select_slider(key="scaling.hist_d_k").set_value(256)
    rerun(at)
    stats = sc.dot_product_stats(sc.D_K_GRID, 1000, 0, "normal")
    s = stats.at(256)
    text = page_text(at)
    assert "With 1,000 samples per d_k" in text
    lo, hi = s.unscaled_range
    assert f"At d_k = 256 the sampled unscaled scores range from {lo:.2f} to {hi:.2f}" in text
    hist = figure(at, "scaling.hist_fig")["data"]
    np.testing.assert_allclose(plotly_array(hist[0]["x"]), s.unscaled)
    np.testing.assert_allclose(plotly_array(hist[1]["x"]), s.scaled)


def test_scaling_keys_per_query_slider():
    at = run_app(SCALING, **SAT)
    at.slider(key="scaling.n_keys").set_value(4)
    rerun(at)
    curves = sc.saturation_curves(sc.D_K_GRID, 4, 1000, 0, "normal")
    text = page_text(at)
    assert "Measured with T = 4 keys, 1000 queries per d_k" in text
    assert f"entropy **{curves.entropy[0, -1]:.3f}** nats" in text
    assert f"max weight {0.25:.4f}, entropy {math.log(4):.3f} nats" in text


def test_scaling_sidebar_seed_changes_the_draws():
    at = run_app(SCALING, **{"shared.seed": 7})
    stats = sc.dot_product_stats(sc.D_K_GRID, 4000, 7, "normal")
    np.testing.assert_allclose(
        plotly_array(figure(at, "scaling.std_fig")["data"][0]["y"]), stats.std
    )
    assert "sidebar (7)" in page_text(at)


def _sentence_weights(tokens, head, **kw):
    scaled = run_attention(tokens, AttentionConfig(scale=True, **kw)).attention
    unscaled = run_attention(tokens, AttentionConfig(scale=False, **kw)).attention
    return scaled.weights[0, head].numpy(), unscaled.weights[0, head].numpy(), unscaled


def test_scaling_head_picker_shows_that_heads_weights():
    at = run_app(SCALING, **SENTENCE)
    at.selectbox(key="scaling.head").set_value(3)
    rerun(at)
    scaled, unscaled, _ = _sentence_weights(TOKENS, 3)
    left, right = figure(at, "scaling.pair_fig")["data"]
    np.testing.assert_allclose(plotly_array(left["z"]), scaled, atol=1e-7)
    np.testing.assert_allclose(plotly_array(right["z"]), unscaled, atol=1e-7)
    assert left["coloraxis"] == right["coloraxis"]


def test_scaling_temperature_slider_and_sqrt_toggle():
    at = run_app(SCALING, **SENTENCE)
    at.select_slider(key="scaling.tau").set_value(2.0)
    rerun(at)
    _, _, unscaled = _sentence_weights(TOKENS, 0)
    raw = unscaled.scores[0].double()  # (nh, T, T) Q K^T
    z = plotly_array(figure(at, "scaling.temp_fig")["data"][0]["z"])
    np.testing.assert_allclose(z, (raw[0] / 2.0).softmax(-1).numpy(), atol=1e-6)
    tempered = run_attention(TOKENS, AttentionConfig(scale=False, temperature=2.0)).attention
    scaled = run_attention(TOKENS, AttentionConfig(scale=True)).attention
    diff = float((tempered.weights - scaled.weights).abs().max())
    assert diff > 1e-2  # tau = 2 is not sqrt(d_k) = 4
    text = page_text(at)
    assert f"**{num(diff)}**" in text and "At τ = 2:" in text
    at.toggle(key="scaling.tau_sqrt").set_value(True)
    rerun(at)
    shown = [s for s in at.select_slider if s.disabled]  # the temperature used, not a control
    assert len(shown) == 1 and shown[0].value == 4.0
    assert "At τ = 4:" in page_text(at)
    assert "**0**" in page_text(at)
    z = plotly_array(figure(at, "scaling.temp_fig")["data"][0]["z"])
    np.testing.assert_allclose(z, plotly_array(figure(at, "scaling.pair_fig")["data"][0]["z"]))


def test_scaling_uses_the_sidebar_model_and_mask():
    state = {"shared.d_model": 96, "shared.n_heads": 6, "shared.mask": "causal"}
    at = run_app(SCALING, **SENTENCE, **state)
    scaled, unscaled, _ = _sentence_weights(TOKENS, 0, d_model=96, n_heads=6, mask="causal")
    left, right = figure(at, "scaling.pair_fig")["data"]
    np.testing.assert_allclose(plotly_array(right["z"]), unscaled, atol=1e-7)
    assert np.triu(plotly_array(left["z"]), 1).max() == 0.0
    assert "d_k = 16" in page_text(at)
    assert len(at.selectbox(key="scaling.head").options) == 6


def test_scaling_additive_sidebar_falls_back_to_dot_product():
    at = run_app(SCALING, **SENTENCE, **{"shared.scoring": "additive"})
    assert "additive scores" in page_text(at)
    scaled, _, _ = _sentence_weights(TOKENS, 0)
    np.testing.assert_allclose(
        plotly_array(figure(at, "scaling.pair_fig")["data"][0]["z"]), scaled, atol=1e-7
    )


def test_scaling_head_resets_when_the_sidebar_has_fewer_heads():
    at = run_app(SCALING, **{"scaling.head": 3, "shared.n_heads": 1})
    assert at.session_state["scaling.head"] == 0


def test_scaling_empty_sentence_keeps_the_random_vector_parts():
    at = run_app(SCALING, **SENTENCE, **{"shared.text": "   "})
    assert list(figures_by_key(at)) == []
    assert "Type a sentence" in page_text(at)
    for view in ("spread", "saturation"):
        at.session_state["scaling.view"] = view
        rerun(at)
        assert list(figures_by_key(at)) == SCALING_CHARTS[view]


def test_scaling_single_token_has_no_nan():
    at = run_app(SCALING, **SENTENCE, **{"shared.text": "hello"})
    assert not re.search(r"\bnan\b", page_text(at).lower())
    z = plotly_array(figure(at, "scaling.pair_fig")["data"][0]["z"])
    assert z.shape == (1, 1) and z[0, 0] == 1.0


def test_scaling_in_chinese():
    at = run_app(SCALING, **{"shared.lang": "zh"})
    assert at.title[0].value == "缩放实验:为什么除以 √d_k?"
    assert "实测标准差" in page_text(at)


def test_scaling_extreme_settings_stay_finite():
    """d_k = 512 unscaled at the lowest temperature: saturated but never NaN or inf."""
    state = {"shared.d_model": 512, "shared.n_heads": 1, "scaling.tau": 0.25}
    at = run_app(SCALING, **SENTENCE, **state)
    assert not re.search(r"\b(nan|inf)\b", page_text(at).lower())
    for key in ("scaling.pair_fig", "scaling.temp_fig"):
        for trace in figure(at, key)["data"]:
            z = plotly_array(trace["z"]).astype(np.float64)
            assert np.isfinite(z).all()
            np.testing.assert_allclose(z.sum(axis=1), 1.0, atol=1e-5)
    curve = figure(at, "scaling.temp_curve_fig")["data"]
    assert all(np.isfinite(plotly_array(d["y"]).astype(float)).all() for d in curve)
