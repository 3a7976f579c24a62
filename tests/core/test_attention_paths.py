"""The speed paths of `MultiHeadAttention` (fused Q/K/V projection, fused K/V projection, the
in-place / caller-buffer softmax, batch_first keeping `key is value`, the float32 detour of half
precision) against the plain lesson arithmetic: X @ W + b split into heads, softmax of masked
scores, empty rows zero."""

from __future__ import annotations

import pytest
import torch

from mha_core import MultiHeadAttention, causal_mask
from mha_core.layer.attention import batch_first, in_dtype_of, in_float32
from mha_core.layer.masks import softmax_buffer, zero_empty_rows
from mha_core.layer.scoring import AdditiveScorer

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


def _softmax(att, allowed, out):
    """The forward's step 4: the softmax written where `softmax_buffer` says, empty rows 0."""
    return zero_empty_rows(torch.softmax(att, dim=-1, out=out), allowed)


def test_softmax_in_place_and_into_a_buffer_equal_the_plain_softmax():
    g = torch.Generator().manual_seed(2)
    allowed = torch.rand(B, 1, T, S, generator=g) > 0.4
    allowed[0, 0, 1] = False  # a query with no key
    att = torch.randn(B, NH, T, S, generator=g).masked_fill(~allowed, float("-inf"))
    plain = torch.softmax(att, dim=-1)
    plain = torch.where(allowed.any(-1, keepdim=True), plain, torch.zeros(()))  # NaN row -> 0
    assert not torch.isnan(plain).any() and torch.equal(plain[0, :, 1], torch.zeros(NH, S))
    keep = att.clone()
    kept = _softmax(keep, allowed, None)  # a new tensor
    assert kept.data_ptr() != keep.data_ptr() and torch.equal(keep, att)  # input untouched
    _close(kept, plain)
    buf = torch.empty_like(att)
    into = _softmax(att.clone(), allowed, softmax_buffer(att, buf))
    assert into.data_ptr() == buf.data_ptr()
    _close(buf, plain)
    scratch = att.clone()
    inplace = _softmax(scratch, allowed, softmax_buffer(scratch))
    assert inplace.data_ptr() == scratch.data_ptr()  # no second T x T buffer
    _close(inplace, plain)
    grad = att.clone().requires_grad_()
    assert softmax_buffer(grad) is None  # autograd needs the scores
    _close(_softmax(grad, allowed, None).detach(), plain)
    assert zero_empty_rows(plain, None) is plain
    with pytest.raises(ValueError, match="weights_out"):
        softmax_buffer(att, torch.empty(B, NH, T, S + 1))
    with pytest.raises(ValueError, match="weights_out"):
        softmax_buffer(att, torch.empty(B, NH, T, S, dtype=torch.float64))


def test_half_precision_takes_the_float32_detour_and_comes_back(mha, xs):
    x, _ = xs
    q, k, v = (t.half() for t in _plain_heads(mha, x, x, x))
    qf, kf, vf = in_float32(q, k, v)
    assert qf.dtype == kf.dtype == vf.dtype == torch.float32
    assert torch.equal(qf, q.float()) and torch.equal(vf, v.float())
    same = in_float32(*_plain_heads(mha, x, x, x))
    assert all(t.dtype == torch.float32 for t in same)
    assert in_dtype_of(qf, q).dtype == torch.float16 and torch.equal(in_dtype_of(qf, q), q)
    assert in_dtype_of(qf, qf) is qf
    half = MultiHeadAttention(C, NH, seed=3).half()
    with torch.no_grad():
        half.load_state_dict({n: p.half() for n, p in mha.state_dict().items()})
    tr = half(x.half(), mask="causal")
    assert tr.weights.dtype == torch.float32 and tr.output.dtype == torch.float16
    # the plain path on the layer's own half-precision q, k, v, in float32
    qf, kf, vf = tr.q.float(), tr.k.float(), tr.v.float()
    att = (qf @ kf.transpose(-2, -1) / HS**0.5).masked_fill(~causal_mask(T), float("-inf"))
    w = torch.softmax(att, dim=-1)
    concat = (w @ vf).transpose(1, 2).reshape(B, T, C).half()
    _close(tr.weights, w)
    torch.testing.assert_close(tr.concat, concat)
    out = torch.nn.functional.linear(concat, half.out_proj.weight, half.out_proj.bias)
    torch.testing.assert_close(tr.output, out)


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


def test_dot_product_scores_are_q_k_over_sqrt_hs_and_the_temperature(mha, xs):
    x, mem = xs
    tr = mha(x, mem, mem, temperature=2.0)
    q, k, _ = _plain_heads(mha, x, mem, mem)
    _close(tr.masked_scores, q @ k.transpose(-2, -1) / (HS**0.5 * 2.0))
    _close(tr.scores, q @ k.transpose(-2, -1))
    assert tr.additive_scores is None and tr.scale_factor == pytest.approx(HS**-0.5)
    unscaled = MultiHeadAttention(C, NH, seed=3, scale=False)
    unscaled.load_state_dict(mha.state_dict())
    _close(unscaled(x, mem, mem).masked_scores, q @ k.transpose(-2, -1))


def test_additive_scores_are_their_formula():
    assert MultiHeadAttention(C, NH).scorer is None  # dot products: no weights of their own
    g = torch.Generator().manual_seed(4)
    q, k = torch.randn(B, NH, T, HS, generator=g), torch.randn(B, NH, S, HS, generator=g)
    add = AdditiveScorer(NH, HS)
    add.reset_parameters(g)
    got = add.raw_scores(q, k)
    for h in range(NH):
        for i in range(T):
            for j in range(S):
                f = torch.tanh(q[:, h, i] @ add.w_q[h] + k[:, h, j] @ add.w_k[h])  # (B, hs)
                _close(got[:, h, i, j], f @ add.v[h])


@pytest.mark.parametrize("n_kv", [NH, 2, 1])
def test_inference_masking_and_grouped_heads_equal_the_autograd_path(xs, n_kv):
    """Without autograd the mask is a 0 / -inf bias added in place (`mask_scores`), and the
    query heads of a group meet their one K and V in one matmul (`grouped_matmul`); with
    autograd, `masked_fill` and the same heads. Checked on a causal mask, a padding mask with a
    sequence that is all padding (empty rows), and both, against K and V repeated per head."""
    m = MultiHeadAttention(C, NH, n_kv_heads=n_kv, seed=5)
    x, _ = xs
    pad = torch.tensor([[False, False, False, True, True], [True] * T])  # batch 1: all padding
    for mask, kpm in (("causal", None), (None, pad), ("causal", pad)):
        grad = m(x, mask=mask, key_padding_mask=kpm)
        assert grad.weights.requires_grad
        with torch.inference_mode():
            fast = m(x, mask=mask, key_padding_mask=kpm)
        _close(fast.weights, grad.weights.detach())
        _close(fast.output, grad.output.detach())
        if kpm is not None:
            assert (fast.weights[1] == 0).all()  # all padding: nothing to attend
        g = NH // n_kv
        k, v = fast.k.repeat_interleave(g, 1), fast.v.repeat_interleave(g, 1)  # (B, nh, T, hs)
        _close(fast.head_outputs, fast.weights @ v)
        scores = fast.q @ k.transpose(-2, -1) * HS**-0.5
        allowed = fast.allowed.expand_as(scores)
        _close(
            fast.weights[allowed],
            torch.softmax(scores.masked_fill(~allowed, -torch.inf), -1)[allowed],
        )
