"""Reading trained heads: rollout, value-weighted norms, head ablation, corpus statistics.

References nobody here wrote: Hugging Face `BertModel` (test-only) for hidden states, weights and
attention of all-MiniLM-L6-v2, and a forward hook on its output projection to zero a head; plus
direct, slow implementations of each definition (loops, the T x T x C norm).
"""

from __future__ import annotations

import dataclasses
import unicodedata

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from mha_core.interpret import (
    CATEGORIES,
    CLARK_2019,
    CLARK_2019_CITATION,
    CorpusStatistics,
    ablate_heads,
    attention_shares,
    corpus_statistics,
    head_ablation,
    is_punctuation,
    layer_shares,
    load_corpus,
    rollout,
    row_shares,
    sentence_embedding,
    transformed_value_norms,
    value_norms,
)

SENTENCES = [
    "The committee, which met on Friday, postponed the vote until March.",
    "Where did you leave the spare key to the shed?",
    '"Careful," whispered Lena, "the floor creaks near the stairs."',
    "I want to live in Europe",
]
MIDDLE = slice(1, 5)  # layers 2-5 of 6 (0-based 1..4)


def hf_run(hf_model, trace, zero: tuple[int, int] | None = None):
    """HF forward on the trace's token ids; `zero=(layer, head)` zeroes that head's output (its
    slice of the context vector, before the output projection) with a forward pre-hook."""
    handle = None
    if zero is not None:
        layer, head = zero
        hs = hf_model.config.hidden_size // hf_model.config.num_attention_heads
        dense = hf_model.encoder.layer[layer].attention.output.dense

        def pre_hook(module, args):
            ctx = args[0].clone()  # (1, T, C) heads side by side
            ctx[..., head * hs : (head + 1) * hs] = 0.0
            return (ctx,)

        handle = dense.register_forward_pre_hook(pre_hook)
    try:
        with torch.inference_mode():
            return hf_model(
                input_ids=trace.token_ids[None],
                token_type_ids=trace.token_type_ids[None],
                output_attentions=True,
                output_hidden_states=True,
            )
    finally:
        if handle is not None:
            handle.remove()


# --- rollout ---------------------------------------------------------------------------------
def random_attentions(rng: np.random.Generator, L: int, nh: int, T: int) -> np.ndarray:
    """(L, nh, T, T) random row-stochastic matrices (Dirichlet rows)."""
    return rng.dirichlet(np.full(T, 0.5), size=(L, nh, T))


def rollout_loop(att: np.ndarray, residual: bool) -> np.ndarray:
    """The definition with explicit loops over layers, rows and columns."""
    L, nh, T, _ = att.shape
    out = np.zeros((L, T, T))
    prev = None
    for layer in range(L):
        A = np.zeros((T, T))
        for i in range(T):
            for j in range(T):
                A[i, j] = sum(att[layer, h, i, j] for h in range(nh)) / nh
                if residual:
                    A[i, j] = 0.5 * A[i, j] + (0.5 if i == j else 0.0)
            A[i] /= A[i].sum() if residual else 1.0
        if prev is None:
            R = A
        else:  # R_l[i, j] = sum_k A_l[i, k] R_{l-1}[k, j]
            R = np.zeros((T, T))
            for i in range(T):
                for j in range(T):
                    R[i, j] = sum(A[i, k] * prev[k, j] for k in range(T))
        out[layer] = R
        prev = R
    return out


@pytest.mark.parametrize("residual", [True, False])
@pytest.mark.parametrize(("L", "nh", "T"), [(1, 1, 1), (3, 2, 5), (6, 12, 7)])
def test_rollout_matches_a_direct_loop(L, nh, T, residual):
    att = random_attentions(np.random.default_rng(L * 100 + T), L, nh, T)
    got = rollout(att, residual=residual)
    assert isinstance(got, np.ndarray) and got.shape == (L, T, T)
    np.testing.assert_allclose(got, rollout_loop(att, residual), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got.sum(-1), 1.0, rtol=1e-12, atol=0)


def test_one_layer_is_the_renormalised_residual_mean():
    att = torch.from_numpy(random_attentions(np.random.default_rng(0), 4, 3, 6)).float()
    got = rollout(att)
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
    A = 0.5 * att[0].mean(0) + 0.5 * torch.eye(6)
    torch.testing.assert_close(got[0], A / A.sum(-1, keepdim=True), rtol=1e-6, atol=1e-7)


