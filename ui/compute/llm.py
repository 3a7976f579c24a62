"""SmolLM2-135M-Instruct through our core: loaded once per process (shared by every session),
answers and the attention the page shows cached per input, small (one query's rows, one
layer's weights)."""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from mha_core.llm import (
    Generation,
    GenerationStep,
    HeadAttribution,
    HeadSteps,
    LlmHeadScores,
    LlmModel,
    LogitLens,
    head_attribution,
    head_steps,
    llm_head_scores,
    load_llm,
    logit_lens,
)
from mha_core.transformer.threads import torch_threads

MAX_TOKENS = 512  # the views over the text read at most this many tokens
QUESTION_TOKENS = 400  # the question's own tokens (the template adds ~30, the answer <= 64)
SENTENCE_TOKENS = 448  # a sentence read as it is (no template): 448 + 64 new tokens = 512
SOURCES = ("chat", "sentence")  # the question in the chat template; the sidebar's sentence as is
# torch intra-op threads while an answer is written: one token's matrices are small, and a
# second thread's synchronisation on busy cores made each token several times slower (README)
ANSWER_THREADS = 1


def _libc():
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


_LIBC = _libc()


def release_memory() -> None:
    """Hand the memory a big computation freed back to the system (glibc's `malloc_trim`).

    A trace of 512 tokens allocates and frees hundreds of MB in blocks of ~1-20 MB; glibc keeps
    freed blocks under its (growing) mmap threshold in the heap for reuse, and a replica's RSS
    stayed ~700 MB above what it held (bench/llm_memory.py: 1.76 GB after 10 sessions of 512
    tokens without this). The model's own pool of freed trace buffers goes first (it would
    keep the 283 MB of a 512-token stack for the next trace). The trim is a no-op where there
    is no glibc."""
    model().release_buffers()
    trim = getattr(_LIBC, "malloc_trim", None)
    if trim is not None:
        trim(0)


@st.cache_resource(show_spinner=False)
def model() -> LlmModel:
    m = load_llm()
    m.chat_ids("")  # renders the chat template once: jinja2 imported here, by one session
    return m


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


@st.cache_data(max_entries=64, show_spinner=False)
def sentence_prompt(text: str) -> Prompt:
    """The sentence's own ids, without the chat template (cut to SENTENCE_TOKENS)."""
    ids = model().tokenizer.encode(text)
    return Prompt(tuple(ids[:SENTENCE_TOKENS]), len(ids), len(ids) > SENTENCE_TOKENS)


def text_prompt(source: str, text: str) -> Prompt:
    """The ids the model reads: the question in the chat template ("chat") or the sentence as
    it is ("sentence")."""
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, got {source!r}")
    return prompt(text) if source == "chat" else sentence_prompt(text)


@dataclass(frozen=True)
class Answer:
    generation: Generation
    seconds: float


ANSWERS_KEPT = 32


