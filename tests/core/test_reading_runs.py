"""Reading trained runs: typed symbols (one reader for both pages), how cross-attention heads
line up with the task, the weights as a file, and the next token after typed text with its
logit split. Each is checked against a computation written out here, not the core's helpers."""

from __future__ import annotations

import dataclasses
import json
import struct

import numpy as np
import pytest
import safetensors.torch
import torch

from mha_core import TASKS, predict, train_toy
from mha_core.gpt import (
    DecoderOnly,
    DecoderOnlyConfig,
    InductionTask,
    NextToken,
    model_sink_share,
    next_token,
)
from mha_core.transformer import (
    InputProblem,
    alignment,
    alignment_over_time,
    expected_sources,
    n_parameters,
    read_symbols,
    try_input,
    weights_bytes,
)


@pytest.fixture(scope="module")
def tiny_run():
    """Three steps of reversal, every step snapshotted: a run to read, not a trained model."""
    return train_toy(task="reverse", steps=3, snapshot_every=1, seed=0)


# --- typed symbols ---------------------------------------------------------------------------
def test_read_symbols_reads_like_the_toy_tasks_parser():
    task = TASKS["reverse"]
    for text in ("c a b", "cab", "c,a;b", " c  a b ", "a"):
        got = read_symbols(text, task.alphabet, task.max_len)
        assert got == task.parse(text, any_length=True)
    assert read_symbols("cxax", task.alphabet, 8) == InputProblem("unknown", unknown=("x",), n=4)
    assert read_symbols("a" * 9, task.alphabet, 8) == InputProblem("length", n=9)
    assert read_symbols("a" * 8, task.alphabet, 8) == ("a",) * 8
    assert read_symbols(" ,; ", task.alphabet, 8) == InputProblem("empty")
    assert read_symbols("", task.alphabet, 8) == InputProblem("empty")


def test_unknown_symbols_are_listed_once_in_order_and_unknown_comes_before_length():
    got = read_symbols("z<a>z<" + "a" * 20, "abc", 4)
    assert got == InputProblem("unknown", unknown=("z", "<", ">"), n=26)


def test_multi_character_symbols_are_split_on_spaces_and_separators():
    alphabet = ("ab", "cd", "e")
    assert read_symbols("ab cd,e;ab", alphabet, 5) == ("ab", "cd", "e", "ab")
    assert read_symbols("abcd", alphabet, 5) == InputProblem("unknown", unknown=("abcd",), n=1)
    task = dataclasses.replace(TASKS["reverse"], alphabet=alphabet, probe=("ab", "cd", "e", "e"))
    text = "cd e, ab;e"
    assert read_symbols(text, alphabet, task.max_len) == task.parse(text)


def test_without_separators_a_comma_is_a_symbol_like_any_other():
    letters = tuple("abcdef")
    assert read_symbols("a b\tc\nd", letters, 10) == ("a", "b", "c", "d")
    assert read_symbols("a,b", letters, 10, separators="") == InputProblem(
        "unknown", unknown=(",",), n=3
    )
    assert read_symbols("a,b", letters, 10) == ("a", "b")


# --- a toy run: alignment, parameters, the weights file, typed input ----------------------------
def test_expected_sources_by_task():
    n = 5
    assert expected_sources(TASKS["reverse"], n) == [4, 3, 2, 1, 0]
    assert expected_sources(TASKS["copy"], n) == [0, 1, 2, 3, 4]
    assert expected_sources(TASKS["sort"], n) is None


def test_alignment_finds_the_anti_diagonal_and_the_diagonal():
    n, S = 5, 6
    mirror = np.zeros((2, n + 1, S), dtype=np.float32)
    mirror[0, np.arange(n), n - 1 - np.arange(n)] = 1.0  # head 0 reads the mirrored position
    mirror[1] = 1.0 / S  # head 1 is uniform
    np.testing.assert_allclose(alignment(TASKS["reverse"], mirror, n), [1.0, 1.0 / S], rtol=1e-6)
    same = np.zeros((1, n + 1, S), dtype=np.float32)
    same[0, np.arange(n), np.arange(n)] = 1.0
    np.testing.assert_allclose(alignment(TASKS["copy"], same, n), [1.0])
    np.testing.assert_allclose(alignment(TASKS["reverse"], same, n), [1.0 / n])  # the middle row
    assert alignment(TASKS["sort"], same, n) is None


def test_alignment_over_time_is_each_snapshots_mean_on_the_mirrored_source(tiny_run):
    got = alignment_over_time(tiny_run)
    n = len(tiny_run.task.probe)
    snaps = list(tiny_run.snapshots.values())
    L, nh = len(snaps[0].cross), snaps[0].cross[0].shape[0]
    assert got.shape == (L, nh, len(snaps))
    for s, snap in enumerate(snaps):
        for layer in range(L):
            for h in range(nh):
                w = snap.cross[layer][h]  # (T, S)
                want = sum(float(w[t, n - 1 - t]) for t in range(n)) / n
                assert got[layer, h, s] == pytest.approx(want, rel=1e-6)
    sorting = train_toy(task="sort", steps=1, snapshot_every=1, seed=0)
    assert alignment_over_time(sorting) is None


