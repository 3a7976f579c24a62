"""The Efficient page's computations on a sentence's heads, against PyTorch's SDPA."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from mha_core import AttentionConfig, build_attention, run_attention
from mha_core.efficient import lesson

TOKENS = ["the", "cat", "saw", "the", "dog", "and", "ran", "."]


def _run(mask="none", n_heads=4):
    config = AttentionConfig(d_model=32, n_heads=n_heads, mask=mask)
    layer = build_attention(config)
    return layer, run_attention(TOKENS, config, layer)


def _trace(mask="none", n_heads=4):
    return _run(mask, n_heads)[1].attention


@pytest.mark.parametrize("mask", ["none", "causal"])
def test_grouped_heads_with_every_kv_head_is_the_layer(mask):
    layer, sa = _run(mask)
    g = lesson.grouped_heads(layer, sa.x, 4, mask == "causal")
    assert g.max_diff_mha <= 1e-6 and g.max_diff_sdpa <= 1e-6
    np.testing.assert_allclose(g.weights, sa.attention.weights[0].numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mask", ["none", "causal"])
def test_grouped_layer_pools_the_keys_and_values_of_each_group(mask):
    layer, sa = _run(mask)
    tr = sa.attention
    grouped = lesson.grouped_layer(layer, 2)
    assert grouped.n_kv_heads == 2 and grouped.in_proj_weight.shape == (32 + 2 * 16, 32)
    gt = grouped(sa.x, mask="causal" if mask == "causal" else None)
    kg = tr.k.view(1, 2, 2, 8, 8).mean(2)  # the mean of each group's keys, written here
    vg = tr.v.view(1, 2, 2, 8, 8).mean(2)
    torch.testing.assert_close(gt.k, kg, rtol=1e-5, atol=1e-6)
    ref = F.scaled_dot_product_attention(tr.q, kg, vg, enable_gqa=True, is_causal=mask != "none")
    torch.testing.assert_close(gt.head_outputs, ref, rtol=1e-5, atol=1e-6)
    g = lesson.grouped_heads(layer, sa.x, 2, mask == "causal")
    np.testing.assert_allclose(g.output, ref[0].numpy(), rtol=1e-5, atol=1e-6)
    assert g.kv_head == (0, 0, 1, 1) and g.max_diff_mha > 1e-3 and g.max_diff_sdpa <= 1e-6


def test_cache_run_and_masked_heads():
    tr = _trace()
    run = lesson.cache_run(tr.q, tr.k, tr.v, 2, 5)
    assert run.n_steps == 5 and run.cache_lengths.tolist() == [1, 2, 3, 4, 5]
    assert run.max_diff <= 1e-5 and run.weights[3].shape == (4, 4)
    m = lesson.masked_heads(tr.q, tr.k, tr.v, window=2, n_sinks=1, global_tokens=(), n_layers=2)
    mask = torch.from_numpy(m.mask)
    ref = torch.softmax(
        ((tr.q @ tr.k.transpose(-2, -1)) / 8**0.5).masked_fill(~mask, float("-inf")), -1
    )
    np.testing.assert_allclose(m.weights, ref[0].numpy(), rtol=1e-5, atol=1e-6)
    # the sink reaches every token but relays nothing: the window's L(w - 1), sinks aside
    assert m.field.farthest_back == (1, 2)
    assert m.field.reach[:, :, 0].all()


@pytest.mark.parametrize("causal", [False, True])
def test_flash_row_follows_one_row_to_the_plain_result(causal):
    tr = _trace("causal" if causal else "none")
    f = lesson.flash_row(tr.q, tr.k, tr.v, block_size=3, causal=causal, head=1, row=4)
    plain = F.scaled_dot_product_attention(tr.q, tr.k, tr.v, is_causal=causal)
    np.testing.assert_allclose(f.partial[-1], plain[0, 1, 4].numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(f.final, plain[0, 1, 4].numpy(), rtol=1e-5, atol=1e-6)
    assert f.key_ranges == (((0, 3), (3, 6)) if causal else ((0, 3), (3, 6), (6, 8)))
    assert f.max_diff <= 1e-5 and f.max_diff_row <= 1e-5
    assert np.all(np.diff(f.m) >= 0)  # the running max never decreases
