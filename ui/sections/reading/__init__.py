"""The Reading heads page's sections: one function per view, each drawing from the sentence,
the picked layer and head and the page's filter (passed explicitly), through the cached calls of
`ui.compute.reading`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

import viz
from mha_core.interpret import CATEGORIES, FILTERS, FilteredAttention
from mha_core.pretrained import BertConfig
from ui import controls, present, widgets
from ui.compute import reading as compute
from ui.i18n import t
from ui.numbers import num
from ui.params import TOKEN_INDEX, TOKENS, Distinct, OneOf, Param, Range, index
from ui.sections.reading.corpus import corpus as corpus  # the last section, in its own module
from ui.sections.reading.corpus import share_figure
from ui.state import parse_bool
from viz.head_map import head_importance
from viz.reading import (
    KEY_SIDE,
    MAX_LINE_HEADS,
    QUERY_SIDE,
    lines_view,
    query_key_figure,
    token_bars,
)

HEATMAP_TOKENS = 128  # a heatmap of this page draws at most this many tokens per axis
LINES_TOKENS = 64  # the lines view draws at most this many tokens
LINE_FLOOR = 0.005  # weights under this are not drawn as lines
ABLATION_AUTO = 64  # head importance is computed without asking up to this many tokens
THRESHOLDS = (0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)
TOP_K_MAX = 16
SIDES = ("query", "key")
ALL = -1  # "every token" / "no query" in the token pickers

K_LAYER, K_HEAD = "reading.layer", "reading.head"
K_FILTER, K_THRESHOLD, K_TOP_K = "reading.filter", "reading.threshold", "reading.top_k"
K_LINES_HEADS, K_LINES_TOKEN, K_LINES_SIDE = (
    "reading.lines_heads",
    "reading.lines_token",
    "reading.lines_side",
)
K_RESIDUAL, K_QK_TRANSLATE, K_QK_QUERY = (
    "reading.residual",
    "reading.qk_translate",
    "reading.qk_query",
)
F_LINES, F_IMPORTANCE, F_QK = "reading.fig.lines", "reading.fig.importance", "reading.fig.qk"
K_VIEW = "reading.view"  # the open view: only its section is drawn
VIEWS = ("lines", "norms", "rollout", "ablation", "qk", "corpus")
MINILM = BertConfig()  # all-MiniLM-L6-v2's shape: links are checked against it before loading


def _parse_token(raw: str) -> int:
    return ALL if raw == str(ALL) else TOKEN_INDEX(raw)


def _lines_tokens(n: int) -> list[int]:
    """The lines view's token picker: every token (ALL) or one of the first LINES_TOKENS."""
    return [ALL, *range(min(n, LINES_TOKENS))]


def _qk_queries(n: int) -> list[int]:
    """The query/key map's query picker: none (ALL) or any token."""
    return [ALL, *range(n)]


PARAMS = (
    Param(K_LAYER, 0, index(MINILM.num_hidden_layers)),
    Param(K_HEAD, 0, index(MINILM.num_attention_heads)),
    Param(K_FILTER, "none", OneOf(FILTERS)),
    Param(K_THRESHOLD, 0.05, OneOf(THRESHOLDS, float)),
    Param(K_TOP_K, 3, Range(1, TOP_K_MAX)),
    Param(K_LINES_HEADS, [0, 1, 2], Distinct(index(MINILM.num_attention_heads), MAX_LINE_HEADS)),
    # the token pickers stay valid for the sentence in every view, open or closed (a choice in
    # the URL never changes when its view opens)
    Param(K_LINES_TOKEN, ALL, _parse_token, for_tokens=_lines_tokens, depends_on=TOKENS),
    Param(K_LINES_SIDE, "query", OneOf(SIDES)),
    Param(K_RESIDUAL, True, parse_bool),
    Param(K_QK_TRANSLATE, True, parse_bool),
    Param(K_QK_QUERY, ALL, _parse_token, for_tokens=_qk_queries, depends_on=TOKENS),
    Param(K_VIEW, VIEWS[0], OneOf(VIEWS)),
)


