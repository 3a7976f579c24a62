"""The Efficient attention page's sections: one function per part, each drawing from its
arguments and the page's own controls (session state keys "efficient.*")."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
import streamlit as st

from mha_core import AttentionConfig
from mha_core.efficient import (
    BYTES_PER_VALUE,
    PUBLISHED_CONFIGS,
    ReceptiveField,
    kv_cache_bytes,
    score_memory,
    window_reach,
)
from mha_core.layer import valid_kv_head_counts
from mha_core.layer.limits import MAX_HEADS
from ui import controls, present, widgets
from ui.compute import efficient as compute
from ui.i18n import t
from ui.numbers import num, size
from ui.params import (
    HEAD_INDEX,
    HEADS,
    TOKEN_INDEX,
    TOKENS,
    Distinct,
    OneOf,
    Param,
    Range,
    head_indices,
    whole,
)
from ui.state import Settings
from viz import efficient as eviz
from viz.heatmap import head_grid

K_KV, K_STEP = "efficient.kv_heads", "efficient.step"
K_MODEL, K_TOKENS, K_BATCH, K_DTYPE = (
    "efficient.model", "efficient.tokens", "efficient.batch", "efficient.dtype",
)  # fmt: skip
K_WINDOW, K_SINKS, K_GLOBAL, K_LAYERS = (
    "efficient.window", "efficient.sinks", "efficient.global", "efficient.layers",
)  # fmt: skip
K_BLOCK, K_HEAD, K_ROW, K_TILE = (
    "efficient.block", "efficient.head", "efficient.row", "efficient.tile",
)  # fmt: skip

MODELS = tuple(c.name for c in PUBLISHED_CONFIGS)  # stable ids: the published names
DTYPES = tuple(BYTES_PER_VALUE)
BLOCKS = (1, 2, 4, 8, 16, 32)
CACHE_STEPS = 64  # decode at most this many tokens one by one (each step recomputes a check)
MAX_WINDOW, MAX_SINKS, MAX_LAYERS, MAX_GLOBAL = 64, 8, 32, 4
MAX_CONTEXT, MAX_BATCH = 1_048_576, 1024
MISTRAL_WINDOW, MISTRAL_LAYERS = 4096, 32  # Jiang et al. 2023, Table 1

ss = st.session_state


K_VIEW = "efficient.view"  # the open view: only its sections are drawn
VIEWS = ("gqa", "cache", "calculator", "masks", "flash")


def _cache_steps(n_tokens: int) -> range:
    return range(min(n_tokens, CACHE_STEPS))


def _kv_options(s: Settings) -> list[int]:
    return valid_kv_head_counts(s.n_heads)


PARAMS = (
    # the choices that depend on the heads stay valid while their views are closed, and while
    # an empty sentence stops the page; those that depend on the tokens are clamped by the view
    Param(K_KV, lambda s: s.n_heads, Range(1, MAX_HEADS), within=_kv_options, depends_on=HEADS),
    # the last step the sentence has (clamped)
    Param(K_STEP, CACHE_STEPS - 1, TOKEN_INDEX, for_tokens=_cache_steps, depends_on=TOKENS),
    Param(K_MODEL, "Llama-3-8B", OneOf(MODELS)),
    Param(K_TOKENS, 8192, Range(1, MAX_CONTEXT)),
    Param(K_BATCH, 1, Range(1, MAX_BATCH)),
    Param(K_DTYPE, "bfloat16", OneOf(DTYPES)),
    Param(K_WINDOW, 3, Range(1, MAX_WINDOW), depends_on=TOKENS),
    Param(K_SINKS, 0, Range(0, MAX_SINKS), depends_on=TOKENS),
    Param(K_GLOBAL, [], Distinct(TOKEN_INDEX, MAX_GLOBAL), depends_on=TOKENS),
    Param(K_LAYERS, 2, Range(1, MAX_LAYERS)),
    Param(K_BLOCK, 4, OneOf(BLOCKS, whole)),
    Param(K_HEAD, 0, HEAD_INDEX, within=head_indices, depends_on=HEADS),
    Param(K_ROW, 0, TOKEN_INDEX, for_tokens=range, depends_on=TOKENS),
    Param(K_TILE, 0, TOKEN_INDEX, depends_on=TOKENS | {"block", "row"}),
    Param(K_VIEW, VIEWS[0], OneOf(VIEWS)),
)


class Sentence(NamedTuple):
    """What every section reads: the tokens and the settings of the seeded layer."""

    tokens: list[str]
    config: AttentionConfig

    @property
    def key(self) -> tuple[str, ...]:
        return tuple(self.tokens)

    @property
    def n_heads(self) -> int:
        return self.config.n_heads

    @property
    def causal(self) -> bool:
        return self.config.mask == "causal"


# --- MHA -> GQA -> MQA -----------------------------------------------------------------------
def grouped(s: Sentence, n_kv: int) -> None:
    """The key/value-heads slider's effect on the user's heads."""
    widgets.heading("efficient.gqa")
    g = compute.grouped(s.key, s.config, n_kv)
    nh = s.n_heads
    kind = "mha" if n_kv == nh else "mqa" if n_kv == 1 else "gqa"
    st.markdown(t(f"efficient.gqa_kind.{kind}", nh=nh, n_kv=n_kv, group=nh // n_kv))
    titles = [t("efficient.head_title", h=h, g=g.kv_head[h]) for h in range(nh)]
    fig = eviz.grouped_heads(
        g.weights, s.tokens, g.kv_head, titles=titles,
        query_label=t("efficient.query_head"), kv_label=t("efficient.kv_head"),
        **widgets.axis_titles(),
    )  # fmt: skip
    widgets.plot(fig, key="efficient.gqa_fig")  # one chart: a heads step redraws one
    present.prose(t("efficient.gqa_pooling", n_kv=n_kv))
    diff = "efficient.gqa_same" if n_kv == nh else "efficient.gqa_diff"
    st.info(t(diff, diff=num(g.max_diff_mha), sdpa=num(g.max_diff_sdpa), n_kv=n_kv, nh=nh))


# --- the KV cache ----------------------------------------------------------------------------
def kv_cache(s: Sentence, n_kv: int) -> None:
    """Decoding token by token with a cache; the cache growing; the check against recomputing."""
    widgets.heading("efficient.cache")
    n_steps = min(len(s.tokens), CACHE_STEPS)
    if len(s.tokens) > CACHE_STEPS:
        st.caption(t("efficient.cache_limit", n=CACHE_STEPS))
    run = compute.cache_run(s.key, s.config, n_kv, n_steps)
    step = controls.clamp(K_STEP, list(range(run.n_steps)))
    if run.n_steps > 1:  # one token: one step, nothing to choose
        step = controls.slider(t("efficient.step"), 0, run.n_steps - 1, key=K_STEP,
                               help=t("efficient.step_help"))  # fmt: skip
    cached = s.tokens[: step + 1]
    st.markdown(
        t("efficient.step_text", t=step, token=s.tokens[step], n=len(cached), n_kv=n_kv)
    )
    fig = eviz.cache_step(
        run.weights[step], cached, head_label=t("efficient.head_short"),
        title=t("efficient.step_fig", t=step), value_label=t("efficient.weight"),
    )  # fmt: skip
    widgets.plot(fig, key="efficient.step_fig")
    d_k = s.config.d_model // s.n_heads
    per_step = [
        kv_cache_bytes(n_layers=1, n_kv_heads=n_kv, d_k=d_k, n_tokens=int(n), bytes_per_value=4)
        for n in run.cache_lengths
    ]
    full = [kv_cache_bytes(n_layers=1, n_kv_heads=s.n_heads, d_k=d_k, n_tokens=int(n),
                           bytes_per_value=4) for n in run.cache_lengths]  # fmt: skip
    fig = eviz.curves(
        np.arange(run.n_steps), [np.array(full), np.array(per_step)],
        names=[t("efficient.cache_mha", nh=s.n_heads), t("efficient.cache_gqa", n_kv=n_kv)],
        x_title=t("efficient.step_axis"), y_title=t("efficient.bytes"), dashes=["dot", None],
        integer_x=True,
    )  # fmt: skip
    widgets.plot(fig, key="efficient.growth_fig")
    st.info(t("efficient.cache_check", n=run.n_steps, diff=num(run.max_diff)))


def calculator() -> None:
    """2 x layers x KV heads x d_k x tokens x bytes x batch for a published configuration."""
    st.subheader(t("efficient.calc"))
    st.latex(r"\text{bytes} = 2 \times L \times n_{kv} \times d_k \times T \times b \times B")
    c_model, c_tokens, c_batch, c_dtype = st.columns([2, 2, 1, 1])
    name = controls.selectbox(t("efficient.model"), MODELS, key=K_MODEL, where=c_model)
    n_tokens = controls.number_input(
        t("efficient.tokens"), key=K_TOKENS, where=c_tokens, min_value=1, max_value=MAX_CONTEXT,
        step=1024,
    )  # fmt: skip
    batch = controls.number_input(
        t("efficient.batch"), key=K_BATCH, where=c_batch, min_value=1, max_value=MAX_BATCH
    )
    dtype = controls.selectbox(t("efficient.dtype"), DTYPES, key=K_DTYPE, where=c_dtype)
    c = next(m for m in PUBLISHED_CONFIGS if m.name == name)
    bpv = BYTES_PER_VALUE[dtype]
    total = c.cache_bytes(int(n_tokens), int(batch), bpv)
    kept = int(n_tokens) if c.window is None else min(int(n_tokens), c.window)
    st.markdown(
        t(
            "efficient.calc_result", name=name, L=c.n_layers, n_kv=c.n_kv_heads, d_k=c.d_k,
            tokens=f"{kept:,}", b=bpv, batch=int(batch), total=size(total),
            per_token=size(c.cache_bytes(1, 1, bpv)),
        )
    )  # fmt: skip
    if c.window is not None and n_tokens > c.window:
        st.caption(t("efficient.calc_window", name=name, w=f"{c.window:,}"))
    rows = [
        {
            t("efficient.col.model"): m.name,
            t("efficient.col.layers"): m.n_layers,
            t("efficient.col.heads"): m.n_heads,
            t("efficient.col.kv_heads"): m.n_kv_heads,
            t("efficient.col.d_k"): m.d_k,
            t("efficient.col.dtype"): m.dtype,
            t("efficient.col.per_token"): size(m.bytes_per_token),
            t("efficient.col.at_context"): f"{size(m.cache_bytes(m.context))} "
            f"({m.context:,})",
        }
        for m in PUBLISHED_CONFIGS
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="efficient.table")
    # the sources under the table, wrapped: a column of them was cut at the table's edge
    st.markdown(
        f"**{t('efficient.col.source')}**\n\n"
        + "\n".join(f"- {m.name}: {m.source}" for m in PUBLISHED_CONFIGS)
    )
    by_name = {m.name: m for m in PUBLISHED_CONFIGS}
    l2, l3 = by_name["Llama-2-7B"], by_name["Llama-3-8B"]
    st.caption(
        t(
            "efficient.table_caption",
            l3_tok=size(l3.bytes_per_token), l3_dtype=l3.dtype,
            l3_ctx=size(l3.cache_bytes(l3.context)), l3_n=f"{l3.context:,}",
            ratio=num(l2.bytes_per_token / l3.bytes_per_token), l2_tok=size(l2.bytes_per_token),
            l2_ctx=size(l2.cache_bytes(l2.context)), l2_n=f"{l2.context:,}",
        )
    )  # fmt: skip


# --- masks beyond causal ---------------------------------------------------------------------
def masks(s: Sentence) -> None:
    """Window, sinks and global tokens: the mask, the heads under it, the receptive field."""
    widgets.heading("efficient.masks")
    T = len(s.tokens)
    c_w, c_s, c_g, c_l = st.columns(4)
    window = controls.slider(t("efficient.window"), 1, MAX_WINDOW, key=K_WINDOW, where=c_w)
    sinks = controls.slider(t("efficient.sinks"), 0, MAX_SINKS, key=K_SINKS, where=c_s,
                            help=t("efficient.sinks_help"))  # fmt: skip
    glob = controls.multiselect(
        t("efficient.global"), range(T), key=K_GLOBAL, where=c_g, max_selections=MAX_GLOBAL,
        format_func=lambda i: f"{i}: {s.tokens[i]}", help=t("efficient.global_help"),
    )  # fmt: skip
    layers = controls.slider(t("efficient.layers"), 1, MAX_LAYERS, key=K_LAYERS, where=c_l)
    m = compute.masked(s.key, s.config, window, sinks, tuple(sorted(glob)), layers)
    left, right = st.columns(2)
    with left:
        fig = eviz.mask_matrix(
            m.mask, s.tokens, title=t("efficient.mask_fig"), value_label=t("efficient.visible")
        )
        widgets.plot(fig, key="efficient.mask_fig")
    with right:
        reach = m.field.reach[-1].numpy()
        fig = eviz.mask_matrix(
            reach, s.tokens, title=t("efficient.reach_fig", L=layers),
            value_label=t("efficient.reaches"),
        )  # fmt: skip
        widgets.plot(fig, key="efficient.reach_fig")
    titles = [t("efficient.head_n", h=h) for h in range(s.n_heads)]
    fig = head_grid(m.weights, s.tokens, titles=titles, **widgets.axis_titles())
    widgets.plot(fig, key="efficient.masked_fig")
    _reach_curve(m.field, window, T, plain=sinks == 0 and not glob)


def _reach_curve(field: ReceptiveField, window: int, T: int, plain: bool) -> None:
    farthest = field.farthest_back
    layers = np.arange(1, len(farthest) + 1)
    closed = np.minimum(layers * (window - 1), T - 1)
    exact = t("efficient.reach_exact" if plain else "efficient.reach_exact_special")
    fig = eviz.curves(
        layers, [np.array(farthest), closed],
        names=[exact, t("efficient.reach_closed", w=window)],
        x_title=t("efficient.layer_axis"), y_title=t("efficient.back_axis"), dashes=[None, "dot"],
        integer_x=True,
    )  # fmt: skip
    widgets.plot(fig, key="efficient.reach_curve")
    agree = bool(np.array_equal(np.array(farthest), closed))
    if plain:
        st.info(t("efficient.reach_agree" if agree else "efficient.reach_differ",
                  L=len(farthest), back=farthest[-1], w=window))  # fmt: skip
    else:
        st.info(t("efficient.reach_sinks", L=len(farthest), back=farthest[-1],
                  visible=field.visible[-1], T=T))  # fmt: skip
    mistral = window_reach(MISTRAL_WINDOW, MISTRAL_LAYERS)
    st.caption(t("efficient.mistral", w=f"{MISTRAL_WINDOW:,}", L=MISTRAL_LAYERS,
                 reach=f"{mistral:,}", k=round(mistral / 1000)))  # fmt: skip


# --- FlashAttention's tiles ------------------------------------------------------------------
def flash(s: Sentence) -> None:
    """Tiles of one head's scores for one query row: m, l, the partial output, the difference."""
    widgets.heading("efficient.flash")
    st.latex(
        r"\begin{aligned} m' &= \max(m, \max_j s_j) \\ \ell' &= e^{m - m'}\ell"
        r" + \textstyle\sum_j e^{s_j - m'} \\ o' &= e^{m - m'} o"
        r" + \textstyle\sum_j e^{s_j - m'} v_j \end{aligned}"
    )
    T, nh = len(s.tokens), s.n_heads
    c_b, c_h, c_r = st.columns(3)
    block = controls.select_slider(t("efficient.block"), BLOCKS, key=K_BLOCK, where=c_b)
    head = controls.selectbox(t("efficient.head"), range(nh), key=K_HEAD, where=c_h)
    row = controls.selectbox(t("efficient.row"), range(T), key=K_ROW, where=c_r,
                             format_func=lambda i: f"{i}: {s.tokens[i]}")  # fmt: skip
    f = compute.flash_row(s.key, s.config, block, head, row)
    n = len(f.key_ranges)
    tile = controls.clamp(K_TILE, list(range(n)))
    if n > 1:  # one tile: nothing to step through
        tile = controls.slider(t("efficient.tile"), 0, n - 1, key=K_TILE)
    k0, k1 = f.key_ranges[tile]
    fig = eviz.tiled_scores(
        f.scores, s.tokens, block_size=block, row=row, tile=tile, key_ranges=f.key_ranges,
        title=t("efficient.tiles_fig", h=head), value_label=t("efficient.score"),
    )  # fmt: skip
    widgets.plot(fig, key="efficient.tiles_fig")
    causal = s.causal  # what the mask hides is said only when there is one
    present.prose(t("efficient.tiles_caption") + (t("efficient.tiles_causal") if causal else ""))
    values = {"last": n - 1, "k0": k0, "k1": k1 - 1, "m": num(f.m[tile]), "l": num(f.l[tile]),
              "row": row, "token": s.tokens[row]}  # fmt: skip
    if tile == 0:
        st.markdown(t("efficient.tile_first", **values))
    else:
        st.markdown(t("efficient.tile_text", tile=tile, rescale=num(f.rescale[tile]), **values))
    _flash_steps(f, tile)
    diff = t("efficient.flash_diff", row=row, diff_row=num(f.max_diff_row), diff=num(f.max_diff),
             tiles=f.result.n_tiles)  # fmt: skip
    if causal:
        diff += t("efficient.flash_skipped", skipped=f.result.n_skipped)
    st.info(diff)
    _memory_chart(block, T)


