"""The home page's sections: one function per view (every head, their mean, statistics, head
similarity) and the downloads, each drawing the sidebar's sentence through the cached calls of
`ui.compute.attention`. The page's own controls (keys "attention.*") are named here."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

import viz
from mha_core import AttentionConfig
from mha_core.layer.export import weights_csv
from mha_core.layer.stats import HeadStats
from ui import controls, present, url, weights, widgets
from ui.compute import attention as compute
from ui.compute.attention import head_statistics
from ui.i18n import t
from ui.params import HEAD_INDEX, HEADS, OneOf, Param
from ui.state import Settings

VIEWS = ("heads", "mean", "stats", "similarity")
COLOUR_SCALES = ("shared", "per_head")  # one colour scale for every head, or one per head
K_COLOUR_SCALE, K_PALETTE = "attention.colour_scale", "attention.palette"
K_VIEW = "attention.view"
K_HEAD = "attention.head"  # over widgets.GRID_FULL tokens: the head drawn token by token
# Over widgets.GRID_FULL tokens the heads view draws one of two charts, not both (redrawing both
# made a step slow: bench/long_input.py): one head token by token, every token shown (the
# default), or every head as block means
K_LONG = "attention.long_view"
LONG_VIEWS = ("head", "blocks")
K_WEIGHTS, K_LAYER = weights.K_WEIGHTS, weights.K_LAYER  # random or MiniLM's, and its layer
PARAMS = (
    Param(K_COLOUR_SCALE, "shared", OneOf(COLOUR_SCALES)),
    Param(K_PALETTE, viz.PALETTES[0], OneOf(viz.PALETTES)),
    Param(K_VIEW, VIEWS[0], OneOf(VIEWS)),
    # the long-text head picker (heads view, over 64 tokens): clamped by the view to the heads
    # shown (the sidebar's, or MiniLM's re-headed count, or SmolLM2's)
    Param(K_HEAD, 0, HEAD_INDEX, depends_on=HEADS | {"weights", "minilm_heads"}),
    Param(K_LONG, "head", OneOf(LONG_VIEWS)),
    *weights.PARAMS,  # where the weights come from (the sidebar reads them too)
)


@dataclass(frozen=True, eq=False)
class Sentence:
    """The sidebar's sentence through the page's layer: tokens, the weights (nh, T, T). The
    layer is the sidebar's random one (`config`), or MiniLM's layer `layer` split into nh heads
    (`config` None)."""

    tokens: list[str]
    config: AttentionConfig | None
    weights: np.ndarray
    text: str = ""  # a trained model's input
    layer: int = 0
    source: str = "random"  # "random", "minilm" or "llm" (ui.weights.WEIGHTS)

    @property
    def head_titles(self) -> list[str]:
        return [t("stats.head_title", h=h) for h in range(self.weights.shape[0])]

    def statistics(self) -> tuple[HeadStats, list[str], np.ndarray]:
        """Per-head statistics, what each head looks like, the head-similarity matrix."""
        if self.source == "llm":
            return compute.llm_statistics(self.text, self.layer)
        if self.source == "minilm":
            n_heads = self.weights.shape[0]
            return compute.minilm_statistics(self.text, self.layer, n_heads)
        return head_statistics(tuple(self.tokens), self.config)


def weights_switch() -> str:
    """The one-click switch between random and trained weights, with a sentence on what changes,
    and MiniLM's layer (disabled, with a note, for random weights). Returns the weights."""
    settings_now = st.session_state
    with st.container(border=True):
        c_switch, c_layer = st.columns([3, 1])
        mode = controls.enum_radio(
            "attention.weights", weights.WEIGHTS, key=K_WEIGHTS, where=c_switch
        )
        random = mode == "random"
        n_layers = weights.N_LAYERS.get(mode, weights.MINILM_LAYERS)
        # not drawn for random weights, only noted: a disabled picker's greyed label fails
        # WCAG's text contrast (axe), as the colour controls did
        layer = st.session_state.get(K_LAYER, 0) if random else controls.selectbox(
            t(f"attention.layer.{'llm' if mode == 'llm' else 'minilm'}"), range(n_layers),
            key=K_LAYER, where=c_layer,
        )  # fmt: skip
        if random:
            c_switch.markdown(t("attention.switch.random"))
            c_layer.caption(t("attention.layer_random"))
        elif mode == "llm":
            c_switch.markdown(t("attention.switch.llm", layer=layer, h=weights.LLM_HEADS,
                                kv=weights.LLM_KV_HEADS))  # fmt: skip
        else:
            h = settings_now[weights.K_HEADS]
            d_k = weights.MINILM_D_MODEL // h
            c_switch.markdown(t("attention.switch.minilm", layer=layer, h=h, d_k=d_k))
    return mode