@dataclass(frozen=True, eq=False)
class Sentence:
    """The sidebar sentence through the model: what every section draws from."""

    text: str  # the key of the cached calls
    tokens: list[str]  # T WordPiece tokens, [CLS] and [SEP] included
    attentions: np.ndarray  # (L, nh, T, T) the model's attention weights


@dataclass(frozen=True)
class Filter:
    """The page's filter, applied to every heatmap and to the lines."""

    mode: str  # one of mha_core.interpret.FILTERS
    threshold: float
    top_k: int

    def apply(self, matrix: np.ndarray) -> FilteredAttention:
        return compute.filtered(matrix, self.mode, self.threshold, self.top_k)

    def caption(self, f: FilteredAttention) -> None:
        if self.mode != "none":
            st.caption(t("reading.hidden", share=f.hidden_share, n=f.n_hidden, total=f.hidden.size))


def _token_option(tokens: list[str]):
    return lambda i: "–" if i == ALL else f"{i}: {tokens[i]}"


def _heatmap(
    matrix: np.ndarray,
    tokens: list[str],
    filt: Filter,
    *,
    key: str,
    title: str,
    value_label: str,
    x_title: str | None = None,
    y_title: str | None = None,
) -> None:
    """One (T, T) matrix, filtered, cropped to HEATMAP_TOKENS, with the share hidden below."""
    f = filt.apply(matrix)
    n = len(tokens)
    shown = min(n, HEATMAP_TOKENS)
    fig = viz.attention_heatmap(
        f.shown[:shown, :shown],
        tokens[:shown],
        title=title,
        zmax=float(np.max(matrix)) if matrix.size else 1.0,
        value_label=value_label,
        x_title=x_title or t("reading.key"),
        y_title=y_title or t("reading.query"),
    )
    widgets.plot(fig, key=key)
    filt.caption(f)
    if shown < n:
        st.caption(t("reading.cropped", shown=shown, n=n))


# --- lines view --------------------------------------------------------------------------------


def _lines_clicked() -> None:
    point = widgets.clicked_point(F_LINES)
    if point and int(point[0]) in (QUERY_SIDE, KEY_SIDE):
        st.session_state[K_LINES_SIDE] = SIDES[int(point[0])]
        st.session_state[K_LINES_TOKEN] = int(point[1])


def lines(s: Sentence, layer: int, filt: Filter) -> None:
    """BertViz's head view of the picked layer: several heads, a token picker, click a token."""
    tokens, n_heads = s.tokens, s.attentions.shape[1]
    st.subheader(t("reading.lines.title", layer=layer))
    present.prose(t("reading.lines.what"))
    n = len(tokens)
    shown = min(n, LINES_TOKENS)
    c_heads, c_token, c_side = st.columns([2, 2, 1])
    heads = controls.multiselect(
        t("reading.lines.heads", max=MAX_LINE_HEADS),
        range(n_heads),
        max_selections=MAX_LINE_HEADS,
        key=K_LINES_HEADS,
        where=c_heads,
    )
    token = controls.selectbox(
        t("reading.lines.token"),
        _lines_tokens(n),
        format_func=_token_option(tokens),
        key=K_LINES_TOKEN,
        where=c_token,
    )
    side = controls.enum_radio(
        "reading.lines.side", SIDES, key=K_LINES_SIDE, where=c_side, horizontal=False
    )
    if not heads:
        st.info(t("reading.lines.no_heads"))
        return
    heads = sorted(heads)
    attn = s.attentions[layer, heads]  # (H, T, T)
    f = filt.apply(attn)
    focus = None if token == ALL else (SIDES.index(side), token)
    fig = lines_view(
        f.shown[:, :shown, :shown],
        tokens[:shown],
        heads,
        focus=focus,
        min_weight=LINE_FLOOR,
        head_label=t("reading.head_word"),
        value_label=t("reading.weight"),
        query_title=t("reading.query"),
        key_title=t("reading.key"),
        hint=t("reading.lines.hint"),
    )
    st.caption(t("reading.lines.click"))
    widgets.plot(fig, key=F_LINES, on_select=_lines_clicked)
    filt.caption(f)
    st.caption(t("reading.lines.floor", floor=LINE_FLOOR))
    if shown < n:
        st.caption(t("reading.lines.cap", cap=LINES_TOKENS, n=n))


