"""MultiHeadAttention with RoPE (rope_base) and a KV cache (past_kv): q and k turned by
`apply_rope` after the projections, and attending in chunks after a cache equals attending
over the whole sequence at once."""

import pytest
import torch

from mha_core import MultiHeadAttention, apply_rope


@pytest.mark.parametrize(("n_heads", "n_kv"), [(4, 4), (4, 2), (4, 1)])
def test_rope_turns_q_and_k_after_the_projections(n_heads, n_kv):
    torch.manual_seed(0)
    plain = MultiHeadAttention(32, n_heads, n_kv_heads=n_kv, bias=False, seed=1)
    rope = MultiHeadAttention(32, n_heads, n_kv_heads=n_kv, bias=False, seed=1, rope_base=500.0)
    x = torch.randn(2, 9, 32)
    p, r = plain(x), rope(x, mask="causal")
    torch.testing.assert_close(r.q, apply_rope(p.q, base=500.0))
    torch.testing.assert_close(r.k, apply_rope(p.k, base=500.0))
    torch.testing.assert_close(r.v, p.v)
    shifted = rope(x, mask="causal", positions=torch.arange(5, 14))
    torch.testing.assert_close(shifted.weights, r.weights)  # RoPE: only offsets matter
    assert not torch.allclose(shifted.q, r.q)


@pytest.mark.parametrize("chunks", [(1,) * 12, (5, 1, 6), (3, 4, 5), (12,)])
def test_a_kv_cache_equals_the_whole_sequence(chunks):
    torch.manual_seed(1)
    att = MultiHeadAttention(24, 6, n_kv_heads=2, bias=False, seed=2, rope_base=10000.0)
    x = torch.randn(1, 12, 24)
    full = att(x, mask="causal")
    past, start = None, 0
    for n in chunks:
        tr = att(x[:, start : start + n], mask="causal", past_kv=past)
        torch.testing.assert_close(tr.output, full.output[:, start : start + n])
        torch.testing.assert_close(tr.weights, full.weights[:, :, start : start + n, : start + n])
        past, start = (tr.k, tr.v), start + n
    torch.testing.assert_close(past[0], full.k)


def test_positions_and_cache_are_for_self_attention_only():
    att = MultiHeadAttention(8, 2, rope_base=100.0)
    x = torch.randn(1, 3, 8)
    with pytest.raises(ValueError, match="self-attention only"):
        att(x, x, x, positions=torch.arange(3))
    with pytest.raises(ValueError, match="even"):
        MultiHeadAttention(6, 2, rope_base=100.0)
