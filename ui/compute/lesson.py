"""The Lesson page: each station's question on the model on the screen, cached per input.

Every function takes the sentence's tokens and the sidebar's configuration (hashable), runs the
same cached calls as the pages the stations link to, and returns a `mha_core.lessons.quiz`
`Question` (with the live numbers its feedback and figure need)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import streamlit as st
import torch

from mha_core import AttentionConfig, word_tokenize
from mha_core.layer.stats import head_stats
from mha_core.lessons import quiz
from mha_core.lessons.addnorm import norm_statistics
from mha_core.lessons.permutation import shuffle_permutation
from mha_core.llm import InductionHead, strongest_induction_head
from ui.compute import encoder_decoder as encdec
from ui.compute import positional as positional_compute
from ui.compute import scaling as scaling_compute
from ui.compute.attention import sentence_attention

SPREAD_SAMPLES = 4_000  # the Scaling lab's default number of samples
TARGET = "Je veux vivre en Europe."  # the encoder-decoder page's default target sentence
MINILM_LAYER = 2  # the MiniLM layer station 12 reads (of 0..5)


def fingerprint(settings) -> str:
    """What the numbers on the screen depend on: the sentence and every model setting (not the
    language). An answer given under another fingerprint is not graded against these numbers."""
    parts = (
        settings.text,
        settings.tokenizer,
        settings.d_model,
        settings.n_heads,
        settings.seed,
        settings.positional,
        settings.scale,
        settings.mask,
        settings.scoring,
    )
    return hashlib.blake2s(repr(parts).encode(), digest_size=4).hexdigest()


def _trace(tokens: tuple[str, ...], config: AttentionConfig):
    return sentence_attention(tokens, config).attention


def _allowed(trace) -> torch.Tensor | None:
    return None if trace.allowed is None else trace.allowed[0, 0]  # (T, T)


@st.cache_data(max_entries=64, show_spinner=False)
def why(tokens: tuple[str, ...], config: AttentionConfig) -> quiz.Question:
    trace = _trace(tokens, config)
    return quiz.why_attention(tokens, trace.weights[0], _allowed(trace))


@st.cache_data(max_entries=64, show_spinner=False)
def qkv(tokens: tuple[str, ...], config: AttentionConfig) -> quiz.Question:
    trace = _trace(tokens, config)
    return quiz.qkv_scores(tokens, trace.scores[0], _allowed(trace))


@st.cache_data(max_entries=16, show_spinner=False)
def scaling(seed: int) -> quiz.Question:
    stats = scaling_compute.dot_product_stats(SPREAD_SAMPLES, seed, "normal")
    return quiz.spread_growth(stats.d_k.tolist(), stats.std)


@st.cache_data(max_entries=64, show_spinner=False)
def softmax(tokens: tuple[str, ...], config: AttentionConfig) -> quiz.Question:
    return quiz.softmax_top(tokens, _trace(tokens, config).weights[0])


@st.cache_data(max_entries=64, show_spinner=False)
def heads(tokens: tuple[str, ...], config: AttentionConfig) -> quiz.Question:
    trace = _trace(tokens, config)
    allowed = None if trace.allowed is None else trace.allowed[0]
    stats = head_stats(trace.weights[0], allowed)
    return quiz.farthest_head(stats.mean_distance, config.d_model, len(tokens))


def shuffle_perm(n: int, seed: int) -> tuple[int, ...]:
    return tuple(int(i) for i in shuffle_permutation(n, seed))


@st.cache_data(max_entries=64, show_spinner=False)
def positional(tokens: tuple[str, ...], config: AttentionConfig) -> quiz.Question:
    perm = shuffle_perm(len(tokens), config.seed)
    res = positional_compute.shuffle_attention(tokens, config, perm)
    plain = replace(config, positional=False, mask="none")  # what the shuffle does without PE
    plain_diff = (
        None
        if plain == config
        else positional_compute.shuffle_attention(tokens, plain, perm).max_abs_diff
    )
    return quiz.shuffle_effect(res.max_abs_diff, config.positional, plain_diff)


def causal_config(config: AttentionConfig) -> AttentionConfig:
    return replace(config, mask="causal")


@st.cache_data(max_entries=64, show_spinner=False)
def mask(tokens: tuple[str, ...], config: AttentionConfig) -> quiz.Question:
    return quiz.causal_weight(tokens, _trace(tokens, causal_config(config)).weights[0])


@st.cache_data(max_entries=32, show_spinner=False)
def residual_norm(tokens: tuple[str, ...], config: AttentionConfig):
    """The Add & Norm of the sentence: x + attention(x) (T, C) normalised both ways."""
    res = sentence_attention(tokens, config)
    return norm_statistics(res.x + res.attention.output[0])


@st.cache_data(max_entries=64, show_spinner=False)
def addnorm(tokens: tuple[str, ...], config: AttentionConfig) -> quiz.Question:
    stats = residual_norm(tokens, config)
    return quiz.norm_means(stats.layer_normed, stats.batch_normed)


def target_tokens() -> tuple[str, ...]:
    return tuple(word_tokenize(TARGET).tokens)


def encdec_config(config: AttentionConfig):
    return encdec.model_config(config.d_model, config.n_heads, 1, False, config.seed)


@st.cache_data(max_entries=64, show_spinner=False)
def transformer(tokens: tuple[str, ...], config: AttentionConfig) -> quiz.Question:
    pair = encdec.pair(tokens, target_tokens(), encdec_config(config), config.positional)
    return quiz.cross_top(tokens, target_tokens(), pair.decoder_cross[0, 0])


def cross_weights(tokens: tuple[str, ...], config: AttentionConfig):
    """(T_tgt, T_src) layer 0, head 0 of the cross-attention (what station 9 asks about)."""
    pair = encdec.pair(tokens, target_tokens(), encdec_config(config), config.positional)
    return pair.decoder_cross[0, 0].numpy()


@st.cache_data(max_entries=64, show_spinner=False)
def cost(n_tokens: int, config: AttentionConfig) -> quiz.Question:
    return quiz.kv_cache_question(config.d_model, config.n_heads, n_tokens)


# --- the real models (loaded once per process by their pages' compute modules) ----------------
LLM_TOKENS = 64  # station 11 reads at most this many tokens of the sentence


@st.cache_data(max_entries=16, show_spinner=False)
def llm_rows(text: str) -> tuple[tuple[str, ...], object]:
    """SmolLM2's tokens of the sentence (at most LLM_TOKENS) and every head's attention at the
    last one: (L, nh, T)."""
    from ui.compute import llm as llm_compute

    m = llm_compute.model()
    ids = m.tokenizer.encode(text)[:LLM_TOKENS]
    if not ids:
        raise ValueError("no tokens")
    trace = m.trace(ids, rows=[len(ids) - 1], residual=False)
    return tuple(llm_compute.token_texts(ids)), trace.attentions[:, :, 0, :].numpy()


@st.cache_data(max_entries=16, show_spinner=False)
def real(text: str) -> quiz.Question:
    return quiz.sink_share(llm_rows(text)[1])


INDUCTION_N, INDUCTION_SEED = 24, 0  # station 11's induction head: 2 x 24 random tokens, seed 0


@st.cache_data(max_entries=1, show_spinner=False)
def induction_head() -> InductionHead:
    """SmolLM2's strongest induction head on INDUCTION_N random tokens repeated twice (one
    forward over 49 tokens, the same for every sentence and session)."""
    from ui.compute import llm as llm_compute

    return strongest_induction_head(llm_compute.model(), INDUCTION_N, INDUCTION_SEED)


@st.cache_data(max_entries=16, show_spinner=False)
def minilm(text: str) -> tuple[tuple[str, ...], object, object]:
    """MiniLM's tokens, layer MINILM_LAYER's weights (nh, T, T) and value-norm shares."""
    from ui.compute import pretrained, reading

    trace = pretrained.run(text, None)
    return (
        tuple(trace.tokens),
        trace.attentions[MINILM_LAYER].numpy(),
        reading.norm_shares(text, MINILM_LAYER),
    )


@st.cache_data(max_entries=16, show_spinner=False)
def limits(text: str) -> quiz.Question:
    tokens, weights, norms = minilm(text)
    return quiz.weights_vs_norms(tokens, weights, norms)
