"""The Positional encoding page through AppTest: every control moved, the figures and the
stated numbers compared with the core computed independently here."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import torch

from mha_core import AttentionConfig, build_attention, run_attention, word_tokenize
from mha_core.layer import positional
from mha_core.layer.embed import token_embedding
from mha_core.lessons import permutation as pm
from tests.helpers.app import figure, figures_by_key, page_text, plotly_array, rerun, run_app
from ui.numbers import num

PE = "views/positional.py"
TOKENS = ["I", "want", "to", "live", "in", "Europe", "."]


# --- Positional encoding ------------------------------------------------------------------------
PE_CHARTS = {  # by tab: only the open one is drawn
    "encoding": [
        "positional.curves_fig",
        "positional.heatmap_fig",
        "positional.wavelength_fig",
        "positional.similarity_fig",
        "positional.offset_fig",
        "positional.layouts_fig",
    ],
    "sentence": [
        "positional.perm_fig",
        *(f"positional.shuffle_fig_{pe}_{c}" for pe in (0, 1) for c in range(3)),
    ],
    "rope": ["positional.rope_fig"],
    "alibi": ["positional.alibi_bias_fig", "positional.alibi_fig"],
}
SENTENCE, ROPE, ALIBI = ({"positional.view": v} for v in ("sentence", "rope", "alibi"))


@pytest.mark.parametrize("view", list(PE_CHARTS))
def test_pe_each_tab_draws_its_charts_only(view):
    at = run_app(PE, **{"positional.view": view})
    assert list(figures_by_key(at)) == PE_CHARTS[view]
    assert at.query_params["view"] == view
    at.session_state["positional.view"] = "encoding"  # another tab: its charts instead
    rerun(at)
    assert list(figures_by_key(at)) == PE_CHARTS["encoding"]


def test_pe_default_page_shows_every_part():
    at = run_app(PE)
    assert list(figures_by_key(at)) == PE_CHARTS["encoding"]
    assert at.latex  # the formula
    text = page_text(at)
    table = positional.positional_table(64, 64)
    assert f"the smallest is {table.value_min:.6f}, the largest {table.value_max:.6f}" in text
    assert f"at most {num(table.offset_spread)}" in text
    # the longest wavelength is the last pair's 2 pi 10000^((d - 2)/d), not 2 pi 10000
    longest = 2 * np.pi * 10000 ** (62 / 64)
    assert f"{num(longest, 3)} positions for d_model = 64" in text and "47,117" in text
    # ||PE|| against ||E||, measured: the embeddings are standardised, ||E|| = sqrt(d)
    pe_norm = np.linalg.norm(table.pe, axis=1).mean()
    e_norm = float(torch.linalg.vector_norm(token_embedding("the", 64)))
    assert pe_norm == pytest.approx(np.sqrt(32)) and e_norm == pytest.approx(8.0)
    assert f"‖PE‖ = {num(pe_norm, 3)}" in text and f"‖E‖ = {num(e_norm, 3)}" in text
    assert "‖PE‖ ≈ 0.71 ‖E‖" in text
    text = page_text(run_app(PE, **SENTENCE))
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
    at.slider(key="positional.pe_d_model").set_value(16)
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
    assert "19,869 positions for d_model = 16" in page_text(at)  # 2 pi 10000^(14/16)
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
    at.slider(key="positional.pe_d_model").set_value(8)
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
    at = run_app(PE, **SENTENCE)
    at.number_input(key="positional.shuffle_seed").set_value(5)
    at.selectbox(key="positional.head").set_value(2)
    rerun(at)
    perm = pm.shuffle_permutation(len(TOKENS), 5)
    assert f"perm = [{', '.join(map(str, perm.tolist()))}]" in page_text(at)
    shuffled = [TOKENS[i] for i in perm]
    for with_pe in (False, True):
        figs = [figure(at, f"positional.shuffle_fig_{int(with_pe)}_{c}") for c in range(3)]
        cfg = AttentionConfig(positional=with_pe)
        a = run_attention(TOKENS, cfg).attention.weights[0, 2].numpy()
        b = run_attention(shuffled, cfg).attention.weights[0, 2].numpy()
        for fig, want in zip(figs, (a, b, a[perm][:, perm])):
            np.testing.assert_allclose(plotly_array(fig["data"][0]["z"]), want, atol=1e-7)
        # one colour scale for the three: 0 to the largest weight of any
        zmax = [f["data"][0]["zmax"] for f in figs]
        assert zmax == [pytest.approx(max(a.max(), b.max()))] * 3
        assert figs[0]["layout"]["xaxis"]["ticktext"] == TOKENS
        assert figs[1]["layout"]["xaxis"]["ticktext"] == shuffled
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
    at = run_app(PE, **SENTENCE, **{"shared.text": "the cat saw the dog"})
    tokens = ["the", "cat", "saw", "the", "dog"]
    perm = pm.shuffle_permutation(5, 0)
    off = pm.shuffle_attention(tokens, AttentionConfig(positional=False), perm)
    on = pm.shuffle_attention(tokens, AttentionConfig(positional=True), perm)
    text = page_text(at)
    assert f"over all 4 heads is {num(off.max_abs_diff)}" in text
    assert f"by up to {num(on.max_abs_diff)}" in text


def test_pe_causal_mask_is_explained_and_ignored():
    at = run_app(PE, **SENTENCE, **{"shared.mask": "causal"})
    text = page_text(at)
    assert "a causal mask is tied to positions" in text
    assert "Only permuted" in text


@pytest.mark.parametrize("text,message", [("", "Type a sentence"), ("hello", "at least two")])
def test_pe_too_short_sentences_give_a_message(text, message):
    at = run_app(PE, **SENTENCE, **{"shared.text": text})
    assert message in page_text(at)
    assert "positional.shuffle_fig_0_0" not in list(figures_by_key(at))
    assert at.session_state["shared.text"] == text
    at.session_state["positional.view"] = "encoding"  # the rest of the page still works
    rerun(at)
    assert "positional.heatmap_fig" in list(figures_by_key(at))


def test_pe_markup_tokens_are_literal():
    text = "<b>x</b> <img src=x onerror=alert(1)> plain"
    at = run_app(PE, **SENTENCE, **{"shared.text": text})
    tokens = word_tokenize(text).tokens
    escaped = [t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") for t in tokens]
    fig = figure(at, "positional.shuffle_fig_0_0")
    assert fig["layout"]["xaxis"]["ticktext"] == escaped
    assert "<b>" not in json.dumps(fig["layout"])


def test_pe_in_chinese():
    at = run_app(PE, **SENTENCE, **{"shared.lang": "zh"})
    assert at.title[0].value == "位置编码"
    assert "只是置换" in page_text(at)


# --- RoPE and ALiBi on the sentence ---------------------------------------------------------------
def _layer_qkv(tokens, **config):
    cfg = AttentionConfig(positional=False, **config)
    tr = run_attention(tokens, cfg, build_attention(cfg)).attention
    return tr.q.double(), tr.k.double(), tr.v


_SUPER = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
_NUMBER = re.compile(r"(\d[\d,]*\.?\d*) × 10([⁻⁰-⁹¹²³]+)|10([⁻⁰-⁹¹²³]+)|(\d[\d,]*\.?\d*)")


def _numbers(text: str, after: str) -> list[float]:
    """The numbers of the sentence of `text` that starts with `after`, read the way `num`
    writes them (12,345; 0.52; 8.9 × 10⁻⁸; 10⁻⁵)."""
    part = text[text.index(after) :].split("\n")[0]
    out = []
    for mantissa, power, bare_power, plain in _NUMBER.findall(part):
        if plain:
            out.append(float(plain.replace(",", "")))
        else:
            m = float(mantissa.replace(",", "")) if mantissa else 1.0
            out.append(m * 10.0 ** int((power or bare_power).translate(_SUPER)))
    return out


def test_rope_pair_on_the_unit_circle_and_the_shift_test():
    at = run_app(PE, **ROPE, **{"positional.rope_pair": 2, "positional.rope_shift": 37})
    pts = figure(at, "positional.rope_fig")["data"][1]
    w = 10000 ** (-4 / 16)  # pair 2 of d_k = 16
    angles = np.arange(7) * w
    np.testing.assert_allclose(plotly_array(pts["x"]), np.cos(angles), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(plotly_array(pts["y"]), np.sin(angles), rtol=1e-12, atol=1e-12)
    text = page_text(at)
    assert "Pair 2 (dimensions 2 and 10)" in text
    # an independent rotation in float64, written here: RoPE scores do not move with the shift
    q, k, _ = _layer_qkv(TOKENS)
    half = 8
    inv = 10000 ** (-np.arange(0, 16, 2) / 16)

    def rotate(x, pos):
        ang = torch.from_numpy(np.outer(pos, inv))  # (T, 8)
        c, s = torch.cos(ang), torch.sin(ang)
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat((x1 * c - x2 * s, x1 * s + x2 * c), dim=-1)

    pos = np.arange(7)
    s0 = rotate(q, pos) @ rotate(k, pos).transpose(-2, -1)
    s1 = rotate(q, pos + 37) @ rotate(k, pos + 37).transpose(-2, -1)
    assert float((s1 - s0).abs().max()) < 1e-10
    pe = torch.from_numpy(positional.positional_table(7 + 37, 16).pe)
    a0 = (q + pe[:7]) @ (k + pe[:7]).transpose(-2, -1)
    a1 = (q + pe[37:]) @ (k + pe[37:]).transpose(-2, -1)
    s, rope_change, scale, sin_change = _numbers(text, "On your sentence (7 tokens")[2:6]
    assert s == 37 and scale == pytest.approx(float(s0.abs().max()), rel=5e-3)
    assert rope_change < 1e-4 * scale  # float32 rounding on the page
    assert sin_change == pytest.approx(float((a1 - a0).abs().max()), rel=5e-3)
    assert sin_change > 100 * rope_change
    assert at.query_params["rope_pair"] == "2" and at.query_params["rope_shift"] == "37"


def test_rope_needs_an_even_head_size():
    at = run_app(PE, **ROPE, **{"shared.d_model": 12, "shared.n_heads": 4})
    assert "needs an even d_k" in page_text(at)
    assert "positional.rope_fig" not in figures_by_key(at)
    at.session_state["positional.view"] = "alibi"  # the rest of the page still works
    rerun(at)
    assert "positional.alibi_fig" in figures_by_key(at)


def test_alibi_slopes_bias_and_heads():
    at = run_app(PE, **ALIBI, **{"shared.n_heads": 8})
    text = page_text(at)
    slopes = [2.0 ** (-8 * h / 8) for h in range(1, 9)]  # 1/2, 1/4, ..., 1/256
    assert "0.5, 0.25, 0.125, 0.0625, 0.0312, 0.0156, 0.00781, 0.0039" in text
    assert "1,024 tokens" in text and "2,048 tokens" in text
    q, k, v = _layer_qkv(TOKENS, n_heads=8)
    i, j = np.arange(7)[:, None], np.arange(7)[None, :]
    bias = torch.from_numpy(-np.array(slopes)[:, None, None] * (i - j)).float()  # (8, 7, 7)
    causal = torch.from_numpy(j <= i)
    ref = torch.softmax(
        ((q.float() @ k.float().transpose(-2, -1)) / 8**0.5 + bias).masked_fill(
            ~causal, float("-inf")
        ),
        -1,
    )[0].numpy()
    grid = plotly_array(figure(at, "positional.alibi_fig")["data"][0]["z"]).astype(float)
    for h in range(8):  # every head's pattern appears in the one-trace grid
        block = ref[h]
        assert any(
            np.allclose(grid[r : r + 7, c : c + 7], block, rtol=1e-5, atol=1e-6)
            for r in range(0, grid.shape[0] - 6)
            for c in range(0, grid.shape[1] - 6)
        ), h


def test_pe_head_choices_of_closed_tabs_follow_the_sidebar_at_once():
    """The shuffle view's head and RoPE's pair stay valid for the sidebar's heads and d_k
    while their tabs are closed: the URL never holds a choice that changes when a tab opens."""
    state = {"positional.head": 3, "positional.rope_pair": 7, "shared.d_model": 16}
    at = run_app(PE, **state, **{"shared.n_heads": 2})  # d_k = 8: pairs 0..3
    assert (at.session_state["positional.head"], at.session_state["positional.rope_pair"]) == (
        0, 3,
    )
    assert (at.query_params["head"], at.query_params["rope_pair"]) == ("0", "3")
