"""The home page's sections: one function per tab (every head, their mean, statistics, head
similarity) and the downloads, each drawing the sidebar's sentence through the cached calls of
`ui.compute.attention`. The page's own controls (keys "attention.*") are named here."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

import viz
from mha_core import AttentionConfig
from ui import controls, widgets
from ui.compute.attention import head_statistics
from ui.i18n import t
from ui.state import Settings

VIEWS = ("heads", "mean", "stats", "similarity")
SCALES = ("shared", "per_head")
K_SCALE, K_PALETTE, K_VIEW = "attention.colour_scale", "attention.palette", "attention.view"
K_HEAD = "attention.head"  # over widgets.GRID_FULL tokens: the head drawn token by token
# Over widgets.GRID_FULL tokens the heads tab draws one of two charts (a seed step at 512 words x
# 16 heads redrew both in ~750 ms, ~5.5x the floor page: bench/long_input.py): one head token
# by token, every token shown (the default), or every head as block means
K_LONG = "attention.long_view"
LONG_VIEWS = ("head", "blocks")


@dataclass(frozen=True, eq=False)
class Sentence:
    """The sidebar's sentence through the page's layer: tokens, the weights (nh, T, T)."""

    tokens: list[str]
    config: AttentionConfig
    weights: np.ndarray

    @property
    def head_titles(self) -> list[str]:
        return [t("stats.head_title", h=h) for h in range(self.weights.shape[0])]


def heads(s: Sentence, settings: Settings, scale_mode: str, palette: str) -> None:
    """Every head's weights, two heads a row; a long text: one head token by token, or every
    head as means over blocks of tokens."""
    st.subheader(t("attention.heads"))
    if settings.mask == "causal":
        st.caption(t("attention.causal_note"))
    if scale_mode == "per_head":
        st.caption(t("attention.per_head_note"))
    long = len(s.tokens) > widgets.GRID_FULL
    if long:
        view = controls.enum_radio("attention.long_view", LONG_VIEWS, key=K_LONG)
    if not long or view == "blocks":
        widgets.head_grid(
            s.weights,
            s.tokens,
            titles=s.head_titles,
            shared_scale=scale_mode == "shared",
            colorscale=palette,
            value_label=t("attention.weight"),
            key="attention.heads_fig",
        )
        return
    n_heads = s.weights.shape[0]  # one head token by token, every token shown
    controls.clamp(K_HEAD, range(n_heads))
    head = controls.selectbox(
        t("attention.full_head"),
        range(n_heads),
        format_func=lambda h: t("stats.head_title", h=h),
        key=K_HEAD,
    )
    fig = viz.attention_heatmap(
        s.weights[head],
        s.tokens,
        title=s.head_titles[head],
        colorscale=palette,
        value_label=t("attention.weight"),
        x_title=t("attention.key"),
        y_title=t("attention.query"),
    )
    widgets.plot(fig, key="attention.head_fig")


def mean(s: Sentence, palette: str) -> None:
    """The mean of the heads' weights."""
    st.subheader(t("attention.mean", n=s.weights.shape[0]))
    st.caption(t("attention.mean_caption"))
    fig = viz.attention_heatmap(
        s.weights.mean(axis=0),
        s.tokens,
        colorscale=palette,
        value_label=t("attention.weight"),
        x_title=t("attention.key"),
        y_title=t("attention.query"),
    )
    widgets.plot(fig, key="attention.mean_fig")


def stats(s: Sentence) -> None:
    """One row of statistics per head, and what each head looks like."""
    head_stats, kinds, _ = head_statistics(tuple(s.tokens), s.config)
    st.subheader(t("attention.stats"))
    uniform = float(head_stats.uniform_entropy[0]) if head_stats.n_heads else 0.0
    st.caption(t("attention.stats_caption", uniform=uniform))
    widgets.head_stats_table(head_stats, kinds, key="attention.stats_table")


def similarity(s: Sentence, palette: str) -> None:
    """How alike the heads' weights are, head by head."""
    _, _, sim = head_statistics(tuple(s.tokens), s.config)
    st.subheader(t("attention.similarity"))
    st.caption(t("attention.similarity_caption"))
    n_heads = s.weights.shape[0]
    fig = viz.attention_heatmap(
        sim,
        s.head_titles,
        zmin=0.0,
        zmax=1.0,
        colorscale=palette,
        value_label=t("attention.similarity_value"),
        x_title="",
        y_title="",
        height=max(300, 60 + 40 * n_heads),
        fmt=".4f",
        square=True,  # stretched across the page, its cells were wide bands
    )
    widgets.plot(fig, key="attention.similarity_fig")


def downloads(s: Sentence) -> None:
    st.subheader(t("attention.downloads"))
    widgets.download_buttons(tuple(s.tokens), s.config, key="attention")
