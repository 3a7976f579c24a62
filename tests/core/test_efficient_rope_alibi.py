"""RoPE and ALiBi against Hugging Face's LLaMA rotary code and BLOOM's ALiBi tensor.

transformers is a test-only reference: the app never imports it.
"""

from __future__ import annotations

import math

import pytest
import torch
from transformers.models.bloom.modeling_bloom import build_alibi_tensor
from transformers.models.llama.modeling_llama import (
    LlamaConfig,
    LlamaRotaryEmbedding,
    apply_rotary_pos_emb,
)

from mha_core.layer import (
    alibi_attention,
    alibi_bias,
    alibi_slopes,
    apply_rope,
    grouped_query_attention,
    pair_rotation,
    shift_test,
)


def _hf_rope(x: torch.Tensor, positions: torch.Tensor, base: float) -> torch.Tensor:
    """Hugging Face LLaMA: cos/sin from LlamaRotaryEmbedding, then apply_rotary_pos_emb."""
    B, nh, T, hs = x.shape
    cfg = LlamaConfig(hidden_size=nh * hs, num_attention_heads=nh, head_dim=hs, rope_theta=base)
    cos, sin = LlamaRotaryEmbedding(cfg)(x, positions)
    out, _ = apply_rotary_pos_emb(x, x, cos, sin)
    return out


# --- RoPE ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "B,nh,T,hs,base",
    [(1, 1, 1, 2, 10000.0), (2, 4, 9, 16, 10000.0), (1, 8, 33, 64, 500000.0), (3, 2, 5, 6, 10.0)],
)
def test_rope_equals_hugging_face_llama(B, nh, T, hs, base):
    g = torch.Generator().manual_seed(B * 100 + T)
    x = torch.randn(B, nh, T, hs, generator=g)
    pos = torch.arange(T)[None].expand(B, T)
    ref = _hf_rope(x, pos, base)
    torch.testing.assert_close(apply_rope(x, base=base), ref, rtol=1e-5, atol=1e-5)


def test_rope_with_given_positions_per_batch_equals_hugging_face():
    g = torch.Generator().manual_seed(3)
    x = torch.randn(2, 3, 7, 32, generator=g)
    pos = torch.tensor([[5, 6, 7, 8, 9, 10, 11], [100, 101, 102, 103, 104, 105, 106]])
    torch.testing.assert_close(apply_rope(x, pos), _hf_rope(x, pos, 10000.0), rtol=1e-5, atol=1e-5)
    # shape (T,) positions: the same for every sequence of the batch
    torch.testing.assert_close(
        apply_rope(x, pos[1]), _hf_rope(x, pos[1][None].expand(2, 7), 10000.0), rtol=1e-5, atol=1e-5
    )


