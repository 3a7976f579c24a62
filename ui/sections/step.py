"""The Step by step page's sections: one function per step, each drawing from one head's
`HeadSteps` and the reader's choices (`StepChoice`), nothing else."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import viz
from mha_core.lessons.steps import HeadSteps
from ui import present, widgets
from ui.i18n import t
from ui.numbers import num
from ui.params import DIM_INDEX, HEAD_INDEX, HEADS, TOKEN_INDEX, TOKENS, OneOf, Param, head_indices
from ui.state import Settings
from ui.strings.step import SYMBOLS, latex
from viz.labels import Notation
from viz.matrix import MINUS_INF, matrix_heatmap, weights_compare

WINDOW = 64  # at most this many d_model / d_k dimensions per axis in one figure
K_HEAD, K_QUERY, K_DIMS, K_DK = "step.head", "step.query", "step.dims", "step.dk_dims"
K_VIEW = "step.stage"  # the open view: a step id, "0" .. "5" (its URL name kept for old links)
VIEWS = tuple(str(i) for i in range(6))


def window_starts(size: int) -> range:
    """The starts a window over an axis of `size` can take (only 0 when every dimension fits)."""
    return range(0, size, WINDOW) if size > WINDOW else range(1)


def _d_model_windows(s: Settings) -> range:
    return window_starts(s.d_model)


def _d_k_windows(s: Settings) -> range:
    return window_starts(s.d_model // s.n_heads)


FOLLOWS_HEAD = HEADS | {"head"}  # the d_model window follows the chosen head
PARAMS = (
    Param(K_HEAD, 0, HEAD_INDEX, within=head_indices, depends_on=HEADS),
    Param(K_QUERY, 0, TOKEN_INDEX, depends_on=TOKENS),
    Param(K_DIMS, 0, DIM_INDEX, within=_d_model_windows, depends_on=FOLLOWS_HEAD),
    Param(K_DK, 0, DIM_INDEX, within=_d_k_windows, depends_on=FOLLOWS_HEAD),
    Param(K_VIEW, VIEWS[0], OneOf(VIEWS)),
)


@dataclass(frozen=True)
class AxisLabels:
    token: str
    dim: str
    query: str
    key: str
    value: str
    score: str
    weight: str

    @classmethod
    def current(cls) -> AxisLabels:
        """The labels in the sidebar's language."""
        return cls(
            token=t("step.axis.token"),
            dim=t("step.axis.dim"),
            query=t("step.axis.query"),
            key=t("step.axis.key"),
            value=t("step.value"),
            score=t("step.score"),
            weight=t("step.weight"),
        )


@dataclass(frozen=True)
class StepChoice:
    """What the reader picked: the sentence, the head, the query, the dimension windows."""

    tokens: list[str]
    head: int
    query: int
    n_heads: int
    d_model: int
    d_k: int
    dims: tuple[int, int]  # [d0, d1): the d_model dimensions shown
    dk_dims: tuple[int, int]  # [k0, k1): the d_k dimensions shown
    head_columns: tuple[int, int]  # [h0, h1): head's block of columns in W_Q / concat
    labels: AxisLabels

    T = property(lambda self: len(self.tokens))
    C = property(lambda self: self.d_model)
    nh = property(lambda self: self.n_heads)
    d0 = property(lambda self: self.dims[0])
    d1 = property(lambda self: self.dims[1])
    k0 = property(lambda self: self.dk_dims[0])
    k1 = property(lambda self: self.dk_dims[1])
    h0 = property(lambda self: self.head_columns[0])
    h1 = property(lambda self: self.head_columns[1])


def _title(key: str, **kw) -> Notation:
    """A chart title in the page's notation (W_Q^h drawn as in the equations above it)."""
    return Notation(t(key, **kw))


def token_by_dims(v: StepChoice, m, title, *, cols=None, highlight=True, block=None, below=False):
    """A (T, dims) matrix, cropped to the dims window, the query row outlined; `below`: the
    colour bar under it (a chart in a narrow column)."""
    a, b = v.dims if cols is None else cols
    return matrix_heatmap(
        m[:, a:b],
        v.tokens,
        None,
        col_start=a,
        title=title,
        row_title=v.labels.token,
        col_title=v.labels.dim,
        value_label=v.labels.value,
        highlight_row=v.query if highlight else None,
        highlight_cols=block,
        colorbar_below=below,
    )


def token_by_token(v: StepChoice, m, title, *, signed=True, palette=viz.DIVERGING, label=None):
    """A (T, T) query x key matrix, the query row outlined."""
    return matrix_heatmap(
        m,
        v.tokens,
        v.tokens,
        title=title,
        row_title=v.labels.query,
        col_title=v.labels.key,
        value_label=v.labels.score if label is None else label,
        colorscale=palette,
        signed=signed,
        highlight_row=v.query,
    )


