"""MultiHeadAttention with grouped key/value heads: against nn.MultiheadAttention when there are
as many key/value heads as heads, and against F.scaled_dot_product_attention(enable_gqa=True)
on the layer's own projections when there are fewer."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from mha_core import MultiHeadAttention


def _reference(mha: MultiHeadAttention, x, xk, xv, causal: bool):
    """Q, K, V written out from the parameters, then SDPA with enable_gqa, W_O by hand."""
    C, kv = mha.d_model, mha.kv_dim
    nh, n_kv, hs = mha.n_heads, mha.n_kv_heads, mha.d_k
    if mha.kdim == mha.vdim == C:  # one stacked in_proj_weight, as in nn.MultiheadAttention
        W = mha.in_proj_weight
        wq, wk, wv = W[:C], W[C : C + kv], W[C + kv :]
    else:
        wq, wk, wv = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
    b = mha.in_proj_bias
    B, Tq, Tk = x.shape[0], x.shape[1], xk.shape[1]
    q = (x @ wq.T + b[:C]).view(B, Tq, nh, hs).transpose(1, 2)
    k = (xk @ wk.T + b[C : C + kv]).view(B, Tk, n_kv, hs).transpose(1, 2)
    v = (xv @ wv.T + b[C + kv :]).view(B, Tk, n_kv, hs).transpose(1, 2)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
    out = y.transpose(1, 2).reshape(B, Tq, C) @ mha.out_proj.weight.T + mha.out_proj.bias
    return q, k, v, out


def _randomise(mha: MultiHeadAttention, seed: int) -> MultiHeadAttention:
    """The layer's own seeded Xavier weights, and random biases (its own are zero)."""
    mha.reset_parameters(seed)
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for b in (mha.in_proj_bias, mha.out_proj.bias):
            b.copy_(torch.randn(b.shape, generator=g) * 0.1)
    return mha.eval()


@pytest.mark.parametrize("C,nh,n_kv", [(32, 4, 2), (32, 4, 1), (48, 6, 3), (64, 8, 2), (16, 2, 1)])
@pytest.mark.parametrize("causal", [False, True])
def test_grouped_self_attention_equals_sdpa_enable_gqa(C, nh, n_kv, causal):
    mha = _randomise(MultiHeadAttention(C, nh, n_kv_heads=n_kv), C + nh)
    x = torch.randn(2, 9, C, generator=torch.Generator().manual_seed(n_kv))
    tr = mha(x, mask="causal" if causal else None)
    q, k, v, out = _reference(mha, x, x, x, causal)
    hs = C // nh
    assert tr.q.shape == (2, nh, 9, hs) and tr.k.shape == (2, n_kv, 9, hs)
    assert tr.v.shape == (2, n_kv, 9, hs)
    torch.testing.assert_close(tr.k, k, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(tr.output, out, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(tr.weights.sum(-1), torch.ones(2, nh, 9), rtol=1e-5, atol=1e-6)
    scores = q @ k.repeat_interleave(nh // n_kv, 1).transpose(-2, -1)
    torch.testing.assert_close(tr.scores, scores, rtol=1e-5, atol=1e-5)
    if causal:
        assert (tr.weights.triu(1) == 0).all()


def test_grouped_cross_attention_and_separate_key_value_sizes():
    mha = _randomise(MultiHeadAttention(32, 8, n_kv_heads=2), 1)
    g = torch.Generator().manual_seed(2)
    x, mem = torch.randn(1, 5, 32, generator=g), torch.randn(1, 7, 32, generator=g)
    tr = mha(x, mem)  # key is value: the fused K/V projection
    *_, out = _reference(mha, x, mem, mem, False)
    torch.testing.assert_close(tr.output, out, rtol=1e-5, atol=1e-6)
    other = torch.randn(1, 7, 32, generator=g)
    tr = mha(x, mem, other)
    *_, out = _reference(mha, x, mem, other, False)
    torch.testing.assert_close(tr.output, out, rtol=1e-5, atol=1e-6)
    sep = _randomise(MultiHeadAttention(32, 4, n_kv_heads=1, kdim=12, vdim=20), 3)
    xk, xv = torch.randn(1, 6, 12, generator=g), torch.randn(1, 6, 20, generator=g)
    tr = sep(x, xk, xv)
    *_, out = _reference(sep, x, xk, xv, False)
    assert tr.k.shape == (1, 1, 6, 8)
    torch.testing.assert_close(tr.output, out, rtol=1e-5, atol=1e-6)
    wq, wk, wv = sep.projection_weights()
    assert wq.shape == (32, 32) and wk.shape == (12, 8) and wv.shape == (20, 8)


@pytest.mark.parametrize("C,nh", [(16, 1), (32, 4), (48, 6)])
def test_as_many_key_value_heads_as_heads_is_nn_multihead_attention(C, nh):
    ref = nn.MultiheadAttention(C, nh, batch_first=True).eval()
    ours = MultiHeadAttention(C, nh, n_kv_heads=nh).eval()
    ours.load_state_dict(ref.state_dict())
    x = torch.randn(2, 7, C, generator=torch.Generator().manual_seed(C))
    causal = torch.ones(7, 7, dtype=torch.bool).tril()
    tr = ours(x, mask=causal)
    out, w = ref(x, x, x, attn_mask=~causal, need_weights=True, average_attn_weights=False)
    torch.testing.assert_close(tr.output, out, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(tr.weights, w, rtol=1e-5, atol=1e-6)
    assert tr.k.shape == (2, nh, 7, C // nh)
    # the same seeded layer as without the argument: nothing changes for multi-head attention
    plain = MultiHeadAttention(C, nh)
    for a, b in zip(plain.parameters(), MultiHeadAttention(C, nh, n_kv_heads=nh).parameters()):
        assert torch.equal(a, b)


def test_grouped_additive_scoring_and_bad_group_sizes():
    mha = MultiHeadAttention(32, 4, n_kv_heads=2, scoring="additive")
    tr = mha(torch.randn(1, 5, 32))
    torch.testing.assert_close(tr.weights.sum(-1), torch.ones(1, 4, 5))
    assert tr.k.shape == (1, 2, 5, 8)
    with pytest.raises(ValueError, match="not divisible by n_kv_heads=3"):
        MultiHeadAttention(32, 4, n_kv_heads=3)
    with pytest.raises(ValueError, match="n_kv_heads"):
        MultiHeadAttention(32, 4, n_kv_heads=0)
