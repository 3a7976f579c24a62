"""The A real language model page's sections: the text (a question in the chat template, or the
sidebar's sentence as it is), the Ask view (the answer streaming in, Stop, each token's top
candidates), Every head (the layer x head mosaic at a query token, one head enlarged, the
attention sink, the KV cache's memory, head scores), One head step by step, the Logit lens and
the mean attention distance of every head, drawing from SmolLM2-135M-Instruct through the cached
calls of `ui.compute.llm`. The page's own controls (keys "llm.*") are named here."""

from __future__ import annotations

import time
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import streamlit as st

import viz
from ui import controls, present, state, url, widgets
from ui.compute import llm as compute
from ui.i18n import t
from ui.numbers import num, size
from ui.params import TOKENS, OneOf, Param, cut, index
from ui.sections.llm_head import K_PAIR, K_STAGE, N_PAIRS, STAGES, one_head
from viz.efficient import curves
from viz.induction import share_grid, topk_bars
from viz.llm import query_mosaic, value_grid

QUESTION_CHARS = 2_000
DEFAULT_QUESTION = "What is the capital of France?"
TEMPERATURES = (0.0, 0.3, 0.7, 1.0, 1.5)
TOP_KS = (0, 5, 20, 50)  # 0: off
MAX_NEWS = (8, 16, 24, 48, 64)
VIEWS = ("ask", "heads", "arithmetic", "lens", "distance")
SOURCES = compute.SOURCES
TOP_ATTRIBUTION = 5
SCORES = ("induction", "previous", "sink")  # LlmHeadScores' fields in 0..1
TOP_HEADS = 3
LAST = "last"  # the query option that follows the text's last token
N_LAYERS, N_HEADS = 30, 9  # SmolLM2-135M's; links are checked against these before loading
ENLARGED_TOKENS = 96

K_QUESTION, K_TEMP, K_TOP_K = "llm.question", "llm.temperature", "llm.top_k"
K_MAX_NEW = "llm.max_new"
K_VIEW, K_LAYER, K_HEAD, K_QUERY = "llm.view", "llm.layer", "llm.head", "llm.query"
K_SCORE = "llm.score"
K_SOURCE = "llm.source"
K_ASKED = "llm._asked"  # the (source, text, settings) Generate was last pressed for (not a control)
K_WRITING = "llm._writing"  # the answer being written: [key, prompt ids, steps, start time]
K_STOPPED = "llm._stopped"  # the answer Stop ended: (key, compute.Answer)


def _parse_query(raw: str):
    return LAST if raw == LAST else index(compute.MAX_TOKENS)(raw)


# the query index follows the text's tokens: the question or the sidebar's sentence (and the
# answer, once generated)
_TEXT = TOKENS | {"question", "temperature", "top_k", "max_new", "source"}
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
    Param(K_SOURCE, "chat", OneOf(SOURCES)),
    Param(K_STAGE, "norm", OneOf(STAGES)),
    Param(K_PAIR, 0, index(N_PAIRS)),
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
    present.prose(
        t(
            "llm.intro",
            layers=cfg.n_layers,
            heads=cfg.n_heads,
            kv_heads=cfg.n_kv_heads,
            d_model=cfg.d_model,
            head_size=cfg.head_size,
        )
    )


def source() -> str:
    """What the model reads: the question in its chat template, or the sidebar's sentence."""
    return controls.enum_radio("llm.source", SOURCES, key=K_SOURCE)


def text(src: str) -> str:
    """The question box (chat), or the sidebar's sentence read as it is (sentence); stops the
    page with a message when the text is empty."""
    if src == "sentence":
        q = state.current().text
        st.caption(t("llm.sentence_note"))
        if not q.strip():
            st.info(t("llm.sentence_empty"))
            url.stop()
        p = compute.text_prompt(src, q)
        if p.cut:
            st.warning(t("llm.sentence_cut", n=p.n_question, limit=compute.SENTENCE_TOKENS))
        return q
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


def asked_answer(src: str, q: str, temp: float, top_k: int, max_new: int):
    """The answer to these (text, settings) if Generate was pressed for them and it was written
    (or stopped), else None."""
    key = (src, q, temp, top_k, max_new)
    if st.session_state.get(K_ASKED) != key:
        return None
    stopped = st.session_state.get(K_STOPPED)
    if stopped is not None and stopped[0] == key:
        return stopped[1]
    return compute.kept_answer(*key)


def _press_stop() -> None:
    """Stop's callback (it runs before the next run, which the press starts): the steps written
    so far become the answer, said to be stopped."""
    writing = st.session_state.get(K_WRITING)
    if writing is None:
        return
    key, prompt_ids, steps, start = writing
    if steps:
        ans = compute.stopped_answer(prompt_ids, list(steps), time.perf_counter() - start)
        st.session_state[K_STOPPED] = (key, ans)
    st.session_state[K_WRITING] = None


