"""Head statistics against plain loops written from their definitions."""

import math

import numpy as np
import pytest
import torch

from mha_core.layer.stats import (
    head_kinds,
    head_similarity,
    head_stats,
    hide_tokens,
    shown_attention,
)


def _rand_weights(nh, T, seed=0, causal=False):
    rng = np.random.default_rng(seed)
    w = rng.random((nh, T, T)) ** 4
    if causal:
        w = w * np.tril(np.ones((T, T)))
    return w / w.sum(-1, keepdims=True)


@pytest.mark.parametrize("causal", [False, True])
def test_head_stats_match_definitions(causal):
    w = _rand_weights(3, 6, causal=causal)
    s = head_stats(torch.tensor(w))
    for h in range(3):
        ent = np.mean([-sum(p * math.log(p) for p in row if p > 0) for row in w[h]])
        dist = np.mean([sum(w[h, i, j] * abs(i - j) for j in range(6)) for i in range(6)])
        assert s.entropy[h] == pytest.approx(ent, rel=1e-9)
        assert s.mean_distance[h] == pytest.approx(dist, rel=1e-9)
        assert s.max_weight[h] == pytest.approx(np.mean([max(r) for r in w[h]]))
        assert s.self_share[h] == pytest.approx(np.mean([w[h, i, i] for i in range(6)]))
        # every position share over the same 6 rows, a missing neighbour counting 0 (issue #42:
        # "on previous" was over rows 1..5, "on self" and "on first" over rows 0..5)
        prev = [w[h, i, i - 1] if i > 0 else 0.0 for i in range(6)]
        nxt = [w[h, i, i + 1] if i < 5 else 0.0 for i in range(6)]
        assert s.prev_share[h] == pytest.approx(np.mean(prev))
        assert s.next_share[h] == pytest.approx(np.mean(nxt))
        assert s.first_share[h] == pytest.approx(np.mean(w[h, :, 0]))


def test_known_patterns_are_recognised():
    T = 5
    eye = np.eye(T)
    prev = np.eye(T, k=-1)
    prev[0, 0] = 1
    first = np.zeros((T, T))
    first[:, 0] = 1
    uniform = np.full((T, T), 1 / T)
    nxt = np.eye(T, k=1)
    nxt[-1, -1] = 1
    w = np.stack([eye, prev, first, uniform, nxt])
    s = head_stats(w)
    assert head_kinds(s) == ["self", "prev", "first", "broad", "next"]
    assert s.prev_share[1] == pytest.approx((T - 1) / T) == s.next_share[4]
    assert s.entropy[3] == pytest.approx(math.log(T))
    assert s.entropy[0] == pytest.approx(0.0, abs=1e-9)
    assert s.mean_distance[0] == 0 and s.mean_distance[1] == pytest.approx(4 / 5)


def _uniform_over(allowed: np.ndarray) -> np.ndarray:
    """(T, T) weights spread evenly over the allowed keys of each row."""
    w = allowed.astype(np.float64)
    return w / w.sum(-1, keepdims=True)


def test_uniform_causal_head_reads_broad():
    """Row i of a causal head sees i + 1 keys: a head uniform over them has mean entropy
    mean_i ln(i + 1) (1.218 for T = 7), not ln 7 = 1.946, and is the "broad" kind."""
    T = 7
    causal = np.tril(np.ones((T, T), dtype=bool))
    s = head_stats(_uniform_over(causal)[None], torch.tensor(causal))
    reference = np.mean([math.log(i + 1) for i in range(T)])
    assert reference == pytest.approx(1.218, abs=5e-4)
    assert s.uniform_entropy[0] == pytest.approx(reference, rel=1e-12)
    assert s.entropy[0] == pytest.approx(reference, rel=1e-12)
    assert head_kinds(s) == ["broad"]
    # without the mask the same head is measured against ln T and reads "mixed"
    assert head_kinds(head_stats(_uniform_over(causal)[None])) == ["mixed"]


@pytest.mark.parametrize(
    "allowed",
    [
        np.tril(np.ones((8, 8), dtype=bool)) & ~np.tril(np.ones((8, 8), dtype=bool), k=-3),
        np.ones((8, 8), dtype=bool) & (np.arange(8) < 5)[None, :],  # keys 5..7 are padding
    ],
    ids=["window3", "padding"],
)
def test_uniform_reference_follows_window_and_padding_masks(allowed):
    s = head_stats(_uniform_over(allowed)[None], allowed)
    reference = np.mean([math.log(row.sum()) for row in allowed])
    assert s.uniform_entropy[0] == pytest.approx(reference, rel=1e-12)
    assert s.entropy[0] == pytest.approx(reference, rel=1e-12)
    assert head_kinds(s) == ["broad"]


def test_empty_rows_are_left_out():
    w = _rand_weights(2, 4)
    w[:, 2] = 0.0  # a fully masked query
    s = head_stats(w)
    keep = [0, 1, 3]
    assert s.max_weight[0] == pytest.approx(np.mean(w[0, keep].max(-1)))


def test_similarity_definition():
    w = _rand_weights(3, 5, seed=3)
    w[2] = w[0]
    sim = head_similarity(w)
    assert sim.shape == (3, 3)
    np.testing.assert_allclose(np.diag(sim), 1.0)
    assert sim[0, 2] == pytest.approx(1.0)
    np.testing.assert_allclose(sim, sim.T)

    def js(p, q):
        m = (p + q) / 2
        kl = lambda a, b: sum(x * math.log2(x / y) for x, y in zip(a, b) if x > 0)  # noqa: E731
        return 0.5 * kl(p, m) + 0.5 * kl(q, m)

    expect = 1 - np.mean([js(w[0, i], w[1, i]) for i in range(5)])
    assert sim[0, 1] == pytest.approx(expect, rel=1e-9)
    disjoint = np.stack([np.eye(3), np.roll(np.eye(3), 1, axis=1)])
    assert head_similarity(disjoint)[0, 1] == pytest.approx(0.0, abs=1e-9)


def test_hide_tokens_renormalises():
    w = _rand_weights(2, 5)
    keep = np.array([False, True, True, True, False])
    out = hide_tokens(w, keep)
    assert out.shape == (2, 3, 3)
    np.testing.assert_allclose(out.sum(-1), 1.0, atol=1e-6)
    sub = w[:, 1:4, 1:4]
    np.testing.assert_allclose(out, sub / sub.sum(-1, keepdims=True), atol=1e-6)
    only_special = np.zeros((1, 3, 3))
    only_special[0, :, 0] = 1
    assert (hide_tokens(only_special, np.array([False, True, True])) == 0).all()
    with pytest.raises(ValueError):
        hide_tokens(w, keep[:3])


def test_shown_attention_hides_tokens_and_keeps_the_rest():
    w = np.stack([_rand_weights(2, 4, seed=s) for s in (0, 1)])  # (L, nh, T, T)
    w /= w.sum(-1, keepdims=True)
    tokens = ["[CLS]", "a", "b", "[SEP]"]
    same, toks = shown_attention(torch.from_numpy(w), tokens, None)
    np.testing.assert_array_equal(same, w)
    assert toks == tokens
    keep = np.array([False, True, True, False])
    got, toks = shown_attention(w, tokens, keep)
    assert toks == ["a", "b"] and got.shape == (2, 2, 2, 2)
    sub = w[..., 1:3, 1:3]
    np.testing.assert_allclose(got, sub / sub.sum(-1, keepdims=True), rtol=1e-6)
    none, toks = shown_attention(w, tokens, np.zeros(4, dtype=bool))
    assert none.shape == (2, 2, 0, 0) and toks == []
