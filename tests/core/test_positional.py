"""Positional encoding explorer and the permutation property of self-attention.

References are independent: the PE table is rebuilt element by element with `math`, the
similarity's closed form is summed by hand, and the permutation property is checked both on
the app's path (float32) and on a float64 copy of the layer, where it holds to 1e-12.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_core import AttentionConfig, build_attention, embed_tokens
from mha_core.layer import positional
from mha_core.lessons import permutation as pm


def _pe_reference(n_positions: int, d_model: int) -> np.ndarray:
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(...), one element at a time."""
    pe = np.zeros((n_positions, d_model))
    for pos in range(n_positions):
        for dim in range(d_model):
            two_i = dim - dim % 2
            angle = pos / 10000 ** (two_i / d_model)
            pe[pos, dim] = math.sin(angle) if dim % 2 == 0 else math.cos(angle)
    return pe


# --- the table --------------------------------------------------------------------------------
@pytest.mark.parametrize("n_positions,d_model", [(1, 2), (7, 4), (50, 64), (33, 10), (20, 5)])
def test_table_matches_the_closed_form(n_positions, d_model):
    table = positional.positional_table(n_positions, d_model)
    np.testing.assert_allclose(table.pe, _pe_reference(n_positions, d_model), atol=1e-6)
    assert table.pe.shape == (n_positions, d_model)


def test_values_stay_within_minus_one_and_one():
    table = positional.positional_table(256, 512)
    assert table.value_min == table.pe.min() and table.value_max == table.pe.max()
    assert table.value_min >= -1.0 and table.value_max <= 1.0
    assert table.value_max == 1.0  # cos(0) at position 0
    assert table.value_min < -0.99999  # fast dimensions reach -1


