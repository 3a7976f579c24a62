"""Step by step: one head's arithmetic on the sidebar sentence, following one query token."""

import math

import numpy as np
import pandas as pd
import streamlit as st

import viz
from ui import cache_step, state, widgets
from ui.i18n import t
from ui.sidebar import url_notice
from ui.strings.step import SYMBOLS, latex
from viz.matrix import MINUS_INF, matrix_heatmap, weights_compare

WINDOW = 64  # at most this many d_model / d_k dimensions per axis in one figure
K_HEAD, K_QUERY, K_DIMS, K_DK = "step.head", "step.query", "step.dims", "step.dk_dims"


def _keep_valid(key: str, options: list[int]) -> None:
    """A choice that the sidebar made impossible (fewer heads, tokens, dims) falls back."""
    if key in st.session_state and st.session_state[key] not in options:
        st.session_state[key] = min(options, key=lambda o: abs(o - st.session_state[key]))


def _follow_head(d_k: int) -> None:
    """Choosing a head moves the d_model window to that head's block of columns."""
    st.session_state[K_DIMS] = st.session_state[K_HEAD] * d_k // WINDOW * WINDOW
    st.session_state[K_DK] = 0


def _window_picker(key: str, size: int, label: str, help: str, where) -> tuple[int, int]:
    """[start, stop) of the dimensions shown on an axis of `size` (all of them when small)."""
    if size <= WINDOW:
        return 0, size
    starts = list(range(0, size, WINDOW))
    _keep_valid(key, starts)
    start = where.select_slider(
        label,
        starts,
        format_func=lambda s: t("step.window_option", start=s, stop=min(s + WINDOW, size) - 1),
        key=key,
        help=help,
    )
    return start, min(start + WINDOW, size)


def _plot(fig, key: str, where=None) -> None:
    if where is None:
        widgets.plot(fig, key=key)
        return
    with where:
        widgets.plot(fig, key=key)


settings = state.current()
st.title(t("step.title"))
url_notice()
tokens = widgets.sentence_tokens(settings)
config = settings.config()
T, C, nh, dk = len(tokens), config.d_model, config.n_heads, config.d_k

st.write(t("step.intro"))
st.caption(t("step.random_note", seed=settings.seed))
widgets.token_chips(tokens)

# --- the controls --------------------------------------------------------------------------
_keep_valid(K_HEAD, list(range(nh)))
_keep_valid(K_QUERY, list(range(T)))
c_head, c_query, c_dims, c_dk = st.columns(4)
head = c_head.selectbox(
    t("step.head"),
    range(nh),
    format_func=lambda h: t("step.head_option", h=h),
    key=K_HEAD,
    on_change=_follow_head,
    args=(dk,),
    help=t("step.head_help", d_k=dk),
)
query = c_query.selectbox(
    t("step.query"),
    range(T),
    format_func=lambda i: t("step.query_option", i=i, token=tokens[i]),
    key=K_QUERY,
    help=t("step.query_help"),
)
d0, d1 = _window_picker(
    K_DIMS, C, t("step.dims"), t("step.dims_help", d_model=C, window=WINDOW), c_dims
)
k0, k1 = _window_picker(
    K_DK, dk, t("step.dk_dims"), t("step.dk_dims_help", d_k=dk, window=WINDOW), c_dk
)

s = cache_step.head_steps(tuple(tokens), config, head, query)
h0, h1 = s.head_columns
if (d0, d1) != (0, C):
    st.info(t("step.window_note", start=d0, stop=d1 - 1, total=C))
if (k0, k1) != (0, dk):
    st.info(t("step.dk_window_note", start=k0, stop=k1 - 1, total=dk))
st.caption(t("step.outline_note", i=query, h=head))

ax_tok, ax_dim = t("step.axis.token"), t("step.axis.dim")
ax_q, ax_k = t("step.axis.query"), t("step.axis.key")
val, score_lbl, weight_lbl = t("step.value"), t("step.score"), t("step.weight")


def token_by_dims(m, title, *, cols=(d0, d1), highlight=True, block=None):
    """A (T, dims) matrix, cropped to the dims window, the query row outlined."""
    a, b = cols
    return matrix_heatmap(
        m[:, a:b],
        tokens,
        None,
        col_start=a,
        title=title,
        row_title=ax_tok,
        col_title=ax_dim,
        value_label=val,
        highlight_row=query if highlight else None,
        highlight_cols=block,
    )


def token_by_token(m, title, *, signed=True, palette=viz.DIVERGING, label=score_lbl):
    return matrix_heatmap(
        m,
        tokens,
        tokens,
        title=title,
        row_title=ax_q,
        col_title=ax_k,
        value_label=label,
        colorscale=palette,
        signed=signed,
        highlight_row=query,
    )


