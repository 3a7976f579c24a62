"""The Lesson page's reveal figures: one function per station, from the same builders as the
pages, each drawing at most SHOWN tokens."""

from __future__ import annotations

import numpy as np
import streamlit as st

import viz
from mha_core.lessons import quiz
from ui import widgets
from ui.compute import lesson as compute
from ui.i18n import t
from ui.sections.lesson_text import Context, P, induction_text
from ui.sections.scaling import spread_figure
from viz.efficient import curves
from viz.induction import share_grid
from viz.margins import text_px
from viz.matrix import matrix_heatmap, weights_compare
from viz.positional import shuffle_panel
from viz.transformer import normalised_matrix

SHOWN = widgets.GRID_FULL  # a figure draws at most this many tokens (the last ones)
TITLE_PX = 400  # a title estimated wider than this (at its 16 px) is broken into two lines:
# on a phone (390 px) the plot is ~350 px wide and plotly cuts a longer title off
_BREAKS = (" ", "，", "：", "、")  # where a title may be broken (CJK titles have few spaces)


def two_line_title(fig) -> None:
    """Break the figure's title (already escaped) at the break nearest its middle, when it is
    too wide for a phone; the top margin and the height grow by a line."""
    title = fig._layout.get("title") or {}
    text = title.get("text") if isinstance(title, dict) else None
    if not text or "<br>" in text or text_px(text, 16) <= TITLE_PX:
        return
    half = text_px(text, 16) / 2
    cuts = [i for i, c in enumerate(text) if c in _BREAKS]
    if not cuts:
        return
    i = min(cuts, key=lambda k: abs(text_px(text[:k], 16) - half))
    head, tail = (text[:i], text[i + 1 :]) if text[i] == " " else (text[: i + 1], text[i + 1 :])
    title["text"] = f"{head}<br>{tail}"
    margin = fig._layout.setdefault("margin", {})
    margin["t"] = int(margin.get("t", 80)) + 22
    if fig._layout.get("height"):
        fig._layout["height"] = int(fig._layout["height"]) + 22


def _window(tok: list[str], q: int | None = None) -> int:
    """Where a figure's tokens start: the last SHOWN tokens (the focus token among them), with a
    caption when some are left out; the numbers in the text use every token."""
    n = len(tok)
    if n <= SHOWN:
        return 0
    start = n - SHOWN if q is None else min(max(q - SHOWN + 1, 0), n - SHOWN)
    st.caption(t("lesson.capped", n=n, limit=SHOWN, a=start, b=start + SHOWN - 1))
    return start