def input_x(s: HeadSteps, v: StepChoice) -> None:
    """Step 0: X = E + PE, the v.tokens as rows."""
    st.header(t("step.s0.title"))
    present.prose(t("step.s0.text" if s.positional else "step.s0.text_nope"))
    st.latex(latex("x_pe" if s.positional else "x"))
    st.caption(t("step.s0.shapes", T=v.T, C=v.C))
    widgets.plot(token_by_dims(v, s.x.numpy(), _title("step.fig.x", T=v.T, C=v.C)), "step.fig.x")
    if not s.positional:
        return
    parts = st.expander(t("step.s0.parts"), key="step.parts", on_change="rerun")
    if parts.open:  # drawn only when opened
        with parts:
            e_col, pe_col = st.columns(2)
            fig = token_by_dims(v, s.embeddings.numpy(), _title("step.fig.e"))
            widgets.plot(fig, "step.fig.e", e_col)
            widgets.plot(
                token_by_dims(v, s.positional_encoding.numpy(), _title("step.fig.pe")),
                "step.fig.pe",
                pe_col,
            )


def projections(s: HeadSteps, v: StepChoice) -> None:
    """Step 1: W_Q^h, W_K^h, W_V^h and Q_h, K_h, V_h."""
    st.header(t("step.s1.title"))
    present.prose(t("step.s1.text"))
    st.latex(latex("proj"))
    present.prose(t("step.s1.convention", start=v.h0, stop=v.h1 - 1, h=v.head))
    st.caption(t("step.s1.shapes", T=v.T, C=v.C, d_k=v.d_k))
    st.caption(t("step.s1.bias_zero" if s.biases_zero else "step.s1.bias"))
    w_cols = st.columns(3)
    for col, part, w in zip(w_cols, "qkv", (s.w_q, s.w_k, s.w_v)):
        fig = matrix_heatmap(
            w.numpy()[v.d0 : v.d1, v.k0 : v.k1],
            row_start=v.d0,
            col_start=v.k0,
            title=_title("step.fig.w", name=SYMBOLS[f"w_{part}"], h=v.head, rows=v.C, cols=v.d_k),
            row_title=t("step.axis.in_dim"),
            col_title=v.labels.dim,
            value_label=v.labels.value,
            colorbar_below=True,
        )
        widgets.plot(fig, f"step.fig.{part}_weight", col)
    st.caption(t("step.s1.rows", i=v.query))
    qkv_cols = st.columns(3)
    for col, part, m in zip(qkv_cols, "qkv", (s.q, s.k, s.v)):
        fig = token_by_dims(
            v,
            m.numpy(),
            _title("step.fig.qkv", name=SYMBOLS[part], T=v.T, d_k=v.d_k),
            cols=(v.k0, v.k1),
            highlight=part == "q",
            below=True,
        )
        widgets.plot(fig, f"step.fig.{part}", col)


def score_matrices(s: HeadSteps, v: StepChoice) -> None:
    """Step 2: scores Q_h K_h^T (or additive), the 1/sqrt(d_k) scaling and the mask."""
    additive = s.additive is not None
    scaled = s.scale_factor != 1.0  # without 1/sqrt(d_k): not "scaled" dot-product
    title = "title_additive" if additive else "title" if scaled else "title_unscaled"
    st.header(t(f"step.s2.{title}"))
    factor = s.scale_factor / s.temperature
    if additive:
        present.prose(t("step.s2.additive_text", d_k=v.d_k))
        st.latex(latex("additive"))
        st.info(t("step.s2.additive_noscale"))
        st.caption(t("step.s2.additive_shapes", T=v.T, d_k=v.d_k))
    else:
        present.prose(t("step.s2.text"))
        if s.temperature != 1.0:
            st.latex(latex("score_temperature", temperature=s.temperature))
        else:
            st.latex(latex("score" if s.scale_factor != 1.0 else "score_noscale", d_k=v.d_k))
        if s.scale_factor != 1.0:
            st.markdown(
                t(
                    "step.s2.sqrt",
                    d_k=v.d_k,
                    sqrt_dk=num(math.sqrt(v.d_k), 6),
                    factor=num(factor, 6),
                )
            )
        else:
            st.info(t("step.s2.noscale"))
        st.caption(t("step.s2.shapes", T=v.T, d_k=v.d_k))
    if s.temperature != 1.0:
        st.caption(t("step.s2.temperature", temperature=s.temperature))

    scores = s.scores.numpy()
    scaled_shown = factor != 1.0
    sc_cols = st.columns(2) if scaled_shown else [st.container()]
    title = _title("step.fig.scores_additive" if additive else "step.fig.scores", T=v.T)
    widgets.plot(token_by_token(v, scores, title), "step.fig.scores", sc_cols[0])
    if scaled_shown:
        fig = token_by_token(
            v, s.scaled_scores.numpy(), _title("step.fig.scaled", factor=num(factor, 6))
        )
        widgets.plot(fig, "step.fig.scaled", sc_cols[1])

    if additive:
        scorer = st.expander(
            t("step.s2.additive_parts", h=v.head, i=v.query),
            key="step.additive_parts",
            on_change="rerun",
        )
    if additive and scorer.open:  # drawn only when opened
        with scorer:
            _additive_parts(s, v)

    st.subheader(t("step.mask.title"))
    if s.mask == "causal":
        st.markdown(t("step.mask.causal"))
        st.latex(latex("mask_causal"))
        fig = token_by_token(v, s.masked_scores.numpy(), _title("step.fig.masked"))
        widgets.plot(fig, "step.fig.masked")
    else:
        st.markdown(t("step.mask.none"))