# --- 0: the input X ------------------------------------------------------------------------
st.header(t("step.s0.title"))
st.markdown(t("step.s0.text" if s.positional else "step.s0.text_nope"))
st.latex(latex("x_pe" if s.positional else "x"))
st.caption(t("step.s0.shapes", T=T, C=C))
_plot(token_by_dims(s.x.numpy(), t("step.fig.x", T=T, C=C)), "step.fig.x")
if s.positional:
    with st.expander(t("step.s0.parts")):
        e_col, pe_col = st.columns(2)
        _plot(token_by_dims(s.embeddings.numpy(), t("step.fig.e")), "step.fig.e", e_col)
        _plot(token_by_dims(s.positional_encoding.numpy(), t("step.fig.pe")), "step.fig.pe", pe_col)

# --- 1: linear projections -----------------------------------------------------------------
st.header(t("step.s1.title"))
st.markdown(t("step.s1.text"))
st.latex(latex("proj"))
st.markdown(t("step.s1.convention", start=h0, stop=h1 - 1, h=head))
st.caption(t("step.s1.shapes", T=T, C=C, d_k=dk))
st.caption(t("step.s1.bias_zero" if s.biases_zero else "step.s1.bias"))
w_cols = st.columns(3)
for col, part, w in zip(w_cols, "qkv", (s.w_q, s.w_k, s.w_v)):
    fig = matrix_heatmap(
        w.numpy()[d0:d1, k0:k1],
        row_start=d0,
        col_start=k0,
        title=t("step.fig.w", name=SYMBOLS[f"w_{part}"], h=head, rows=C, cols=dk),
        row_title=t("step.axis.in_dim"),
        col_title=ax_dim,
        value_label=val,
    )
    _plot(fig, f"step.fig.{part}_weight", col)
st.caption(t("step.s1.rows", i=query))
qkv_cols = st.columns(3)
for col, part, m in zip(qkv_cols, "qkv", (s.q, s.k, s.v)):
    fig = token_by_dims(
        m.numpy(),
        t("step.fig.qkv", name=SYMBOLS[part], T=T, d_k=dk),
        cols=(k0, k1),
        highlight=part == "q",
    )
    _plot(fig, f"step.fig.{part}", col)

# --- 2: scores, scaling, mask --------------------------------------------------------------
additive = s.additive is not None
st.header(t("step.s2.title_additive" if additive else "step.s2.title"))
factor = s.scale_factor / s.temperature
if additive:
    st.markdown(t("step.s2.additive_text", d_k=dk))
    st.latex(latex("additive"))
    st.info(t("step.s2.additive_noscale"))
    st.caption(t("step.s2.additive_shapes", T=T, d_k=dk))
else:
    st.markdown(t("step.s2.text"))
    if s.temperature != 1.0:
        st.latex(latex("score_temperature", temperature=s.temperature))
    else:
        st.latex(latex("score" if s.scale_factor != 1.0 else "score_noscale", d_k=dk))
    if s.scale_factor != 1.0:
        st.markdown(
            t("step.s2.sqrt", d_k=dk, sqrt_dk=f"{math.sqrt(dk):.6g}", factor=f"{factor:.6g}")
        )
    else:
        st.info(t("step.s2.noscale"))
    st.caption(t("step.s2.shapes", T=T, d_k=dk))
if s.temperature != 1.0:
    st.caption(t("step.s2.temperature", temperature=s.temperature))

scores = s.scores.numpy()
scaled_shown = factor != 1.0
sc_cols = st.columns(2) if scaled_shown else [st.container()]
title = t("step.fig.scores_additive" if additive else "step.fig.scores", T=T)
_plot(token_by_token(scores, title), "step.fig.scores", sc_cols[0])
if scaled_shown:
    fig = token_by_token(s.scaled_scores.numpy(), t("step.fig.scaled", factor=f"{factor:.6g}"))
    _plot(fig, "step.fig.scaled", sc_cols[1])

if additive:
    with st.expander(t("step.s2.additive_parts", h=head, i=query)):
        a_cols = st.columns(3)
        for col, part, w in zip(a_cols, "qk", (s.additive.w_q, s.additive.w_k)):
            fig = matrix_heatmap(
                w.numpy()[k0:k1, k0:k1],
                row_start=k0,
                col_start=k0,
                title=t("step.fig.additive_w", name=SYMBOLS[f"add_{part}"], h=head, d_k=dk),
                row_title=ax_dim,
                col_title=ax_dim,
                value_label=val,
            )
            _plot(fig, f"step.fig.additive_{part}", col)
        fig = matrix_heatmap(
            s.additive.v.numpy()[None, k0:k1],
            [SYMBOLS["add_v"]],
            col_start=k0,
            title=t("step.fig.additive_v", h=head, d_k=dk),
            col_title=ax_dim,
            value_label=val,
        )
        _plot(fig, "step.fig.additive_v", a_cols[2])
        st.caption(t("step.s2.additive_features_note"))
        fig = matrix_heatmap(
            s.additive.features.numpy()[:, k0:k1],
            tokens,
            col_start=k0,
            title=t("step.fig.features", i=query, T=T, d_k=dk),
            row_title=ax_k,
            col_title=ax_dim,
            value_label=val,
        )
        _plot(fig, "step.fig.features")

