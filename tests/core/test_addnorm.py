"""LayerNorm vs BatchNorm statistics and seeded attention dropout (mha_core.lessons.addnorm).

References: F.layer_norm, F.batch_norm / nn.BatchNorm1d in training mode, evaluated in float64
(norm_statistics computes in float64: with two tokens a feature's spread can be 1e-3 of its
mean, and float32 rounding in x - mean then differs by 5e-5 relative between any two
float32 implementations), and the binomial distribution of the number of dropped entries.
"""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_core import attention_dropout, norm_statistics, padding_mask

RTOL, ATOL = 1e-5, 1e-6


def close(actual, expected, rtol=RTOL, atol=ATOL):
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol)


def _batch(B, T, C, seed=0):
    """Features with their own offsets and scales, so per-token and per-feature stats differ."""
    g = torch.Generator().manual_seed(seed)
    offsets = torch.randn(C, generator=g) * 3  # (C,)
    scales = torch.rand(C, generator=g) * 2 + 0.5  # (C,)
    return torch.randn(B, T, C, generator=g) * scales + offsets  # (B, T, C)


# --- LayerNorm vs BatchNorm ------------------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(
    B=st.integers(1, 4),
    T=st.integers(1, 9),
    C=st.integers(2, 33),
    eps=st.sampled_from([1e-5, 1e-3]),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_norms_equal_torch_functional(B, T, C, eps, seed, data):
    x = _batch(B, T, C, seed)
    lengths = [data.draw(st.integers(1, T)) for _ in range(B)]
    pad = padding_mask(lengths, T)
    ns = norm_statistics(x, pad, eps=eps)
    assert ns.layer_normed.dtype == ns.batch_std.dtype == torch.float32
    x = x.double()  # the references in float64; ours rounds to float32 once at the end
    close(ns.layer_normed, F.layer_norm(x, (C,), eps=eps).float())
    real = x[~pad]  # (N, C) only real tokens enter BatchNorm's statistics
    assert ns.n_tokens == real.shape[0] == sum(lengths)
    if real.shape[0] > 1:  # torch refuses a batch of one token
        expected = F.batch_norm(real, None, None, training=True, eps=eps).float()
        close(ns.batch_normed[~pad], expected)
        # BatchNorm1d keeps the unbiased variance as its running_var
        bn = torch.nn.BatchNorm1d(C, eps=eps, momentum=1.0, affine=False).double().train()
        bn(real)
        n = real.shape[0]
        close(ns.batch_mean, bn.running_mean.float())
        close(ns.batch_std**2, (bn.running_var * (n - 1) / n).float())


def test_each_norm_standardises_its_own_axis():
    B, T, C, eps = 3, 8, 16, 1e-5
    x = _batch(B, T, C, seed=1)
    ns = norm_statistics(x, eps=eps)
    # LayerNorm: every token row (over features) has mean 0 and std sqrt(var / (var + eps))
    close(ns.layer_normed.mean(dim=-1), torch.zeros(B, T), atol=1e-6, rtol=0)
    expected = torch.sqrt(ns.layer_std**2 / (ns.layer_std**2 + eps))
    close(ns.layer_normed.std(dim=-1, correction=0), expected)
    # BatchNorm: every feature column (over all B*T tokens) has mean 0 and std ~1
    flat = ns.batch_normed.reshape(B * T, C)
    close(flat.mean(dim=0), torch.zeros(C), atol=1e-6, rtol=0)
    expected = torch.sqrt(ns.batch_std**2 / (ns.batch_std**2 + eps))
    close(flat.std(dim=0, correction=0), expected)
    # ... and neither standardises the other's axis: features keep their offsets after
    # LayerNorm, tokens keep theirs after BatchNorm (offsets of 3 sigma by construction)
    assert ns.layer_normed.reshape(B * T, C).mean(dim=0).abs().max() > 0.3
    assert ns.batch_normed.mean(dim=-1).abs().max() > 0.1
    assert ns.layer_mean.shape == ns.layer_std.shape == (B, T)
    assert ns.batch_mean.shape == ns.batch_std.shape == (C,)


