"""The A real language model page's sections: the question, the Ask view (the answer and each
token's top candidates) and the Every head view (the layer x head mosaic at a query token, one
head enlarged, the attention sink, the KV cache's memory), drawing from SmolLM2-135M-Instruct
through the cached calls of `ui.compute.llm`. The page's own controls (keys "llm.*") are named
here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import viz
from ui import controls, url, widgets
from ui.compute import llm as compute
from ui.i18n import t
from ui.numbers import size
from ui.params import OneOf, Param, cut, index
from viz.induction import share_grid, topk_bars
from viz.llm import query_mosaic

QUESTION_CHARS = 2_000
DEFAULT_QUESTION = "What is the capital of France?"
TEMPERATURES = (0.0, 0.3, 0.7, 1.0, 1.5)
TOP_KS = (0, 5, 20, 50)  # 0: off
MAX_NEWS = (8, 16, 24, 48, 64)
VIEWS = ("ask", "heads")
SCORES = ("induction", "previous", "sink")  # LlmHeadScores' fields in 0..1
TOP_HEADS = 3
LAST = "last"  # the query option that follows the text's last token
N_LAYERS, N_HEADS = 30, 9  # SmolLM2-135M's; links are checked against these before loading
ENLARGED_TOKENS = 96

K_QUESTION, K_TEMP, K_TOP_K = "llm.question", "llm.temperature", "llm.top_k"
K_MAX_NEW = "llm.max_new"
K_VIEW, K_LAYER, K_HEAD, K_QUERY = "llm.view", "llm.layer", "llm.head", "llm.query"
K_SCORE = "llm.score"
K_ASKED = "llm._asked"  # the (question, settings) Generate was last pressed for (not a control)


def _parse_query(raw: str):
    return LAST if raw == LAST else index(compute.MAX_TOKENS)(raw)


# the query index follows the text's tokens: the question (and the answer, once generated)
_TEXT = frozenset({"question", "temperature", "top_k", "max_new"})
PARAMS = (
    Param(K_QUESTION, DEFAULT_QUESTION, cut(QUESTION_CHARS)),
    Param(K_TEMP, 0.0, OneOf(TEMPERATURES, float)),
    Param(K_TOP_K, 0, OneOf(TOP_KS, int)),
    Param(K_MAX_NEW, 24, OneOf(MAX_NEWS, int)),
    Param(K_VIEW, "ask", OneOf(VIEWS)),
    Param(K_LAYER, 15, index(N_LAYERS)),
    Param(K_HEAD, 0, index(N_HEADS)),
    Param(K_QUERY, LAST, _parse_query, depends_on=_TEXT),
    Param(K_SCORE, "induction", OneOf(SCORES)),
)


def load():
    """The model, loaded once per server; a clear message and the end of the page if it cannot
    be (the package missing, a bad file)."""
    try:
        with st.spinner(t("llm.loading")):
            return compute.model()
    # a missing package or file, a bad or unsupported file, a damaged disk cache
    except (ImportError, OSError, ValueError, KeyError, RuntimeError) as exc:
        st.error(t("llm.missing", error=str(exc)))
        url.stop()


def intro(m) -> None:
    cfg = m.config
    st.write(
        t(
            "llm.intro",
            layers=cfg.n_layers,
            heads=cfg.n_heads,
            kv_heads=cfg.n_kv_heads,
            d_model=cfg.d_model,
            head_size=cfg.head_size,
        )
    )


def question() -> str:
    """The question box; stops the page with a message when it is empty."""
    q = controls.text(
        t("llm.question"), key=K_QUESTION, limit=QUESTION_CHARS, help=t("llm.question_help")
    )
    n_chars = controls.too_long(K_QUESTION, QUESTION_CHARS)
    if n_chars:
        st.warning(t("msg.too_long", n=n_chars, limit=QUESTION_CHARS))
    if not q.strip():
        st.info(t("llm.empty"))
        url.stop()
    p = compute.prompt(q)
    if p.cut:
        st.warning(t("llm.question_cut", n=p.n_question, limit=compute.QUESTION_TOKENS))
    return q


def settings() -> tuple[float, int, int]:
    c1, c2, c3 = st.columns(3)
    temp = controls.selectbox(
        t("llm.temperature"), TEMPERATURES, key=K_TEMP, help=t("llm.temperature_help"), where=c1
    )
    top_k = controls.selectbox(
        t("llm.top_k"),
        TOP_KS,
        key=K_TOP_K,
        format_func=lambda k: str(k) if k else t("llm.top_k_off"),
        help=t("llm.top_k_help"),
        where=c2,
    )
    max_new = controls.selectbox(t("llm.max_new"), MAX_NEWS, key=K_MAX_NEW, where=c3)
    return temp, top_k, max_new


def asked_answer(q: str, temp: float, top_k: int, max_new: int):
    """The answer to these (question, settings) if Generate was pressed for them and it was
    written, else None."""
    if st.session_state.get(K_ASKED) != (q, temp, top_k, max_new):
        return None
    return compute.kept_answer(q, temp, top_k, max_new)


def _write(q: str, temp: float, top_k: int, max_new: int):
    """The answer streaming in, token by token, with a progress bar; then kept. Any click
    meanwhile stops it (Streamlit ends this run for the next one)."""
    bar = st.progress(0.0, text=t("llm.generating"))
    box = st.empty()
    pieces: list[str] = []

    def on_token(step) -> None:
        pieces.append(step.piece)
        bar.progress((step.index + 1) / max_new, text=t("llm.generating"))
        box.code("".join(pieces), language=None, wrap_lines=True)

    ans = compute.answer(q, temp, top_k, max_new, on_token=on_token)
    bar.empty()
    box.empty()
    return ans


def views():
    return controls.enum_views("llm.view", VIEWS, key=K_VIEW)


def first(q: str) -> None:
    """The model's first step on this prompt: its most likely first tokens."""
    tokens, probs = compute.next_token(q)
    fig = topk_bars(
        [repr(tok) for tok in tokens],
        probs,
        value_label=t("llm.probability"),
        title=t("llm.first"),
    )
    widgets.plot(fig, key="llm.first_fig")