def _flash_steps(f, tile: int) -> None:
    labels = [t("efficient.after_tile", s=i) for i in range(len(f.key_ranges))]
    fig = eviz.curves(
        np.arange(len(labels)), [f.m, f.l, f.rescale],
        names=[t("efficient.m"), t("efficient.l"), t("efficient.rescale")],
        x_title=t("efficient.tile_axis"), height=300, integer_x=True,
    )  # fmt: skip
    widgets.plot(fig, key="efficient.ml_fig")
    fig = eviz.partial_outputs(
        f.partial[: tile + 1], f.final, row_labels=labels[: tile + 1],
        final_label=t("efficient.plain"), x_title=t("efficient.dimension"),
        title=t("efficient.partial_fig"),
    )  # fmt: skip
    widgets.plot(fig, key="efficient.partial_fig")


def _memory_chart(block: int, T: int) -> None:
    lengths = [2**p for p in range(4, 18)]
    mem = score_memory(lengths, block)
    fig = eviz.curves(
        mem.t, [mem.plain.astype(float), mem.tiled.astype(float)],
        names=[t("efficient.mem_plain"), t("efficient.mem_tiled", b=block)],
        x_title=t("efficient.mem_t"), y_title=t("efficient.mem_scores"), log_y=True,
        log_x=True, fmt=",.0f",
    )  # fmt: skip
    widgets.plot(fig, key="efficient.memory_fig")
    big = lengths[-1]
    st.caption(
        t("efficient.mem_caption", T=f"{big:,}", plain=f"{big * big:,}", b=block,
          tile=f"{block * block:,}", mb=size(4 * big * big), n=T)
    )  # fmt: skip
