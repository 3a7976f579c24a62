"""Reading heads: cached calls into `mha_core.interpret` for the sidebar sentence, on the same
cached model and trace as the Pretrained heads page, and the corpus pass once per process."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import streamlit as st

from mha_core.interpret import (
    CorpusStatistics,
    FilteredAttention,
    QueryKeyMap,
    corpus_statistics,
    filter_attention,
    head_ablation,
    load_corpus,
    query_key_map,
    rollout,
    row_shares,
    value_norms,
)
from mha_core.interpret import layer_shares as interpret_layer_shares
from ui.compute.pretrained import model, rehead, run

CORPUS_LIMIT: int | None = None  # sentences of the built-in corpus used (None: all; tests: a few)


@st.cache_data(max_entries=16, show_spinner=False)
def norm_shares(text: str, layer: int) -> np.ndarray:
    """(nh, T, T) layer `layer`'s value-weighted norms || alpha_ij f_h(x_j) ||, each row divided
    by its sum: the share of what query i receives that comes from key j. (Only one layer is
    kept: all six are 75 MB at 512 tokens.)"""
    return row_shares(value_norms(model(), run(text, None))[layer]).numpy()


@st.cache_data(max_entries=16, show_spinner=False)
def rollouts(text: str, residual: bool) -> np.ndarray:
    """(L, T, T) the rollout through layers 0..l, for every l."""
    return rollout(run(text, None).attentions, residual=residual).numpy()


@st.cache_data(max_entries=32, show_spinner=False)
def layer_mean(text: str, layer: int) -> np.ndarray:
    """(T, T) layer `layer`'s attention averaged over its heads (what rollout multiplies)."""
    return run(text, None).attentions[layer].mean(dim=0).numpy()


@st.cache_data(max_entries=16, show_spinner=False)
def importance(text: str) -> np.ndarray:
    """(L, nh) 1 - cos of the sentence embedding with each head zeroed."""
    return head_ablation(model(), run(text, None))


@st.cache_data(max_entries=16, show_spinner=False)
def layer_shares(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Per layer (mean over heads) shares on each of `mha_core.interpret.CATEGORIES`, for this
    sentence: (n_categories, L) under weights and (n_categories, L) under value norms."""
    return interpret_layer_shares(model(), run(text, None))


@st.cache_data(max_entries=32, show_spinner=False)
def qk_map(text: str, layer: int, head: int, translate: bool) -> QueryKeyMap:
    """Head `head` of layer `layer`: its queries and keys in one PCA plane."""
    att = rehead(text, None, layer, model().n_heads)  # the layer's own full trace
    return query_key_map(att.q[0, head].numpy(), att.k[0, head].numpy(), translate_keys=translate)


def filtered(matrix: np.ndarray, mode: str, threshold: float, top_k: int) -> FilteredAttention:
    """The page's filter on one matrix (cheap: not cached)."""
    return filter_attention(matrix, mode, threshold=threshold, top_k=top_k)


# --- the corpus pass: once per process, shared by every session ----------------------------------


class _CorpusStore:
    """Finished corpus statistics by sentence set, and a lock so that two sessions asking at
    once run the pass once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done: dict[tuple[str, ...], CorpusStatistics] = {}


@st.cache_resource(show_spinner=False)
def _store() -> _CorpusStore:
    return _CorpusStore()


def corpus_sentences() -> tuple[str, ...]:
    corpus = load_corpus()
    return corpus if CORPUS_LIMIT is None else corpus[:CORPUS_LIMIT]


def corpus_ready(sentences: tuple[str, ...]) -> CorpusStatistics | None:
    """The statistics if this process has computed them, else None (computes nothing)."""
    return _store().done.get(sentences)


def corpus(
    sentences: tuple[str, ...], on_progress: Callable[[int, int], None] | None = None
) -> CorpusStatistics:
    """The corpus statistics, computed on the first call in the process (`on_progress(done,
    total)` after each sentence), then kept."""
    store = _store()
    with store.lock:
        if sentences not in store.done:
            store.done[sentences] = corpus_statistics(model(), sentences, on_progress=on_progress)
        return store.done[sentences]