def _additive_parts(s: HeadSteps, v: StepChoice) -> None:
    """The additive scorer's own weights (W_q, W_k, v) and the features of the query's row."""
    a_cols = st.columns(3)
    for col, part, w in zip(a_cols, "qk", (s.additive.w_q, s.additive.w_k)):
        fig = matrix_heatmap(
            w.numpy()[v.k0 : v.k1, v.k0 : v.k1],
            row_start=v.k0,
            col_start=v.k0,
            title=_title("step.fig.additive_w", name=SYMBOLS[f"add_{part}"], h=v.head, d_k=v.d_k),
            row_title=v.labels.dim,
            col_title=v.labels.dim,
            value_label=v.labels.value,
            colorbar_below=True,
        )
        widgets.plot(fig, f"step.fig.additive_{part}", col)
    fig = matrix_heatmap(
        s.additive.v.numpy()[None, v.k0 : v.k1],
        [SYMBOLS["add_v"]],
        col_start=v.k0,
        title=_title("step.fig.additive_v", h=v.head, d_k=v.d_k),
        col_title=v.labels.dim,
        value_label=v.labels.value,
        colorbar_below=True,
    )
    widgets.plot(fig, "step.fig.additive_v", a_cols[2])
    st.caption(t("step.s2.additive_features_note"))
    fig = matrix_heatmap(
        s.additive.features.numpy()[:, v.k0 : v.k1],
        v.tokens,
        col_start=v.k0,
        title=_title("step.fig.features", i=v.query, T=v.T, d_k=v.d_k),
        row_title=v.labels.key,
        col_title=v.labels.dim,
        value_label=v.labels.value,
    )
    widgets.plot(fig, "step.fig.features")


def softmax(s: HeadSteps, v: StepChoice) -> None:
    """Step 3: softmax (each row sums to 1) and the weighted sum of the values."""
    st.header(t("step.s3.title"))
    present.prose(t("step.s3.text"))
    st.latex(
        latex("softmax" if s.additive is None and s.scale_factor != 1.0 else "softmax_generic")
    )
    st.caption(t("step.s3.shapes", T=v.T, d_k=v.d_k))
    sm_cols = st.columns(2)
    weights = s.weights.numpy()
    fig = token_by_token(
        v,
        weights,
        _title("step.fig.weights"),
        signed=False,
        palette=viz.DEFAULT_PALETTE,
        label=v.labels.weight,
    )
    widgets.plot(fig, "step.fig.weights", sm_cols[0])
    fig = token_by_dims(
        v,
        s.head_output.numpy(),
        _title("step.fig.head_output", T=v.T, d_k=v.d_k),
        cols=(v.k0, v.k1),
    )
    widgets.plot(fig, "step.fig.head_output", sm_cols[1])
    st.markdown(t("step.s3.row_sum", i=v.query, total=f"{s.row_sum:.6f}"))
    with st.expander(t("step.s3.table", i=v.query), expanded=v.T <= 12):
        cols = {
            t("step.s3.col.raw"): s.scores.numpy()[v.query],
            t("step.s3.col.scaled"): s.scaled_scores.numpy()[v.query],
            t("step.s3.col.masked"): s.masked_scores.numpy()[v.query],
            t("step.s3.col.weight"): weights[v.query],
        }
        frame = pd.DataFrame(
            cols, index=[t("step.query_option", i=j, token=tok) for j, tok in enumerate(v.tokens)]
        )
        frame.index.name = t("step.s3.col.key")
        st.dataframe(
            frame.style.format(lambda v: MINUS_INF if v == -math.inf else f"{v:.6f}"),
            key="step.table",
        )