def test_wavelengths_are_two_pi_times_base_power():
    d = 64
    table = positional.positional_table(10, d)
    expected = [2 * math.pi * 10000 ** (2 * i / d) for i in range(d // 2)]
    np.testing.assert_allclose(table.wavelengths, expected, rtol=1e-6)
    # one full wavelength later, the fastest pair is back where it started
    assert math.sin(table.wavelengths[0] / 10000**0) == pytest.approx(0.0, abs=1e-6)


# --- PE . PE^T depends on the offset only -----------------------------------------------------
@pytest.mark.parametrize("n_positions,d_model", [(40, 16), (64, 64), (128, 512)])
def test_similarity_is_a_function_of_the_offset(n_positions, d_model):
    table = positional.positional_table(n_positions, d_model)
    pe = _pe_reference(n_positions, d_model)
    np.testing.assert_allclose(table.similarity, pe @ pe.T, atol=1e-4)
    for p, q in [(0, 5), (3, 8), (n_positions - 6, n_positions - 1), (9, 2)]:
        closed = sum(math.cos((p - q) / 10000 ** (2 * i / d_model)) for i in range(d_model // 2))
        assert table.similarity[p, q] == pytest.approx(closed, abs=1e-4)
    assert table.offset_spread < 1e-4 and table.offset_max_dev < 1e-4
    assert np.diag(table.similarity) == pytest.approx(d_model / 2, abs=1e-4)
    anchor = n_positions // 2
    k, profile = table.offset_profile(anchor)
    np.testing.assert_array_equal(k, np.arange(n_positions) - anchor)
    np.testing.assert_array_equal(profile, table.similarity[anchor])
    # the anchor's profile over offsets 0.. equals position 0's profile over the same offsets
    np.testing.assert_allclose(
        profile[anchor:], table.similarity[0, : n_positions - anchor], 0, 1e-4
    )


def test_offset_check_detects_a_table_that_is_not_offset_only():
    """With odd d_model the last sine has no cosine: PE . PE^T then depends on p and q."""
    table = positional.positional_table(64, 5)
    assert table.offset_spread > 1e-4 and math.isnan(table.offset_max_dev)
    with pytest.raises(ValueError, match="odd"):
        positional.offset_similarity([0, 1], 5)


def test_offset_similarity_closed_form():
    k = np.arange(-5, 6)
    got = positional.offset_similarity(k, 8)
    expected = [sum(math.cos(kk / 10000 ** (2 * i / 8)) for i in range(4)) for kk in k]
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert got[5] == 4.0  # offset 0: d/2


# --- interleaved vs concatenated ----------------------------------------------------------------
@pytest.mark.parametrize("d_model", [2, 4, 6, 64, 7])
def test_layouts_differ_by_a_fixed_permutation(d_model):
    table = positional.positional_table(30, d_model)
    ref = _pe_reference(30, d_model)
    n_sin = (d_model + 1) // 2
    concat_ref = np.concatenate([ref[:, 0::2], ref[:, 1::2]], axis=1)  # all sin, then all cos
    np.testing.assert_allclose(table.concatenated, concat_ref, atol=1e-6)
    assert sorted(table.layout_perm) == list(range(d_model))
    np.testing.assert_array_equal(table.concatenated[:, table.layout_perm], table.pe)
    assert table.layout_max_diff == 0.0
    if d_model >= 4:
        assert np.abs(table.concatenated - table.pe).max() > 0.5  # not the same order
    assert list(table.layout_perm[:2]) == ([0, n_sin] if d_model > 1 else [0])


def test_layout_permutation_small_case():
    assert positional.positional_table(3, 6).layout_perm.tolist() == [0, 3, 1, 4, 2, 5]


# --- permutations -----------------------------------------------------------------------------
@given(n=st.integers(0, 80), seed=st.integers(0, 10**6))
@settings(max_examples=80, deadline=None)
def test_shuffle_permutation_is_a_seeded_non_identity_permutation(n, seed):
    perm = pm.shuffle_permutation(n, seed)
    assert sorted(perm.tolist()) == list(range(n))
    np.testing.assert_array_equal(perm, pm.shuffle_permutation(n, seed))
    if n >= 2:
        assert not np.array_equal(perm, np.arange(n))


def test_permutation_matrix_moves_rows_and_columns():
    rng = np.random.default_rng(0)
    a = rng.random((6, 6))
    x = rng.random((6, 3))
    perm = np.array([2, 0, 5, 1, 4, 3])
    p = pm.permutation_matrix(perm)
    np.testing.assert_array_equal(p @ x, x[perm])
    np.testing.assert_array_equal(pm.permute_attention(a, perm), p @ a @ p.T)
    with pytest.raises(ValueError, match="permutation"):
        pm.permute_attention(a, [0, 0, 1, 2, 3, 4])


def _float64_weights(tokens, config, positional: bool) -> np.ndarray:
    layer = build_attention(config).double()
    x = embed_tokens(tokens, config.d_model, config.seed, positional=positional).double()
    with torch.inference_mode():
        return layer(x[None]).weights[0].numpy()  # (nh, T, T)


@pytest.mark.parametrize("scoring", ["dot", "additive"])
def test_without_pe_shuffling_only_permutes_exactly(scoring):
    tokens = ["the", "cat", "saw", "the", "dog", "and", "ran", "."]
    config = AttentionConfig(d_model=32, n_heads=4, seed=3, scoring=scoring, positional=False)
    perm = pm.shuffle_permutation(len(tokens), 11)
    a = _float64_weights(tokens, config, positional=False)
    b = _float64_weights([tokens[i] for i in perm], config, positional=False)
    np.testing.assert_allclose(b, pm.permute_attention(a, perm), rtol=0, atol=1e-12)
    # and it fails with positional encoding: the pattern itself changes
    a_pe = _float64_weights(tokens, config, positional=True)
    b_pe = _float64_weights([tokens[i] for i in perm], config, positional=True)
    assert np.abs(b_pe - pm.permute_attention(a_pe, perm)).max() > 1e-2


@given(
    words=st.lists(
        st.sampled_from(["a", "b", "the", "cat", "<b>x</b>", "欧", "😀"]), min_size=2, max_size=20
    ),
    seed=st.integers(0, 1000),
    heads=st.sampled_from([(16, 1), (16, 4), (24, 3), (64, 8)]),
)
@settings(max_examples=40, deadline=None)
def test_shuffle_attention_property(words, seed, heads):
    d_model, n_heads = heads
    perm = pm.shuffle_permutation(len(words), seed)
    off = pm.shuffle_attention(words, AttentionConfig(d_model, n_heads, positional=False), perm)
    assert off.shuffled_tokens == [words[i] for i in perm]
    assert off.max_abs_diff < 1e-6  # float32 of the app's path
    on = pm.shuffle_attention(words, AttentionConfig(d_model, n_heads, positional=True), perm)
    np.testing.assert_array_equal(on.weights.sum(-1).round(5), 1.0)
    if words != on.shuffled_tokens:  # a shuffle that changes the sentence changes the pattern
        assert on.max_abs_diff > 1e-4


def test_causal_mask_breaks_the_property_even_without_pe():
    tokens = ["I", "want", "to", "live", "in", "Europe"]
    perm = pm.shuffle_permutation(len(tokens), 0)
    cfg = AttentionConfig(d_model=16, n_heads=2, positional=False, mask="causal")
    assert pm.shuffle_attention(tokens, cfg, perm).max_abs_diff > 1e-2


def test_shuffle_attention_rejects_a_wrong_permutation():
    with pytest.raises(ValueError, match="permutation"):
        pm.shuffle_attention(["a", "b", "c"], AttentionConfig(16, 2), [0, 1])