def test_rollout_order_is_later_layers_on_the_left():
    """Layer 0 moves everything to token 0, layer 1 to token 1: after both, every token traces
    back to token 0 (R_1 = A_1 @ A_0), not to token 1 (A_0 @ A_1)."""
    T = 3
    att = np.zeros((2, 1, T, T))
    att[0, 0, :, 0] = 1.0
    att[1, 0, :, 1] = 1.0
    got = rollout(att, residual=False)
    np.testing.assert_array_equal(got[1], att[0, 0])


def test_rollout_on_the_model_rows_sum_to_one(ours):
    trace = ours.trace(SENTENCES[0])
    got = rollout(trace.attentions)
    assert got.shape == (6, trace.n_tokens, trace.n_tokens)
    torch.testing.assert_close(got.sum(-1), torch.ones(6, trace.n_tokens), rtol=1e-5, atol=1e-6)
    assert bool((got >= 0).all())


@pytest.mark.parametrize("text", SENTENCES[:2])
def test_rollout_without_residual_makes_the_rows_alike_not_uniform(ours, text):
    """reading.rollout.residual_help: a product of row-stochastic matrices gives every row the
    same distribution, and on MiniLM that distribution is far from uniform ([CLS] about half)."""
    trace = ours.trace(text)
    last = rollout(trace.attentions, residual=False)[-1].double()  # (T, T)
    assert float((last - last[0]).abs().max()) < 0.01  # every row alike
    assert float(last[:, 0].min()) > 0.4 and float(last[:, 0].max()) < 0.7  # [CLS]
    assert float(last[0].max()) > 4 / trace.n_tokens  # far from 1/T on each key


@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 4, 5), (0, 2, 3, 3), (2, 0, 3, 3)])
def test_rollout_rejects_bad_shapes(shape):
    with pytest.raises(ValueError, match="layers, heads, T, T"):
        rollout(np.zeros(shape))


# --- value-weighted norms ----------------------------------------------------------------------
@pytest.mark.parametrize("text", SENTENCES[:2])
def test_value_norms_match_hf_hidden_states_and_weights(ours, hf_model, text):
    """|| alpha_ij f_h(x_j) || computed from HF's hidden states, attentions and weights, with
    the T x T x C definition per head."""
    trace = ours.trace(text, keep_layers=False)
    got = value_norms(ours, trace)
    out = hf_run(hf_model, trace)
    L, nh, T = 6, 12, trace.n_tokens
    hs = 384 // nh
    assert got.shape == (L, nh, T, T)
    for layer in range(L):
        block = hf_model.encoder.layer[layer].attention
        x = out.hidden_states[layer][0]  # (T, C) the layer's input
        alpha = out.attentions[layer][0]  # (nh, T, T)
        with torch.inference_mode():
            v = block.self.value(x)  # (T, C) x W_V + b_V
            for h in range(nh):
                cols = slice(h * hs, (h + 1) * hs)
                f = v[:, cols] @ block.output.dense.weight[:, cols].T  # (T, C) f_h(x_j)
                direct = (alpha[h][:, :, None] * f[None, :, :]).norm(dim=-1)  # (T, T)
                torch.testing.assert_close(got[layer, h], direct, rtol=1e-5, atol=1e-7)


def test_value_norms_equal_the_direct_definition_on_our_trace(ours):
    """alpha_ij ||f(x_j)|| (what we compute) against ||alpha_ij f(x_j)|| (T x T x C)."""
    trace = ours.trace(SENTENCES[2])
    got = value_norms(ours, trace)
    for layer in (0, 3, 5):
        lt = trace.layers[layer]  # v (1, nh, T, hs), the module's own
        W_O = ours.layers[layer].attention.out_proj.weight.T  # (C, C), concat @ W_O
        for h in range(12):
            f = lt.v[0, h] @ W_O[h * 32 : (h + 1) * 32]  # (T, C)
            alpha = trace.attentions[layer, h]  # (T, T)
            direct = torch.linalg.vector_norm(alpha[:, :, None] * f[None], dim=-1)  # (T, T)
            torch.testing.assert_close(got[layer, h], direct, rtol=1e-5, atol=1e-7)


def test_value_norms_take_text_and_are_computed_on_request(ours):
    text = SENTENCES[3]
    trace = ours.trace(text, keep_layers=False)
    assert not hasattr(trace, "value_norms")  # the trace stays cheap: nothing extra kept
    a, b = value_norms(ours, text), value_norms(ours, trace)
    assert torch.equal(a, b)
    tv = transformed_value_norms(ours, trace)
    assert tv.shape == (6, 12, trace.n_tokens) and bool((tv > 0).all())
    torch.testing.assert_close(a, trace.attentions * tv[:, :, None, :], rtol=0, atol=0)