def minilm_sentence(text: str) -> Sentence:
    """The sidebar's text through MiniLM's chosen layer, split into the chosen heads (the
    tokens: MiniLM's WordPiece, with [CLS] and [SEP]). Stops the page when there is nothing to
    show or MiniLM is not installed."""
    if not text.strip():
        st.info(t("msg.empty"))
        url.stop()
    ss = st.session_state
    layer, h = ss[K_LAYER], ss[weights.K_HEADS]
    try:
        with st.spinner(t("attention.minilm_loading")):
            w, tokens, n_total = compute.minilm_attention(text, layer, h)
    except FileNotFoundError:
        st.error(t("attention.minilm_missing"))
        url.stop()
    if n_total > len(tokens):
        st.warning(t("msg.truncated", n_total=n_total, limit=len(tokens)))
    present.prose(t("attention.intro", d_k=weights.MINILM_D_MODEL // h))
    if h != weights.MINILM_HEADS:
        st.caption(
            t(
                "attention.minilm_rehead",
                trained=weights.MINILM_HEADS,
                trained_dk=weights.MINILM_D_MODEL // weights.MINILM_HEADS,
                h=h,
                d_k=weights.MINILM_D_MODEL // h,
            )
        )
    return Sentence(list(tokens), None, w, text=text, layer=layer, source="minilm")


def llm_sentence(text: str) -> Sentence:
    """The sidebar's text through SmolLM2's chosen layer: its 9 query heads, causal, on its BPE
    tokens (at most `weights.LLM_TOKENS`). Stops the page when there is nothing to show or the
    model is not installed."""
    if not text.strip():
        st.info(t("msg.empty"))
        url.stop()
    layer = st.session_state[K_LAYER]
    try:
        with st.spinner(t("attention.llm_loading")):
            w, tokens, n_total = compute.llm_attention(text, layer)
    except (FileNotFoundError, ValueError) as e:
        st.error(t("attention.llm_missing", error=str(e)))
        url.stop()
    if not tokens:
        st.info(t("msg.no_tokens"))
        url.stop()
    if n_total > len(tokens):
        st.warning(t("msg.truncated", n_total=n_total, limit=len(tokens)))
    present.prose(t("attention.intro", d_k=weights.LLM_D_MODEL // weights.LLM_HEADS))
    st.caption(t("attention.llm_causal"))
    return Sentence(list(tokens), None, w, text=text, layer=layer, source="llm")


def heads(s: Sentence, settings: Settings, scale_mode: str, palette: str) -> None:
    """Every head's weights, two heads a row; a long text: one head token by token, or every
    head as means over blocks of tokens."""
    st.subheader(t("attention.heads"))
    if settings.mask == "causal" and s.config is not None:
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
    head_stats, kinds, _ = s.statistics()
    st.subheader(t("attention.stats"))
    uniform = float(head_stats.uniform_entropy[0]) if head_stats.n_heads else 0.0
    st.caption(t("attention.stats_caption", uniform=uniform))
    widgets.head_stats_table(head_stats, kinds, key="attention.stats_table")


def similarity(s: Sentence, palette: str) -> None:
    """How alike the heads' weights are, head by head."""
    _, _, sim = s.statistics()
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
    if s.config is not None:
        widgets.download_buttons(tuple(s.tokens), s.config, key="attention")
        return
    st.download_button(
        t("attention.download_csv"),
        data=weights_csv(s.weights, s.tokens).encode("utf-8"),
        file_name="attention_weights_minilm.csv",
        mime="text/csv",
        on_click="ignore",
        key="attention.download_csv_minilm",
    )
    st.caption(t("attention.download_minilm"))
