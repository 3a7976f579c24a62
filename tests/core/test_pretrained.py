"""all-MiniLM-L6-v2 through our core against Hugging Face `transformers` on the same weights.

`transformers` is the independent reference here (test-only): its eager BertModel for the
numbers, its tokenizers for the tokens (AutoTokenizer, and the pure-Python BertTokenizerLegacy
that reads vocab.txt and shares no code with the `tokenizers` library).
"""

from __future__ import annotations

import dataclasses
import math
import pickle
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
import torch.nn.functional as F
from transformers import AutoTokenizer
from transformers.models.bert.tokenization_bert_legacy import BertTokenizerLegacy

import mha_core
from mha_core.layer.attention import AttentionTrace
from mha_core.pretrained import (
    PretrainedTrace,
    default_model_path,
    layer_trace,
    rehead,
)
from tests.helpers.numeric import assert_close_f32
from tests.helpers.process import run_python

ATTN_ATOL = 1e-5
HIDDEN_ATOL = 1e-4

PARAGRAPH = (
    "Multi-head attention lets a model look at a sentence in several ways at once. "
    "Each head projects the tokens into its own queries, keys and values, compares every "
    "query with every key, and mixes the values with the softmax of those scores. "
    "Dividing by the square root of d_k keeps the scores from growing with the dimension, "
    "so the softmax does not saturate and the gradients stay useful during training. "
    "Positional encodings add sines and cosines of different wavelengths, because attention "
    "by itself does not know the order of the words: shuffle them and the weights only "
    "permute. Après-ski, naïveté, Zürich, São Paulo; 注意力机制很有趣 🙂 <b>bold</b>! "
)
LONG_TEXT = PARAGRAPH * 5  # ~780 WordPiece tokens

SENTENCES = [
    "I want to live in Europe",
    "attention is not too shabby",
    "Hello, world! How's it going?",
    "Wait... what?!? (yes) [no] {maybe} -- 'single' \"double\" #tag @user $5.00 50% a&b",
    "Café naïve résumé Zürich São Paulo Ærøskøbing Łódź",
    "e\u0301 combining a\u0308 marks",
    "我想住在欧洲。注意力不是太差。",
    "日本語のテキストと한국어 문장",
    "I love pizza 🍕 family 👨‍👩‍👧 thumbs 👍🏽 flag 🇫🇷 keycap 1️⃣",
    "<b>x</b>",
    '<a href="https://example.com">x</a> <img src=x onerror=alert(1)>',
    '<span style="font-size:400px">W</span>',
    "مرحبا بالعالم and שלום עולם",
    "zero\u200bwidth\u200bspaces and a\ttab\nnewline",
    "3.14159 1,000,000 2024-01-01 COVID-19 e-mail",
    "Supercalifragilisticexpialidocious antidisestablishmentarianism",
    "the cat saw the dog",
    " ".join(["the"] * 40),
    "a",
    "?!.,",
    "   ",
    "",
]
PAIRS = [
    ("The cat sat on the mat.", "Where did the cat sit?"),
    ("Attention is all you need.", "注意力就是你所需要的 🙂"),
]


@pytest.fixture(scope="module")
def hf_tokenizer():
    return AutoTokenizer.from_pretrained(str(default_model_path()), local_files_only=True)


@pytest.fixture(scope="module")
def legacy_tokenizer() -> BertTokenizerLegacy:
    return BertTokenizerLegacy(vocab_file=str(default_model_path() / "vocab.txt"))


def hf_forward(hf_model, input_ids: torch.Tensor, token_type_ids: torch.Tensor):
    with torch.inference_mode():
        return hf_model(
            input_ids=input_ids[None],
            token_type_ids=token_type_ids[None],
            output_attentions=True,
            output_hidden_states=True,
        )


def assert_matches_hf(trace: PretrainedTrace, hf_model) -> None:
    out = hf_forward(hf_model, trace.token_ids, trace.token_type_ids)
    T = len(trace.tokens)
    assert trace.attentions.shape == (6, 12, T, T)
    assert trace.hidden_states.shape == (7, T, 384)
    assert len(out.attentions) == len(trace.layers) == 6
    for i, (theirs, layer) in enumerate(zip(out.attentions, trace.layers, strict=True)):
        assert torch.isfinite(trace.attentions[i]).all()
        assert_close_f32(trace.attentions[i], theirs[0], atol=ATTN_ATOL)
        assert_close_f32(layer.weights[0], theirs[0], atol=ATTN_ATOL)
    for i, theirs in enumerate(out.hidden_states):
        assert_close_f32(trace.hidden_states[i], theirs[0], atol=HIDDEN_ATOL)
    assert_close_f32(trace.last_hidden_state, out.last_hidden_state[0], atol=HIDDEN_ATOL)


