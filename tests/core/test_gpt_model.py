"""`DecoderOnly` against Hugging Face's GPT-2 (test-only reference) on the same random weights.

The configuration is small and built here (nothing downloads). Every parameter, the LayerNorms'
and biases included, is re-drawn at random so that a mis-copied bias or a missing transpose
cannot hide behind GPT-2's zero/one initial values.
"""

from __future__ import annotations

import pytest
import torch
from transformers import GPT2Config, GPT2LMHeadModel

from mha_core.gpt import DecoderOnly, DecoderOnlyConfig, gelu_new
from mha_core.layer.attention import MultiHeadAttention
from tests.conftest import assert_close_f32

TOL = dict(rtol=1e-5, atol=1e-5)


def _hf_gpt2(seed: int = 0, **kw) -> GPT2LMHeadModel:
    torch.manual_seed(seed)
    cfg = dict(n_layer=2, n_head=4, n_embd=32, vocab_size=50, n_positions=64)
    config = GPT2Config(**{**cfg, **kw}, attn_implementation="eager")
    model = GPT2LMHeadModel(config).eval()
    g = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=g) * 0.3)
    return model


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("T", [1, 7, 64])
def test_logits_and_attention_equal_hugging_face_gpt2(seed, T):
    hf = _hf_gpt2(seed)
    ours = DecoderOnly.from_hf_gpt2(hf).eval()
    tokens = torch.randint(0, 50, (3, T), generator=torch.Generator().manual_seed(seed))
    with torch.no_grad():
        ref = hf(tokens, output_attentions=True)
        out = ours(tokens)
    assert out.logits.shape == (3, T, 50)
    assert_close_f32(out.logits, ref.logits, **TOL)
    assert len(out.attentions) == 2
    for mine, theirs in zip(out.attentions, ref.attentions, strict=True):
        assert_close_f32(mine.weights, theirs, **TOL)
    assert out.weights.shape == (3, 2, 4, T, T)


def test_hf_copy_uses_our_attention_and_tied_unembedding():
    hf = _hf_gpt2(0, n_inner=48)
    ours = DecoderOnly.from_hf_gpt2(hf)
    assert all(isinstance(b.attn, MultiHeadAttention) for b in ours.blocks)
    assert ours.config.mlp and ours.config.ff_width == 48
    c_attn = hf.transformer.h[1].attn.c_attn.weight  # Conv1D (C, 3C)
    torch.testing.assert_close(ours.blocks[1].attn.in_proj_weight, c_attn.T, rtol=0, atol=0)
    x = torch.randint(0, 50, (1, 5))
    with torch.no_grad():
        out = ours(x)
        by_hand = ours.ln_f(out.residual) @ ours.wte.weight.T
    torch.testing.assert_close(out.logits, by_hand, rtol=0, atol=0)


def test_gelu_new_is_gpt2s_tanh_formula():
    x = torch.linspace(-6, 6, 101)
    ref = 0.5 * x * (1 + torch.tanh((2 / torch.pi) ** 0.5 * (x + 0.044715 * x**3)))
    assert_close_f32(gelu_new(x), ref)


def test_attention_only_model_is_causal_and_seeded():
    cfg = DecoderOnlyConfig(vocab_size=20, n_positions=16, d_model=32, n_heads=4, n_layers=2)
    a, b = DecoderOnly(cfg), DecoderOnly(cfg)
    for p, q in zip(a.parameters(), b.parameters(), strict=True):
        torch.testing.assert_close(p, q, rtol=0, atol=0)
    assert all(blk.mlp is None for blk in a.blocks)
    x = torch.randint(0, 20, (2, 16))
    with torch.no_grad():
        w = a(x).weights  # (B, L, nh, T, T)
        y = x.clone()
        y[:, 10:] = (y[:, 10:] + 1) % 20  # changing later tokens leaves earlier logits alone
        assert_close_f32(a(y).logits[:, :10], a(x).logits[:, :10])
    assert torch.all(w.triu(1) == 0)
    assert_close_f32(w.sum(-1), torch.ones(w.shape[:-1]))


def test_bad_settings_explain_themselves():
    with pytest.raises(ValueError, match="not divisible"):
        DecoderOnlyConfig(vocab_size=10, n_positions=8, d_model=10, n_heads=4)
    with pytest.raises(ValueError, match="n_positions"):
        DecoderOnly(DecoderOnlyConfig(vocab_size=10, n_positions=4, d_model=8, n_heads=2))(
            torch.zeros(1, 5, dtype=torch.long)
        )
    with pytest.raises(ValueError, match="gelu_new"):
        DecoderOnly.from_hf_gpt2(_hf_gpt2(0, activation_function="relu"))


def test_shortformer_positions_reach_queries_and_keys_only():
    cfg = DecoderOnlyConfig(
        vocab_size=20, n_positions=16, d_model=32, n_heads=4, n_layers=1, positions="attention"
    )
    model = DecoderOnly(cfg).eval()
    x = torch.tensor([[3, 5, 3, 5, 3]])
    with torch.no_grad():
        out = model(x)
    attn = out.attentions[0]
    assert_close_f32(out.embedding[0], model.wte.weight[x[0]])  # no position in the stream
    assert_close_f32(attn.v[0, :, 0], attn.v[0, :, 2])  # same token, same value anywhere
    assert not torch.allclose(attn.k[0, :, 0], attn.k[0, :, 2])  # keys know the position
    with pytest.raises(ValueError, match="positions"):
        DecoderOnlyConfig(vocab_size=20, n_positions=16, positions="rotary")