def _fig_why(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    f, tok = q.facts, list(ctx.tokens)
    weight, key_t = t("attention.weight"), t("step.axis.key")
    row = f["row"]
    allowed = trace.allowed is None or trace.allowed[0, 0, f["q"]].numpy()
    uniform = np.where(allowed, 1.0 / f["n"], 0.0) * np.ones_like(row)
    a = _window(tok, f["q"])
    return weights_compare(
        uniform[a : a + SHOWN],
        row[a : a + SHOWN],
        tok[a : a + SHOWN],
        names=("1/T", t("lesson.attention")),
        title=t("lesson.why.fig", h=f["head"], q=tok[f["q"]]),
        x_title=key_t,
        value_label=weight,
    )


def _fig_qkv(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    f, tok = q.facts, list(ctx.tokens)
    query_t, key_t = t("step.axis.query"), t("step.axis.key")
    a = _window(tok, f["q"])
    return matrix_heatmap(
        trace.scores[0, f["head"], a : a + SHOWN, a : a + SHOWN].numpy(),
        tok[a : a + SHOWN],
        tok[a : a + SHOWN],
        row_start=a,
        col_start=a,
        title=t("lesson.qkv.fig", h=f["head"]),
        row_title=query_t,
        col_title=key_t,
        value_label="q·k",
        highlight_row=f["q"] - a,
    )


def _fig_scaling(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    stats = compute.scaling_compute.dot_product_stats(
        compute.SPREAD_SAMPLES, ctx.settings.seed, "normal"
    )
    return spread_figure(stats)


def _fig_softmax_mask(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    f, tok = q.facts, list(ctx.tokens)
    weight, query_t, key_t = t("attention.weight"), t("step.axis.query"), t("step.axis.key")
    source = trace if station == "softmax" else _causal(ctx)
    a = _window(tok, f["q"])
    return viz.attention_heatmap(
        source.weights[0, f["head"], a : a + SHOWN, a : a + SHOWN].numpy(),
        tok[a : a + SHOWN],
        title=t(f"lesson.{station}.fig", h=f["head"]),
        value_label=weight,
        x_title=key_t,
        y_title=query_t,
    )


def _fig_heads(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    tok, cfg = list(ctx.tokens), ctx.config
    weight = t("attention.weight")
    st.caption(t("lesson.heads.fig"))
    widgets.head_grid(
        trace.weights[0].numpy(),
        tok,
        key=key,
        titles=[t("stats.head_title", h=h) for h in range(cfg.n_heads)],
        value_label=weight,
    )
    return None


def _fig_positional(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    tok, cfg = list(ctx.tokens), ctx.config
    weight, query_t, key_t = t("attention.weight"), t("step.axis.query"), t("step.axis.key")
    res = compute.positional_compute.shuffle_attention(
        ctx.tokens, cfg, compute.shuffle_perm(len(tok), cfg.seed)
    )
    a = _window(tok)
    cut = slice(a, a + SHOWN)
    shown = (res.shuffled_weights[0, cut, cut], res.predicted[0, cut, cut])
    zmax = float(max(m.max() for m in shown))
    for col, mat, name in zip(st.columns(2), shown, ("A'", "P A Pᵀ"), strict=True):
        widgets.plot(
            shuffle_panel(
                mat,
                res.shuffled_tokens[cut],
                title=name,
                zmax=zmax,
                value_label=weight,
                x_title=key_t,
                y_title=query_t,
            ),
            key=f"{key}.{name}",
            where=col,
        )
    st.caption(t("lesson.positional.fig"))
    return None


def _fig_addnorm(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    tok, cfg = list(ctx.tokens), ctx.config
    stats = compute.residual_norm(ctx.tokens, cfg)
    y = stats.layer_normed[0]
    a = _window(tok)
    return normalised_matrix(
        y[a : a + SHOWN].numpy(),
        tok[a : a + SHOWN],
        axis="rows",
        mean=y[a : a + SHOWN].mean(-1).numpy(),
        std=y[a : a + SHOWN].std(-1, correction=0).numpy(),
        title=t("lesson.addnorm.fig"),
        row_title=t("step.axis.token"),
        col_title=t("encoder_decoder.feature"),
        value_label=t("lesson.value"),
    )


def _fig_transformer(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    tok, cfg = list(ctx.tokens), ctx.config
    weight, query_t, key_t = t("attention.weight"), t("step.axis.query"), t("step.axis.key")
    a = _window(tok)
    return viz.attention_heatmap(
        compute.cross_weights(ctx.tokens, cfg)[:, a : a + SHOWN],
        list(compute.target_tokens()),
        tok[a : a + SHOWN],
        title=t("lesson.transformer.fig"),
        value_label=weight,
        x_title=key_t,
        y_title=query_t,
    )


def _fig_cost(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    T = np.unique(np.geomspace(1, 4096, 25).astype(int))
    kv = 2 * ctx.settings.d_model * 4 * T
    scores = ctx.settings.n_heads * T.astype(float) ** 2 * 4
    return curves(
        T,
        [kv, scores],
        names=[t("lesson.cost.kv"), t("lesson.cost.scores")],
        x_title=t("lesson.cost.x"),
        y_title=t("lesson.cost.y"),
        log_x=True,
        log_y=True,
        integer_x=True,
    )


def _fig_real(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    """The sink's grid, then the real model's strongest induction head on a repeated random
    sequence (the second copy's rows outlined: the stripe n - 1 tokens left of the diagonal)."""
    f = q.facts
    sink = share_grid(
        f["shares"],
        title=t("lesson.real.fig"),
        layer_label=t("lesson.layer"),
        head_label=t("lesson.head"),
        value_label=t("lesson.share"),
    )
    two_line_title(sink)
    widgets.plot(sink, key=key)
    ind = compute.induction_head()
    st.markdown(induction_text(ind))
    T = len(ind.tokens)
    fig = matrix_heatmap(
        ind.weights,
        list(ind.tokens),
        list(ind.tokens),
        title=t("lesson.real.fig_induction", layer=ind.layer, head=ind.head, n=ind.n),
        row_title=t("step.axis.query"),
        col_title=t("step.axis.key"),
        value_label=t("attention.weight"),
        colorscale=viz.DEFAULT_PALETTE,
        signed=False,
        highlight_rows=(ind.n + 1, T),  # the second copy: each row's stripe cell at i - n + 1
        colorbar_below=True,
    )
    two_line_title(fig)
    widgets.plot(fig, key=f"{key}.induction")
    return None


def _fig_limits(station: str, q: quiz.Question, ctx: Context, trace, key: str):
    f = q.facts
    key_t = t("step.axis.key")
    mtok = list(compute.minilm(ctx.settings.text)[0])
    a = _window(mtok, f["top_w"])
    return weights_compare(
        f["by_weight"][a : a + SHOWN],
        f["by_norm"][a : a + SHOWN],
        mtok[a : a + SHOWN],
        names=(t("lesson.limits.weights"), t("lesson.limits.norms")),
        title=t("lesson.limits.fig", layer=compute.MINILM_LAYER),
        x_title=key_t,
        value_label=t("lesson.share"),
    )


_FIGURES = {
    "why": _fig_why,
    "qkv": _fig_qkv,
    "scaling": _fig_scaling,
    "softmax": _fig_softmax_mask,
    "mask": _fig_softmax_mask,
    "heads": _fig_heads,
    "positional": _fig_positional,
    "addnorm": _fig_addnorm,
    "transformer": _fig_transformer,
    "cost": _fig_cost,
    "real": _fig_real,
    "limits": _fig_limits,
}


def figure(station: str, q: quiz.Question, ctx: Context) -> None:
    """The reveal's one live figure, from the same builders as the pages."""
    key = f"{P}.fig.{station}"
    trace = compute.sentence_attention(ctx.tokens, ctx.config).attention
    if station not in _FIGURES:
        raise KeyError(station)
    fig = _FIGURES[station](station, q, ctx, trace, key)
    if fig is not None:
        two_line_title(fig)
        widgets.plot(fig, key=key)


def _causal(ctx: Context):
    return compute.sentence_attention(ctx.tokens, compute.causal_config(ctx.config)).attention