def test_rope_keeps_the_length_of_each_pair():
    x = torch.randn(1, 2, 12, 8, dtype=torch.float64)
    y = apply_rope(x)
    pair_norm = lambda t: t[..., :4] ** 2 + t[..., 4:] ** 2  # noqa: E731
    torch.testing.assert_close(pair_norm(y), pair_norm(x), rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(y[:, :, 0], x[:, :, 0])  # position 0: no rotation


def test_rope_rejects_odd_head_size_and_bad_positions():
    with pytest.raises(ValueError, match="even"):
        apply_rope(torch.randn(1, 1, 3, 5))
    with pytest.raises(ValueError, match="positions"):
        apply_rope(torch.randn(1, 1, 3, 4), torch.arange(4))


def test_pair_rotation_turns_at_its_frequency():
    rot = pair_rotation(50, 16, pair=3)
    w = 1.0 / 10000 ** (6 / 16)
    assert rot.frequency == pytest.approx(w, rel=1e-12)
    assert rot.wavelength == pytest.approx(2 * math.pi / w, rel=1e-12)
    assert rot.angles[7] == pytest.approx(7 * w, rel=1e-12)
    assert (rot.x**2 + rot.y**2) == pytest.approx(1.0)
    # the rotation RoPE applies: unit vector e_3 at position p lands at (cos, sin) in (3, 11)
    e = torch.zeros(1, 1, 50, 16, dtype=torch.float64)
    e[..., 3] = 1.0
    y = apply_rope(e)
    torch.testing.assert_close(y[0, 0, :, 3], torch.from_numpy(rot.x), rtol=1e-9, atol=1e-9)
    torch.testing.assert_close(y[0, 0, :, 11], torch.from_numpy(rot.y), rtol=1e-9, atol=1e-9)
    with pytest.raises(ValueError):
        pair_rotation(5, 16, pair=8)


@pytest.mark.parametrize("shift", [1, 7, 50])
def test_shift_changes_rope_scores_by_rounding_and_added_pe_scores_by_a_lot(shift):
    g = torch.Generator().manual_seed(shift)
    q = torch.randn(1, 4, 12, 16, generator=g)
    k = torch.randn(1, 4, 12, 16, generator=g)
    res = shift_test(q, k, shift)
    assert res.rope_max_change <= 1e-4 * res.score_scale  # float32 rounding of the angles
    assert res.sinusoidal_max_change > 0.1  # the cross terms q . PE(n) move with n
    # in float64 the RoPE scores are the same to 1e-10: only m - n matters
    res64 = shift_test(q.double(), k.double(), shift)
    assert res64.rope_max_change < 1e-10
    assert res64.sinusoidal_max_change > 0.1
    assert res.rope_scores.shape == (1, 4, 12, 12)


def test_shift_zero_changes_nothing():
    q = torch.randn(1, 2, 5, 8)
    res = shift_test(q, q.clone(), 0)
    assert res.rope_max_change == 0.0 and res.sinusoidal_max_change == 0.0


# --- ALiBi --------------------------------------------------------------------------------
@pytest.mark.parametrize("n_heads", [1, 2, 3, 4, 5, 6, 8, 12, 16, 20, 32, 40])
def test_alibi_slopes_equal_bloom(n_heads):
    hf = build_alibi_tensor(torch.ones(1, 3), n_heads, torch.float32)  # (nh, 1, 3) slope * j
    torch.testing.assert_close(alibi_slopes(n_heads), hf[:, 0, 1], rtol=1e-6, atol=0.0)


@pytest.mark.parametrize("n_heads", [1, 2, 4, 8, 16])
def test_alibi_slopes_power_of_two_closed_form(n_heads):
    expected = torch.tensor([2.0 ** (-8 * h / n_heads) for h in range(1, n_heads + 1)])
    torch.testing.assert_close(alibi_slopes(n_heads), expected, rtol=1e-7, atol=0.0)


@pytest.mark.parametrize("n_heads,t", [(1, 1), (4, 6), (12, 10), (5, 17)])
def test_alibi_bias_is_minus_slope_times_distance_below_the_diagonal(n_heads, t):
    bias = alibi_bias(n_heads, t)
    assert bias.shape == (n_heads, t, t)
    hf = build_alibi_tensor(torch.ones(1, t), n_heads, torch.float32)[:, 0]  # (nh, T) slope * j
    # BLOOM adds slope * j and relies on softmax ignoring a constant per row (- slope * i)
    bloom_bias = hf[:, None, :] - hf[:, :, None]  # (nh, T, T) slope * (j - i)
    below = torch.ones(t, t, dtype=torch.bool).tril()
    torch.testing.assert_close(bias[:, below], bloom_bias[:, below], rtol=1e-6, atol=1e-6)
    slopes = alibi_slopes(n_heads)
    for h in range(n_heads):
        for i in range(t):
            for j in range(i + 1):
                assert bias[h, i, j].item() == pytest.approx(-slopes[h].item() * (i - j), rel=1e-6)


def test_attention_with_alibi_equals_sdpa_with_the_bias_as_float_mask():
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 4, 9, 8, generator=g) for _ in range(3))
    bias = alibi_bias(4, 9)
    ours = grouped_query_attention(q, k, v, bias=bias, causal=True).output
    torch.testing.assert_close(alibi_attention(q, k, v).output, ours)
    causal = torch.ones(9, 9, dtype=torch.bool).tril()
    ref = torch.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=bias.masked_fill(~causal, float("-inf"))
    )
    torch.testing.assert_close(ours, ref, rtol=1e-5, atol=1e-6)


def test_alibi_rejects_bad_heads():
    with pytest.raises(ValueError):
        alibi_slopes(0)