# --- numbers ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text", SENTENCES)
def test_single_sentence_matches_hf(ours, hf_model, text):
    assert_matches_hf(ours.trace(text), hf_model)


@pytest.mark.parametrize(("text", "pair"), PAIRS)
def test_sentence_pair_matches_hf(ours, hf_model, hf_tokenizer, text, pair):
    trace = ours.trace(text, pair)
    enc = hf_tokenizer(text, pair)
    assert trace.token_type_ids.tolist() == enc["token_type_ids"]
    assert 1 in enc["token_type_ids"]
    assert_matches_hf(trace, hf_model)


def test_long_input_matches_hf(ours, hf_model):
    trace = ours.trace(PARAGRAPH * 2)
    assert 256 <= len(trace.tokens) < 512
    assert not trace.truncated
    assert_matches_hf(trace, hf_model)


def test_truncated_input_matches_hf(ours, hf_model, hf_tokenizer):
    trace = ours.trace(LONG_TEXT)
    n_total = len(hf_tokenizer(LONG_TEXT)["input_ids"])
    assert n_total > 512
    assert trace.truncated
    assert trace.n_total_tokens == n_total
    assert len(trace.tokens) == 512
    assert trace.tokens[0] == "[CLS]"
    assert trace.tokens[-1] == "[SEP]"
    assert_matches_hf(trace, hf_model)


# --- tokens ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [*SENTENCES, LONG_TEXT[:2000]])
def test_tokens_match_hf_tokenizers(ours, hf_tokenizer, legacy_tokenizer, text):
    trace = ours.trace(text)
    enc = hf_tokenizer(text, return_special_tokens_mask=True, return_offsets_mapping=True)
    assert list(trace.tokens) == hf_tokenizer.convert_ids_to_tokens(enc["input_ids"])
    assert trace.token_ids.tolist() == enc["input_ids"]
    assert trace.token_type_ids.tolist() == enc["token_type_ids"]
    assert trace.special_tokens_mask.tolist() == [bool(s) for s in enc["special_tokens_mask"]]
    assert [list(o) for o in trace.offsets] == [list(o) for o in enc["offset_mapping"]]
    legacy = ["[CLS]", *legacy_tokenizer.tokenize(text), "[SEP]"]
    assert list(trace.tokens) == legacy
    assert trace.n_total_tokens == len(trace.tokens)
    assert not trace.truncated


@pytest.mark.parametrize(("text", "pair"), PAIRS)
def test_pair_tokens_match_hf_tokenizers(ours, hf_tokenizer, legacy_tokenizer, text, pair):
    trace = ours.trace(text, pair)
    enc = hf_tokenizer(text, pair)
    assert list(trace.tokens) == hf_tokenizer.convert_ids_to_tokens(enc["input_ids"])
    legacy = [
        "[CLS]",
        *legacy_tokenizer.tokenize(text),
        "[SEP]",
        *legacy_tokenizer.tokenize(pair),
        "[SEP]",
    ]
    assert list(trace.tokens) == legacy


def test_tokens_are_wordpieces(ours):
    trace = ours.trace("Tokenization is unbelievable")
    assert trace.tokens[0] == "[CLS]" and trace.tokens[-1] == "[SEP]"
    assert any(t.startswith("##") for t in trace.tokens)
    assert trace.special_tokens_mask.tolist() == [True] + [False] * (len(trace.tokens) - 2) + [True]


@pytest.mark.parametrize("max_tokens", [2, 5, 17, 128, 511, 512])
def test_truncation_like_hf(ours, hf_tokenizer, max_tokens):
    trace = ours.trace(LONG_TEXT, max_tokens=max_tokens)
    enc = hf_tokenizer(LONG_TEXT, truncation=True, max_length=max_tokens)
    assert list(trace.tokens) == hf_tokenizer.convert_ids_to_tokens(enc["input_ids"])
    assert len(trace.tokens) == max_tokens
    assert trace.tokens[-1] == "[SEP]"
    assert trace.truncated
    assert trace.n_total_tokens == len(hf_tokenizer(LONG_TEXT)["input_ids"])
    assert trace.attentions.shape == (6, 12, max_tokens, max_tokens)


