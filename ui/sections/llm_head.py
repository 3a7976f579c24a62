"""The LLM page's "One head, step by step" view: one real head of SmolLM2 at one query, each
stage (norm, project, RoPE, scores, output) with the real numbers, checked against the trace."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import streamlit as st

from ui import controls, widgets
from ui.compute import llm as compute
from ui.i18n import t
from ui.numbers import num
from viz.llm import rope_pair, vector_rows
from viz.matrix import matrix_heatmap

STAGES = ("norm", "project", "rope", "scores", "output")
N_PAIRS = 32  # RoPE pairs of a 64-dim head
KEY_ROWS = 48  # K and V: the last this many keys up to the query
K_STAGE, K_PAIR = "llm.stage", "llm.pair"


@dataclass(frozen=True)
class _Head:
    """What every stage of one head draws from."""

    s: object  # compute.one_head's steps
    cfg: object  # the model's config
    tokens: list[str]
    layer: int
    head: int
    query: int
    keys: slice  # the keys K and V show
    key_labels: list[str]
    dims: str  # the word for a vector's dimension


def _vector(values, names: list[str], *, key: str, title: str, col_title: str) -> None:
    """Vectors (each one row) as one heatmap, exact values on hover."""
    fig = vector_rows(values, names, col_title=col_title, value_label=t("llm.value"), title=title)
    widgets.plot(fig, key=key)


def _keys_window(query: int) -> int:
    """The first key shown in K and V: the last KEY_ROWS keys up to the query."""
    return max(0, query + 1 - KEY_ROWS)


def _norm(h: _Head) -> None:
    s, cfg, layer, query, dims = h.s, h.cfg, h.layer, h.query, h.dims
    st.markdown(
        t("llm.one.norm", layer=layer, query=query, x_norm=num(float(np.linalg.norm(s.x))),
          rms=num(1 / s.inv_rms), d_model=cfg.d_model, eps=num(cfg.rms_eps),
          diff=num(s.checks["normed"]))
    )  # fmt: skip
    _vector([s.x, s.normed], ["x", "n"], key="llm.one_norm_fig",
            title=t("llm.one.norm_fig"), col_title=dims)  # fmt: skip


def _project(h: _Head) -> None:
    s, cfg, head, query = h.s, h.cfg, h.head, h.query
    keys, key_labels, dims = h.keys, h.key_labels, h.dims
    st.markdown(
        t("llm.one.project", head=head, kv=s.kv_head, hs=cfg.head_size,
          d_model=cfg.d_model, q_norm=num(float(np.linalg.norm(s.q))), n=query + 1,
          diff_k=num(s.checks["k"]), diff_v=num(s.checks["v"]))
    )  # fmt: skip
    _vector(s.q, ["q"], key="llm.one_q_fig", title=t("llm.one.q_fig", head=head),
            col_title=dims)  # fmt: skip
    if keys.start:
        st.caption(t("llm.one.keys_cut", shown=KEY_ROWS, n=query + 1))
    for part, values in (("k", s.k), ("v", s.v)):
        fig = matrix_heatmap(
            values[keys], key_labels, None, row_start=keys.start,
            title=t(f"llm.one.{part}_fig", kv=s.kv_head), row_title=t("llm.key_word"),
            col_title=dims, value_label=t("llm.value"), colorbar_below=True,
        )  # fmt: skip
        widgets.plot(fig, key=f"llm.one_{part}_fig")


def _rope(h: _Head) -> None:
    s, cfg, tokens, query = h.s, h.cfg, h.tokens, h.query
    pair = controls.select_slider(t("llm.pair"), range(N_PAIRS), key=K_PAIR,
                                  help=t("llm.pair_help"))  # fmt: skip
    p = s.pair(pair)
    if p.key:
        key_clause = t("llm.one.key_most", kpos=p.key, key_token=repr(tokens[p.key]),
                       k_angle=num(p.k_angle))  # fmt: skip
    else:  # query 0: its only key is itself
        key_clause = t("llm.one.key_zero")
    st.markdown(
        t("llm.one.rope", i=pair, j=pair + cfg.head_size // 2, w=num(p.frequency),
          hs=cfg.head_size, base=num(cfg.rope_base), query=query, q_angle=num(p.q_angle),
          key_clause=key_clause, offset=num(p.q_angle - p.k_angle), diff=num(s.checks["q"]))
    )  # fmt: skip
    names = (t("llm.one.q_before"), t("llm.one.q_after", query=query),
             t("llm.one.k_before", kpos=p.key), t("llm.one.k_after", kpos=p.key))  # fmt: skip
    fig = rope_pair(p.q, p.q_rot, p.k, p.k_rot, names=names,
                    title=t("llm.one.rope_fig", i=pair))  # fmt: skip
    widgets.plot(fig, key="llm.one_rope_fig")


def _scores(h: _Head) -> None:
    s, cfg, tokens, query = h.s, h.cfg, h.tokens, h.query
    n = s.n_tokens
    masked = np.where(s.allowed, s.scores, -np.inf)
    j = int(np.argmax(s.weights))
    hidden = n - query - 1
    mask = t("llm.one.mask", hidden=hidden) if hidden else t("llm.one.mask_none")
    st.markdown(
        t("llm.one.scores", hs=cfg.head_size, root=num(1 / s.scale), n=n, mask=mask,
          best=j, best_token=repr(tokens[j]),
          weight=num(float(s.weights[j])), diff=num(s.checks["weights"]))
    )  # fmt: skip
    fig = vector_rows(
        np.stack([s.scores, masked]), [t("llm.one.raw"), t("llm.one.masked")],
        tokens, title=t("llm.one.scores_fig"), col_title=t("llm.key_word"),
        value_label=t("llm.value"),
    )  # fmt: skip
    widgets.plot(fig, key="llm.one_scores_fig")
    fig = vector_rows(
        s.weights[None], [t("llm.weight")], tokens, title=t("llm.one.weights_fig"),
        col_title=t("llm.key_word"), value_label=t("llm.weight"), signed=False,
        colorscale="Viridis",
    )  # fmt: skip
    widgets.plot(fig, key="llm.one_weights_fig")


def _output(h: _Head) -> None:
    s, cfg, head, dims = h.s, h.cfg, h.head, h.dims
    st.markdown(
        t("llm.one.output", head=head, hs=cfg.head_size, d_model=cfg.d_model,
          lo=head * cfg.head_size, hi=(head + 1) * cfg.head_size - 1,
          o_norm=num(float(np.linalg.norm(s.output))),
          added=num(float(np.linalg.norm(s.added))), heads=cfg.n_heads,
          diff=num(s.checks["output"]), diff_sum=num(s.checks["heads_sum"]))
    )  # fmt: skip
    _vector([s.output], ["o"], key="llm.one_out_fig", title=t("llm.one.out_fig"),
            col_title=dims)  # fmt: skip
    fig = matrix_heatmap(
        s.w_o, None, None, col_start=head * cfg.head_size,
        title=t("llm.one.wo_fig", head=head), row_title=t("llm.one.out_dim"),
        col_title=t("llm.one.in_dim"), value_label=t("llm.value"), colorbar_below=True,
        height=420,
    )  # fmt: skip
    widgets.plot(fig, key="llm.one_wo_fig")


_STAGE_DRAWS = {"norm": _norm, "project": _project, "rope": _rope, "scores": _scores,
                "output": _output}  # fmt: skip


def one_head(m, ids: tuple[int, ...], tokens: list[str], layer: int, head: int, query: int):
    """One real head, step by step, with the real numbers; each step checked against the trace."""
    cfg = m.config
    s = compute.one_head(ids, layer, head, query)
    worst = max(s.checks.values())
    st.subheader(t("llm.one_title", layer=layer, head=head, kv=s.kv_head, query=query,
                   token=repr(tokens[query])))  # fmt: skip
    st.caption(t("llm.one_intro", group=cfg.n_heads // cfg.n_kv_heads, kv=s.kv_head,
                 diff=num(worst)))  # fmt: skip
    stages = controls.enum_views("llm.stage", STAGES, key=K_STAGE)
    dims = t("llm.dim_word")
    keys = slice(_keys_window(query), query + 1)
    key_labels = [f"{j}: {tokens[j]}" for j in range(keys.start, keys.stop)]
    h = _Head(s, cfg, tokens, layer, head, query, keys, key_labels, dims)
    controls.draw_open(
        stages, {name: functools.partial(fn, h) for name, fn in _STAGE_DRAWS.items()}
    )
