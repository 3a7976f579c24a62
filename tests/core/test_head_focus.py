"""mha_core head_focus / is_attention: where each head looks most, the numbers behind the
sentence under every head grid (ui/widgets.focus_sentence)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mha_core import MultiHeadAttention
from mha_core.layer.stats import head_focus, head_stats, is_attention


def _shifted(T: int, offset: int) -> np.ndarray:
    w = np.zeros((T, T))
    for i in range(T):
        w[i, min(max(i + offset, 0), T - 1)] = 1.0
    return w


def test_textbook_heads_are_named_by_their_pattern_and_weight():
    T = 6
    first = np.zeros((T, T))
    first[:, 2] = 1.0  # every row on token 2
    w = np.stack([_shifted(T, -1), _shifted(T, 0), _shifted(T, 1), first])
    got = [(f.kind, f.key, f.weight) for f in head_focus(w)]
    # a perfect previous (next) head reads (T-1)/T: its first (last) row has no such neighbour
    edge = (T - 1) / T
    assert got == [("previous", None, pytest.approx(edge)), ("self", None, 1.0),
                   ("next", None, pytest.approx(edge)), ("key", 2, 1.0)]  # fmt: skip


def test_the_weight_is_the_mean_over_the_rows_that_have_that_place():
    w = np.full((1, 4, 4), 0.25)
    w[0, 1:] = [[0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.7, 0.1]]  # previous
    (f,) = head_focus(w)
    # one definition with the statistics table: row 0 has no previous token and counts 0
    assert f.kind == "previous" and f.weight == pytest.approx(0.7 * 3 / 4)
    stats = head_stats(w)
    assert f.weight == pytest.approx(stats.prev_share[0])  # the statistic the page tabulates


def test_cross_attention_and_masked_rows():
    w = np.zeros((1, 3, 5))
    w[0, :2, 4] = 1.0  # the third query is fully masked: left out
    (f,) = head_focus(w)
    assert (f.kind, f.key, f.weight) == ("key", 4, 1.0)
    assert is_attention(w)


def test_only_attention_weights_are_read():
    rng = np.random.default_rng(0)
    assert not is_attention(rng.standard_normal((2, 4, 4)))  # scores
    assert not is_attention(np.zeros((1, 3, 3)))  # nothing attends
    mha = MultiHeadAttention(16, 4)
    trace = mha(torch.randn(1, 5, 16), mask="causal")
    assert is_attention(trace.weights[0])
    assert [f.head for f in head_focus(trace.weights[0])] == [0, 1, 2, 3]