@pytest.mark.parametrize("max_tokens", [3, 4, 7, 9, 12, 16, 24])
@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("one two three four five six seven eight nine ten", "alpha beta gamma"),
        ("one two three four five six seven eight nine ten", "alpha beta gamma delta epsilon"),
        ("a b", "one two three four five six seven eight nine ten eleven twelve"),
    ],
)
def test_pair_truncation_longest_first_like_hf(ours, hf_tokenizer, text, pair, max_tokens):
    trace = ours.trace(text, pair, max_tokens=max_tokens)
    enc = hf_tokenizer(text, pair, truncation="longest_first", max_length=max_tokens)
    assert list(trace.tokens) == hf_tokenizer.convert_ids_to_tokens(enc["input_ids"])
    assert trace.token_type_ids.tolist() == enc["token_type_ids"]
    assert trace.tokens.count("[SEP]") == 2 and trace.tokens[-1] == "[SEP]"
    n_total = len(hf_tokenizer(text, pair)["input_ids"])
    assert trace.n_total_tokens == n_total
    assert trace.truncated == (n_total > max_tokens)


def test_short_input_is_not_truncated(ours):
    trace = ours.trace("the cat sat", max_tokens=5)
    assert trace.tokens == ("[CLS]", "the", "cat", "sat", "[SEP]")
    assert not trace.truncated
    assert trace.n_total_tokens == 5


@pytest.mark.parametrize("max_tokens", [0, 1, 513, 10_000, 2.5, None])
def test_invalid_max_tokens(ours, max_tokens):
    with pytest.raises(ValueError, match="max_tokens"):
        ours.trace("hello", max_tokens=max_tokens)


def test_non_string_text(ours):
    with pytest.raises(TypeError):
        ours.trace(["hello"])
    with pytest.raises(TypeError):
        ours.trace("hello", 3)


def test_truncation_is_thread_safe(ours):
    """Truncation is a tokenizer setting; concurrent calls with different limits must not mix.

    Any text longer than the pair's limit shows a mix (a plain call cut to 8 tokens), so the
    paragraph serves: without the lock, 5-8 of 32 such calls came back cut."""

    def run(i: int) -> tuple[int, tuple[str, ...]]:
        if i % 2:  # a truncated pair sets truncation on the tokenizer for a moment
            return 1, ours.tokenize(PARAGRAPH, PARAGRAPH, max_tokens=8).tokens
        return 0, ours.tokenize(PARAGRAPH).tokens

    pair, single = ours.tokenize(PARAGRAPH, PARAGRAPH, max_tokens=8), ours.tokenize(PARAGRAPH)
    assert len(pair.tokens) == 8 and len(single.tokens) > 8
    expected = {1: pair.tokens, 0: single.tokens}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(run, range(64)))  # 32 of each kind, 8 at a time
    finally:
        sys.setswitchinterval(interval)
    for kind, tokens in results:
        assert tokens == expected[kind]


# --- the trace -------------------------------------------------------------------------------
def test_trace_is_frozen_and_nothing_is_stored_on_the_model(ours):
    before = {k: v.clone() for k, v in ours.state_dict().items()}
    attrs = set(vars(ours))
    trace = ours.trace("the cat saw the dog")
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.tokens = ("x",)
    assert set(vars(ours)) == attrs
    assert not ours.training
    for k, v in ours.state_dict().items():
        assert torch.equal(v, before[k]), k
    assert not trace.attentions.requires_grad
    assert not trace.hidden_states.requires_grad


def test_trace_shapes_and_rows(ours):
    trace = ours.trace("attention is not too shabby")
    T = len(trace.tokens)
    assert trace.token_ids.shape == trace.token_type_ids.shape == (T,)
    assert trace.last_hidden_state.shape == (T, 384)
    assert (trace.n_layers, trace.n_heads, trace.n_tokens) == (6, 12, T)
    for layer in trace.layers:
        assert isinstance(layer, AttentionTrace)
        assert layer.q.shape == (1, 12, T, 32)
        assert layer.output.shape == (1, T, 384)
        assert not layer.empty_rows.any()
    sums = trace.attentions.sum(-1)
    torch.testing.assert_close(sums, torch.ones_like(sums), rtol=0, atol=1e-6)