def ask(q: str, temp: float, top_k: int, max_new: int) -> None:
    key = (q, temp, top_k, max_new)
    pressed = st.button(t("llm.generate"), key="llm.generate_button", type="primary")
    if pressed:
        st.session_state[K_ASKED] = key
    ans = asked_answer(q, temp, top_k, max_new)
    if ans is None and pressed:
        ans = _write(q, temp, top_k, max_new)
    if ans is None:
        st.info(t("llm.press"))
        first(q)
        return
    gen = ans.generation
    st.subheader(t("llm.answer"))
    # st.code: the model's text (and anything the question made it echo) stays literal
    st.code(gen.text or t("llm.empty_answer"), language=None, wrap_lines=True)
    why = t(f"llm.stop.{gen.stop_reason}")
    st.caption(t("llm.answer_meta", n=len(gen.ids), seconds=ans.seconds, why=why))
    st.subheader(t("llm.candidates"))
    st.caption(t("llm.candidates_intro"))
    rows = []
    for s in gen.steps:
        texts = compute.token_texts(s.candidates)
        rows.append(
            {
                t("llm.col.step"): s.index,
                t("llm.col.token"): compute.token_texts([s.token])[0],
                t("llm.col.prob"): round(s.prob, 4) if s.prob is not None else None,
                t("llm.col.candidates"): "  ".join(
                    f"{tok!r} {p:.3f}" for tok, p in zip(texts, s.probs, strict=True)
                ),
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="llm.candidates_table")
    first(q)


def heads_text(
    m, q: str, temp: float, top_k: int, max_new: int
) -> tuple[tuple[int, ...], list[str]]:
    """The ids the heads read (the prompt, and the answer once generated; at most MAX_TOKENS)
    and their texts, with notices."""
    ids = compute.prompt(q).ids
    ans = asked_answer(q, temp, top_k, max_new)
    if ans is None:
        st.caption(t("llm.prompt_only"))
    else:
        ids = ids + ans.generation.ids
    if len(ids) > compute.MAX_TOKENS:
        st.warning(t("llm.heads_cut", n=len(ids), limit=compute.MAX_TOKENS))
        ids = ids[: compute.MAX_TOKENS]
    tokens = compute.token_texts(ids)
    with st.expander(t("llm.heads_text", n=len(ids)), expanded=False):
        widgets.token_code(tokens)
    return ids, tokens


def head_controls(tokens: list[str]) -> tuple[int, int, int]:
    n = len(tokens)
    c1, c2, c3 = st.columns(3)
    layer = controls.selectbox(t("llm.layer"), range(N_LAYERS), key=K_LAYER, where=c1)
    head = controls.selectbox(t("llm.head"), range(N_HEADS), key=K_HEAD, where=c2)
    last = n - 1
    options = [LAST, *range(n)]

    def label(o) -> str:  # distinct from the label of the last index itself
        if o == LAST:
            return t("llm.query_last", i=last, token=repr(tokens[last]))
        return f"{o}: {tokens[o]!r}"

    q = controls.selectbox(t("llm.query"), options, key=K_QUERY, format_func=label, where=c3)
    return layer, head, last if q == LAST else q


def every_head(m, ids: tuple[int, ...], tokens: list[str], layer: int, head: int, query: int):
    cfg = m.config
    group = cfg.n_heads // cfg.n_kv_heads
    st.caption(t("llm.heads_intro", n=cfg.n_layers * cfg.n_heads, group=group))
    view = compute.query_view(ids, layer, query)
    n_keys = query + 1  # causal: the keys after the query have weight 0
    st.subheader(t("llm.mosaic", query=query))
    st.caption(t("llm.mosaic_caption", query=query, token=repr(tokens[query])))
    fig = query_mosaic(
        view.rows[:, :, :n_keys],
        tokens[:n_keys],
        group=group,
        layer_label=t("llm.layer_word"),
        head_label=t("llm.head_word"),
        key_label=t("llm.key_word"),
        value_label=t("llm.weight"),
        selected=(layer, head),
    )
    widgets.plot(fig, key="llm.mosaic_fig")

    st.subheader(t("llm.enlarged", layer=layer, head=head, kv=head // group))
    n = len(tokens)
    big = min(n, ENLARGED_TOKENS)
    if big < n:
        st.caption(t("llm.enlarged_cut", shown=big, n=n))
    fig = viz.attention_heatmap(
        view.layer_weights[head, :big, :big],
        tokens[:big],
        value_label=t("llm.weight"),
        x_title=t("llm.key_word"),
        y_title=t("llm.query_word"),
    )
    widgets.plot(fig, key="llm.enlarged_fig")

    st.subheader(t("llm.sink"))
    st.caption(t("llm.sink_caption", query=query))
    fig = share_grid(
        view.rows[:, :, 0],
        layer_label=t("llm.layer_word"),
        head_label=t("llm.head_word"),
        value_label=t("llm.sink_axis"),
    )
    widgets.plot(fig, key="llm.sink_fig")


def scores(ids: tuple[int, ...]) -> None:
    """One score of all 270 heads as a map, and the heads that score highest."""
    st.subheader(t("llm.scores"))
    kind = controls.enum_radio("llm.score", SCORES, key=K_SCORE)
    st.caption(t(f"llm.score_about.{kind}"))
    values = getattr(compute.head_scores(ids), kind)  # (L, nh)
    finite = np.nan_to_num(values, nan=-1.0)
    order = np.argsort(-finite, axis=None, kind="stable")[:TOP_HEADS]
    top = [np.unravel_index(i, values.shape) for i in order if finite.flat[i] >= 0]
    if top:
        named = ", ".join(
            t("llm.top_head", layer=int(L), head=int(h), score=float(values[L, h])) for L, h in top
        )
        st.write(t("llm.top_heads", heads=named))
    fig = share_grid(
        values,
        layer_label=t("llm.layer_word"),
        head_label=t("llm.head_word"),
        value_label=t(f"llm.score.{kind}"),
    )
    widgets.plot(fig, key="llm.scores_fig")


def memory(m, n_tokens: int) -> None:
    cfg = m.config
    own = cfg.kv_cache_bytes(n_tokens)
    full = cfg.kv_cache_bytes(n_tokens, n_kv_heads=cfg.n_heads)
    st.info(
        t(
            "llm.memory",
            layers=cfg.n_layers,
            kv_heads=cfg.n_kv_heads,
            head_size=cfg.head_size,
            n=n_tokens,
            bytes=size(own),
            heads=cfg.n_heads,
            full=size(full),
            ratio=full / own,
        )
    )
