"""Grouped-query attention and the KV cache against F.scaled_dot_product_attention(enable_gqa=True),
and the cache arithmetic against published model figures."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from mha_core.efficient import PUBLISHED_CONFIGS, decode_with_cache, kv_cache_bytes
from mha_core.layer import grouped_query_attention, kv_head_of, valid_kv_head_counts

KIB, MIB, GIB = 2**10, 2**20, 2**30


def _qkv(B, nh, n_kv, T, hs, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (
        torch.randn(B, nh, T, hs, generator=g),
        torch.randn(B, n_kv, T, hs, generator=g),
        torch.randn(B, n_kv, T, hs, generator=g),
    )


# --- grouped-query attention -------------------------------------------------------------
@pytest.mark.parametrize("nh,n_kv", [(8, 8), (8, 4), (8, 2), (8, 1), (6, 3), (12, 4), (1, 1)])
@pytest.mark.parametrize("causal", [False, True])
def test_gqa_equals_sdpa_enable_gqa(nh, n_kv, causal):
    q, k, v = _qkv(2, nh, n_kv, 11, 16, seed=nh * 10 + n_kv)
    ours = grouped_query_attention(q, k, v, causal=causal)
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
    torch.testing.assert_close(ours.output, ref, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(ours.weights.sum(-1), torch.ones(2, nh, 11), rtol=1e-5, atol=1e-6)
    assert ours.n_kv_heads == n_kv


def test_gqa_with_a_mask_equals_sdpa():
    q, k, v = _qkv(1, 4, 2, 7, 8, seed=5)
    mask = torch.rand(7, 7, generator=torch.Generator().manual_seed(1)) > 0.4
    mask |= torch.eye(7, dtype=torch.bool)  # every row has a key
    ours = grouped_query_attention(q, k, v, mask=mask).output
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=True)
    torch.testing.assert_close(ours, ref, rtol=1e-5, atol=1e-6)


def test_gqa_heads_of_a_group_read_the_same_keys_and_a_fully_masked_row_is_zero():
    assert kv_head_of(8, 2) == [0, 0, 0, 0, 1, 1, 1, 1]
    assert valid_kv_head_counts(12) == [1, 2, 3, 4, 6, 12]
    q, k, v = _qkv(1, 4, 1, 3, 4)
    mask = torch.ones(3, 3, dtype=torch.bool)
    mask[1] = False
    res = grouped_query_attention(q, k, v, mask=mask)
    assert torch.isfinite(res.weights).all()
    assert (res.weights[:, :, 1] == 0).all()
    with pytest.raises(ValueError, match="divisible"):
        kv_head_of(8, 3)


# --- the KV cache ------------------------------------------------------------------------
@pytest.mark.parametrize("nh,n_kv,T", [(4, 4, 9), (4, 2, 12), (8, 1, 5), (2, 2, 1)])
def test_decoding_with_a_cache_equals_recomputing_and_causal_sdpa(nh, n_kv, T):
    q, k, v = _qkv(2, nh, n_kv, T, 8, seed=T)
    dec = decode_with_cache(q, k, v)
    assert [s.cache_length for s in dec.steps] == list(range(1, T + 1))  # the cache grows by one
    assert [s.weights.shape[-1] for s in dec.steps] == list(range(1, T + 1))
    assert dec.keys.shape == (2, n_kv, T, 8) and dec.values.shape == (2, n_kv, T, 8)
    assert dec.max_diff <= 1e-5
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    torch.testing.assert_close(dec.output, ref, rtol=1e-5, atol=1e-6)
    for s in dec.steps:
        torch.testing.assert_close(s.recomputed, ref[:, :, s.position], rtol=1e-5, atol=1e-6)


def test_decoding_can_stop_early():
    q, k, v = _qkv(1, 2, 1, 10, 4)
    dec = decode_with_cache(q, k, v, n_steps=3)
    assert len(dec.steps) == 3 and dec.keys.shape[2] == 3


def test_cache_bytes_formula():
    assert kv_cache_bytes(n_layers=1, n_kv_heads=1, d_k=1, n_tokens=1, bytes_per_value=1) == 2
    assert (
        kv_cache_bytes(n_layers=3, n_kv_heads=5, d_k=7, n_tokens=11, bytes_per_value=4, batch=2)
        == 2 * 3 * 5 * 7 * 11 * 4 * 2
    )
    with pytest.raises(ValueError):
        kv_cache_bytes(n_layers=-1, n_kv_heads=1, d_k=1, n_tokens=1)


def _config(name):
    return next(c for c in PUBLISHED_CONFIGS if c.name == name)


def test_llama3_8b_published_figures():
    # Meta's Llama 3 8B: 32 layers, 32 query heads, 8 KV heads of 128; bf16
    c = _config("Llama-3-8B")
    assert (c.n_layers, c.n_heads, c.n_kv_heads, c.d_k) == (32, 32, 8, 128)
    assert c.bytes_per_token == 128 * KIB
    assert c.cache_bytes(8192) == 1 * GIB
    per_token = kv_cache_bytes(n_layers=32, n_kv_heads=8, d_k=128, n_tokens=1, bytes_per_value=2)
    assert per_token == 131072


def test_gpt2_small_and_mistral_published_figures():
    gpt2 = _config("GPT-2 small")
    assert (gpt2.n_layers, gpt2.n_kv_heads, gpt2.d_k) == (12, 12, 64)
    assert gpt2.n_heads * gpt2.d_k == 768  # n_embd
    assert gpt2.cache_bytes(1, bytes_per_value=2) == 2 * 12 * 12 * 64 * 2  # 36 KiB a token
    assert gpt2.cache_bytes(1, bytes_per_value=2) == 36 * KIB
    mistral = _config("Mistral-7B")
    assert (mistral.n_layers, mistral.n_kv_heads, mistral.d_k, mistral.window) == (32, 8, 128, 4096)
    # the rolling buffer holds at most the window: 512 MiB in bf16 whatever the length
    assert mistral.cache_bytes(4096) == 512 * MIB
    assert mistral.cache_bytes(32768) == 512 * MIB
    # Jiang et al. 2023: on a 32k sequence the rolling buffer cuts the cache 8x
    full = kv_cache_bytes(n_layers=32, n_kv_heads=8, d_k=128, n_tokens=32768, bytes_per_value=2)
    assert full / mistral.cache_bytes(32768) == 8
    llama2 = _config("Llama-2-7B")  # multi-head: 4x Llama 3's cache per token
    assert llama2.bytes_per_token == 4 * _config("Llama-3-8B").bytes_per_token


def test_every_published_row_names_its_source():
    for c in PUBLISHED_CONFIGS:
        assert c.source and c.n_heads % c.n_kv_heads == 0
