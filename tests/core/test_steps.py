"""The step-by-step pieces recompose into exactly what the core computed.

Three kinds of checks:
- the pieces ARE the core's trace (bit for bit) where the page shows a trace tensor;
- the pieces recompose (X W_Q^h + b = Q_h, α_h V_h = output_h, concat W_O + b_O = output) to
  1e-6 in float32, the same arithmetic the core does;
- the pieces equal an independent float64 numpy recomputation from X and the raw parameters
  (torch's (3C, C) in_proj layout, not our math-convention helpers), and torch's own
  nn.MultiheadAttention on the same weights.
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_core import AttentionConfig, build_attention, run_attention, valid_head_counts
from mha_core.lessons.steps import HeadSteps, head_steps
from tests.helpers.numeric import assert_close_f32

F32 = 1e-6  # same float32 arithmetic, possibly another order of summation
# float64 reference against float32 results: float32 (eps 1.2e-7) accumulated over at most
# 512 terms stays below 2e-6 of the largest magnitude involved.
REL64 = 2e-6

SENTENCE = ["attention", "is", "not", "too", "shabby", "and", "the", "cat", "saw", "the", "dog"]
CASES = [
    # d_model, n_heads, mask, scale, scoring, positional
    (64, 4, "none", True, "dot", True),
    (64, 4, "causal", True, "dot", True),
    (48, 3, "causal", False, "dot", False),
    (16, 16, "none", True, "dot", True),
    (12, 1, "causal", True, "dot", True),
    (32, 4, "causal", True, "additive", True),
    (24, 2, "none", True, "additive", False),
    (512, 2, "causal", True, "dot", True),
]


FIELDS = ("d_model", "n_heads", "mask", "scale", "scoring", "positional")  # CASES' order


def _run(*values, tokens=SENTENCE, seed=7, **named):
    """The sentence's run and its layer; `values` in FIELDS order (a CASES row), then `named`,
    over d_model 64, 4 heads, no mask, scaled dot product, sinusoidal PE."""
    settings = dict(d_model=64, n_heads=4, mask="none", scale=True, scoring="dot", positional=True)
    cfg = AttentionConfig(**{**settings, **dict(zip(FIELDS, values)), **named}, seed=seed)
    layer = build_attention(cfg)
    return run_attention(list(tokens), cfg, layer), layer


def _close64(ours: torch.Tensor, ref: np.ndarray, rel: float = REL64) -> None:
    ours_np = ours.double().numpy()
    assert ours_np.shape == ref.shape
    finite = np.isfinite(ref)
    assert np.array_equal(finite, np.isfinite(ours_np))
    assert np.array_equal(ref[~finite], ours_np[~finite])  # -inf exactly where masked
    scale = max(1.0, float(np.abs(ref[finite]).max())) if finite.any() else 1.0
    err = float(np.abs(ours_np[finite] - ref[finite]).max()) if finite.any() else 0.0
    assert err <= rel * scale, f"max error {err:.3g} > {rel * scale:.3g}"


def _softmax(a: np.ndarray) -> np.ndarray:
    m = np.max(a, axis=-1, keepdims=True)
    e = np.exp(a - m)
    return e / e.sum(axis=-1, keepdims=True)


# --- the pieces are the core's own numbers --------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_pieces_are_the_core_trace(case):
    sentence, layer = _run(*case)
    tr = sentence.attention
    nh = case[1]
    for h in range(nh):
        s = head_steps(sentence, layer, h, len(SENTENCE) - 1)
        assert torch.equal(s.q, tr.q[0, h])
        assert torch.equal(s.k, tr.k[0, h])
        assert torch.equal(s.v, tr.v[0, h])
        assert torch.equal(s.scores, tr.scores[0, h])
        assert torch.equal(s.weights, tr.weights[0, h])
        assert torch.equal(s.head_output, tr.head_outputs[0, h])
        assert torch.equal(s.concat, tr.concat[0])
        assert torch.equal(s.output, tr.output[0])
        assert torch.equal(s.x, sentence.x)
        assert s.scale_factor == tr.scale_factor


@pytest.mark.parametrize("case", CASES)
def test_shapes_in_the_math_convention(case):
    sentence, layer = _run(*case)
    C, nh = case[0], case[1]
    T, dk = len(SENTENCE), C // nh
    s = head_steps(sentence, layer, nh - 1, 0)
    assert s.x.shape == s.embeddings.shape == s.positional_encoding.shape == (T, C)
    assert s.w_q.shape == s.w_k.shape == s.w_v.shape == (C, dk)
    assert s.b_q.shape == s.b_k.shape == s.b_v.shape == (dk,)
    assert s.q.shape == s.k.shape == s.v.shape == s.head_output.shape == (T, dk)
    for m in (s.scores, s.scaled_scores, s.masked_scores, s.weights, s.allowed):
        assert m.shape == (T, T)
    assert s.concat.shape == s.output.shape == (T, C)
    assert s.w_o.shape == (C, C) and s.b_o.shape == (C,)
    assert s.naive_weights.shape == (T,)
    assert s.naive_sum.shape == s.attention_sum.shape == (dk,)
    assert s.head_columns == ((nh - 1) * dk, nh * dk)
    assert (s.d_model, s.n_heads, s.d_k, s.n_tokens) == (C, nh, dk, T)


# --- the pieces recompose -------------------------------------------------------------------
def test_x_is_embeddings_plus_sinusoidal_encoding():
    sentence, layer = _run(64, 4)
    s = head_steps(sentence, layer, 0, 0)
    assert torch.equal(s.embeddings + s.positional_encoding, s.x)
    T, C = s.x.shape
    pos = np.arange(T)[:, None]
    i2 = np.arange(0, C, 2)[None, :]
    pe = np.zeros((T, C))
    pe[:, 0::2] = np.sin(pos / 10000 ** (i2 / C))
    pe[:, 1::2] = np.cos(pos / 10000 ** (i2 / C))
    _close64(s.positional_encoding, pe)

    sentence, layer = _run(64, 4, positional=False)
    s = head_steps(sentence, layer, 0, 0)
    assert not s.positional_encoding.any()
    assert torch.equal(s.embeddings, s.x)


@pytest.mark.parametrize("case", CASES)
def test_projections_recompose(case):
    sentence, layer = _run(*case)
    nh = case[1]
    q_blocks = []
    for h in range(nh):
        s = head_steps(sentence, layer, h, 0)
        for w, b, ref in ((s.w_q, s.b_q, s.q), (s.w_k, s.b_k, s.k), (s.w_v, s.b_v, s.v)):
            assert_close_f32(s.x @ w + b, ref, atol=F32)
        q_blocks.append(s.w_q)
    # the heads' W_Q^h side by side are the whole W_Q (no column lost or reused)
    assert torch.equal(torch.cat(q_blocks, dim=1), layer.projection_weights()[0].detach())


@pytest.mark.parametrize("case", CASES)
def test_weights_times_values_is_the_head_output(case):
    sentence, layer = _run(*case)
    for h in range(case[1]):
        s = head_steps(sentence, layer, h, 1)
        assert_close_f32(s.weights @ s.v, sentence.attention.head_outputs[0, h], atol=F32)
        h0, h1 = s.head_columns
        assert torch.equal(s.concat[:, h0:h1], s.head_output)


@pytest.mark.parametrize("case", CASES)
def test_concat_of_heads_then_w_o_is_the_output(case):
    sentence, layer = _run(*case)
    heads = [head_steps(sentence, layer, h, 0) for h in range(case[1])]
    concat = torch.cat([s.head_output for s in heads], dim=1)  # (T, C)
    assert torch.equal(concat, sentence.attention.concat[0])
    s = heads[-1]
    assert_close_f32(concat @ s.w_o + s.b_o, sentence.attention.output[0], atol=F32)
    assert_close_f32(concat @ s.w_o + s.b_o, s.output, atol=F32)


@pytest.mark.parametrize("case", CASES)
def test_scaling_mask_and_softmax(case):
    sentence, layer = _run(*case)
    d_model, nh, mask, scale, scoring, _ = case
    dk = d_model // nh
    T = len(SENTENCE)
    s = head_steps(sentence, layer, nh // 2, T // 2)
    factor = 1 / math.sqrt(dk) if scale and scoring == "dot" else 1.0
    assert s.scale_factor == pytest.approx(factor)
    torch.testing.assert_close(s.scaled_scores, s.scores * factor, atol=F32, rtol=F32)
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    expected_allowed = causal if mask == "causal" else torch.ones(T, T, dtype=torch.bool)
    assert torch.equal(s.allowed, expected_allowed)
    assert torch.equal(s.masked_scores[s.allowed], s.scaled_scores[s.allowed])
    assert bool((s.masked_scores[~s.allowed] == -math.inf).all())
    assert bool((s.weights[~s.allowed] == 0).all())  # exactly 0, not small
    torch.testing.assert_close(s.weights.double().sum(-1), torch.ones(T, dtype=torch.float64))
    assert_close_f32(torch.softmax(s.masked_scores, dim=-1), s.weights, atol=F32)
    assert s.row_sum == pytest.approx(1.0, abs=F32)
    assert s.n_allowed == (T // 2 + 1 if mask == "causal" else T)


# --- against independent computations -------------------------------------------------------
@pytest.mark.parametrize("case", [c for c in CASES if c[4] == "dot"])
def test_against_plain_numpy(case):
    """Recompute every step in float64 from X and the raw (3C, C) in_proj / out_proj weights."""
    sentence, layer = _run(*case)
    d_model, nh, mask, scale, _, _ = case
    C, dk, T = d_model, d_model // nh, len(SENTENCE)
    X = sentence.x.double().numpy()  # (T, C)
    W = layer.in_proj_weight.detach().double().numpy()  # (3C, C), torch layout: y = x W^T + b
    b = layer.in_proj_bias.detach().double().numpy()  # (3C,)
    Wo = layer.out_proj.weight.detach().double().numpy()  # (C, C)
    bo = layer.out_proj.bias.detach().double().numpy()  # (C,)
    Q_all = X @ W[:C].T + b[:C]  # (T, C)
    K_all = X @ W[C : 2 * C].T + b[C : 2 * C]
    V_all = X @ W[2 * C :].T + b[2 * C :]
    outs = []
    for h in range(nh):
        cols = slice(h * dk, (h + 1) * dk)
        Q, K, V = Q_all[:, cols], K_all[:, cols], V_all[:, cols]  # (T, dk)
        S = Q @ K.T  # (T, T)
        Ss = S / np.sqrt(dk) if scale else S
        M = np.where(np.tril(np.ones((T, T), bool)), Ss, -np.inf) if mask == "causal" else Ss
        A = _softmax(M)
        O = A @ V  # (T, dk)
        outs.append(O)
        query = (3 * h + 2) % T
        s = head_steps(sentence, layer, h, query)
        _close64(s.w_q, W[:C].T[:, cols])
        _close64(s.q, Q)
        _close64(s.k, K)
        _close64(s.v, V)
        _close64(s.scores, S)
        _close64(s.scaled_scores, Ss)
        _close64(s.masked_scores, M)
        _close64(s.weights, A)
        _close64(s.head_output, O)
        _close64(s.attention_sum, O[query])
    concat = np.concatenate(outs, axis=1)  # (T, C)
    _close64(s.concat, concat)
    _close64(s.w_o, Wo.T)
    _close64(s.output, concat @ Wo.T + bo)


@pytest.mark.parametrize("d_model,n_heads,mask", [(64, 4, "none"), (48, 6, "causal")])
def test_against_torch_multihead_attention(d_model, n_heads, mask):
    sentence, layer = _run(d_model, n_heads, mask)
    ref = torch.nn.MultiheadAttention(d_model, n_heads, batch_first=True).eval()
    ref.load_state_dict(layer.state_dict(), strict=False)
    T = len(SENTENCE)
    attn_mask = ~torch.ones(T, T, dtype=torch.bool).tril() if mask == "causal" else None
    with torch.no_grad():
        x = sentence.x[None]
        out, w = ref(x, x, x, attn_mask=attn_mask, need_weights=True, average_attn_weights=False)
    for h in range(n_heads):
        s = head_steps(sentence, layer, h, 0)
        assert_close_f32(s.weights, w[0, h], atol=F32)
        assert_close_f32(s.output, out[0], atol=F32)


@pytest.mark.parametrize("mask", ["none", "causal"])
def test_additive_scores_follow_their_formula(mask):
    sentence, layer = _run(32, 4, mask, scoring="additive")
    T = len(SENTENCE)
    for h in range(4):
        s = head_steps(sentence, layer, h, T - 2)
        a = s.additive
        assert a is not None and s.scoring == "additive"
        assert s.scale_factor == 1.0  # 1/sqrt(d_k) does not apply to additive scores
        assert torch.equal(s.scaled_scores, s.scores)
        q = s.q.double().numpy()
        k = s.k.double().numpy()
        wq = layer.scorer.w_q[h].detach().double().numpy()
        wk = layer.scorer.w_k[h].detach().double().numpy()
        v = layer.scorer.v[h].detach().double().numpy()
        # score[i, j] = v^T tanh(q_i W_q + k_j W_k), for every pair
        ref = np.tanh((q @ wq)[:, None, :] + (k @ wk)[None, :, :]) @ v  # (T, T)
        _close64(s.scores, ref)
        _close64(a.features, np.tanh(q[s.query] @ wq + k @ wk))
        _close64(a.row_scores, ref[s.query])
        assert_close_f32(a.row_scores, s.scores[s.query], atol=F32)
        assert torch.equal(a.w_q, layer.scorer.w_q[h].detach())


def test_dot_product_has_no_additive_parts():
    sentence, layer = _run(64, 4)
    assert head_steps(sentence, layer, 0, 0).additive is None


# --- before attention: naive summation -----------------------------------------------------
@pytest.mark.parametrize("mask", ["none", "causal"])
def test_naive_sum_against_attention(mask):
    sentence, layer = _run(64, 4, mask)
    T = len(SENTENCE)
    for query in (0, 3, T - 1):
        s = head_steps(sentence, layer, 2, query)
        n = query + 1 if mask == "causal" else T
        expected = np.zeros(T)
        expected[:n] = 1.0 / n
        _close64(s.naive_weights, expected)
        assert s.n_allowed == n
        V = s.v.double().numpy()
        _close64(s.naive_sum, V[:n].mean(axis=0))  # every relation weighted equally
        A = s.weights.double().numpy()
        _close64(s.attention_sum, A[query] @ V)
        assert_close_f32(s.attention_sum, s.head_output[query], atol=F32)
        dist = np.linalg.norm(V[:n].mean(axis=0) - A[query] @ V)
        assert s.naive_attention_distance == pytest.approx(dist, abs=1e-5)
    # the first token under a causal mask sees only itself: both sums are its own value
    s = head_steps(sentence, layer, 2, 0)
    if mask == "causal":
        assert_close_f32(s.naive_sum, s.attention_sum, atol=F32)


def test_repeated_tokens_keep_their_own_rows():
    sentence, layer = _run(16, 2, "causal", tokens=["the"] * 5)
    s = head_steps(sentence, layer, 1, 4)
    assert s.weights.shape == (5, 5)
    # same embedding, different positions: rows differ because of the positional encoding
    assert not torch.equal(s.q[0], s.q[4])
    assert s.row_sum == pytest.approx(1.0, abs=F32)


# --- contract -------------------------------------------------------------------------------
def test_invalid_head_or_query_explain_themselves():
    sentence, layer = _run(64, 4)
    with pytest.raises(ValueError, match="head must be between 0 and 3"):
        head_steps(sentence, layer, 4, 0)
    with pytest.raises(ValueError, match="head must be"):
        head_steps(sentence, layer, -1, 0)
    with pytest.raises(ValueError, match="query must be a token position"):
        head_steps(sentence, layer, 0, len(SENTENCE))
    other = build_attention(AttentionConfig(d_model=64, n_heads=8))
    with pytest.raises(ValueError, match="does not match"):
        head_steps(sentence, other, 0, 0)


def test_pieces_own_their_storage_and_pickle_small():
    """A view would drag the whole trace (and W_Q, W_K, W_V) into every cached copy."""
    sentence, layer = _run(512, 8, tokens=[f"w{i}" for i in range(16)])
    s = head_steps(sentence, layer, 3, 5)
    for name in ("q", "k", "v", "w_q", "w_k", "w_v", "scores", "weights", "head_output"):
        t = getattr(s, name)
        assert t.untyped_storage().nbytes() == t.numel() * t.element_size(), name
        assert not t.requires_grad
    size = len(pickle.dumps(s))
    # 3 x (512 x 64) head projections + W_O (512 x 512) + small pieces, float32
    assert size < 4 * (3 * 512 * 64 + 512 * 512) * 1.5
    back = pickle.loads(pickle.dumps(s))
    assert isinstance(back, HeadSteps) and torch.equal(back.output, s.output)


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_recomposition_holds_for_any_settings(data):
    d_model = data.draw(st.sampled_from([4, 8, 12, 16, 24, 32, 48]), label="d_model")
    n_heads = data.draw(st.sampled_from(valid_head_counts(d_model, 16)), label="n_heads")
    T = data.draw(st.integers(1, 12), label="T")
    mask = data.draw(st.sampled_from(["none", "causal"]), label="mask")
    scoring = data.draw(st.sampled_from(["dot", "additive"]), label="scoring")
    scale = data.draw(st.booleans(), label="scale")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    head = data.draw(st.integers(0, n_heads - 1), label="head")
    query = data.draw(st.integers(0, T - 1), label="query")
    tokens = [f"t{i % 4}" for i in range(T)]
    sentence, layer = _run(d_model, n_heads, mask, scale, scoring, tokens=tokens, seed=seed)
    s = head_steps(sentence, layer, head, query)
    assert_close_f32(s.x @ s.w_q + s.b_q, s.q, atol=F32)
    assert_close_f32(s.weights @ s.v, s.head_output, atol=F32)
    assert_close_f32(s.concat @ s.w_o + s.b_o, s.output, atol=F32)
    assert_close_f32(torch.softmax(s.masked_scores, -1), s.weights, atol=F32)
    assert s.row_sum == pytest.approx(1.0, abs=F32)
    assert bool((s.weights[~s.allowed] == 0).all())
    assert float(s.naive_weights.double().sum()) == pytest.approx(1.0, abs=F32)
    assert bool(torch.isfinite(s.output).all())
