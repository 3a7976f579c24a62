"""Tiled attention with the online softmax against F.scaled_dot_product_attention."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from mha_core.efficient import flash_attention, score_memory


def _qkv(B, nh, n_kv, T, hs, seed=0, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return (
        torch.randn(B, nh, T, hs, generator=g) * scale,
        torch.randn(B, n_kv, T, hs, generator=g) * scale,
        torch.randn(B, n_kv, T, hs, generator=g),
    )


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("T,block", [(1, 4), (16, 4), (17, 4), (23, 5), (10, 16), (31, 1), (40, 7)])
def test_tiled_equals_sdpa(T, block, causal):
    q, k, v = _qkv(2, 3, 3, T, 8, seed=T * 31 + block)
    res = flash_attention(q, k, v, block_size=block, causal=causal)
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    torch.testing.assert_close(res.output, ref, rtol=1e-5, atol=1e-6)


def test_tiled_with_large_scores_and_grouped_heads_equals_sdpa():
    """Scores far beyond exp's range (up to ~900: exp overflows even float64 past 709), so the
    running max must be subtracted; in float64 both kernels agree to rounding."""
    q, k, v = (x.double() for x in _qkv(1, 4, 2, 29, 16, seed=3, scale=14.0))
    scores = q @ k.repeat_interleave(2, 1).transpose(-2, -1) / 4.0
    assert scores.abs().max() > 709  # exp(score) alone would overflow
    for causal in (False, True):
        res = flash_attention(q, k, v, block_size=8, causal=causal)
        ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
        assert torch.isfinite(res.output).all()
        torch.testing.assert_close(res.output, ref, rtol=1e-5, atol=1e-6)


def test_tiled_float32_with_large_scores_is_as_accurate_as_sdpa():
    """Scores of hundreds in float32: rounding a score s alone moves exp(s - max) by up to
    u |s| (u = 2^-24, the unit roundoff), so an output can move by u max|s| max|v| (~3e-5
    here), below which two float32 kernels need not agree (measured: ~5e-6 between them,
    depending on the CPU). Against float64 attention, the tiled kernel and PyTorch's float32
    kernel both stay within that bound."""
    q, k, v = _qkv(1, 4, 2, 29, 16, seed=3, scale=6.0)
    for causal in (False, True):
        res = flash_attention(q, k, v, block_size=8, causal=causal)
        ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
        exact = F.scaled_dot_product_attention(
            q.double(), k.double(), v.double(), is_causal=causal, enable_gqa=True
        )
        scores = q @ k.repeat_interleave(2, 1).transpose(-2, -1) / 4.0
        bound = 2.0**-24 * float(scores.abs().max()) * float(v.abs().max())
        ours = float((res.output.double() - exact).abs().max())
        theirs = float((ref.double() - exact).abs().max())
        assert theirs <= bound  # the bound holds for PyTorch's own kernel
        assert ours <= bound, (ours, theirs, bound)


def test_steps_carry_the_running_max_sum_and_partial_output():
    q, k, v = _qkv(1, 2, 2, 13, 4, seed=9)
    res = flash_attention(q, k, v, block_size=4)
    assert res.n_tiles == 16 and res.n_skipped == 0 and len(res.steps) == 16
    scores = (q @ k.transpose(-2, -1)) / 2.0  # (B, nh, T, T), d_k = 4
    for s in res.steps:
        seen = scores[:, :, s.q_start : s.q_stop, : s.k_stop]  # keys read so far
        torch.testing.assert_close(s.m, seen.amax(-1))
        l_ref = torch.exp(seen - s.m[..., None]).sum(-1)
        torch.testing.assert_close(s.l, l_ref, rtol=1e-5, atol=1e-6)
        partial = torch.softmax(seen, -1) @ v[:, :, : s.k_stop]  # attention over those keys only
        torch.testing.assert_close(s.partial, partial, rtol=1e-5, atol=1e-6)
        assert (s.rescale <= 1).all() and (s.rescale >= 0).all()
    last = res.steps_for_row(12)[-1]
    torch.testing.assert_close(last.partial[:, :, 12 - last.q_start], res.output[:, :, 12])


def test_causal_skips_tiles_above_the_diagonal_and_records_one_block():
    q, k, v = _qkv(1, 1, 1, 12, 4)
    res = flash_attention(q, k, v, block_size=4, causal=True)
    assert res.n_tiles == 6 and res.n_skipped == 3  # 1 + 2 + 3 tiles on and below
    one = flash_attention(q, k, v, block_size=4, causal=True, query_block=2)
    assert [s.key_block for s in one.steps] == [0, 1, 2]
    assert flash_attention(q, k, v, block_size=4, record=False).steps == ()
    torch.testing.assert_close(one.output, res.output)


def test_score_memory():
    mem = score_memory([1, 8, 100, 1000], 64)
    assert mem.plain.tolist() == [1, 64, 10000, 1000000]
    assert mem.tiled.tolist() == [1, 64, 4096, 4096]


def test_flash_rejects_bad_block():
    q, k, v = _qkv(1, 1, 1, 4, 4)
    with pytest.raises(ValueError):
        flash_attention(q, k, v, block_size=0)
