import math

import pytest
import torch

from mha_core import (
    MAX_TOKENS,
    embed_tokens,
    sinusoidal_encoding,
    split_words,
    token_embedding,
    word_tokenize,
)


@pytest.mark.parametrize(
    "text,tokens",
    [
        ("I want to live in Europe.", ["I", "want", "to", "live", "in", "Europe", "."]),
        ("attention is not too shabby", ["attention", "is", "not", "too", "shabby"]),
        ("  \t\n ", []),
        ("", []),
        ("...!?", [".", ".", ".", "!", "?"]),
        ("the cat saw the dog", ["the", "cat", "saw", "the", "dog"]),
        ("<b>x</b>", ["<", "b", ">", "x", "<", "/", "b", ">"]),
        ("café cafe\u0301", ["café", "café"]),  # combining accent composed (NFC)
        ("a\u200bb", ["a", "b"]),  # zero-width space separates
        ("我想住在欧洲", ["我", "想", "住", "在", "欧", "洲"]),
        ("שלום עולם", ["שלום", "עולם"]),
        ("مرحبا بالعالم", ["مرحبا", "بالعالم"]),
        ("hi 👩\u200d👩\u200d👧 there", ["hi", "👩\u200d👩\u200d👧", "there"]),
        ("👍🏽 ok", ["👍🏽", "ok"]),
        ("🇫🇷🇩🇪", ["🇫🇷", "🇩🇪"]),
    ],
)
def test_word_tokenize(text, tokens):
    assert split_words(text) == tokens


def test_truncation_is_reported():
    text = " ".join(f"w{i}" for i in range(600))
    tok = word_tokenize(text)
    assert len(tok.tokens) == MAX_TOKENS == 512
    assert tok.truncated and tok.n_total == 600
    assert tok.tokens[-1] == "w511"
    short = word_tokenize("a b c")
    assert not short.truncated and short.n_total == 3


def test_embedding_deterministic_and_unit_variance():
    a = token_embedding("cat", 64, seed=0)
    assert torch.equal(a, token_embedding("cat", 64, seed=0))
    assert not torch.equal(a, token_embedding("cat", 64, seed=1))
    assert not torch.equal(a, token_embedding("dog", 64, seed=0))
    assert abs(float(a.mean())) < 1e-5
    assert abs(float(a.var(unbiased=False)) - 1.0) < 1e-5


def test_same_word_same_vector_in_every_sentence():
    x1 = embed_tokens(["the", "cat"], 32, seed=5)
    x2 = embed_tokens(["a", "big", "the"], 32, seed=5)
    assert torch.equal(x1[0], x2[2])


def test_embeddings_with_positional_encoding():
    toks = ["the", "cat", "the"]
    plain = embed_tokens(toks, 16, seed=0)
    with_pe = embed_tokens(toks, 16, seed=0, positional=True)
    torch.testing.assert_close(with_pe - plain, sinusoidal_encoding(3, 16))
    assert torch.equal(plain[0], plain[2]) and not torch.equal(with_pe[0], with_pe[2])


@pytest.mark.parametrize("n,d", [(1, 1), (10, 4), (50, 64), (7, 9), (512, 384)])
def test_sinusoidal_closed_form(n, d):
    pe = sinusoidal_encoding(n, d)
    assert pe.shape == (n, d)
    for pos in {p for p in (0, 1, n // 2, n - 1) if p < n}:
        for j in range(d):
            i2 = j - (j % 2)
            angle = pos / (10000 ** (i2 / d))
            expect = math.sin(angle) if j % 2 == 0 else math.cos(angle)
            assert abs(float(pe[pos, j]) - expect) < 1e-6
    assert pe.abs().max() <= 1.0
