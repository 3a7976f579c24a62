"""Home: type a sentence, see every head's attention weights."""

import streamlit as st

import viz
from ui import cache, state, widgets
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