def test_value_norms_reject_a_trace_of_another_shape(ours):
    trace = ours.trace("hello")
    bad = dataclasses.replace(trace, hidden_states=trace.hidden_states[:3])
    with pytest.raises(ValueError, match="does not come from this model"):
        value_norms(ours, bad)


def test_row_shares():
    m = torch.tensor([[[1.0, 3.0], [0.0, 0.0]]])
    torch.testing.assert_close(row_shares(m), torch.tensor([[[0.25, 0.75], [0.0, 0.0]]]))
    np.testing.assert_array_equal(row_shares(m.numpy()), [[[0.25, 0.75], [0.0, 0.0]]])


@pytest.mark.parametrize("text", SENTENCES)
def test_special_tokens_lose_share_under_value_norms(ours, text):
    """Kobayashi et al. (2020): weight on the attention sink is mostly weight on a small vector.
    In MiniLM the sink is [CLS] (not [SEP] as in BERT-base): in the middle layers its share, and
    that of [CLS] and [SEP] together, is lower under value norms than under weights."""
    trace = ours.trace(text, keep_layers=False)
    w = attention_shares(trace.attentions, trace.tokens)  # (n_categories, L, nh)
    n = attention_shares(row_shares(value_norms(ours, trace)), trace.tokens)
    cls, sep = CATEGORIES.index("cls"), CATEGORIES.index("sep")
    layer_w, layer_n = w.mean(-1), n.mean(-1)  # (n_categories, L)
    assert (layer_n[cls, MIDDLE] < layer_w[cls, MIDDLE]).all()
    special_w = layer_w[cls, MIDDLE] + layer_w[sep, MIDDLE]
    special_n = layer_n[cls, MIDDLE] + layer_n[sep, MIDDLE]
    assert (special_n < special_w).all()


# --- head ablation -----------------------------------------------------------------------------
def test_sentence_embedding_matches_hf_mean_pooling(ours, hf_model):
    trace = ours.trace(SENTENCES[0], keep_layers=False)
    out = hf_run(hf_model, trace)
    ref = F.normalize(out.last_hidden_state[0].mean(0), dim=-1)  # (C,)
    got = sentence_embedding(trace.last_hidden_state)
    torch.testing.assert_close(got, ref, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(got.norm(), torch.tensor(1.0), rtol=1e-6, atol=0)


def test_zeroing_no_head_changes_nothing_exactly(ours):
    trace = ours.trace(SENTENCES[0], keep_layers=False)
    keep = torch.ones(5, 6, 12)
    keep[2, 3, 5] = 0.0  # one copy zeroes head 5 of layer 3; the batch runs from layer 3
    keep[4, 1, 0] = 0.0  # ... and another head 0 of layer 1: the batch runs from layer 1
    d = ablate_heads(ours, trace, keep)
    assert d.dtype == np.float64 and d.shape == (5,)
    assert d[0] == 0.0 and d[1] == 0.0 and d[3] == 0.0  # untouched copies: exactly 0
    assert d[2] > 0.0 and d[4] > 0.0
    assert (ablate_heads(ours, trace, torch.ones(2, 6, 12)) == 0.0).all()


def test_head_ablation_matches_one_hf_forward_per_head(ours, hf_model):
    """The slow reference: 72 HF forwards, each with one head's output zeroed by a hook."""
    trace = ours.trace(SENTENCES[1], keep_layers=False)
    got = head_ablation(ours, trace)
    assert got.shape == (6, 12) and got.dtype == np.float64

    def embedding(out) -> torch.Tensor:  # mean pooling, L2 normalised in float64
        return F.normalize(out.last_hidden_state[0].mean(0).double(), dim=-1)

    base = embedding(hf_run(hf_model, trace))
    ref = np.empty((6, 12))
    for layer in range(6):
        for head in range(12):
            e = embedding(hf_run(hf_model, trace, zero=(layer, head)))
            ref[layer, head] = 1.0 - float(e @ base)  # 1 - cosine similarity
    assert (ref > 0).all()
    # two float32 forwards (ours batched, HF one at a time) whose embeddings agree to ~1e-7:
    # 1 - cos agrees to a few 1e-8, ~1e-5 relative for the smallest importances here
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-9)


