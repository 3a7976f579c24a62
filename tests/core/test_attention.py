"""Our MultiHeadAttention against references no one here wrote."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_core import AttentionConfig, MultiHeadAttention, causal_mask, padding_mask, run_attention
from tests.helpers.numeric import assert_close_f32

SHAPES = [(8, 1, 1), (8, 2, 5), (16, 4, 7), (12, 3, 9), (64, 8, 13), (96, 12, 4), (384, 12, 17)]


def _torch_pair(d_model, n_heads, *, kdim=None, vdim=None, bias=True, seed=0):
    torch.manual_seed(seed)
    ref = torch.nn.MultiheadAttention(
        d_model, n_heads, batch_first=True, kdim=kdim, vdim=vdim, bias=bias
    ).eval()
    with torch.no_grad():  # torch zero-inits biases; make them count
        if bias:
            ref.in_proj_bias.normal_()
            ref.out_proj.bias.normal_()
    return ref, MultiHeadAttention.from_torch(ref).eval()


def _ref(ref, q, k, v, **kw):
    out, w = ref(q, k, v, need_weights=True, average_attn_weights=False, **kw)
    return out, w


@pytest.mark.parametrize("d_model,n_heads,T", SHAPES)
def test_self_attention_equals_torch(d_model, n_heads, T):
    ref, ours = _torch_pair(d_model, n_heads, seed=T)
    x = torch.randn(3, T, d_model)
    with torch.no_grad():
        out, w = _ref(ref, x, x, x)
        tr = ours(x)
    assert_close_f32(tr.weights, w, atol=1e-6)
    assert_close_f32(tr.output, out, atol=1e-6)
    assert tr.weights.shape == (3, n_heads, T, T)
    assert tr.q.shape == (3, n_heads, T, d_model // n_heads)
    assert tr.concat.shape == tr.output.shape == (3, T, d_model)


@pytest.mark.parametrize("d_model,n_heads,T", SHAPES)
def test_causal_mask_equals_torch(d_model, n_heads, T):
    ref, ours = _torch_pair(d_model, n_heads, seed=1)
    x = torch.randn(2, T, d_model)
    with torch.no_grad():
        # torch: True = NOT allowed; ours: True = allowed
        out, w = _ref(ref, x, x, x, attn_mask=~causal_mask(T))
        tr = ours(x, mask="causal")
    assert_close_f32(tr.weights, w, atol=1e-6)
    assert_close_f32(tr.output, out, atol=1e-6)
    upper = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    assert (tr.weights[..., upper] == 0).all()  # exactly zero, not just small


@pytest.mark.parametrize("d_model,n_heads,Tq,Tk", [(16, 4, 3, 7), (24, 6, 9, 2), (64, 8, 5, 11)])
def test_cross_attention_with_padding_equals_torch(d_model, n_heads, Tq, Tk):
    ref, ours = _torch_pair(d_model, n_heads, seed=2)
    q = torch.randn(2, Tq, d_model)
    mem = torch.randn(2, Tk, d_model)
    pad = padding_mask([Tk, max(1, Tk - 2)], Tk)  # second sequence is shorter
    with torch.no_grad():
        out, w = _ref(ref, q, mem, mem, key_padding_mask=pad)
        tr = ours(q, mem, mem, key_padding_mask=pad)
    assert tr.weights.shape == (2, n_heads, Tq, Tk)
    assert_close_f32(tr.weights, w, atol=1e-6)
    assert_close_f32(tr.output, out, atol=1e-6)
    assert (tr.weights[1, :, :, pad[1]] == 0).all()


def test_cross_attention_distinct_key_value_and_kdim_vdim():
    ref, ours = _torch_pair(32, 4, kdim=20, vdim=12, seed=3)
    q, k, v = torch.randn(2, 5, 32), torch.randn(2, 6, 20), torch.randn(2, 6, 12)
    with torch.no_grad():
        out, w = _ref(ref, q, k, v)
        tr = ours(q, k, v)
    assert_close_f32(tr.weights, w, atol=1e-6)
    assert_close_f32(tr.output, out, atol=1e-6)


def test_distinct_key_and_value_tensors():
    ref, ours = _torch_pair(16, 2, seed=4)
    q, k, v = torch.randn(1, 4, 16), torch.randn(1, 6, 16), torch.randn(1, 6, 16)
    with torch.no_grad():
        out, w = _ref(ref, q, k, v)
        tr = ours(q, k, v)
    assert_close_f32(tr.output, out, atol=1e-6)


def test_no_bias_equals_torch():
    ref, ours = _torch_pair(16, 4, bias=False, seed=5)
    x = torch.randn(2, 6, 16)
    with torch.no_grad():
        out, w = _ref(ref, x, x, x)
        tr = ours(x)
    assert_close_f32(tr.output, out, atol=1e-6)


@settings(max_examples=40, deadline=None)
@given(
    n_heads=st.sampled_from([1, 2, 3, 4, 6, 8]),
    d_k=st.integers(1, 24),
    t_q=st.integers(1, 12),
    t_k=st.integers(1, 12),
    batch=st.integers(1, 3),
    seed=st.integers(0, 10_000),
    causal=st.booleans(),
)
def test_property_matches_torch(n_heads, d_k, t_q, t_k, batch, seed, causal):
    d_model = n_heads * d_k
    ref, ours = _torch_pair(d_model, n_heads, seed=seed)
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(batch, t_q, d_model, generator=g)
    kv = torch.randn(batch, t_k, d_model, generator=g)
    kw, ours_kw = {}, {}
    if causal:
        allowed = causal_mask(t_q, t_k)
        allowed[:, 0] = True  # torch gives NaN for fully-masked rows; keep rows non-empty here
        kw["attn_mask"], ours_kw["mask"] = ~allowed, allowed
    with torch.no_grad():
        out, w = _ref(ref, q, kv, kv, **kw)
        tr = ours(q, kv, kv, **ours_kw)
    assert_close_f32(tr.weights, w, atol=1e-6)
    assert_close_f32(tr.output, out, atol=1e-6)
    sums = tr.weights.sum(-1)
    torch.testing.assert_close(sums, torch.ones_like(sums), atol=1e-6, rtol=0)


@pytest.mark.parametrize("causal", [False, True])
def test_equals_scaled_dot_product_attention(causal):
    _, ours = _torch_pair(48, 6, seed=6)
    x = torch.randn(2, 10, 48)
    with torch.no_grad():
        tr = ours(x, mask="causal" if causal else None)
        ref = F.scaled_dot_product_attention(tr.q, tr.k, tr.v, is_causal=causal)  # (B,nh,T,hs)
    assert_close_f32(tr.head_outputs, ref, atol=1e-6)
    concat = ref.transpose(1, 2).reshape(2, 10, 48)
    assert_close_f32(tr.output, ours.out_proj(concat), atol=1e-6)


def test_unscaled_equals_sdpa_with_scale_one():
    ours = MultiHeadAttention(32, 4, scale=False, seed=7).eval()
    x = torch.randn(1, 9, 32)
    with torch.no_grad():
        tr = ours(x)
        ref = F.scaled_dot_product_attention(tr.q, tr.k, tr.v, scale=1.0)
    assert_close_f32(tr.head_outputs, ref, atol=1e-6)
    assert tr.scale_factor == 1.0


def test_raw_and_scaled_scores():
    ours = MultiHeadAttention(32, 4, seed=8).eval()
    x = torch.randn(1, 5, 32)
    with torch.no_grad():
        tr = ours(x)
    raw = torch.einsum("bhqd,bhkd->bhqk", tr.q, tr.k)
    torch.testing.assert_close(tr.scores, raw, atol=1e-5, rtol=1e-6)
    torch.testing.assert_close(tr.scaled_scores, raw / math.sqrt(8), atol=1e-5, rtol=1e-6)
    assert_close_f32(tr.weights, torch.softmax(raw / math.sqrt(8), -1), atol=1e-6)


def test_fully_masked_rows_are_zero_and_flagged():
    ours = MultiHeadAttention(16, 2, seed=9).eval()
    x = torch.randn(2, 4, 16)
    allowed = torch.ones(2, 4, 4, dtype=torch.bool)
    allowed[0, 2] = False  # query 2 of the first sequence sees nothing
    with torch.no_grad():
        tr = ours(x, mask=allowed)
    assert torch.isfinite(tr.weights).all() and torch.isfinite(tr.output).all()
    assert (tr.weights[0, :, 2] == 0).all()
    assert tr.empty_rows.shape == (2, 2, 4)
    assert tr.empty_rows[0, :, 2].all() and tr.empty_rows.sum() == 2
    sums = tr.weights.sum(-1)
    torch.testing.assert_close(sums[~tr.empty_rows], torch.ones(14), atol=1e-6, rtol=0)


def test_all_keys_padded():
    ours = MultiHeadAttention(8, 2, seed=10).eval()
    x = torch.randn(1, 3, 8)
    with torch.no_grad():
        tr = ours(x, key_padding_mask=torch.ones(1, 3, dtype=torch.bool))
    assert (tr.weights == 0).all() and tr.empty_rows.all()
    assert torch.isfinite(tr.output).all()


def test_large_unscaled_dk_has_no_nan():
    ours = MultiHeadAttention(1024, 1, scale=False, seed=11).eval()
    x = torch.randn(1, 16, 1024) * 10
    with torch.no_grad():
        tr = ours(x)
    assert torch.isfinite(tr.weights).all() and torch.isfinite(tr.output).all()
    sums = tr.weights.sum(-1)
    torch.testing.assert_close(sums, torch.ones_like(sums), atol=1e-6, rtol=0)
    assert tr.weights.max(-1).values.mean() > 0.9  # unscaled softmax saturates


@pytest.mark.parametrize("temperature", [1e-30, 1e-6, 1e-3, 1e3, 1e30])
def test_extreme_temperatures(temperature):
    ours = MultiHeadAttention(64, 4, seed=12).eval()
    x = torch.randn(1, 8, 64) * 100
    with torch.no_grad():
        tr = ours(x, mask="causal", temperature=temperature)
    assert torch.isfinite(tr.weights).all() and torch.isfinite(tr.output).all()
    sums = tr.weights.sum(-1)
    torch.testing.assert_close(sums, torch.ones_like(sums), atol=1e-5, rtol=0)
    if temperature >= 1e30:  # uniform over the allowed keys
        n_allowed = torch.arange(1, 9, dtype=torch.float32)
        assert_close_f32(tr.weights.max(-1).values[0, 0], 1 / n_allowed, atol=1e-2)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision(dtype):
    ref = MultiHeadAttention(256, 2, scale=False, seed=13).eval()
    half = MultiHeadAttention(256, 2, scale=False, seed=13).eval().to(dtype)
    x = (
        torch.randn(1, 12, 256, generator=torch.Generator().manual_seed(0)) * 128
    )  # unscaled q.k far beyond float16's 65504
    with torch.no_grad():
        tr = half(x.to(dtype))
        tr32 = ref(x)
    assert torch.isfinite(tr.weights).all() and torch.isfinite(tr.output.float()).all()
    assert tr.output.dtype == dtype and tr.weights.dtype == torch.float32
    assert torch.isfinite(tr.scores).all()
    assert tr.scores.abs().max() > 65504  # the overflow this guards against is real here
    sums = tr.weights.sum(-1)
    torch.testing.assert_close(sums, torch.ones_like(sums), atol=1e-5, rtol=0)
    # same argmax pattern as float32 where float32 is decisive
    decisive = tr32.weights.max(-1).values > 0.99
    assert (tr.weights.argmax(-1)[decisive] == tr32.weights.argmax(-1)[decisive]).all()


def test_dropout_only_in_training():
    ours = MultiHeadAttention(16, 2, dropout=0.5, seed=14)
    x = torch.randn(1, 6, 16)
    with torch.no_grad():
        ours.eval()
        tr_eval = ours(x)
        ours.train()
        torch.manual_seed(0)
        tr_train = ours(x)
    assert tr_eval.dropped_weights is None
    assert tr_train.dropped_weights is not None
    zeros = tr_train.dropped_weights == 0
    assert zeros.any() and not zeros.all()
    kept = ~zeros
    assert_close_f32(tr_train.dropped_weights[kept], tr_train.weights[kept] * 2, atol=1e-6)
    y = tr_train.dropped_weights @ tr_train.v
    assert_close_f32(tr_train.head_outputs, y, atol=1e-6)


def test_additive_scoring_matches_formula():
    ours = MultiHeadAttention(12, 3, scoring="additive", seed=15).eval()
    x = torch.randn(1, 5, 12)
    with torch.no_grad():
        tr = ours(x)
        for h in range(3):
            q, k = tr.q[0, h], tr.k[0, h]  # (T, hs)
            Wq, Wk, v = ours.scorer.w_q[h], ours.scorer.w_k[h], ours.scorer.v[h]
            expect = torch.empty(5, 5)
            for i in range(5):
                for j in range(5):
                    expect[i, j] = v @ torch.tanh(q[i] @ Wq + k[j] @ Wk)
            torch.testing.assert_close(tr.scores[0, h], expect, atol=1e-5, rtol=1e-5)
            assert_close_f32(tr.weights[0, h], torch.softmax(expect, -1), atol=1e-6)


def test_seeded_init_is_reproducible_and_seed_dependent():
    a = MultiHeadAttention(32, 4, seed=3)
    b = MultiHeadAttention(32, 4, seed=3)
    c = MultiHeadAttention(32, 4, seed=4)
    assert torch.equal(a.in_proj_weight, b.in_proj_weight)
    assert not torch.equal(a.in_proj_weight, c.in_proj_weight)


def test_results_not_stored_on_module():
    ours = MultiHeadAttention(16, 4, seed=0).eval()
    before = set(vars(ours))
    with torch.no_grad():
        ours(torch.randn(1, 3, 16))
    assert set(vars(ours)) == before


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"d_model": 10, "n_heads": 4}, "d_model=10 is not divisible by n_heads=4"),
        ({"d_model": 0, "n_heads": 1}, "positive"),
        ({"d_model": 8, "n_heads": 0}, "positive"),
    ],
)
def test_invalid_settings_explain_themselves(kwargs, match):
    with pytest.raises(ValueError, match=match):
        MultiHeadAttention(kwargs["d_model"], kwargs["n_heads"])
    with pytest.raises(ValueError, match=match):
        AttentionConfig(**kwargs)


def test_invalid_temperature_and_scoring():
    with pytest.raises(ValueError, match="temperature"):
        MultiHeadAttention(8, 2)(torch.randn(1, 2, 8), temperature=0.0)
    with pytest.raises(ValueError, match="scoring"):
        MultiHeadAttention(8, 2, scoring="cosine")
    with pytest.raises(ValueError, match="d_model=8"):
        MultiHeadAttention(8, 2)(torch.randn(1, 2, 6))


def test_run_attention_pipeline():
    cfg = AttentionConfig(d_model=16, n_heads=4, mask="causal", seed=1)
    res = run_attention(["the", "cat", "saw", "the", "dog"], cfg)
    w = res.attention.weights[0]
    assert w.shape == (4, 5, 5)
    assert (w[:, torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)] == 0).all()
    again = run_attention(["the", "cat", "saw", "the", "dog"], cfg)
    assert torch.equal(res.attention.weights, again.attention.weights)
    with pytest.raises(ValueError, match="no tokens"):
        run_attention([], cfg)


@pytest.mark.parametrize("scoring", ["dot", "additive"])
def test_logits_are_what_the_softmax_saw(scoring):
    ours = MultiHeadAttention(24, 3, scoring=scoring, seed=16).eval()
    x = torch.randn(2, 6, 24)
    with torch.no_grad():
        tr = ours(x, mask="causal", temperature=0.5)
    upper = torch.triu(torch.ones(6, 6, dtype=torch.bool), diagonal=1)
    assert torch.isneginf(tr.masked_scores[..., upper]).all()
    assert torch.isfinite(tr.masked_scores[..., ~upper]).all()
    assert_close_f32(torch.softmax(tr.masked_scores, -1), tr.weights, atol=1e-6)
    expect = tr.scores * tr.scale_factor / 0.5
    got = tr.masked_scores[..., ~upper]
    torch.testing.assert_close(got, expect[..., ~upper], atol=1e-5, rtol=1e-6)
    if scoring == "additive":  # the stored scores were not overwritten by the softmax
        assert not torch.allclose(tr.scores.exp().sum(-1), torch.ones(2, 3, 6))
