"""Pretrained heads: all-MiniLM-L6-v2 through our own attention core."""

import streamlit as st

import viz
from mha_core import valid_head_counts
from ui import widgets
from ui.compute import pretrained as compute
from ui.i18n import t
from ui.page import open_page
from viz.grid import layer_head_mosaic
from viz.reading import add_block_targets

MOSAIC_TOKENS = 32  # the 72-map overview draws at most this many tokens
ENLARGED_TOKENS = 128  # the single enlarged head draws at most this many
REHEAD_SHOWN = 12  # heads drawn after re-heading


def _mosaic_clicked() -> None:
    """A click on a map of the mosaic picks its layer and head (before the pickers are drawn)."""
    point = widgets.clicked_point("pretrained.mosaic_fig")
    if point:
        st.session_state["pretrained.layer"] = int(point[0])
        st.session_state["pretrained.head"] = int(point[1])


settings = open_page("pretrained")
if not settings.text.strip():
    st.info(t("msg.empty"))
    st.stop()
with st.spinner(t("pretrained.loading")):
    cfg = compute.model().config
st.write(
    t(
        "pretrained.intro",
        layers=cfg.num_hidden_layers,
        heads=cfg.num_attention_heads,
        d_model=cfg.hidden_size,
        d_k=cfg.d_k,
    )
)
pair = st.text_input(
    t("pretrained.pair"), key="pretrained.pair", help=t("pretrained.pair_help"), max_chars=2000
)
text, text_pair = settings.text, pair.strip() or None
tr = compute.run(text, text_pair)
if tr.truncated:
    st.warning(t("pretrained.truncated", n_total=tr.n_total_tokens, limit=len(tr.tokens)))
with st.expander(t("pretrained.tokens", n=tr.n_tokens), expanded=tr.n_tokens <= 24):
    st.code("  ".join(f"{i}:{tok}" for i, tok in enumerate(tr.tokens)), language=None)
    if text_pair:
        types = " ".join(map(str, tr.token_type_ids.tolist()))
        st.caption(t("pretrained.token_types", types=types))

c1, c2, c3 = st.columns(3)
layer = c1.selectbox(t("pretrained.layer"), range(tr.n_layers), key="pretrained.layer")
head = c2.selectbox(t("pretrained.head"), range(tr.n_heads), key="pretrained.head")
hide = c3.toggle(
    t("pretrained.hide_special"),
    key="pretrained.hide_special",
    help=t("pretrained.hide_special_help"),
)
attn, tokens = compute.shown_attention(text, text_pair, hide)  # (L, nh, T, T), T tokens
if not tokens:
    st.info(t("pretrained.nothing_left"))
    st.stop()
n = len(tokens)

st.subheader(t("pretrained.mosaic"))
st.caption(t("pretrained.mosaic_caption"))
shown = min(n, MOSAIC_TOKENS)
if shown < n:
    st.caption(t("pretrained.mosaic_cropped", shown=shown, n=n, big=ENLARGED_TOKENS))
mosaic = layer_head_mosaic(
    attn[:, :, :shown, :shown],
    layer_label=t("pretrained.layer_word"),
    head_label=t("pretrained.head_word"),
    value_label=t("pretrained.weight"),
    selected=(layer, head),
)
mosaic = add_block_targets(
    mosaic,
    tr.n_layers,
    tr.n_heads,
    shown,
    row_label=t("pretrained.layer_word"),
    col_label=t("pretrained.head_word"),
    hint=t("pretrained.mosaic_click"),
)
widgets.plot(mosaic, key="pretrained.mosaic_fig", on_select=_mosaic_clicked)

st.subheader(t("pretrained.enlarged", layer=layer, head=head))
big = min(n, ENLARGED_TOKENS)
if big < n:
    st.caption(t("pretrained.enlarged_cropped", shown=big, n=n))
enlarged = viz.attention_heatmap(
    attn[layer, head, :big, :big],
    tokens[:big],
    value_label=t("pretrained.weight"),
    x_title=t("pretrained.key"),
    y_title=t("pretrained.query"),
)
widgets.plot(enlarged, key="pretrained.enlarged_fig")

st.subheader(t("pretrained.stats", layer=layer))
stats, kinds = compute.layer_statistics(text, text_pair, layer, hide)
widgets.head_stats_table(stats, kinds, key="pretrained.stats_table")

st.subheader(t("pretrained.rehead", layer=layer))
st.caption(t("pretrained.rehead_intro"))
options = valid_head_counts(cfg.hidden_size)
h_new = st.select_slider(
    t("pretrained.rehead_heads"),
    options,
    value=cfg.num_attention_heads,
    key="pretrained.rehead_heads",
)
re = compute.rehead_comparison(text, text_pair, layer, h_new, hide)
st.write(
    t(
        "pretrained.rehead_result",
        h=h_new,
        d_k=cfg.hidden_size // h_new,
        entropy=re.mean_entropy,
        entropy12=re.mean_entropy_original,
        change=re.change,
    )
)
show_h = min(h_new, REHEAD_SHOWN)
if show_h < h_new:
    st.caption(t("pretrained.rehead_shown", shown=show_h, h=h_new))
small = min(n, MOSAIC_TOKENS)
regrid = viz.head_grid(
    re.weights[:show_h, :small, :small],
    tokens[:small],
    titles=[t("stats.head_title", h=h) for h in range(show_h)],
    value_label=t("pretrained.weight"),
)
widgets.plot(regrid, key="pretrained.rehead_fig")