def test_trace_pickles(ours):
    """st.cache_data pickles what it caches."""
    trace = ours.trace("The cat sat.", "On the mat!")
    back = pickle.loads(pickle.dumps(trace))
    assert back.tokens == trace.tokens and back.truncated == trace.truncated
    assert torch.equal(back.attentions, trace.attentions)
    assert torch.equal(back.hidden_states, trace.hidden_states)
    assert torch.equal(back.layers[2].weights, trace.layers[2].weights)
    assert torch.equal(rehead(ours, back, 2, 6).output, rehead(ours, trace, 2, 6).output)


def test_same_text_same_numbers(ours):
    a, b = ours.trace("the cat saw the dog"), ours.trace("the cat saw the dog")
    assert torch.equal(a.attentions, b.attentions)
    assert torch.equal(a.hidden_states, b.hidden_states)


def test_layer_weights_are_the_stacked_attentions_without_a_copy(ours):
    trace = ours.trace("the cat saw the dog")
    for i, layer in enumerate(trace.layers):
        assert layer.weights.data_ptr() == trace.attentions[i].data_ptr()
        assert torch.equal(layer.weights[0], trace.attentions[i])


def test_weights_out_gives_the_same_trace():
    """`MultiHeadAttention(..., weights_out=)`, the core addition the pretrained model uses."""
    torch.manual_seed(0)
    mha = mha_core.MultiHeadAttention(32, 4, seed=1).eval()
    x = torch.randn(2, 5, 32)
    pad = torch.tensor([[False] * 5, [True] * 5])  # the second sequence is all padding
    for kwargs in ({}, {"mask": "causal"}, {"key_padding_mask": pad}, {"temperature": 0.5}):
        with torch.inference_mode():
            plain = mha(x, **kwargs)
            buf = torch.full((3, 2, 4, 5, 5), float("nan"))
            into = mha(x, **kwargs, weights_out=buf[1])
        assert into.weights.data_ptr() == buf[1].data_ptr()
        assert torch.equal(buf[1], plain.weights), kwargs
        assert torch.equal(into.output, plain.output), kwargs
        assert not torch.isnan(buf[1]).any()
    with pytest.raises(ValueError, match="weights_out"):
        mha(x, weights_out=torch.empty(2, 4, 5, 4))


def test_keep_layers_false_keeps_the_same_attentions_only(ours):
    text = "Hello, world! <b>x</b> 🙂 café"
    full, light = ours.trace(text), ours.trace(text, keep_layers=False)
    assert light.layers == []
    assert light.tokens == full.tokens
    assert torch.equal(light.attentions, full.attentions)
    assert torch.equal(light.hidden_states, full.hidden_states)


@pytest.mark.parametrize("keep_layers", [True, False])
def test_layer_trace_recomputes_the_kept_layer(ours, keep_layers):
    text = "the cat saw the dog"
    full = ours.trace(text)
    trace = ours.trace(text, keep_layers=keep_layers)
    for i, old in enumerate(full.layers):
        new = layer_trace(ours, trace, i)
        for name in ("q", "k", "v", "masked_scores", "weights", "head_outputs", "concat", "output"):
            assert torch.equal(getattr(new, name), getattr(old, name)), (i, name)


# --- re-heading ------------------------------------------------------------------------------
@pytest.mark.parametrize("layer", range(6))
def test_rehead_with_12_heads_is_the_layer(ours, layer):
    trace = ours.trace("Hello, world! <b>x</b> 🙂 café")
    new = rehead(ours, trace, layer, 12)
    old = trace.layers[layer]
    for name in ("q", "k", "v", "weights", "head_outputs", "concat", "output"):
        assert torch.equal(getattr(new, name), getattr(old, name)), name


def test_rehead_accepts_text(ours):
    text = "the cat saw the dog"
    a = rehead(ours, text, 2, 6)
    b = rehead(ours, ours.trace(text), 2, 6)
    assert torch.equal(a.weights, b.weights)
    assert torch.equal(a.output, b.output)