def test_padding_does_not_move_batch_statistics():
    x = _batch(2, 6, 8, seed=2)
    pad = padding_mask([6, 3], 6)
    junk = x.clone()
    junk[pad] = 1e3  # whatever sits at padded positions
    a, b = norm_statistics(x, pad), norm_statistics(junk, pad)
    assert torch.equal(a.batch_mean, b.batch_mean) and torch.equal(a.batch_std, b.batch_std)
    real_only = torch.cat([x[0], x[1, :3]])[None]  # (1, 9, C)
    ref = norm_statistics(real_only)
    close(a.batch_mean, ref.batch_mean)
    close(a.batch_std, ref.batch_std)
    # padding never enters LayerNorm's per-token statistics of real tokens either
    close(a.layer_normed[~pad], b.layer_normed[~pad])
    assert torch.equal(a.real, ~pad)


def test_norm_statistics_checks_input():
    x = torch.randn(2, 3, 4)
    with pytest.raises(ValueError, match="every position is padding"):
        norm_statistics(x, torch.ones(2, 3, dtype=torch.bool))
    with pytest.raises(ValueError, match="padding_mask"):
        norm_statistics(x, torch.zeros(2, 4, dtype=torch.bool))
    with pytest.raises(ValueError, match="shape"):
        norm_statistics(torch.randn(4))
    single = norm_statistics(torch.randn(5, 4))  # (T, C): a batch of one
    assert single.layer_mean.shape == (1, 5)


# --- dropout on attention weights ------------------------------------------------------------
def _weights(shape, seed=0):
    # offset: the same seed for the weights and the dropout draws would correlate them
    g = torch.Generator().manual_seed(10_000 + seed)
    return torch.softmax(torch.randn(shape, generator=g), dim=-1)


def test_eval_dropout_is_exactly_the_identity():
    w = _weights((4, 9, 9))
    r = attention_dropout(w, 0.5, training=False, seed=3)
    assert r.output is w and r.keep.all() and r.scale == 1.0 and r.dropped_fraction == 0.0
    close(r.row_sums, torch.ones(4, 9))
    r0 = attention_dropout(w, 0.0, training=True)
    assert torch.equal(r0.output, w)


@pytest.mark.parametrize("p", [0.1, 0.3, 0.5, 0.9])
@pytest.mark.parametrize("seed", [0, 1])
def test_training_dropout_zero_fraction_and_scaling(p, seed):
    w = _weights((16, 32, 32), seed)  # N = 16384 entries, all > 0
    r = attention_dropout(w, p, seed=seed)
    N = w.numel()
    # the number of dropped entries is Binomial(N, p): allow 5 standard deviations
    # (a false alarm has probability ~6e-7 per case; the seeds make it deterministic anyway)
    sd = math.sqrt(p * (1 - p) / N)
    zero_fraction = float((r.output == 0).float().mean())
    assert abs(zero_fraction - p) < 5 * sd
    assert zero_fraction == pytest.approx(r.dropped_fraction)
    # dropped entries are exactly 0; kept ones are scaled by 1 / (1 - p)
    assert (r.output[~r.keep] == 0).all()
    close(r.output[r.keep], w[r.keep] / (1 - p), rtol=1e-6, atol=0)
    assert r.scale == pytest.approx(1 / (1 - p))
    # rows no longer sum to 1, but do on average: E = 1, Var = p/(1-p) * sum_j w_ij^2 per row
    sums = r.row_sums.flatten()
    var = (p / (1 - p)) * (w**2).sum(-1).flatten()
    sd_mean = float(var.sum().sqrt()) / sums.numel()
    assert abs(float(sums.mean()) - 1.0) < 5 * sd_mean
    assert not torch.allclose(sums, torch.ones_like(sums))


def test_dropout_is_seeded_and_matches_torch_in_distribution():
    w = _weights((8, 16, 16))
    a, b, c = (attention_dropout(w, 0.4, seed=s) for s in (7, 7, 8))
    assert torch.equal(a.output, b.output) and torch.equal(a.keep, b.keep)
    assert not torch.equal(a.keep, c.keep)
    # torch's F.dropout makes the same two kinds of values, 0 and w / (1 - p), as often
    torch.manual_seed(0)
    t = F.dropout(w, 0.4, training=True)
    kept = t != 0
    close(t[kept], w[kept] / 0.6, rtol=1e-6, atol=0)
    close(a.output[a.keep], w[a.keep] / 0.6, rtol=1e-6, atol=0)
    sd = math.sqrt(0.4 * 0.6 / w.numel())
    assert abs(float((~kept).float().mean()) - a.dropped_fraction) < 2 * 5 * sd


def test_dropout_rejects_bad_p():
    for p in (-0.1, 1.0, 1.5):
        with pytest.raises(ValueError, match="dropout p"):
            attention_dropout(torch.ones(2, 2), p)
