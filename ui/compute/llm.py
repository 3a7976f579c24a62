"""SmolLM2-135M-Instruct through our core: loaded once per process (shared by every session),
answers and the attention the page shows cached per input, small (one query's rows, one
layer's weights)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from mha_core.llm import Generation, LlmModel, load_llm

MAX_TOKENS = 512  # the Every head view reads at most this many tokens
QUESTION_TOKENS = 400  # the question's own tokens (the template adds ~30, the answer <= 64)


@st.cache_resource(show_spinner=False)
def model() -> LlmModel:
    return load_llm()


@dataclass(frozen=True)
class Prompt:
    ids: tuple[int, ...]  # the chat prompt's ids
    n_question: int  # the question's own tokens before any cut
    cut: bool  # the question was cut to QUESTION_TOKENS tokens


@st.cache_data(max_entries=64, show_spinner=False)
def prompt(question: str) -> Prompt:
    m = model()
    q_ids = m.tokenizer.encode(question)
    cut = len(q_ids) > QUESTION_TOKENS
    if cut:  # a token cut in the middle of a character decodes to U+FFFD: still text
        question = m.tokenizer.decode(q_ids[:QUESTION_TOKENS], skip_special_tokens=False)
    return Prompt(tuple(m.chat_ids(question)), len(q_ids), cut)


@dataclass(frozen=True)
class Answer:
    generation: Generation
    seconds: float


@st.cache_data(max_entries=32, show_spinner=False)
def answer(question: str, temperature: float, top_k: int, max_new: int) -> Answer:
    """The model's answer (top_k 0: no top-k filter), with each step's top candidates."""
    p = prompt(question)
    start = time.perf_counter()
    gen = model().generate(
        list(p.ids), max_new, temperature=temperature, top_k=top_k or None, seed=0
    )
    return Answer(gen, time.perf_counter() - start)


@st.cache_data(max_entries=32, show_spinner=False)
def next_token(question: str, k: int = 8) -> tuple[list[str], list[float]]:
    """The k most likely first tokens of the answer and their probabilities (softmax of the
    logits at the prompt's last position)."""
    ids = prompt(question).ids
    tr = model().trace(list(ids), layers=[], rows=[len(ids) - 1], residual=False)
    top = torch.topk(torch.softmax(tr.logits[0].float(), dim=-1), k)
    return token_texts(top.indices.tolist()), top.values.tolist()


def token_texts(ids) -> list[str]:
    return model().tokenizer.token_texts(ids)


@dataclass(frozen=True)
class QueryView:
    """What the Every head view shows: every layer's and head's attention row at the query
    (L, nh, T), and the chosen layer's weights (nh, T, T)."""

    rows: np.ndarray
    layer_weights: np.ndarray


@st.cache_data(max_entries=8, show_spinner=False)
def query_view(ids: tuple[int, ...], layer: int, query: int) -> QueryView:
    tr = model().trace(list(ids), layers=[layer], rows=[query], residual=False)
    rows = tr.attentions[:, :, 0].numpy().copy()  # (L, nh, T)
    weights = tr.layers[layer].attn.weights[0].numpy().copy()  # (nh, T, T)
    return QueryView(rows, weights)