def _write(src: str, q: str, temp: float, top_k: int, max_new: int):
    """The answer streaming in, token by token, with a progress bar and Stop; then kept. Stop
    (or any other click) ends this run for the next one (Streamlit stops the running script at
    its next element); Stop keeps what was written."""
    key = (src, q, temp, top_k, max_new)
    st.button(t("llm.stop_button"), key="llm.stop_button", on_click=_press_stop)
    bar = st.progress(0.0, text=t("llm.generating"))
    box = st.empty()
    steps: list = []
    # the steps list is filled in place: Stop's callback reads it without this run's help
    writing = [key, compute.text_prompt(src, q).ids, steps, time.perf_counter()]
    st.session_state[K_WRITING] = writing
    st.session_state[K_STOPPED] = None

    def on_token(step) -> None:
        steps.append(step)
        bar.progress((step.index + 1) / max_new, text=t("llm.generating"))
        box.code("".join(s.piece for s in steps), language=None, wrap_lines=True)

    ans = compute.answer(src, q, temp, top_k, max_new, on_token=on_token)
    st.session_state[K_WRITING] = None
    bar.empty()
    box.empty()
    return ans


def views():
    return controls.enum_views("llm.view", VIEWS, key=K_VIEW)


def first(src: str, q: str) -> None:
    """The model's first step on this prompt: its most likely first tokens."""
    tokens, probs = compute.next_token(src, q)
    fig = topk_bars(
        [repr(tok) for tok in tokens],
        probs,
        value_label=t("llm.probability"),
        title=t("llm.first"),
    )
    widgets.plot(fig, key="llm.first_fig")


def ask(src: str, q: str, temp: float, top_k: int, max_new: int) -> None:
    key = (src, q, temp, top_k, max_new)
    pressed = st.button(t("llm.generate"), key="llm.generate_button", type="primary")
    if pressed:
        st.session_state[K_ASKED] = key
        st.session_state[K_STOPPED] = None
    ans = asked_answer(src, q, temp, top_k, max_new)
    if ans is None and pressed:
        ans = _write(src, q, temp, top_k, max_new)
    if ans is None:
        st.info(t("llm.press"))
        first(src, q)
        return
    gen = ans.generation
    st.subheader(t(f"llm.answer.{src}"))
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
    first(src, q)


def heads_text(
    src: str, q: str, temp: float, top_k: int, max_new: int
) -> tuple[tuple[int, ...], list[str]]:
    """The ids the heads read (the prompt, and the answer once generated; at most MAX_TOKENS)
    and their texts, with notices."""
    ids = compute.text_prompt(src, q).ids
    ans = asked_answer(src, q, temp, top_k, max_new)
    if ans is None:
        st.caption(t(f"llm.prompt_only.{src}"))
    else:
        ids = ids + ans.generation.ids
    if len(ids) > compute.MAX_TOKENS:
        st.warning(t("llm.heads_cut", n=len(ids), limit=compute.MAX_TOKENS))
        ids = ids[: compute.MAX_TOKENS]
    tokens = compute.token_texts(ids)
    with st.expander(t("llm.heads_text", n=len(ids)), expanded=False):
        widgets.token_code(tokens)
    return ids, tokens


def head_controls(tokens: list[str], pick_head: bool = True) -> tuple[int, int, int]:
    """Layer, head and query token (the query alone when `pick_head` is False: the others keep
    their values and their place in the URL)."""
    n = len(tokens)
    c1, c2, c3 = st.columns(3)
    if pick_head:  # sliders: a step is one key press (the bench's picker step)
        controls.select_slider(t("llm.layer"), range(N_LAYERS), key=K_LAYER, where=c1)
        controls.select_slider(t("llm.head"), range(N_HEADS), key=K_HEAD, where=c2)
    last = n - 1
    options = [LAST, *range(n)]

    def label(o) -> str:  # distinct from the label of the last index itself
        if o == LAST:
            return t("llm.query_last", i=last, token=repr(tokens[last]))
        return f"{o}: {tokens[o]!r}"

    where = c3 if pick_head else c1
    q = controls.selectbox(t("llm.query"), options, key=K_QUERY, format_func=label, where=where)
    ss = st.session_state
    return ss[K_LAYER], ss[K_HEAD], last if q == LAST else q


@url.fragment
def picked_heads(m, ids: tuple[int, ...], tokens: list[str]) -> None:
    """The pickers and what they change (the mosaic, the enlarged head, the sink), as a fragment:
    a picker step reruns this part alone (the question, the settings and the head-score map
    stay as they are)."""
    layer, head, query = head_controls(tokens)
    every_head(m, ids, tokens, layer, head, query)


@url.fragment
def picked_head_steps(m, ids: tuple[int, ...], tokens: list[str]) -> None:
    """The pickers and One head, step by step, as a fragment (a picker step reruns it alone)."""
    layer, head, query = head_controls(tokens)
    one_head(m, ids, tokens, layer, head, query)


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


