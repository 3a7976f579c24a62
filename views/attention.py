"""Home: type a sentence, see every head's attention weights."""

import math
from functools import partial

import streamlit as st

import viz
from ui import cache, cache_home, state, widgets
from ui.i18n import t
from ui.sidebar import url_notice

settings = state.current()
st.title(t("home.title"))
url_notice()
tokens = widgets.sentence_tokens(settings)
config = settings.config()
result = cache.sentence_trace(tuple(tokens), config)
weights = result.trace.weights[0].numpy()  # (nh, T, T)

st.write(t("home.intro", d_k=settings.d_k))
if settings.scoring == "additive":
    st.caption(t("home.intro_additive"))
st.caption(t("home.random_note", seed=settings.seed))
widgets.token_chips(tokens)

c1, c2 = st.columns(2)
scale_mode = c1.radio(
    t("home.colour_scale"),
    ("shared", "per_head"),
    format_func=lambda v: t(f"home.scale.{v}"),
    horizontal=True,
    key="home.colour_scale",
)
palette = c2.selectbox(t("home.palette"), viz.PALETTES, key="home.palette")

st.subheader(t("home.heads"))
if settings.mask == "causal":
    st.caption(t("home.causal_note"))
titles = [t("home.head_title", h=h) for h in range(settings.n_heads)]
fig = viz.head_grid(
    weights,
    tokens,
    titles=titles,
    shared_scale=scale_mode == "shared",
    colorscale=palette,
    value_label=t("home.weight"),
)
widgets.plot(fig, key="home.heads_fig")

st.subheader(t("home.mean", n=settings.n_heads))
st.caption(t("home.mean_caption"))
mean_fig = viz.attention_heatmap(
    weights.mean(axis=0),
    tokens,
    colorscale=palette,
    value_label=t("home.weight"),
    x_title=t("home.key"),
    y_title=t("home.query"),
)
widgets.plot(mean_fig, key="home.mean_fig")

# --- statistics -------------------------------------------------------------------------
head_stats, kinds, similarity = cache_home.stats(tuple(tokens), config)
st.subheader(t("home.stats"))
st.caption(t("home.stats_caption", max_entropy=math.log(len(tokens))))
widgets.head_stats_table(head_stats, kinds, key="home.stats_table")

st.subheader(t("home.similarity"))
st.caption(t("home.similarity_caption"))
sim_fig = viz.attention_heatmap(
    similarity,
    titles,
    zmin=0.0,
    zmax=1.0,
    colorscale=palette,
    value_label=t("home.similarity_value"),
    x_title="",
    y_title="",
    height=max(300, 60 + 40 * settings.n_heads),
    fmt=".4f",
)
widgets.plot(sim_fig, key="home.similarity_fig")

# --- downloads --------------------------------------------------------------------------
st.subheader(t("home.downloads"))
d1, d2 = st.columns(2)
d1.download_button(
    t("home.download_csv"),
    data=partial(cache_home.csv_bytes, tuple(tokens), config),
    file_name="attention_weights.csv",
    mime="text/csv",
    on_click="ignore",
    key="home.download_csv",
)
d2.download_button(
    t("home.download_json"),
    data=partial(cache_home.json_bytes, tuple(tokens), config),
    file_name="attention_trace.json",
    mime="application/json",
    on_click="ignore",
    key="home.download_json",
)
st.caption(t("home.download_help"))
