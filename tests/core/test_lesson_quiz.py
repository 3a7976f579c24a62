"""mha_core.lessons.quiz: each station's question and its right answer, checked against the
numbers computed independently (torch / numpy) on synthetic inputs and on the attention core."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as hs

from mha_core import AttentionConfig, kv_cache_bytes, norm_statistics, run_attention
from mha_core.lessons import quiz
from mha_core.lessons.permutation import shuffle_attention, shuffle_permutation

WORDS = ["the", "cat", "saw", "a", "dog", "and", "it", "ran", "."]


def test_a_question_must_offer_its_right_answer():
    with pytest.raises(ValueError):
        quiz.Question("x", quiz.CHOICE, ("a", "b"), frozenset({"c"}))
    with pytest.raises(ValueError):
        quiz.Question("x", quiz.CHOICE, ("a", "b"), frozenset())
    q = quiz.Question("x", quiz.CHOICE, ("a", "b", "c"), frozenset({"c", "b"}))
    assert q.answer == "b" and q.is_right("c") and not q.is_right("a")


def test_focus_is_the_last_word_not_the_full_stop():
    assert quiz.focus(["I", "live", "in", "Europe", "."]) == 3
    assert quiz.focus(["欧", "洲", "。"]) == 1
    assert quiz.focus(["?", "!"]) == 1  # no word: the last token
    assert quiz.focus(["x"]) == 0


@pytest.mark.parametrize(
    ("x", "bin_"),
    [(0.0, "lt25"), (0.2499, "lt25"), (0.25, "25to50"), (0.5, "50to75"), (0.75, "gt75"),
     (1.0, "gt75")],
)  # fmt: skip
def test_share_bins(x, bin_):
    assert quiz.share_bin(x) == bin_


@settings(max_examples=25, deadline=None)
@given(
    n=hs.integers(1, 9),
    heads=hs.sampled_from([(8, 1), (16, 2), (32, 4), (24, 3)]),
    seed=hs.integers(0, 50),
    mask=hs.sampled_from(["none", "causal"]),
    positional=hs.booleans(),
)
def test_token_questions_answer_the_argmax_of_the_trace(n, heads, seed, mask, positional):
    d_model, nh = heads
    tokens = WORDS[:n]
    cfg = AttentionConfig(d_model=d_model, n_heads=nh, seed=seed, mask=mask, positional=positional)
    tr = run_attention(tokens, cfg).attention
    allowed = None if tr.allowed is None else tr.allowed[0, 0]
    q = quiz.focus(tokens)
    w = tr.weights[0].double()  # (nh, T, T)
    why = quiz.why_attention(tokens, tr.weights[0], allowed)
    assert why.options == tuple(str(i) for i in range(n))
    assert int(why.answer) == int(w[0, q].argmax()) or w[0, q, int(why.answer)] == w[0, q].max()
    assert why.facts["w"] == pytest.approx(float(w[0, q].max()))
    assert why.facts["uniform"] == pytest.approx(1 / (q + 1 if mask == "causal" else n))
    s = tr.scores[0, nh - 1, q].double()
    if mask == "causal":
        s = torch.where(torch.arange(n) <= q, s, -torch.inf)
    qkv = quiz.qkv_scores(tokens, tr.scores[0], allowed)
    assert float(s[int(qkv.answer)]) == pytest.approx(float(s.max()))
    assert qkv.facts["head"] == nh - 1
    soft = quiz.softmax_top(tokens, tr.weights[0])
    top = float(w[nh - 1, q].max())
    assert soft.right == {quiz.share_bin(top)} and soft.facts["sum"] == pytest.approx(1.0)


def test_ties_make_every_maximal_key_right():
    w = torch.zeros(1, 3, 3)
    w[0, 2] = torch.tensor([0.4, 0.4, 0.2])
    q = quiz.why_attention(["a", "b", "c"], w)
    assert q.right == {"0", "1"}


def test_masked_keys_are_never_the_answer():
    scores = torch.zeros(1, 3, 3)
    scores[0, 1] = torch.tensor([1.0, 2.0, 9.0])  # the largest score is on a masked key
    allowed = torch.ones(3, 3, dtype=torch.bool).tril()
    q = quiz.qkv_scores(["a", "bb", "."], scores, allowed)  # focus: "bb" (query 1)
    assert q.right == {"1"} and q.facts["second"] == 0


@pytest.mark.parametrize(("ratio", "right"), [(1.1, "1"), (1.9, "2"), (2.1, "2"), (3.5, "4")])
def test_spread_growth_takes_the_nearest_option(ratio, right):
    q = quiz.spread_growth([16, 64], [1.0, ratio])
    assert q.right == {right} and q.facts["ratio"] == pytest.approx(ratio)


def test_farthest_head_is_the_largest_mean_distance():
    q = quiz.farthest_head(np.array([0.5, 2.0, np.nan, 1.0]), 64)
    assert q.right == {"1"} and q.facts["near"] == 0
    assert q.facts["params"] == 4 * 64 * 64 + 4 * 64
    assert q.facts["score_mults"] is None  # no T given: no cost of the scores
    # h heads of d_model/h: the scores cost what one full-width head's cost (Vaswani 2017, 3.2.2)
    q = quiz.farthest_head(np.array([0.5, 2.0, 1.0, 1.0]), 64, n_tokens=7)
    assert q.facts["d_k"] == 16
    assert q.facts["score_mults"] == 4 * 7 * 7 * 16 == q.facts["full_mults"] == 7 * 7 * 64


@pytest.mark.parametrize("positional", [True, False])
def test_shuffling_permutes_exactly_without_positions(positional):
    cfg = AttentionConfig(d_model=32, n_heads=4, seed=1, positional=positional)
    res = shuffle_attention(WORDS, cfg, shuffle_permutation(len(WORDS), 1))
    q = quiz.shuffle_effect(res.max_abs_diff, positional)
    assert q.answer == ("change" if positional else "permute")
    assert q.facts["plain_diff"] is None


def test_the_causal_mask_gives_a_later_token_zero():
    cfg = AttentionConfig(d_model=32, n_heads=4, seed=2, mask="causal")
    tr = run_attention(WORDS, cfg).attention
    q = quiz.causal_weight(WORDS, tr.weights[0])
    assert q.answer == "zero" and q.facts["w"] == 0.0 and q.facts["above_max"] == 0.0
    open_w = run_attention(WORDS, AttentionConfig(d_model=32, n_heads=4, seed=2)).attention
    q = quiz.causal_weight(WORDS, open_w.weights[0])  # no mask: the weight is not 0
    assert q.answer in ("below", "above")
    with pytest.raises(ValueError):
        quiz.causal_weight(["x"], tr.weights[0][:, :1, :1])


def test_layer_norm_zeroes_token_means_and_batch_norm_feature_means():
    x = torch.randn(7, 16, generator=torch.Generator().manual_seed(0)) * 3 + 1
    stats = norm_statistics(x)
    assert quiz.norm_means(stats.layer_normed).answer == "token"
    assert quiz.norm_means(stats.batch_normed).answer == "feature"
    assert quiz.norm_means(x).answer == "neither"
    # with BatchNorm beside it: the contrast, each measured
    q = quiz.norm_means(stats.layer_normed, stats.batch_normed)
    assert q.answer == "token" and q.facts["bn_feature_mean"] < 1e-6
    assert q.facts["bn_token_mean"] > 0.1 and q.facts["token_mean"] < 1e-6


def test_cross_attention_question_reads_the_target_row():
    cross = torch.tensor([[0.1, 0.9], [0.7, 0.3]])  # (T_tgt, T_src)
    q = quiz.cross_top(["a", "b"], ["x", "y"], cross)
    assert q.right == {"0"} and q.facts["n_tgt"] == 2 and q.facts["n_src"] == 2


@pytest.mark.parametrize(("d_model", "nh", "T"), [(64, 4, 7), (96, 8, 3), (12, 3, 1)])
def test_kv_cache_bytes_per_token(d_model, nh, T):
    q = quiz.kv_cache_question(d_model, nh, T)
    per_token = kv_cache_bytes(n_layers=1, n_kv_heads=nh, d_k=d_model // nh, n_tokens=1,
                               bytes_per_value=4)  # fmt: skip
    assert per_token == 2 * d_model * 4 == q.facts["bytes"]
    assert q.right == ({"kv", "kvt"} if T == 1 else {"kv"})
    # one key/value head shared by all nh heads (multi-query): nh times smaller
    assert q.facts["mqa_bytes"] * nh == per_token == 2 * (d_model // nh) * 4 * nh


def test_sink_share_is_the_mean_weight_on_position_zero():
    rows = np.zeros((2, 3, 4))
    rows[..., 0] = [[0.9, 0.8, 0.1], [0.6, 0.7, 0.2]]
    rows[..., 1] = 1 - rows[..., 0]
    q = quiz.sink_share(rows)
    assert q.facts["share"] == pytest.approx(3.3 / 6)
    assert q.right == {"50to75"} and q.facts["over_half"] == 4


def test_weights_against_norms():
    w = np.zeros((1, 2, 3))
    w[0, :, 0] = 0.8
    w[0, :, 1] = 0.2
    norms = np.zeros((1, 2, 3))
    norms[0, :, 1] = 1.0
    q = quiz.weights_vs_norms(["[CLS]", "a", "[SEP]"], w, norms)
    assert q.answer == "different" and q.facts["top_w"] == 0 and q.facts["top_n"] == 1
    assert quiz.weights_vs_norms(["a", "b", "c"], w, w).answer == "same"
