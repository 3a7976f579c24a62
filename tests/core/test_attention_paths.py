"""The speed paths of `MultiHeadAttention` (fused Q/K/V projection, fused K/V projection, the
in-place / caller-buffer softmax, batch_first keeping `key is value`) against the plain lesson
arithmetic: X @ W + b split into heads, softmax of masked scores, empty rows zero."""

from __future__ import annotations

import pytest
import torch

from mha_core import MultiHeadAttention, causal_mask
from mha_core.layer.attention import batch_first
from mha_core.layer.masks import masked_softmax
from mha_core.layer.scoring import AdditiveScorer, DotProductScorer, make_scorer

RTOL, ATOL = 1e-5, 1e-6
B, T, S, C, NH = 2, 5, 7, 24, 4
HS = C // NH


def _close(a, b):
    torch.testing.assert_close(a, b, rtol=RTOL, atol=ATOL)


def _plain_heads(mha: MultiHeadAttention, xq, xk, xv):
    """Q = X W_Q + b_Q (and K, V) in the math convention, each split into heads (B, nh, T, hs)."""
    wq, wk, wv = mha.projection_weights()
    bq, bk, bv = mha.projection_biases()

    def split(x):
        return x.view(x.shape[0], x.shape[1], NH, HS).transpose(1, 2)

    return split(xq @ wq + bq), split(xk @ wk + bk), split(xv @ wv + bv)


@pytest.fixture
def mha() -> MultiHeadAttention:
    m = MultiHeadAttention(C, NH, seed=3)
    with torch.no_grad():
        m.in_proj_bias.uniform_(-0.5, 0.5, generator=torch.Generator().manual_seed(1))
    return m


@pytest.fixture
def xs():
    g = torch.Generator().manual_seed(0)
    return torch.randn(B, T, C, generator=g), torch.randn(B, S, C, generator=g)


def test_fused_qkv_projection_equals_the_plain_one(mha, xs):
    x, _ = xs
    for got, want in zip(mha.self_attention_heads(x), _plain_heads(mha, x, x, x), strict=True):
        assert got.shape == (B, NH, T, HS)
        _close(got, want)


@pytest.mark.parametrize("same_key_value", [True, False])
def test_cross_attention_projection_equals_the_plain_one(mha, xs, same_key_value):
    x, mem = xs
    value = mem if same_key_value else mem.flip(1)  # `key is value` takes the fused K/V branch
    got = mha.cross_attention_heads(x, mem, value)
    for g, w in zip(got, _plain_heads(mha, x, mem, value), strict=True):
        _close(g, w)


def test_forward_self_attention_equals_the_plain_path(mha, xs):
    """The forward (fused projection, in-place softmax) against the lesson's arithmetic."""
    x, _ = xs
    tr = mha(x, mask="causal")
    q, k, v = _plain_heads(mha, x, x, x)
    s = q @ k.transpose(-2, -1) / HS**0.5
    s = s.masked_fill(~causal_mask(T), float("-inf"))
    w = torch.softmax(s, dim=-1)
    y = (w @ v).transpose(1, 2).reshape(B, T, C)
    _close(tr.weights, w)
    _close(tr.masked_scores, s)
    _close(tr.output, y @ mha.out_proj.weight.T + mha.out_proj.bias)


def test_masked_softmax_in_place_and_into_a_buffer_equal_the_plain_softmax():
    g = torch.Generator().manual_seed(2)
    allowed = torch.rand(B, 1, T, S, generator=g) > 0.4
    allowed[0, 0, 1] = False  # a query with no key
    att = torch.randn(B, NH, T, S, generator=g).masked_fill(~allowed, float("-inf"))
    plain = torch.softmax(att, dim=-1)
    plain = torch.where(allowed.any(-1, keepdim=True), plain, torch.zeros(()))  # NaN row -> 0
    assert not torch.isnan(plain).any() and torch.equal(plain[0, :, 1], torch.zeros(NH, S))
    keep = att.clone()
    kept = masked_softmax(keep, allowed, keep_input=True)
    assert kept.data_ptr() != keep.data_ptr() and torch.equal(keep, att)  # input untouched
    _close(kept, plain)
    buf = torch.empty_like(att)
    into = masked_softmax(att.clone(), allowed, out=buf)
    assert into.data_ptr() == buf.data_ptr()
    _close(buf, plain)
    scratch = att.clone()
    inplace = masked_softmax(scratch, allowed)
    assert inplace.data_ptr() == scratch.data_ptr()  # no second T x T buffer
    _close(inplace, plain)
    with pytest.raises(ValueError, match="weights_out"):
        masked_softmax(att.clone(), allowed, out=torch.empty(B, NH, T, S + 1))


def test_weights_out_gives_the_same_trace(mha, xs):
    x, _ = xs
    buf = torch.empty(B, NH, T, T)
    with torch.inference_mode():
        a = mha(x)
        b = mha(x, weights_out=buf)
    assert b.weights.data_ptr() == buf.data_ptr()
    _close(b.weights, a.weights)
    _close(b.output, a.output)


def test_batch_first_keeps_one_tensor_one_tensor(xs):
    x = xs[0][0]  # (T, C)
    q, k, v = batch_first(x, None, None)
    assert q.shape == (1, T, C) and k is q and v is q
    mem = xs[1][0]
    q, k, v = batch_first(x, mem, mem)
    assert k is v and k is not q and k.shape == (1, S, C)
    q, k, v = batch_first(x, mem, mem.flip(0))
    assert k is not v and v.shape == (1, S, C)
    three = xs[0]
    assert batch_first(three, None, None) == (three, three, three)


def test_unbatched_input_equals_a_batch_of_one(mha, xs):
    x, mem = xs[0][0], xs[1][0]
    _close(mha(x).output[0], mha(x[None]).output[0])
    _close(mha(x, mem, mem).output[0], mha(x[None], mem[None], mem[None].clone()).output[0])


def test_scorers_are_chosen_by_config_and_score_as_their_formulas():
    assert isinstance(make_scorer("dot", NH, HS), DotProductScorer)
    assert isinstance(make_scorer("additive", NH, HS), AdditiveScorer)
    with pytest.raises(ValueError):
        make_scorer("cosine", NH, HS)
    g = torch.Generator().manual_seed(4)
    q, k = torch.randn(B, NH, T, HS, generator=g), torch.randn(B, NH, S, HS, generator=g)
    dot = DotProductScorer(HS)(q, k, temperature=2.0)
    _close(dot.scaled, q @ k.transpose(-2, -1) / (HS**0.5 * 2.0))
    assert dot.raw is None and dot.scale_factor == pytest.approx(HS**-0.5)
    add = AdditiveScorer(NH, HS)
    add.reset_parameters(g)
    got = add(q, k)
    for h in range(NH):
        for i in range(T):
            for j in range(S):
                f = torch.tanh(q[:, h, i] @ add.w_q[h] + k[:, h, j] @ add.w_k[h])  # (B, hs)
                _close(got.raw[:, h, i, j], f @ add.v[h])
    assert got.scale_factor == 1.0 and torch.equal(got.scaled, got.raw)
