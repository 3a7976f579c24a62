"""Home: type a sentence, see every head's attention weights."""

import math

import streamlit as st

import viz
from ui import controls, widgets
from ui.compute.attention import head_statistics, sentence_attention
from ui.i18n import t
from ui.page import open_page, set_defaults, url_state
from ui.state import parse_choice

VIEWS = ("heads", "mean", "stats", "similarity")
K_SCALE, K_PALETTE, K_VIEW = "attention.colour_scale", "attention.palette", "attention.view"
SCALES = ("shared", "per_head")

settings = open_page("attention")
set_defaults({K_SCALE: "shared", K_PALETTE: viz.PALETTES[0], K_VIEW: VIEWS[0]})
url_state(
    "attention",
    {
        K_SCALE: parse_choice(SCALES),
        K_PALETTE: parse_choice(viz.PALETTES),
        K_VIEW: parse_choice(VIEWS),
    },
)
tokens = widgets.sentence_tokens(settings)
config = settings.config()
result = sentence_attention(tuple(tokens), config)
weights = result.attention.weights[0].numpy()  # (nh, T, T)

st.write(t("attention.intro", d_k=settings.d_k))
if settings.scoring == "additive":
    st.caption(t("attention.intro_additive"))
st.caption(t("attention.random_note", seed=settings.seed))
widgets.token_chips(tokens)

c1, c2 = st.columns(2)
scale_mode = controls.radio(
    t("attention.colour_scale"),
    SCALES,
    format_func=lambda v: t(f"attention.scale.{v}"),
    horizontal=True,
    key=K_SCALE,
    where=c1,
)
palette = controls.selectbox(t("attention.palette"), viz.PALETTES, key=K_PALETTE, where=c2)

# Only the open tab is drawn: a slider step redraws one view, not four.
tabs = controls.tabs(VIEWS, [t(f"attention.tab.{v}") for v in VIEWS], key=K_VIEW)
heads_tab, mean_tab, stats_tab, similarity_tab = (tabs[v] for v in VIEWS)
titles = [t("stats.head_title", h=h) for h in range(settings.n_heads)]

if heads_tab.open:
    with heads_tab:
        st.subheader(t("attention.heads"))
        if settings.mask == "causal":
            st.caption(t("attention.causal_note"))
        fig = viz.head_grid(
            weights,
            tokens,
            titles=titles,
            shared_scale=scale_mode == "shared",
            colorscale=palette,
            value_label=t("attention.weight"),
            one_trace=True,  # heads as blocks of one heatmap: ~17% quicker step (what-if one_trace)
        )
        widgets.plot(fig, key="attention.heads_fig")

if mean_tab.open:
    with mean_tab:
        st.subheader(t("attention.mean", n=settings.n_heads))
        st.caption(t("attention.mean_caption"))
        mean_fig = viz.attention_heatmap(
            weights.mean(axis=0),
            tokens,
            colorscale=palette,
            value_label=t("attention.weight"),
            x_title=t("attention.key"),
            y_title=t("attention.query"),
        )
        widgets.plot(mean_fig, key="attention.mean_fig")

if stats_tab.open or similarity_tab.open:
    head_stats, kinds, similarity = head_statistics(tuple(tokens), config)
if stats_tab.open:
    with stats_tab:
        st.subheader(t("attention.stats"))
        st.caption(t("attention.stats_caption", max_entropy=math.log(len(tokens))))
        widgets.head_stats_table(head_stats, kinds, key="attention.stats_table")

if similarity_tab.open:
    with similarity_tab:
        st.subheader(t("attention.similarity"))
        st.caption(t("attention.similarity_caption"))
        sim_fig = viz.attention_heatmap(
            similarity,
            titles,
            zmin=0.0,
            zmax=1.0,
            colorscale=palette,
            value_label=t("attention.similarity_value"),
            x_title="",
            y_title="",
            height=max(300, 60 + 40 * settings.n_heads),
            fmt=".4f",
        )
        widgets.plot(sim_fig, key="attention.similarity_fig")

# --- downloads --------------------------------------------------------------------------
st.subheader(t("attention.downloads"))
widgets.download_buttons(tuple(tokens), config, key="attention")