def test_head_ablation_takes_text_and_pair(ours):
    text, pair = "The cat sat on the mat.", "Where did the cat sit?"
    a = head_ablation(ours, text, pair)
    b = head_ablation(ours, ours.trace(text, pair, keep_layers=False))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, head_ablation(ours, text))
    with pytest.raises(ValueError, match="text_pair"):
        head_ablation(ours, ours.trace(text), pair)


@pytest.mark.parametrize(
    "keep", [torch.ones(6, 12), torch.ones(2, 5, 12), torch.ones(0, 6, 12), torch.ones(1, 6, 11)]
)
def test_ablate_heads_rejects_bad_masks(ours, keep):
    with pytest.raises(ValueError, match="keep must be shaped"):
        ablate_heads(ours, ours.trace("hi"), keep)


def test_ablate_heads_rejects_nan(ours):
    keep = torch.ones(1, 6, 12)
    keep[0, 0, 0] = float("nan")
    with pytest.raises(ValueError, match="finite"):
        ablate_heads(ours, ours.trace("hi"), keep)


def test_head_ablation_leaves_the_model_alone(ours):
    before = {k: v.clone() for k, v in ours.state_dict().items()}
    attrs = set(vars(ours))
    head_ablation(ours, "the cat saw the dog")
    assert set(vars(ours)) == attrs
    for k, v in ours.state_dict().items():
        assert torch.equal(v, before[k]), k


# --- shares and the corpus ---------------------------------------------------------------------
def shares_loop(m: np.ndarray, tokens) -> np.ndarray:
    """attention_shares, by the definition, one head and row at a time."""
    L, nh, T, _ = m.shape
    out = np.zeros((len(CATEGORIES), L, nh))
    for layer in range(L):
        for h in range(nh):
            rows = {c: [] for c in CATEGORIES}
            for i in range(T):
                w = m[layer, h, i]
                rows["cls"].append(sum(w[j] for j in range(T) if tokens[j] == "[CLS]"))
                rows["sep"].append(sum(w[j] for j in range(T) if tokens[j] == "[SEP]"))
                rows["punct"].append(
                    sum(
                        w[j]
                        for j in range(T)
                        if tokens[j] not in ("[CLS]", "[SEP]")
                        and all(unicodedata.category(c)[0] == "P" for c in tokens[j])
                    )
                )
                rows["prev"].append(w[i - 1] if i > 0 else 0.0)  # the head statistics' rule
                rows["next"].append(w[i + 1] if i < T - 1 else 0.0)
                rows["self"].append(w[i])
            for c, values in rows.items():
                out[CATEGORIES.index(c), layer, h] = np.mean(values)
    return out


def test_attention_shares_match_the_definition(ours):
    trace = ours.trace(SENTENCES[2], keep_layers=False)
    assert any(is_punctuation(t) for t in trace.tokens)
    for m in (trace.attentions, row_shares(value_norms(ours, trace))):
        got = attention_shares(m, trace.tokens)
        np.testing.assert_allclose(got, shares_loop(m.double().numpy(), trace.tokens), rtol=1e-12)


def test_corpus_categories_and_head_statistics_are_one_definition(ours):
    """Issue #42: the Pretrained statistics had no "next token" kind (layer 1 head 8 read
    "mixed") where Reading's corpus view said "next token", and "on previous" was a mean over
    other rows than "on self". Both read mha_core.layer.stats.position_shares now."""
    from mha_core.layer.stats import head_kinds, head_stats

    trace = ours.trace(SENTENCES[2], keep_layers=False)
    shares = attention_shares(trace.attentions, trace.tokens)  # (categories, L, nh)
    for layer in range(ours.n_layers):
        stats = head_stats(trace.attentions[layer])
        for cat, col in (("prev", "prev_share"), ("next", "next_share"), ("self", "self_share")):
            np.testing.assert_allclose(
                shares[CATEGORIES.index(cat), layer], getattr(stats, col), rtol=1e-12
            )
        for h, kind in enumerate(head_kinds(stats)):
            share = {c: shares[CATEGORIES.index(c), layer, h] for c in ("prev", "next", "self")}
            over = [c for c, v in share.items() if v >= 0.5]
            if over:  # a head the corpus categories name is named so by the statistics
                assert kind in over, (layer, h, kind, over)


