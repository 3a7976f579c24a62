"""The Pretrained heads page's sections: the tokens, the mosaic of every layer and head, one head
enlarged, a layer's statistics and re-heading, each drawing from the sentence (and pair) through
the cached calls of `ui.compute.pretrained`. The page's own controls (keys "pretrained.*") are
named here."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

import viz
from mha_core import valid_head_counts
from ui import controls, present, url, widgets
from ui.compute import pretrained as compute
from ui.i18n import t
from ui.params import Param, Range, cut, index
from ui.state import parse_bool
from viz.grid import layer_head_mosaic
from viz.head_map import add_block_targets

MOSAIC_TOKENS = 32  # the 72-map overview draws at most this many tokens
ENLARGED_TOKENS = 128  # the single enlarged head draws at most this many
REHEAD_SHOWN = 12  # heads drawn after re-heading
PAIR_CHARS = 2_000  # the second sentence's box
K_PAIR, K_LAYER, K_HEAD = "pretrained.pair", "pretrained.layer", "pretrained.head"
K_HIDE, K_REHEAD = "pretrained.hide_special", "pretrained.rehead_heads"
F_MOSAIC = "pretrained.mosaic_fig"
# what a link may name before the model is loaded; the pickers clamp it to the model's own
LINK_LAYERS = LINK_HEADS = 64
LINK_REHEAD = 4096
PARAMS = (
    Param(K_PAIR, "", cut(PAIR_CHARS)),
    Param(K_LAYER, 0, index(LINK_LAYERS)),
    Param(K_HEAD, 0, index(LINK_HEADS)),
    Param(K_HIDE, False, parse_bool),
    Param(K_REHEAD, 12, Range(1, LINK_REHEAD)),
)


@dataclass(frozen=True, eq=False)
class Shown:
    """What the page shows: the text (and pair), whether [CLS]/[SEP] are hidden, the attention
    of every layer and head (L, nh, T, T) over the tokens left."""

    text: str
    pair: str | None
    hide: bool
    attn: np.ndarray
    tokens: list[str]


def tokens(trace, text_pair: str | None) -> None:
    """The WordPiece tokens (and the token types of a pair), with a truncation notice."""
    if trace.truncated:
        st.warning(t("pretrained.truncated", n_total=trace.n_total_tokens, limit=len(trace.tokens)))
    with st.expander(t("pretrained.tokens", n=trace.n_tokens), expanded=trace.n_tokens <= 24):
        widgets.token_code(trace.tokens)
        if text_pair:
            types = " ".join(map(str, trace.token_type_ids.tolist()))
            st.caption(t("pretrained.token_types", types=types))


def _mosaic_clicked() -> None:
    """A click on a map of the mosaic picks its layer and head (before the pickers are drawn)."""
    point = widgets.clicked_point(F_MOSAIC)
    if point:
        st.session_state[K_LAYER] = int(point[0])
        st.session_state[K_HEAD] = int(point[1])


def mosaic(s: Shown, layer: int, head: int) -> None:
    """Every layer and head in one clickable mosaic, the picked one outlined."""
    st.subheader(t("pretrained.mosaic"))
    present.prose(t("pretrained.mosaic_caption"))
    n_layers, n_heads, n, _ = s.attn.shape
    shown = min(n, MOSAIC_TOKENS)
    if shown < n:
        st.caption(t("pretrained.mosaic_cropped", shown=shown, n=n, big=ENLARGED_TOKENS))
    fig = layer_head_mosaic(
        s.attn[:, :, :shown, :shown],
        layer_label=t("pretrained.layer_word"),
        head_label=t("pretrained.head_word"),
        value_label=t("pretrained.weight"),
        selected=(layer, head),
        tokens=s.tokens[:shown],
    )
    fig = add_block_targets(
        fig,
        n_layers,
        n_heads,
        shown,
        row_label=t("pretrained.layer_word"),
        col_label=t("pretrained.head_word"),
        hint=t("pretrained.mosaic_click"),
    )
    widgets.plot(fig, key=F_MOSAIC, on_select=_mosaic_clicked)


def enlarged(s: Shown, layer: int, head: int) -> None:
    """The picked head alone, with its tokens."""
    st.subheader(t("pretrained.enlarged", layer=layer, head=head))
    n = len(s.tokens)
    big = min(n, ENLARGED_TOKENS)
    if big < n:
        st.caption(t("pretrained.enlarged_cropped", shown=big, n=n))
    fig = viz.attention_heatmap(
        s.attn[layer, head, :big, :big],
        s.tokens[:big],
        value_label=t("pretrained.weight"),
        x_title=t("pretrained.key"),
        y_title=t("pretrained.query"),
    )
    widgets.plot(fig, key="pretrained.enlarged_fig")


def layer_stats(s: Shown, layer: int) -> None:
    st.subheader(t("pretrained.stats", layer=layer))
    stats, kinds = compute.layer_statistics(s.text, s.pair, layer, s.hide)
    widgets.head_stats_table(stats, kinds, key="pretrained.stats_table")


@url.fragment
def rehead(s: Shown, layer: int, d_model: int) -> None:
    """The same trained projections of a layer split into another number of heads (a fragment:
    its slider reruns this part alone)."""
    st.subheader(t("pretrained.rehead", layer=layer))
    present.prose(t("pretrained.rehead_intro"))
    options = valid_head_counts(d_model)
    h_new = controls.select_slider(t("pretrained.rehead_heads"), options, key=K_REHEAD)
    re = compute.rehead_comparison(s.text, s.pair, layer, h_new, s.hide)
    st.write(
        t(
            "pretrained.rehead_result",
            h=h_new,
            d_k=d_model // h_new,
            entropy=re.mean_entropy,
            entropy12=re.mean_entropy_original,
            change=re.change,
        )
    )
    show_h = min(h_new, REHEAD_SHOWN)
    if show_h < h_new:
        st.caption(t("pretrained.rehead_shown", shown=show_h, h=h_new))
    small = min(len(s.tokens), MOSAIC_TOKENS)
    fig = viz.head_grid(
        re.weights[:show_h, :small, :small],
        s.tokens[:small],
        titles=[t("stats.head_title", h=h) for h in range(show_h)],
        value_label=t("pretrained.weight"),
        **widgets.axis_titles(),
    )
    widgets.plot(fig, key="pretrained.rehead_fig")