# --- weights against value-weighted norms --------------------------------------------------------


def weights_vs_norms(s: Sentence, layer: int, head: int, filt: Filter) -> None:
    """The same head under weights and under value-weighted norms, and per-layer shares."""
    text, tokens = s.text, s.tokens
    st.subheader(t("reading.norms.title", layer=layer, head=head))
    present.prose(t("reading.norms.what"))
    weights = s.attentions[layer, head]  # (T, T)
    norms = compute.norm_shares(text, layer)[head]  # (T, T)
    left, right = st.columns(2)
    with left:
        _heatmap(
            weights,
            tokens,
            filt,
            key="reading.fig.weights",
            title=t("reading.norms.weights_fig"),
            value_label=t("reading.weight"),
        )
    with right:
        _heatmap(
            norms,
            tokens,
            filt,
            key="reading.fig.norms",
            title=t("reading.norms.norms_fig"),
            value_label=t("reading.share"),
        )
    st.markdown(f"**{t('reading.norms.layers_title')}**")
    present.prose(t("reading.norms.layers_what"))
    w, n = compute.layer_shares(text)  # (n_categories, L) each
    cats = ("cls", "sep", "punct")
    idx = [CATEGORIES.index(c) for c in cats]
    fig = share_figure(np.stack([w[idx], n[idx]]), cats)
    widgets.plot(fig, key="reading.fig.layer_shares")
    values = {f"{m}_{c}": a[i, layer] for m, a in (("w", w), ("n", n)) for c, i in zip(cats, idx)}
    st.caption(t("reading.norms.layer_numbers", layer=layer, **values))


# --- rollout -------------------------------------------------------------------------------------


def rollout(s: Sentence, layer: int, filt: Filter) -> None:
    """Rollout after the picked layer beside that layer's raw (head-averaged) attention, and
    which inputs feed [CLS] and the mean-pooled output after the last layer."""
    text, tokens = s.text, s.tokens
    st.subheader(t("reading.rollout.title", layer=layer))
    span = t("reading.rollout.span_one" if layer == 0 else "reading.rollout.span", layer=layer)
    present.prose(t("reading.rollout.what", layer=layer, span=span))
    residual = controls.toggle(
        t("reading.rollout.residual"), key=K_RESIDUAL, help=t("reading.rollout.residual_help")
    )
    roll = compute.rollouts(text, residual)  # (L, T, T)
    left, right = st.columns(2)
    with left:
        _heatmap(
            roll[layer],
            tokens,
            filt,
            key="reading.fig.rollout",
            title=t("reading.rollout.fig", span=span),
            value_label=t("reading.rollout.value"),
            x_title=t("reading.rollout.col"),
            y_title=t("reading.rollout.row"),
        )
    with right:
        _heatmap(
            compute.layer_mean(text, layer),
            tokens,
            filt,
            key="reading.fig.raw",
            title=t("reading.rollout.raw_fig", layer=layer),
            value_label=t("reading.weight"),
        )
    last = len(roll) - 1
    st.markdown(f"**{t('reading.rollout.feeds_title')}**")
    present.prose(t("reading.rollout.feeds_what", layer=last))
    fig = token_bars(
        np.stack([roll[last, 0], roll[last].mean(axis=0)]),
        tokens,
        [t("reading.rollout.cls"), t("reading.rollout.mean")],
        value_label=t("reading.rollout.value"),
        x_title=t("reading.rollout.col"),
    )
    widgets.plot(fig, key="reading.fig.feeds")