def test_layer_shares_are_the_definition_averaged_over_heads(ours):
    trace = ours.trace(SENTENCES[2], keep_layers=False)
    w, n = layer_shares(ours, trace)
    assert w.shape == n.shape == (len(CATEGORIES), ours.n_layers)
    norms = row_shares(value_norms(ours, trace)).double().numpy()
    by_weights = shares_loop(trace.attentions.double().numpy(), trace.tokens)
    np.testing.assert_allclose(w, by_weights.mean(axis=-1), rtol=1e-9)
    np.testing.assert_allclose(n, shares_loop(norms, trace.tokens).mean(axis=-1), rtol=1e-9)


@pytest.mark.parametrize(
    ("token", "expected"),
    [(".", True), (",", True), ("?", True), ('"', True), ("##.", True), ("(", True), ("-", True)]
    + [("[CLS]", False), ("[SEP]", False), ("[UNK]", False), ("the", False), ("$", False)]
    + [("5", False), ("a.", False), ("", False), ("##s", False)],
)
def test_is_punctuation(token, expected):
    assert is_punctuation(token) is expected


@pytest.fixture(scope="module")
def small_stats(ours) -> tuple[CorpusStatistics, list]:
    calls = []
    stats = corpus_statistics(ours, SENTENCES[:3], on_progress=lambda d, t: calls.append((d, t)))
    return stats, calls


def test_corpus_statistics_average_the_sentences(ours, small_stats):
    stats, calls = small_stats
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert stats.n_sentences == 3 and stats.categories == CATEGORIES
    traces = [ours.trace(s, keep_layers=False) for s in SENTENCES[:3]]
    assert stats.n_tokens == sum(t.n_tokens for t in traces)
    w = np.mean([attention_shares(t.attentions, t.tokens) for t in traces], axis=0)
    n = np.mean([attention_shares(row_shares(value_norms(ours, t)), t.tokens) for t in traces], 0)
    np.testing.assert_allclose(stats.weights, w, rtol=1e-12)
    np.testing.assert_allclose(stats.norms, n, rtol=1e-12)


def test_corpus_shares_are_shares(small_stats):
    stats, _ = small_stats
    assert stats.weights.shape == stats.norms.shape == (len(CATEGORIES), 6, 12)
    for measure in ("weights", "norms"):
        arr = getattr(stats, measure)
        assert np.isfinite(arr).all() and (arr >= 0).all() and (arr <= 1).all()
        exclusive = sum(stats.share(c, measure) for c in ("cls", "sep", "punct"))  # (L, nh)
        assert (exclusive <= 1 + 1e-12).all()
        np.testing.assert_allclose(
            stats.layer_share("sep", measure), stats.share("sep", measure).mean(-1), rtol=1e-15
        )


def test_heads_above(small_stats):
    stats, _ = small_stats
    for measure in ("weights", "norms"):
        for c in CATEGORIES:
            share = stats.share(c, measure)
            hits = stats.heads_above(c, 0.3, measure)
            assert len(hits) == int((share > 0.3).sum())
            assert all(h.share > 0.3 and share[h.layer, h.head] == h.share for h in hits)
            assert [h.share for h in hits] == sorted((h.share for h in hits), reverse=True)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda s: s.share("eos"), "category"),
        (lambda s: s.layer_share("cls", "gradients"), "measure"),
    ],
)
def test_corpus_statistics_bad_names(small_stats, call, match):
    with pytest.raises(ValueError, match=match):
        call(small_stats[0])


@pytest.mark.parametrize("sentences", [[], "a sentence", ["ok", 3]])
def test_corpus_statistics_bad_input(ours, sentences):
    with pytest.raises(ValueError, match="string"):
        corpus_statistics(ours, sentences)


def test_built_in_corpus():
    sentences = load_corpus()
    assert len(sentences) >= 200
    assert len(set(sentences)) == len(sentences)
    lengths = [len(s.split()) for s in sentences]
    assert min(lengths) >= 4 and max(lengths) <= 30
    assert sum("?" in s for s in sentences) >= 20  # questions
    assert sum('"' in s for s in sentences) >= 5  # quotations
    assert sum(any(ch.isdigit() for ch in s) for s in sentences) >= 20  # numbers
    assert all(s == s.strip() and "\n" not in s for s in sentences)


def test_clark_findings_are_well_formed():
    assert "What Does BERT Look At?" in CLARK_2019_CITATION and "W19-4828" in CLARK_2019_CITATION
    for f in CLARK_2019:
        assert f.category in CATEGORIES
        assert all(1 <= layer <= 12 for layer in f.layers)
        assert f.threshold is None or 0 < f.threshold < 1
        assert f.statement and f.where