def test_n_parameters_counts_every_trainable_number(tiny_run):
    flat = torch.nn.utils.parameters_to_vector(tiny_run.model.parameters())
    assert n_parameters(tiny_run) == flat.numel() > 0


def test_the_weights_file_holds_the_state_and_the_settings(tiny_run):
    blob = weights_bytes(tiny_run)
    tensors = safetensors.torch.load(blob)
    state = tiny_run.model.state_dict()
    assert tensors.keys() == state.keys()
    for name, value in state.items():
        assert torch.equal(tensors[name], value), name
    # the safetensors header by hand: 8 bytes of length, then JSON with the metadata
    (length,) = struct.unpack("<Q", blob[:8])
    meta = json.loads(blob[8 : 8 + length])["__metadata__"]
    assert json.loads(meta["settings"]) == tiny_run.settings.as_dict()
    assert json.loads(meta["vocab"]) == list(tiny_run.task.vocab)
    assert meta["steps_done"] == "3" and meta["stopped"] == "false"


def test_try_input_is_predict_on_valid_text_and_a_problem_otherwise(tiny_run):
    got = try_input(tiny_run, "c, a b")
    want = predict(tiny_run, ["c", "a", "b"])
    assert (got.input, got.output, got.expected) == (want.input, want.output, want.expected)
    for ours, ref in zip(got.cross, want.cross, strict=True):
        np.testing.assert_array_equal(ours, ref)
    assert try_input(tiny_run, "  ") == InputProblem("empty")
    assert try_input(tiny_run, "abz") == InputProblem("unknown", unknown=("z",), n=3)
    assert try_input(tiny_run, "a" * 9) == InputProblem("length", n=9)


# --- the next token after typed text ------------------------------------------------------------
@pytest.fixture(scope="module")
def decoder() -> DecoderOnly:
    task = InductionTask()
    cfg = DecoderOnlyConfig(
        vocab_size=task.vocab_size, n_positions=task.seq_len, d_model=32, n_heads=4, n_layers=2
    )
    model = DecoderOnly(cfg).eval()
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():  # every parameter random, so that no logit ties another
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=g) * 0.5)
    return model


def test_next_token_is_the_top_k_of_the_last_logits_without_bos(decoder):
    task = InductionTask()
    p = next_token(decoder, task, "abc dea bc", k=4)
    assert isinstance(p, NextToken)
    assert p.tokens == ("<bos>", *"abcdeabc")
    ids = [0] + [1 + "abcde".index(c) for c in "abcdeabc"]  # <bos> is 0, then a = 1, b = 2, ...
    with torch.no_grad():
        out = decoder(torch.tensor([ids]))
    z = out.logits[0, -1].double().numpy()  # (V,)
    z[0] = -np.inf
    probs = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    order = np.argsort(-probs)[:4]
    assert [tok for tok, _ in p.top] == [task.vocab[i] for i in order]
    np.testing.assert_allclose([q for _, q in p.top], probs[order], rtol=1e-5)
    assert p.chosen == task.vocab[order[0]]
    assert p.logit == pytest.approx(float(z[order[0]]), rel=1e-6)
    np.testing.assert_allclose(p.attention, out.weights[0].numpy(), rtol=1e-5, atol=1e-7)


def test_next_token_parts_are_embedding_every_head_and_biases_and_add_up(decoder):
    p = next_token(decoder, InductionTask(), "abcdeabcd")
    heads = [f"L{layer}H{h}" for layer in range(2) for h in range(4)]
    assert list(p.parts) == ["embedding", *heads, "biases"]
    assert p.parts_sum == pytest.approx(p.logit, rel=1e-4, abs=1e-4)
    assert len(p.top) == 5 and all(tok != "<bos>" for tok, _ in p.top)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", InputProblem("empty")),
        (" \t\n", InputProblem("empty")),
        ("a,b", InputProblem("unknown", unknown=(",",), n=3)),
        ("🙂a<b>", InputProblem("unknown", unknown=("🙂", "<", ">"), n=5)),
        ("a" * 26, InputProblem("length", n=26)),
    ],
)
def test_bad_typed_sequences_are_explained(decoder, text, problem):
    assert next_token(decoder, InductionTask(), text) == problem


def test_the_longest_typed_sequence_fills_the_context(decoder):
    p = next_token(decoder, InductionTask(), "a" * 25)
    assert len(p.tokens) == 26 and p.attention.shape == (2, 4, 26, 26)


def test_model_sink_share_is_the_mean_weight_on_bos(decoder):
    task = InductionTask()
    got = model_sink_share(decoder, task, n=8, seed=5)
    with torch.no_grad():
        w = decoder(task.sample(8, 5).tokens).weights.double().numpy()  # (B, L, nh, T, T)
    B, L, nh, T, _ = w.shape
    want = np.zeros((L, nh))
    for layer in range(L):
        for h in range(nh):
            want[layer, h] = np.mean([w[b, layer, h, i, 0] for b in range(B) for i in range(1, T)])
    np.testing.assert_allclose(got, want, rtol=1e-6)
