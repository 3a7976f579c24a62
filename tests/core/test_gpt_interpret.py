"""Head scores on hand-built attention patterns, direct logit attribution summing to the
logits, and the attention sink (ours and MiniLM's [CLS])."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mha_core.gpt import (
    DecoderOnly,
    DecoderOnlyConfig,
    direct_logit_attribution,
    head_scores,
    pretrained_sink_share,
    sink_share,
    target_pattern,
)
from mha_core.pretrained import default_model_path

TOKENS = torch.tensor([0, 1, 2, 3, 1, 2, 3, 4])  # <bos> a b c a b c d


def _rows(pattern: torch.Tensor) -> torch.Tensor:
    """(T, T) weights that spread each row evenly over its targets (row 0 -> key 0 if none)."""
    p = pattern.float().clone()
    empty = p.sum(-1) == 0
    p[empty] = torch.eye(p.shape[-1])[empty]  # rows without a target attend to themselves
    return p / p.sum(-1, keepdim=True)


def test_target_patterns_by_hand():
    tp = {k: target_pattern(TOKENS, k)[0] for k in ("previous", "duplicate", "induction")}
    assert tp["previous"].nonzero().tolist() == [[i, i - 1] for i in range(1, 8)]
    assert tp["duplicate"].nonzero().tolist() == [[4, 1], [5, 2], [6, 3]]
    assert tp["induction"].nonzero().tolist() == [[4, 2], [5, 3], [6, 4]]


@pytest.mark.parametrize("kind", ["previous", "duplicate", "induction"])
def test_a_pure_pattern_scores_one_and_the_others_less(kind):
    w = _rows(target_pattern(TOKENS, kind)[0])  # (T, T)
    weights = w.expand(2, 3, 8, 8)  # (L, nh, T, T)
    scores = head_scores(weights, TOKENS, kind)
    assert scores.shape == (2, 3)
    np.testing.assert_allclose(scores, 1.0, rtol=1e-6)
    for other in {"previous", "duplicate", "induction"} - {kind}:
        assert head_scores(weights, TOKENS, other).max() < 0.5


def test_score_is_the_mean_weight_on_the_targets():
    T = 8
    w = torch.full((1, 1, T, T), 0.0)
    w[0, 0] = torch.tril(torch.ones(T, T)) / torch.arange(1, T + 1)[:, None]  # uniform causal
    got = head_scores(w, TOKENS, "previous")[0, 0]
    want = np.mean([1 / (i + 1) for i in range(1, T)])  # row i has i + 1 keys
    assert got == pytest.approx(want, rel=1e-6)
    assert np.isnan(head_scores(w, torch.arange(T), "duplicate")).all()  # no repeats: no rows


def test_batched_scores_and_shape_errors():
    w = _rows(target_pattern(TOKENS, "induction")[0]).expand(4, 2, 3, 8, 8)  # (B, L, nh, T, T)
    np.testing.assert_allclose(head_scores(w, TOKENS.expand(4, 8), "induction"), 1.0, rtol=1e-6)
    with pytest.raises(ValueError, match="do not match"):
        head_scores(w, TOKENS[:5].expand(4, 5), "induction")
    with pytest.raises(ValueError, match="kind"):
        head_scores(w, TOKENS.expand(4, 8), "copying")


def _random_model(seed: int, n_layers: int = 2, positions: str = "attention") -> DecoderOnly:
    cfg = DecoderOnlyConfig(
        vocab_size=27,
        n_positions=26,
        d_model=32,
        n_heads=4,
        n_layers=n_layers,
        positions=positions,
    )
    model = DecoderOnly(cfg).eval()
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():  # every parameter random, LayerNorm gains and biases included
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=g) * 0.5)
    return model


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n_layers", [1, 2])
@pytest.mark.parametrize("positions", ["attention", "residual"])
def test_direct_logit_attribution_sums_to_the_logits(seed, n_layers, positions):
    model = _random_model(seed, n_layers, positions)
    tokens = torch.randint(0, 27, (20,), generator=torch.Generator().manual_seed(seed))
    parts = direct_logit_attribution(model, tokens)
    assert parts.heads.shape == (n_layers, 4, 20, 27)
    with torch.no_grad():
        logits = model(tokens).logits[0].numpy()
    np.testing.assert_allclose(parts.logits, logits, rtol=0, atol=0)
    np.testing.assert_allclose(parts.total(), logits, rtol=1e-5, atol=1e-4)
    # the parts are not all in one place: every head contributes something
    assert np.abs(parts.heads).reshape(n_layers * 4, -1).max(axis=1).min() > 1e-3


def test_a_silenced_head_contributes_nothing():
    model = _random_model(0)
    with torch.no_grad():
        C, hs = 32, 8
        model.blocks[1].attn.in_proj_weight[2 * C + hs : 2 * C + 2 * hs] = 0  # head 1's W_V
        model.blocks[1].attn.in_proj_bias[2 * C + hs : 2 * C + 2 * hs] = 0
    parts = direct_logit_attribution(model, torch.arange(10))
    np.testing.assert_allclose(parts.heads[1, 1], 0.0, atol=1e-7)
    np.testing.assert_allclose(parts.total(), parts.logits, rtol=1e-5, atol=1e-4)


def test_attribution_refuses_models_with_mlps():
    cfg = DecoderOnlyConfig(vocab_size=10, n_positions=8, d_model=16, n_heads=2, mlp=True)
    with pytest.raises(ValueError, match="attention-only"):
        direct_logit_attribution(DecoderOnly(cfg), torch.arange(5))


def test_sink_share_by_hand():
    T = 6
    w = torch.zeros(2, 3, T, T)
    w[..., 0] = 1.0  # every row on key 0
    w[1, 2] = torch.eye(T)  # one head attends to itself only
    share = sink_share(w)
    assert share.shape == (2, 3)
    expected = np.ones((2, 3))
    expected[1, 2] = 0.0
    np.testing.assert_allclose(share, expected)


@pytest.mark.skipif(not default_model_path().is_dir(), reason="MiniLM weights not installed")
def test_minilm_cls_sink_share():
    from mha_core.pretrained import load_pretrained

    model = load_pretrained()
    text = "The cat sat on the mat because it was warm."
    share = pretrained_sink_share(model, text)
    assert share.shape == (model.n_layers, model.n_heads)
    att = model.trace(text).attentions.double()  # (L, nh, T, T), key 0 is [CLS]
    np.testing.assert_allclose(share, att[:, :, 1:, 0].mean(-1).numpy(), rtol=1e-12)
    assert ((share >= 0) & (share <= 1)).all()
