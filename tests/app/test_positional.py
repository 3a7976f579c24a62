"""The Positional encoding page through AppTest: every control moved, the figures and the
stated numbers compared with the core computed independently here."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mha_core import AttentionConfig, run_attention, word_tokenize
from mha_core.layer import positional
from mha_core.lessons import permutation as pm
from tests.app.conftest import figure, figures_by_key, page_text, plotly_array, rerun, run_app
from ui.numbers import num

PE = "views/positional.py"
TOKENS = ["I", "want", "to", "live", "in", "Europe", "."]


# --- Positional encoding ------------------------------------------------------------------------
PE_CHARTS = [
    "positional.curves_fig",
    "positional.heatmap_fig",
    "positional.wavelength_fig",
    "positional.similarity_fig",
    "positional.offset_fig",
    "positional.layouts_fig",
    "positional.perm_fig",
    "positional.shuffle_fig_0",
    "positional.shuffle_fig_1",
]


def test_pe_default_page_shows_every_part():
    at = run_app(PE)
    assert list(figures_by_key(at)) == PE_CHARTS
    assert at.latex  # the formula
    text = page_text(at)
    table = positional.positional_table(64, 64)
    assert f"the smallest is {table.value_min:.6f}, the largest {table.value_max:.6f}" in text
    assert f"at most {num(table.offset_spread)}" in text
    assert "Only permuted" in text and "The pattern changed" in text
    heat = plotly_array(figure(at, "positional.heatmap_fig")["data"][0]["z"])
    np.testing.assert_allclose(heat, table.pe.astype(np.float32))
    curves = figure(at, "positional.curves_fig")["data"]
    assert len(curves) == 6  # default: a few low and high dimensions
    dims = at.session_state["positional.dims"]
    assert min(dims) == 0 and max(dims) == 63
    for trace, d in zip(curves, dims):
        np.testing.assert_allclose(plotly_array(trace["y"]), table.pe[:, d])


def test_pe_sliders_resize_every_table():
    at = run_app(PE)
    at.slider(key="positional.d_model").set_value(16)
    at.slider(key="positional.n_positions").set_value(30)
    rerun(at)
    table = positional.positional_table(30, 16)
    assert plotly_array(figure(at, "positional.heatmap_fig")["data"][0]["z"]).shape == (30, 16)
    assert plotly_array(figure(at, "positional.similarity_fig")["data"][0]["z"]).shape == (30, 30)
    wl = figure(at, "positional.wavelength_fig")["data"][0]
    np.testing.assert_allclose(plotly_array(wl["y"]), table.wavelengths, rtol=1e-6)
    left, right = figure(at, "positional.layouts_fig")["data"]
    np.testing.assert_allclose(plotly_array(right["z"]), table.concatenated.astype(np.float32))
    assert "permutation of the 16 dimensions" in page_text(at)
    assert "[0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13…]" in page_text(at)
    # the curves' dimensions were 0..63; the ones beyond 15 are gone, the rest kept
    assert all(d < 16 for d in at.session_state["positional.dims"])


def test_pe_dimension_picker_and_empty_choice():
    at = run_app(PE)
    at.multiselect(key="positional.dims").set_value([2, 5])
    rerun(at)
    curves = figure(at, "positional.curves_fig")["data"]
    table = positional.positional_table(64, 64)
    assert len(curves) == 2
    np.testing.assert_allclose(plotly_array(curves[1]["y"]), table.pe[:, 5])
    assert "dim 5 · cos" in curves[1]["name"]
    at.multiselect(key="positional.dims").set_value([])
    rerun(at)
    assert "positional.curves_fig" not in list(figures_by_key(at))
    assert "Choose at least one dimension" in page_text(at)


def test_pe_dims_out_of_range_after_d_model_shrinks_fall_back_to_defaults():
    at = run_app(PE, **{"positional.dims": [40, 41]})
    at.slider(key="positional.d_model").set_value(8)
    rerun(at)
    dims = at.session_state["positional.dims"]
    assert dims and all(d < 8 for d in dims) and 0 in dims and 7 in dims


def test_pe_anchor_slider_adds_its_profile():
    at = run_app(PE)
    at.slider(key="positional.anchor").set_value(10)
    rerun(at)
    data = figure(at, "positional.offset_fig")["data"]
    assert [d["name"] for d in data[1:]] == ["PE(0)·PE(0+k)", "PE(10)·PE(10+k)"]
    table = positional.positional_table(64, 64)
    np.testing.assert_allclose(plotly_array(data[2]["y"]), table.similarity[10])
    np.testing.assert_array_equal(plotly_array(data[2]["x"]), np.arange(64) - 10)


def test_pe_anchor_is_kept_and_clamped_when_positions_change():
    at = run_app(PE)
    at.slider(key="positional.anchor").set_value(60)
    rerun(at)
    at.slider(key="positional.n_positions").set_value(100)
    rerun(at)
    assert at.session_state["positional.anchor"] == 60  # kept while it fits
    at.slider(key="positional.n_positions").set_value(20)
    rerun(at)
    assert at.session_state["positional.anchor"] == 19  # clamped to the last position
    names = [d["name"] for d in figure(at, "positional.offset_fig")["data"][1:]]
    assert names == ["PE(0)·PE(0+k)", "PE(19)·PE(19+k)"]


def test_pe_shuffle_controls_and_head_picker():
    at = run_app(PE)
    at.number_input(key="positional.shuffle_seed").set_value(5)
    at.selectbox(key="positional.head").set_value(2)
    rerun(at)
    perm = pm.shuffle_permutation(len(TOKENS), 5)
    assert f"perm = [{', '.join(map(str, perm.tolist()))}]" in page_text(at)
    shuffled = [TOKENS[i] for i in perm]
    for with_pe, key in ((False, "positional.shuffle_fig_0"), (True, "positional.shuffle_fig_1")):
        fig = figure(at, key)
        cfg = AttentionConfig(positional=with_pe)
        a = run_attention(TOKENS, cfg).attention.weights[0, 2].numpy()
        b = run_attention(shuffled, cfg).attention.weights[0, 2].numpy()
        np.testing.assert_allclose(plotly_array(fig["data"][0]["z"]), a, atol=1e-7)
        np.testing.assert_allclose(plotly_array(fig["data"][1]["z"]), b, atol=1e-7)
        np.testing.assert_allclose(plotly_array(fig["data"][2]["z"]), a[perm][:, perm], atol=1e-7)
        assert fig["layout"]["xaxis2"]["ticktext"] == shuffled
    p = plotly_array(figure(at, "positional.perm_fig")["data"][0]["z"])
    np.testing.assert_array_equal(p, pm.permutation_matrix(perm))
    at.button(key="positional.reshuffle").click()
    rerun(at)
    assert at.session_state["positional.shuffle_seed"] == 6
    perm6 = pm.shuffle_permutation(len(TOKENS), 6)
    assert f"perm = [{', '.join(map(str, perm6.tolist()))}]" in page_text(at)


def test_pe_head_resets_when_the_sidebar_has_fewer_heads():
    at = run_app(PE, **{"positional.head": 3, "shared.n_heads": 2})
    assert at.session_state["positional.head"] == 0


def test_pe_verdicts_are_computed():
    at = run_app(PE, **{"shared.text": "the cat saw the dog"})
    tokens = ["the", "cat", "saw", "the", "dog"]
    perm = pm.shuffle_permutation(5, 0)
    off = pm.shuffle_attention(tokens, AttentionConfig(positional=False), perm)
    on = pm.shuffle_attention(tokens, AttentionConfig(positional=True), perm)
    text = page_text(at)
    assert f"over all 4 heads is {num(off.max_abs_diff)}" in text
    assert f"by up to {num(on.max_abs_diff)}" in text


def test_pe_causal_mask_is_explained_and_ignored():
    at = run_app(PE, **{"shared.mask": "causal"})
    text = page_text(at)
    assert "a causal mask is tied to positions" in text
    assert "Only permuted" in text


@pytest.mark.parametrize("text,message", [("", "Type a sentence"), ("hello", "at least two")])
def test_pe_too_short_sentences_give_a_message(text, message):
    at = run_app(PE, **{"shared.text": text})
    assert message in page_text(at)
    assert "positional.shuffle_fig_0" not in list(figures_by_key(at))
    assert "positional.heatmap_fig" in list(figures_by_key(at))  # the rest of the page still works
    assert at.session_state["shared.text"] == text


def test_pe_markup_tokens_are_literal():
    text = "<b>x</b> <img src=x onerror=alert(1)> plain"
    at = run_app(PE, **{"shared.text": text})
    tokens = word_tokenize(text).tokens
    escaped = [t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") for t in tokens]
    fig = figure(at, "positional.shuffle_fig_0")
    assert fig["layout"]["xaxis"]["ticktext"] == escaped
    assert "<b>" not in json.dumps(fig["layout"])


def test_pe_in_chinese():
    at = run_app(PE, **{"shared.lang": "zh"})
    assert at.title[0].value == "位置编码"
    assert "只是置换" in page_text(at)