def calculator_link(n_tokens: int) -> str:
    """The Efficient attention page's KV-cache calculator at this text's length in float32, with
    the sidebar's settings (a new session reads them from the link)."""
    params = state.to_query_params(state.current())
    params.update(view="calculator", tokens=str(max(1, n_tokens)), dtype="float32")
    return "/efficient?" + urlencode(params)


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
            link=calculator_link(n_tokens),
        )
    )


# --- Logit lens ------------------------------------------------------------------------------
def lens(m, ids: tuple[int, ...], tokens: list[str], query: int) -> None:
    """The token each layer would predict at the query, and the heads whose direct
    contribution to the model's prediction is largest."""
    view = compute.lens(ids, query)
    lz, at = view.lens, view.attribution
    L = m.config.n_layers
    word = compute.token_texts([lz.token])[0]
    top = lz.rank == 0
    # the first layer from which the model's token stays the top one to the end
    first = next(i for i in range(L + 1) if top[i:].all())
    st.subheader(t("llm.lens_title", query=query, token=repr(tokens[query])))
    first_label = t("llm.lens_embed") if first == 0 else t("llm.lens_after", i=first - 1)
    st.markdown(
        t("llm.lens_intro", query=query, word=repr(word), p=num(float(lz.prob[-1])),
          first=first_label, layers=L)
    )  # fmt: skip
    names = compute.token_texts(lz.top_ids[:, 0].tolist())
    rows = [
        {
            t("llm.col.layer"): t("llm.lens_embed") if i == 0 else t("llm.lens_after", i=i - 1),
            t("llm.col.top"): repr(names[i]),
            t("llm.col.top_p"): round(float(lz.top_probs[i, 0]), 4),
            t("llm.col.rank", word=repr(word)): int(lz.rank[i]),
            t("llm.col.p", word=repr(word)): round(float(lz.prob[i]), 4),
        }
        for i in range(L + 1)
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="llm.lens_table")
    fig = curves(
        np.arange(L + 1), [lz.prob], names=[t("llm.lens_curve", word=repr(word))],
        x_title=t("llm.lens_x"), y_title=t("llm.probability"), integer_x=True,
    )  # fmt: skip
    widgets.plot(fig, key="llm.lens_fig")

    st.subheader(t("llm.attr_title", word=repr(word)))
    st.markdown(t("llm.attr_intro"))
    heads = at.heads
    order = np.argsort(-heads, axis=None, kind="stable")[:TOP_ATTRIBUTION]
    best = [tuple(int(v) for v in np.unravel_index(i, heads.shape)) for i in order]
    named = ", ".join(t("llm.top_head", layer=a, head=b, score=float(heads[a, b])) for a, b in best)
    st.markdown(
        t("llm.attr_sum", logit=num(at.logit), emb=num(at.embedding),
          heads=num(float(heads.sum())), mlps=num(float(at.mlps.sum())), total=num(at.total()),
          top=named)
    )  # fmt: skip
    fig = value_grid(
        heads, layer_label=t("llm.layer_word"), head_label=t("llm.head_word"),
        value_label=t("llm.attr_axis"), signed=True, fmt=".1f", marked=best,
    )  # fmt: skip
    widgets.plot(fig, key="llm.attr_fig")


# --- Short or long range: the course's claim, measured ---------------------------------------
def distance(ids: tuple[int, ...]) -> None:
    """The mean attention distance of all 270 heads on the text, and a sentence from it."""
    st.subheader(t("llm.dist_title"))
    st.markdown(t("llm.dist_claim"))
    sc = compute.head_scores(ids)
    d = sc.distance
    T = sc.n_tokens
    lo = tuple(int(v) for v in np.unravel_index(np.nanargmin(d), d.shape))
    hi = tuple(int(v) for v in np.unravel_index(np.nanargmax(d), d.shape))
    even = (T - 1) / 4  # a head spreading each row evenly over the keys it may see
    st.markdown(
        t("llm.dist_result", n=T, lo_layer=lo[0], lo_head=lo[1], lo=num(float(d[lo])),
          hi_layer=hi[0], hi_head=hi[1], hi=num(float(d[hi])),
          short=int((d < 2).sum()), long=int((d > even).sum()), even=num(even), total=d.size,
          long_sink=int(((d > even) & (np.nan_to_num(sc.sink) > 0.5)).sum()))
    )  # fmt: skip
    sink = float(sc.sink[hi]) if T > 1 else 0.0
    if sink > 0.5:  # its long reach is mostly the weight parked on position 0
        st.markdown(t("llm.dist_sink", sink=sink, layer=hi[0], head=hi[1]))
    fig = value_grid(
        d, layer_label=t("llm.layer_word"), head_label=t("llm.head_word"),
        value_label=t("llm.dist_axis"), fmt=".1f", marked=[lo, hi],
    )  # fmt: skip
    widgets.plot(fig, key="llm.dist_fig")