def softmax_and_sum(s: HeadSteps, v: StepChoice) -> None:
    """Step 3 and, beside it, what the weighted sum does better than a plain sum."""
    softmax(s, v)
    naive_sum(s, v)


def naive_sum(s: HeadSteps, v: StepChoice) -> None:
    """Before attention: the naive sum of values against attention, for the v.query."""
    st.subheader(t("step.naive.title"))
    present.prose(t("step.naive.text"))
    st.latex(latex("naive"))
    st.markdown(t("step.naive.detail", i=v.query, n=s.n_allowed))
    names = (t("step.naive.uniform"), t("step.naive.attention"))
    fig = weights_compare(
        s.naive_weights.numpy(),
        s.weights.numpy()[v.query],
        v.tokens,
        names=names,
        title=_title("step.fig.naive_weights", i=v.query),
        x_title=v.labels.key,
        value_label=v.labels.weight,
    )
    widgets.plot(fig, "step.fig.naive_weights")
    fig = matrix_heatmap(
        np.stack([s.naive_sum.numpy(), s.attention_sum.numpy()])[:, v.k0 : v.k1],
        [t("step.naive.rows_naive"), t("step.naive.rows_attention")],
        col_start=v.k0,
        title=_title("step.fig.naive_vectors", i=v.query, d_k=v.d_k),
        cell_values=v.k1 - v.k0 <= 24,
        row_title=t("step.axis.vector"),
        col_title=v.labels.dim,
        value_label=v.labels.value,
    )
    widgets.plot(fig, "step.fig.naive_vectors")
    st.caption(t("step.naive.distance", dist=f"{s.naive_attention_distance:.6f}"))


def head_window(v: StepChoice) -> tuple[int, int]:
    """A window of d_model dimensions as wide as the chosen one that starts at the head's block
    (the rows of W_O that multiply it), so that the outlined block is on the chart: at d_model
    512, head 1's rows 128-255 were promised while rows 0-63 were shown."""
    size = v.d1 - v.d0
    start = max(0, min(v.h0, v.C - size))
    return start, start + size


def concatenation(s: HeadSteps, v: StepChoice) -> None:
    """Step 4: the heads side by side."""
    st.header(t("step.s4.title"))
    present.prose(t("step.s4.text", h=v.head, start=v.h0, stop=v.h1 - 1))
    st.latex(latex("concat", last=v.nh - 1))
    st.caption(t("step.s4.shapes", n_heads=v.nh, T=v.T, d_k=v.d_k, C=v.C))
    title = _title("step.fig.concat", T=v.T, C=v.C)
    fig = token_by_dims(v, s.concat.numpy(), title, block=(v.h0, v.h1))
    widgets.plot(fig, "step.fig.concat")
    if (v.d0, v.d1) != (0, v.C):  # a window: say which columns, and where the head's block is
        key = "step.s4.window" if v.d0 <= v.h0 and v.h1 <= v.d1 else "step.s4.window_part"
        st.caption(t(key, start=v.d0, stop=v.d1 - 1, h=v.head, h0=v.h0, h1=v.h1 - 1))


def final_projection(s: HeadSteps, v: StepChoice) -> None:
    """Step 5: W_O and the final output."""
    st.header(t("step.s5.title"))
    present.prose(t("step.s5.text", h=v.head))
    st.latex(latex("final"))
    present.prose(t("step.s5.convention"))
    st.caption(t("step.s5.shapes", T=v.T, C=v.C))
    r0, r1 = head_window(v)
    if (r0, r1, v.d0, v.d1) != (0, v.C, 0, v.C):  # a window: say which rows and columns
        st.caption(
            t("step.s5.window", r0=r0, r1=r1 - 1, c0=v.d0, c1=v.d1 - 1, h=v.head,
              h0=v.h0, h1=v.h1 - 1)
        )  # fmt: skip
    wo_col, out_col = st.columns(2)
    fig = matrix_heatmap(
        s.w_o.numpy()[r0:r1, v.d0 : v.d1],
        row_start=r0,
        col_start=v.d0,
        title=_title("step.fig.w_o", C=v.C),
        row_title=t("step.axis.in_dim"),
        col_title=t("step.axis.out_dim"),
        value_label=v.labels.value,
        highlight_rows=(v.h0, v.h1),
    )
    widgets.plot(fig, "step.fig.w_o", wo_col)
    widgets.plot(
        token_by_dims(v, s.output.numpy(), _title("step.fig.output", T=v.T, C=v.C)),
        "step.fig.output",
        out_col,
    )
    st.caption(t("step.s5.done"))
