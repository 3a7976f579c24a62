"""The scaling lab's statistics against closed forms and independent references."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_core import AttentionConfig, run_attention
from mha_core.lessons import scaling as sc

D_KS = (1, 4, 16, 64, 256, 1024)


# --- q . k: std grows like sqrt(d_k) ---------------------------------------------------------
@pytest.mark.parametrize("distribution", sc.DISTRIBUTIONS)
def test_measured_std_is_within_a_few_percent_of_sqrt_dk(distribution):
    stats = sc.dot_product_stats(D_KS, n_samples=40_000, seed=1, distribution=distribution)
    np.testing.assert_array_equal(stats.theory, np.sqrt(D_KS))
    # relative std error of a sample std is at most sqrt((kurtosis - 1) / 4n) = 0.7% here
    assert stats.relative_error().max() < 0.03, stats.std
    np.testing.assert_allclose(stats.scaled_std, 1.0, rtol=0.03)
    np.testing.assert_allclose(stats.scaled_theory, 1.0)
    # the mean is 0 within 4 standard errors sqrt(d_k / n)
    assert (np.abs(stats.mean) < 4 * np.sqrt(np.asarray(D_KS) / 40_000)).all()


def test_the_std_test_can_fail_linear_growth_is_far_off():
    stats = sc.dot_product_stats(D_KS, n_samples=20_000, seed=0)
    # the spread at d_k=1024 is about 32 times that at d_k=1, not 1024 times and not 1 time
    ratio = stats.std[-1] / stats.std[0]
    assert 30 < ratio < 34
    assert np.abs(stats.std - np.asarray(D_KS, dtype=float)).max() > 100


def test_samples_are_prefix_dot_products_of_one_draw():
    """Each column is q . k over the first d_k components of ONE draw of max(d_k)-dimensional
    pairs: with +-1 components each further component adds exactly q_i k_i = +-1, independent of
    the others; a smaller set of d_k gives the same columns (the same draw)."""
    n = 4000
    full = sc.dot_products(range(1, 9), n, seed=5, distribution="rademacher")  # (n, 8)
    steps = np.diff(full, axis=1, prepend=0.0)  # (n, 8): q_i k_i, component by component
    assert set(np.unique(steps)) == {-1.0, 1.0}
    assert abs(steps.mean()) < 0.05
    assert np.abs(np.corrcoef(steps.T) - np.eye(8)).max() < 0.1
    some = sc.dot_products((1, 3, 8), n, seed=5, distribution="rademacher")
    np.testing.assert_array_equal(some, full[:, [0, 2, 7]])


def test_normal_samples_add_products_of_independent_normals():
    """With N(0, 1) components each step q_i k_i has variance 1 and fourth moment 9 (E q^4 E k^4
    = 3 * 3), which a sum of squares or a scaled score would not have."""
    n = 20_000
    full = sc.dot_products(range(1, 9), n, seed=5)  # (n, 8)
    steps = np.diff(full, axis=1, prepend=0.0).ravel()
    assert abs(np.mean(steps**2) - 1.0) < 0.05
    assert abs(np.mean(steps**4) - 9.0) < 1.5
    np.testing.assert_allclose(
        sc.dot_products((1, 3, 8), n, seed=5), full[:, [0, 2, 7]], rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("distribution", sc.DISTRIBUTIONS)
def test_components_have_mean_zero_and_variance_one(distribution):
    x = sc.unit_variance((1_000_000,), distribution, torch.Generator().manual_seed(0)).double()
    assert abs(float(x.mean())) < 0.005
    assert abs(float(x.var()) - 1.0) < 0.005


def test_seeded_and_reproducible():
    a = sc.dot_product_stats(n_samples=500, seed=2)
    b = sc.dot_product_stats(n_samples=500, seed=2)
    c = sc.dot_product_stats(n_samples=500, seed=3)
    np.testing.assert_array_equal(a.samples, b.samples)
    assert not np.array_equal(a.samples, c.samples)


def test_at_returns_the_column_and_its_scaled_copy():
    stats = sc.dot_product_stats(n_samples=1000, seed=0)
    s = stats.at(64)
    j = list(stats.d_k).index(64)
    np.testing.assert_array_equal(s.unscaled, stats.samples[:, j])
    np.testing.assert_allclose(s.scaled, stats.samples[:, j] / 8.0)
    assert s.unscaled_range == (s.unscaled.min(), s.unscaled.max())
    gap, odds, sgap, sodds = s.one_std_odds
    assert gap == pytest.approx(stats.std[j]) and odds == pytest.approx(math.exp(gap))
    assert sgap == pytest.approx(stats.scaled_std[j]) and sodds == pytest.approx(math.exp(sgap))
    with pytest.raises(ValueError, match="not measured"):
        stats.at(5)


def test_bad_arguments_are_explained():
    with pytest.raises(ValueError, match="distribution"):
        sc.dot_product_stats((4,), 10, distribution="cauchy")
    with pytest.raises(ValueError, match="d_k"):
        sc.dot_product_stats((0, 4), 10)
    with pytest.raises(ValueError, match="n_samples"):
        sc.dot_products((4,), 1)


# --- the softmax Jacobian --------------------------------------------------------------------
@given(
    t=st.integers(1, 12),
    spread=st.floats(0.0, 30.0),
    seed=st.integers(0, 10_000),
)
@settings(max_examples=60, deadline=None)
def test_jacobian_equals_autograd(t, spread, seed):
    z = torch.randn(3, t, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    z = z * spread
    p = torch.softmax(z, dim=-1)
    for b in range(3):
        ref = torch.autograd.functional.jacobian(lambda x: torch.softmax(x, dim=-1), z[b])
        torch.testing.assert_close(sc.softmax_jacobian(p[b]), ref, rtol=1e-10, atol=1e-14)
        torch.testing.assert_close(
            sc.jacobian_norm(p[b]), torch.linalg.matrix_norm(ref), rtol=1e-10, atol=1e-14
        )


@pytest.mark.parametrize("gap", [0.0, 1.0, 5.0, 20.0, 40.0, 300.0])
def test_jacobian_norm_of_two_keys_matches_the_closed_form(gap):
    """For T = 2, J = p1 p2 [[1, -1], [-1, 1]], so ||J||_F = 2 p1 p2, with p2 = sigmoid(-gap).

    A saturated softmax (gap 40: p2 = 4e-18) keeps its exact tiny gradient; computing
    1 - p1 by subtraction would round it to 0."""
    p = torch.softmax(torch.tensor([gap, 0.0], dtype=torch.float64), dim=-1)
    p2 = 1.0 / (1.0 + math.exp(gap))
    expected = 2.0 * (1.0 - p2) * p2
    assert float(sc.jacobian_norm(p)) == pytest.approx(expected, rel=1e-12, abs=0.0)


def test_entropy_closed_forms_and_no_nan():
    for t in (1, 2, 7, 64):
        assert float(sc.row_entropy(torch.full((t,), 1.0 / t))) == pytest.approx(math.log(t))
    one_hot = torch.tensor([0.0, 1.0, 0.0])
    assert float(sc.row_entropy(one_hot)) == 0.0
    assert float(sc.jacobian_norm(one_hot)) == 0.0
    s = sc.row_stats(one_hot[None])
    assert (s.max_weight, s.entropy, s.jacobian, s.n_rows) == (1.0, 0.0, 0.0, 1)


# --- saturation ---------------------------------------------------------------------------------
POW2 = tuple(2**e for e in range(11))


@pytest.fixture(scope="module")
def curves():
    return sc.saturation_curves(POW2, n_keys=16, n_rows=2000, seed=0)


def test_unscaled_softmax_saturates_monotonically_in_dk(curves):
    mw, ent, jac = curves.max_weight[0], curves.entropy[0], curves.jacobian[0]
    assert (np.diff(mw) > 0).all(), mw
    assert (np.diff(ent) < 0).all(), ent
    big = curves.d_k >= 16  # the Jacobian first rises a little from the uniform-like d_k = 1
    assert (np.diff(jac[big]) < 0).all(), jac
    assert mw[-1] > 0.9 and ent[-1] < 0.2 and jac[-1] < 0.1


def test_scaled_softmax_does_not_saturate(curves):
    mw, ent, jac = curves.max_weight[1], curves.entropy[1], curves.jacobian[1]
    u = curves.uniform
    assert u.max_weight == 1 / 16 and u.entropy == pytest.approx(math.log(16))
    assert np.ptp(mw) < 0.05 and np.ptp(ent) < 0.1 and np.ptp(jac) < 0.03
    assert (mw > u.max_weight).all() and (ent < u.entropy).all()
    # at d_k = 1 scaling divides by 1: both curves start at the same point
    assert curves.max_weight[0, 0] == curves.max_weight[1, 0]
    # and the scaled gradient is many times the unscaled one at d_k = 1024
    assert jac[-1] / curves.jacobian[0, -1] > 3


def test_scaled_limit_matches_softmax_of_standard_normal_logits(curves):
    """As d_k grows, q.k/sqrt(d_k) for one q and T keys tends to T iid N(0, 1) scores: an
    independent Monte Carlo of that limit (numpy, other seed) gives the same statistics."""
    rng = np.random.default_rng(123)
    z = rng.standard_normal((400_000, 16))
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    ref_mw = p.max(axis=1).mean()
    ref_ent = -(p * np.log(p)).sum(axis=1).mean()
    assert curves.max_weight[1, -1] == pytest.approx(ref_mw, abs=0.01)
    assert curves.entropy[1, -1] == pytest.approx(ref_ent, abs=0.03)


# --- temperature ------------------------------------------------------------------------------
def test_temperature_sqrt_dk_is_the_scaled_softmax():
    g = torch.Generator().manual_seed(0)
    scores = torch.randn(3, 5, 5, generator=g, dtype=torch.float64) * 8
    torch.testing.assert_close(
        sc.tempered_softmax(scores, 8.0), torch.softmax(scores / 8.0, dim=-1), rtol=0, atol=0
    )


def test_entropy_rises_and_max_weight_falls_with_temperature():
    g = torch.Generator().manual_seed(1)
    scores = torch.randn(2, 6, 6, generator=g, dtype=torch.float64) * 5
    sweep = sc.temperature_sweep(scores, sc.temperature_grid())
    assert (np.diff(sweep.entropy) > 0).all()
    assert (np.diff(sweep.max_weight) < 0).all()
    assert sweep.entropy[-1] == pytest.approx(math.log(6), abs=0.01)


def test_masked_rows_never_give_nan():
    scores = torch.randn(4, 4, dtype=torch.float64) * 100
    allowed = torch.ones(4, 4, dtype=torch.bool).tril()
    allowed[2] = False  # an empty row
    p = sc.tempered_softmax(scores, 0.25, allowed)
    assert torch.isfinite(p).all() and float(p[2].abs().sum()) == 0.0
    assert float(p[0, 0]) == 1.0 and float(p[~allowed].abs().sum()) == 0.0
    sweep = sc.temperature_sweep(scores, (0.25, 1.0, 128.0), allowed)
    assert np.isfinite(sweep.entropy).all() and np.isfinite(sweep.jacobian).all()


def test_temperature_grid_is_geometric():
    grid = sc.temperature_grid()
    assert grid[0] == 0.25 and grid[-1] == 128.0 and 1.0 in grid and 4.0 in grid
    assert grid == tuple(round(0.25 * 2 ** (i / 2), 4) for i in range(19))


# --- the user's sentence ------------------------------------------------------------------------
def _traces(tokens, tau, **kw):
    base = AttentionConfig(**kw)
    cfg = {f: getattr(base, f) for f in base.__dataclass_fields__}
    scaled = run_attention(tokens, AttentionConfig(**{**cfg, "scale": True})).attention
    unscaled = run_attention(tokens, AttentionConfig(**{**cfg, "scale": False})).attention
    tempered = run_attention(
        tokens, AttentionConfig(**{**cfg, "scale": False, "temperature": tau})
    ).attention
    return scaled, unscaled, tempered


@pytest.mark.parametrize("mask", ["none", "causal"])
def test_sentence_scaling_at_sqrt_dk_equals_the_scaled_weights(mask):
    tokens = ["the", "cat", "saw", "the", "dog", "and", "the", "dog", "saw", "the", "cat"]
    d_k = 16
    result = sc.sentence_scaling(
        *_traces(tokens, math.sqrt(d_k), d_model=64, n_heads=4, mask=mask), (1.0, 4.0)
    )
    assert result.d_k == d_k and result.temperature == 4.0
    assert result.tempered_vs_scaled < 1e-7
    np.testing.assert_allclose(result.tempered, result.scaled, atol=1e-7)
    assert result.stats["tempered"].entropy == pytest.approx(result.stats["scaled"].entropy)
    # the sweep at tau = 1 and tau = sqrt(d_k) reproduces the unscaled and scaled statistics
    assert result.sweep.entropy[0] == pytest.approx(result.stats["unscaled"].entropy, 1e-6)
    assert result.sweep.entropy[1] == pytest.approx(result.stats["scaled"].entropy, 1e-6)
    assert result.stats["unscaled"].max_weight > result.stats["scaled"].max_weight


def test_sentence_scaling_score_std_is_the_std_of_qk():
    tokens = ["I", "want", "to", "live", "in", "Europe", "."]
    scaled, unscaled, tempered = _traces(tokens, 2.0, d_model=32, n_heads=2)
    result = sc.sentence_scaling(scaled, unscaled, tempered, (2.0,))
    q, k = unscaled.q[0].double().numpy(), unscaled.k[0].double().numpy()
    raw = np.einsum("htd,hsd->hts", q, k)  # independent Q K^T
    assert result.score_std == pytest.approx(raw.std(), rel=1e-6)
    assert result.scaled_score_std == pytest.approx(raw.std() / 4.0, rel=1e-6)
    assert result.tempered_vs_scaled > 1e-3  # tau = 2 is not sqrt(16) = 4
    np.testing.assert_allclose(
        result.tempered, torch.softmax(torch.from_numpy(raw) / 2.0, -1).numpy(), atol=1e-6
    )


def test_sentence_scaling_refuses_mismatched_traces():
    tokens = ["a", "b", "c"]
    scaled, unscaled, tempered = _traces(tokens, 2.0, d_model=16, n_heads=2)
    other, _, _ = _traces(tokens, 2.0, d_model=16, n_heads=2, seed=9)
    with pytest.raises(ValueError, match="same layer"):
        sc.sentence_scaling(other, unscaled, tempered, (1.0,))
    add = run_attention(tokens, AttentionConfig(d_model=16, n_heads=2, scoring="additive"))
    with pytest.raises(ValueError, match="dot-product"):
        sc.sentence_scaling(add.attention, unscaled, tempered, (1.0,))