st.subheader(t("step.mask.title"))
if s.mask == "causal":
    st.markdown(t("step.mask.causal"))
    st.latex(latex("mask_causal"))
    _plot(token_by_token(s.masked_scores.numpy(), t("step.fig.masked")), "step.fig.masked")
else:
    st.markdown(t("step.mask.none"))

# --- 3: softmax and weighted sum -----------------------------------------------------------
st.header(t("step.s3.title"))
st.markdown(t("step.s3.text"))
st.latex(latex("softmax" if not additive and s.scale_factor != 1.0 else "softmax_generic"))
st.caption(t("step.s3.shapes", T=T, d_k=dk))
sm_cols = st.columns(2)
weights = s.weights.numpy()
fig = token_by_token(
    weights, t("step.fig.weights"), signed=False, palette=viz.DEFAULT_PALETTE, label=weight_lbl
)
_plot(fig, "step.fig.weights", sm_cols[0])
fig = token_by_dims(s.head_output.numpy(), t("step.fig.head_output", T=T, d_k=dk), cols=(k0, k1))
_plot(fig, "step.fig.head_output", sm_cols[1])
st.markdown(t("step.s3.row_sum", i=query, total=f"{s.row_sum:.6f}"))
with st.expander(t("step.s3.table", i=query), expanded=T <= 12):
    cols = {
        t("step.s3.col.raw"): scores[query],
        t("step.s3.col.scaled"): s.scaled_scores.numpy()[query],
        t("step.s3.col.masked"): s.masked_scores.numpy()[query],
        t("step.s3.col.weight"): weights[query],
    }
    frame = pd.DataFrame(
        cols, index=[t("step.query_option", i=j, token=tok) for j, tok in enumerate(tokens)]
    )
    frame.index.name = t("step.s3.col.key")
    st.dataframe(
        frame.style.format(lambda v: MINUS_INF if v == -math.inf else f"{v:.6f}"), key="step.table"
    )

# --- before attention: naive summation of values ----------------------------------------
st.subheader(t("step.naive.title"))
st.markdown(t("step.naive.text"))
st.latex(latex("naive"))
st.markdown(t("step.naive.detail", i=query, n=s.n_allowed))
names = (t("step.naive.uniform"), t("step.naive.attention"))
fig = weights_compare(
    s.naive_weights.numpy(),
    weights[query],
    tokens,
    names=names,
    title=t("step.fig.naive_weights", i=query),
    x_title=ax_k,
    value_label=weight_lbl,
)
_plot(fig, "step.fig.naive_weights")
fig = matrix_heatmap(
    np.stack([s.naive_sum.numpy(), s.attention_sum.numpy()])[:, k0:k1],
    [t("step.naive.rows_naive"), t("step.naive.rows_attention")],
    col_start=k0,
    title=t("step.fig.naive_vectors", i=query, d_k=dk),
    cell_values=k1 - k0 <= 24,
    row_title=t("step.axis.vector"),
    col_title=ax_dim,
    value_label=val,
)
_plot(fig, "step.fig.naive_vectors")
st.caption(t("step.naive.distance", dist=f"{s.naive_attention_distance:.6f}"))

# --- 4: concatenation ----------------------------------------------------------------------
st.header(t("step.s4.title"))
st.markdown(t("step.s4.text", h=head, start=h0, stop=h1 - 1))
st.latex(latex("concat", last=nh - 1))
st.caption(t("step.s4.shapes", n_heads=nh, T=T, d_k=dk, C=C))
fig = token_by_dims(s.concat.numpy(), t("step.fig.concat", T=T, C=C), block=(h0, h1))
_plot(fig, "step.fig.concat")

# --- 5: final linear projection ------------------------------------------------------------
st.header(t("step.s5.title"))
st.markdown(t("step.s5.text", h=head))
st.latex(latex("final"))
st.markdown(t("step.s5.convention"))
st.caption(t("step.s5.shapes", T=T, C=C))
wo_col, out_col = st.columns(2)
fig = matrix_heatmap(
    s.w_o.numpy()[d0:d1, d0:d1],
    row_start=d0,
    col_start=d0,
    title=t("step.fig.w_o", C=C),
    row_title=t("step.axis.in_dim"),
    col_title=t("step.axis.out_dim"),
    value_label=val,
    highlight_rows=(h0, h1),
)
_plot(fig, "step.fig.w_o", wo_col)
_plot(token_by_dims(s.output.numpy(), t("step.fig.output", T=T, C=C)), "step.fig.output", out_col)
st.caption(t("step.s5.done"))