# --- head ablation -------------------------------------------------------------------------------


def _importance_clicked() -> None:
    point = widgets.clicked_point(F_IMPORTANCE)
    if point:
        st.session_state[K_LAYER] = int(point[0])
        st.session_state[K_HEAD] = int(point[1])


def ablation(s: Sentence, layer: int, head: int, filt: Filter) -> None:
    """The layer x head importance map (click a cell) and the picked head's pattern."""
    text, tokens = s.text, s.tokens
    st.subheader(t("reading.ablation.title"))
    present.prose(t("reading.ablation.what"))
    n = len(tokens)
    asked = st.session_state.setdefault("reading._ablation_asked", [])
    if n > ABLATION_AUTO and text not in asked:
        L, nh = s.attentions.shape[:2]
        st.info(t("reading.ablation.long", n=n, layers=L, copies=nh + 1))
        if not st.button(t("reading.ablation.button"), key="reading.ablation_button"):
            return
        asked[:] = [text]
    with st.spinner(t("reading.ablation.running")):
        imp = compute.importance(text)  # (L, nh)
    hi = np.unravel_index(np.argmax(imp), imp.shape)
    lo = np.unravel_index(np.argmin(imp), imp.shape)
    st.caption(t("reading.ablation.click"))
    left, right = st.columns(2)
    with left:
        fig = head_importance(
            imp,
            selected=(layer, head),
            layer_label=t("reading.layer_word"),
            head_label=t("reading.head_word"),
            value_label=t("reading.ablation.value"),
            hint=t("reading.ablation.hint"),
        )
        widgets.plot(fig, key=F_IMPORTANCE, on_select=_importance_clicked)
        st.caption(
            t(
                "reading.ablation.top",
                layer=int(hi[0]),
                head=int(hi[1]),
                value=num(imp[hi], 4),
                low_layer=int(lo[0]),
                low_head=int(lo[1]),
                low=num(imp[lo], 4),
            )
        )
    with right:
        _heatmap(
            s.attentions[layer, head],
            tokens,
            filt,
            key="reading.fig.ablated_head",
            title=t("reading.ablation.head_fig", layer=layer, head=head),
            value_label=t("reading.weight"),
        )


# --- query / key map -----------------------------------------------------------------------------


def _qk_clicked() -> None:
    point = widgets.clicked_point(F_QK)
    if point and int(point[0]) == QUERY_SIDE:
        st.session_state[K_QK_QUERY] = int(point[1])


def query_key_map(s: Sentence, layer: int, head: int) -> None:
    """One head's queries and keys in one PCA plane, a query's attention as lines."""
    text, tokens = s.text, s.tokens
    st.subheader(t("reading.qk.title", layer=layer, head=head))
    c_translate, c_query = st.columns(2)
    translate = controls.toggle(
        t("reading.qk.translate"),
        key=K_QK_TRANSLATE,
        help=t("reading.qk.translate_help"),
        where=c_translate,
    )
    query = controls.selectbox(
        t("reading.qk.query"),
        _qk_queries(len(tokens)),
        format_func=_token_option(tokens),
        key=K_QK_QUERY,
        where=c_query,
    )
    m = compute.qk_map(text, layer, head, translate)
    st.markdown(t("reading.qk.what", share=float(m.explained.sum())))
    focus = None if query == ALL else query
    row = None if focus is None else s.attentions[layer, head, focus]
    fig = query_key_figure(
        m.queries,
        m.keys,
        tokens,
        explained=m.explained,
        focus=focus,
        weights=row,
        query_label=t("reading.query"),
        key_label=t("reading.key"),
        queries_name=t("reading.qk.queries"),
        keys_name=t("reading.qk.keys"),
        value_label=t("reading.weight"),
        axis_label=t("reading.qk.axis"),  # a template: the figure fills in n and share
        hint=t("reading.qk.hint"),
    )
    st.caption(t("reading.qk.click"))
    widgets.plot(fig, key=F_QK, on_select=_qk_clicked)