class _Answers:
    """Finished answers by (source, text, temperature, top_k, max_new), the newest ANSWERS_KEPT,
    shared by every session (greedy answers are the same for everyone; sampled ones use seed 0)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple, Answer] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> Answer | None:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
            return self._kept.get(key)

    def put(self, key: tuple, answer: Answer) -> None:
        with self._lock:
            self._kept[key] = answer
            self._kept.move_to_end(key)
            while len(self._kept) > ANSWERS_KEPT:
                self._kept.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _answers() -> _Answers:
    return _Answers()


def kept_answer(
    source: str, text: str, temperature: float, top_k: int, max_new: int
) -> Answer | None:
    """The answer to these (text, settings) if one was written, else None."""
    return _answers().get((source, text, temperature, top_k, max_new))


def answer(
    source: str,
    text: str,
    temperature: float,
    top_k: int,
    max_new: int,
    on_token: Callable[[GenerationStep], object] | None = None,
) -> Answer:
    """The model's answer (top_k 0: no top-k filter), with each step's top candidates; kept.
    `on_token(step)` follows the answer as it is written (not called for a kept answer)."""
    key = (source, text, temperature, top_k, max_new)
    kept = _answers().get(key)
    if kept is not None:
        return kept
    p = text_prompt(source, text)
    start = time.perf_counter()
    with torch_threads(ANSWER_THREADS):
        gen = model().generate(
            list(p.ids), max_new, temperature=temperature, top_k=top_k or None, seed=0,
            on_token=on_token,
        )  # fmt: skip
    ans = Answer(gen, time.perf_counter() - start)
    _answers().put(key, ans)
    return ans


def stopped_answer(prompt_ids, steps: list[GenerationStep], seconds: float) -> Answer:
    """The answer as far as it was written when Stop was pressed (never kept for others)."""
    new = [s.token for s in steps]
    gen = Generation(
        prompt=tuple(int(i) for i in prompt_ids),
        ids=tuple(new),
        text=model().tokenizer.decode(new),
        steps=tuple(steps),
        stop_reason="stopped",
    )
    return Answer(gen, seconds)


@st.cache_data(max_entries=32, show_spinner=False)
def next_token(source: str, text: str, k: int = 8) -> tuple[list[str], list[float]]:
    """The k most likely first tokens of the answer and their probabilities (softmax of the
    logits at the prompt's last position)."""
    ids = text_prompt(source, text).ids
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


STACK_TOKENS = 128  # up to this many tokens, every layer's weights are kept (<= 17.7 MB)


@st.cache_data(max_entries=4, show_spinner=False)
def attention_stack(ids: tuple[int, ...]) -> np.ndarray:
    """(L, nh, T, T) every layer's weights of a short text (<= STACK_TOKENS tokens): one forward
    serves every layer, head and query picked afterwards (a picker step reads it, no forward)."""
    if len(ids) > STACK_TOKENS:
        raise ValueError(f"{len(ids)} tokens: the stack is kept up to {STACK_TOKENS}")
    tr = model().trace(list(ids), layers=(), residual=False)
    return tr.attentions.numpy().copy()


@st.cache_data(max_entries=6, show_spinner=False)  # <= 10 MB each (512 tokens)
def query_view(ids: tuple[int, ...], layer: int, query: int) -> QueryView:
    if len(ids) <= STACK_TOKENS:
        stack = attention_stack(ids)
        return QueryView(stack[:, :, query].copy(), stack[layer].copy())
    tr = model().trace(list(ids), layers=[layer], rows=[query], residual=False)
    rows = tr.attentions[:, :, 0].numpy().copy()  # (L, nh, T)
    weights = tr.layers[layer].attn.weights[0].numpy().copy()  # (nh, T, T)
    del tr
    release_memory()
    return QueryView(rows, weights)


@st.cache_data(max_entries=4, show_spinner=False)
def head_scores(ids: tuple[int, ...]) -> LlmHeadScores:
    """Every head's previous-token and sink scores on the text, and its induction score on
    repeated random tokens (seed 0): small (L, nh) arrays; the text's weights are dropped."""
    scores = llm_head_scores(model(), list(ids))
    release_memory()
    return scores


@st.cache_data(max_entries=8, show_spinner=False)  # <= 0.6 MB each (512 tokens)
def one_head(ids: tuple[int, ...], layer: int, head: int, query: int) -> HeadSteps:
    """One head step by step at one query token, each step checked against the trace (the
    trace keeps the one layer in full and the query's row only; it is dropped here)."""
    m = model()
    tr = m.trace(list(ids), layers=[layer], rows=[query], residual=False)
    steps = head_steps(m, tr, layer, head, query)
    del tr
    release_memory()
    return steps


@dataclass(frozen=True)
class LensView:
    """The logit lens and the heads' direct contributions at one position (small arrays)."""

    lens: LogitLens
    attribution: HeadAttribution


@st.cache_data(max_entries=6, show_spinner=False)
def lens(ids: tuple[int, ...], query: int) -> LensView:
    """What each layer would predict at `query`, and each head's direct contribution to the
    model's own prediction there. The trace keeps the query's row and the residual stream's
    parts only (no layer in full: 108 MB at 512 tokens, dropped here)."""
    m = model()
    tr = m.trace(list(ids), layers=(), rows=[query])
    view = LensView(logit_lens(m, tr, query, k=3), head_attribution(m, tr, query))
    del tr
    release_memory()
    return view
