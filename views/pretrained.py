"""Pretrained heads: all-MiniLM-L6-v2 through our own attention core."""

import numpy as np
import streamlit as st

import viz
from mha_core import valid_head_counts
from mha_core.stats import head_kinds, head_stats, hide_tokens
from ui import cache_pretrained, state, widgets
from ui.i18n import t
from ui.sidebar import url_notice
from viz.grid import layer_head_mosaic

MOSAIC_TOKENS = 32  # the 72-map overview draws at most this many tokens
ENLARGED_TOKENS = 128  # the single enlarged head draws at most this many

settings = state.current()
st.title(t("pre.title"))
url_notice()
if not settings.text.strip():
    st.info(t("msg.empty"))
    st.stop()
with st.spinner(t("pre.loading")):
    model = cache_pretrained.model()
cfg = model.config
st.write(
    t(
        "pre.intro",
        layers=cfg.num_hidden_layers,
        heads=cfg.num_attention_heads,
        d_model=cfg.hidden_size,
        d_k=cfg.d_k,
    )
)
pair = st.text_input(t("pre.pair"), key="pre.pair", help=t("pre.pair_help"), max_chars=2000)
tr = cache_pretrained.trace(settings.text, pair.strip() or None)
if tr.truncated:
    st.warning(t("pre.truncated", n_total=tr.n_total_tokens, limit=len(tr.tokens)))
tokens = list(tr.tokens)
with st.expander(t("pre.tokens", n=len(tokens)), expanded=len(tokens) <= 24):
    st.code("  ".join(f"{i}:{tok}" for i, tok in enumerate(tokens)), language=None)
    if pair.strip():
        st.caption(t("pre.token_types", types=" ".join(map(str, tr.token_type_ids.tolist()))))

c1, c2, c3 = st.columns(3)
layer = c1.selectbox(t("pre.layer"), range(tr.n_layers), key="pre.layer")
head = c2.selectbox(t("pre.head"), range(tr.n_heads), key="pre.head")
hide = c3.toggle(t("pre.hide_special"), key="pre.hide_special", help=t("pre.hide_special_help"))

attn = tr.attentions.numpy()  # (L, nh, T, T)
if hide:
    keep = ~tr.special_tokens_mask.numpy()
    if not keep.any():
        st.info(t("pre.nothing_left"))
        st.stop()
    attn = hide_tokens(attn, keep)
    tokens = [tok for tok, k in zip(tokens, keep) if k]
n = len(tokens)

st.subheader(t("pre.mosaic"))
st.caption(t("pre.mosaic_caption"))
shown = min(n, MOSAIC_TOKENS)
if shown < n:
    st.caption(t("pre.mosaic_cropped", shown=shown, n=n, big=ENLARGED_TOKENS))
mosaic = layer_head_mosaic(
    attn[:, :, :shown, :shown],
    layer_label=t("pre.layer_word"),
    head_label=t("pre.head_word"),
    value_label=t("pre.weight"),
    selected=(layer, head),
)
widgets.plot(mosaic, key="pre.mosaic_fig")

st.subheader(t("pre.enlarged", layer=layer, head=head))
big = min(n, ENLARGED_TOKENS)
if big < n:
    st.caption(t("pre.enlarged_cropped", shown=big, n=n))
enlarged = viz.attention_heatmap(
    attn[layer, head, :big, :big],
    tokens[:big],
    value_label=t("pre.weight"),
    x_title=t("pre.key"),
    y_title=t("pre.query"),
)
widgets.plot(enlarged, key="pre.enlarged_fig")

st.subheader(t("pre.stats", layer=layer))
stats = head_stats(attn[layer])
widgets.head_stats_table(stats, head_kinds(stats, n), key="pre.stats_table")

st.subheader(t("pre.rehead", layer=layer))
st.caption(t("pre.rehead_intro"))
options = valid_head_counts(cfg.hidden_size)
h_new = st.select_slider(t("pre.rehead_heads"), options, value=12, key="pre.rehead_heads")
re = cache_pretrained.rehead(settings.text, pair.strip() or None, layer, h_new)
re_w = re.weights[0].numpy()  # (h, T, T)
orig_out = cache_pretrained.rehead(
    settings.text, pair.strip() or None, layer, cfg.num_attention_heads
)
orig_out = orig_out.output[0].numpy()
change = float(np.linalg.norm(re.output[0].numpy() - orig_out) / np.linalg.norm(orig_out))
if hide:
    re_w = hide_tokens(re_w, ~tr.special_tokens_mask.numpy())
st.write(
    t(
        "pre.rehead_result",
        h=h_new,
        d_k=cfg.hidden_size // h_new,
        entropy=float(np.nanmean(head_stats(re_w).entropy)),
        entropy12=float(np.nanmean(stats.entropy)),
        change=change,
    )
)
show_h = min(h_new, 12)
if show_h < h_new:
    st.caption(t("pre.rehead_shown", shown=show_h, h=h_new))
small = min(n, MOSAIC_TOKENS)
regrid = viz.head_grid(
    re_w[:show_h, :small, :small],
    tokens[:small],
    titles=[t("home.head_title", h=h) for h in range(show_h)],
    value_label=t("pre.weight"),
)
widgets.plot(regrid, key="pre.rehead_fig")
