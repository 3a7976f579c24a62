"""Pretrained heads: all-MiniLM-L6-v2 through our own attention core."""

import streamlit as st

import viz
from mha_core import valid_head_counts
from ui import controls, url, widgets
from ui.compute import pretrained as compute
from ui.i18n import t
from ui.page import open_page, set_defaults, url_state
from ui.state import parse_bool, parse_int
from viz.grid import layer_head_mosaic
from viz.reading import add_block_targets

MOSAIC_TOKENS = 32  # the 72-map overview draws at most this many tokens
ENLARGED_TOKENS = 128  # the single enlarged head draws at most this many
REHEAD_SHOWN = 12  # heads drawn after re-heading
PAIR_CHARS = 2_000  # the second sentence's box
K_PAIR, K_LAYER, K_HEAD = "pretrained.pair", "pretrained.layer", "pretrained.head"
K_HIDE, K_REHEAD = "pretrained.hide_special", "pretrained.rehead_heads"


def _mosaic_clicked() -> None:
    """A click on a map of the mosaic picks its layer and head (before the pickers are drawn)."""
    point = widgets.clicked_point("pretrained.mosaic_fig")
    if point:
        st.session_state[K_LAYER] = int(point[0])
        st.session_state[K_HEAD] = int(point[1])


settings = open_page("pretrained")
set_defaults({K_PAIR: "", K_LAYER: 0, K_HEAD: 0, K_HIDE: False, K_REHEAD: 12})
url_state(
    "pretrained",
    {
        K_PAIR: lambda r: r[:PAIR_CHARS],
        K_LAYER: lambda r: parse_int(r, 0, 63),
        K_HEAD: lambda r: parse_int(r, 0, 63),
        K_HIDE: parse_bool,
        K_REHEAD: lambda r: parse_int(r, 1, 4096),
    },
)
if not settings.text.strip():
    st.info(t("msg.empty"))
    url.stop()
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
pair = controls.text(  # a text area: "Press Ctrl+Enter to apply" stays under a short text
    t("pretrained.pair"), key=K_PAIR, limit=PAIR_CHARS, area=True, help=t("pretrained.pair_help")
)
n_chars = controls.too_long(K_PAIR, PAIR_CHARS)
if n_chars:
    st.warning(t("msg.too_long", n=n_chars, limit=PAIR_CHARS))
text, text_pair = settings.text, pair.strip() or None
tr = compute.run(text, text_pair)
if tr.truncated:
    st.warning(t("pretrained.truncated", n_total=tr.n_total_tokens, limit=len(tr.tokens)))
with st.expander(t("pretrained.tokens", n=tr.n_tokens), expanded=tr.n_tokens <= 24):
    widgets.token_code(tr.tokens)
    if text_pair:
        types = " ".join(map(str, tr.token_type_ids.tolist()))
        st.caption(t("pretrained.token_types", types=types))

c1, c2, c3 = st.columns(3)
layer = controls.selectbox(t("pretrained.layer"), range(tr.n_layers), key=K_LAYER, where=c1)
head = controls.selectbox(t("pretrained.head"), range(tr.n_heads), key=K_HEAD, where=c2)
hide = controls.toggle(
    t("pretrained.hide_special"), key=K_HIDE, help=t("pretrained.hide_special_help"), where=c3
)
attn, tokens = compute.shown_attention(text, text_pair, hide)  # (L, nh, T, T), T tokens
if not tokens:
    st.info(t("pretrained.nothing_left"))
    url.stop()
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
h_new = controls.select_slider(t("pretrained.rehead_heads"), options, key=K_REHEAD)
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