def reference_attention(hf_model, x: torch.Tensor, layer: int, n_heads: int):
    """The layer's attention computed independently: HF's own weights, SDPA one head at a time."""
    block = hf_model.encoder.layer[layer].attention
    sa, dense = block.self, block.output.dense
    T, C = x.shape
    hs = C // n_heads
    q = F.linear(x, sa.query.weight, sa.query.bias)  # (T, C)
    k = F.linear(x, sa.key.weight, sa.key.bias)  # (T, C)
    v = F.linear(x, sa.value.weight, sa.value.bias)  # (T, C)
    heads, weights = [], []
    for h in range(n_heads):
        cols = slice(h * hs, (h + 1) * hs)
        qh, kh, vh = q[:, cols], k[:, cols], v[:, cols]  # (T, hs)
        heads.append(F.scaled_dot_product_attention(qh[None], kh[None], vh[None])[0])  # (T, hs)
        weights.append(torch.softmax(qh @ kh.T / math.sqrt(hs), dim=-1))  # (T, T)
    concat = torch.cat(heads, dim=-1)  # (T, C)
    return torch.stack(weights), concat, F.linear(concat, dense.weight, dense.bias)


@pytest.mark.parametrize("n_heads", [1, 6, 12, 24, 384])
@pytest.mark.parametrize("layer", [0, 3, 5])
def test_rehead_is_the_same_function_split_differently(ours, hf_model, layer, n_heads):
    trace = ours.trace("The quick brown fox jumps over the lazy dog. 你好 🙂")
    new = rehead(ours, trace, layer, n_heads)
    T, hs = len(trace.tokens), 384 // n_heads
    assert new.q.shape == new.k.shape == new.v.shape == (1, n_heads, T, hs)
    assert new.weights.shape == (1, n_heads, T, T)
    assert new.head_outputs.shape == (1, n_heads, T, hs)
    assert new.concat.shape == new.output.shape == (1, T, 384)
    assert torch.isfinite(new.weights).all() and torch.isfinite(new.output).all()
    sums = new.weights.sum(-1)
    torch.testing.assert_close(sums, torch.ones_like(sums), rtol=0, atol=1e-6)
    with torch.inference_mode():
        weights, concat, output = reference_attention(
            hf_model, trace.hidden_states[layer], layer, n_heads
        )
    assert_close_f32(new.weights[0], weights, atol=ATTN_ATOL)
    assert_close_f32(new.concat[0], concat, atol=HIDDEN_ATOL)
    assert_close_f32(new.output[0], output, atol=HIDDEN_ATOL)


def test_rehead_changes_the_weights(ours):
    trace = ours.trace("The quick brown fox jumps over the lazy dog.")
    six = rehead(ours, trace, 1, 6)
    assert not torch.allclose(six.output, trace.layers[1].output, atol=1e-3)


@pytest.mark.parametrize("n_heads", [0, -12, 5, 7, 385, 12.0, True, "12", None])
def test_rehead_invalid_head_count(ours, n_heads):
    trace = ours.trace("hello")
    with pytest.raises(ValueError, match="n_heads"):
        rehead(ours, trace, 0, n_heads)


def test_rehead_message_lists_valid_head_counts(ours):
    with pytest.raises(ValueError, match=r"384.*1, 2, 3, 4, 6, 8, 12, 16, 24"):
        rehead(ours, "hello", 0, 5)


@pytest.mark.parametrize("layer", [-1, 6, 1.0, None])
def test_rehead_invalid_layer(ours, layer):
    with pytest.raises(ValueError, match="layer"):
        rehead(ours, "hello", layer, 12)


# --- loading ---------------------------------------------------------------------------------
def test_config_from_json(ours):
    c = ours.config
    assert (c.num_hidden_layers, c.num_attention_heads, c.hidden_size) == (6, 12, 384)
    assert c.max_position_embeddings == 512
    assert c.layer_norm_eps == 1e-12
    assert c.intermediate_size == 1536


def test_missing_folder_says_what_is_missing(tmp_path):
    with pytest.raises(FileNotFoundError, match="model.safetensors"):
        mha_core.load_pretrained(tmp_path)


def test_no_transformers_import():
    code = (
        "import mha_core, sys; m = mha_core.load_pretrained(); m.trace('hi'); "
        "mha_core.pretrained.rehead(m, 'hi', 0, 6); "
        "assert 'transformers' not in sys.modules, 'transformers was imported'; "
        "assert 'sentence_transformers' not in sys.modules"
    )
    run_python(code)
