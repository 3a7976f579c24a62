"""Inside the Transformer: encoder self-attention, masked decoder self-attention,
cross-attention, padding, Add & Norm and dropout in a small seeded encoder-decoder."""

import streamlit as st

from ui import controls, present, url
from ui.compute import encoder_decoder as compute
from ui.i18n import t
from ui.page import open_page
from ui.sections import encoder_decoder as sections
from ui.sections import encoder_decoder_trained as trained
from ui.state import MAX_CHARS, URL_TEXT_CHARS

settings = open_page("encoder_decoder", sections.PARAMS)

# the Train page's model instead of the seeded one (the intro below is the seeded model's)
if trained.model_choice() == "trained":
    trained.trained(trained.train_run())
    url.stop()
present.prose(t("encoder_decoder.intro", seed=settings.seed))
st.caption(t("encoder_decoder.settings_note" if settings.positional else "encoder_decoder.no_pe"))

# --- the sentences and the model ---------------------------------------------------------------
target = controls.text(
    t("encoder_decoder.target"),
    key=sections.K_TARGET,
    limit=MAX_CHARS,
    area=True,  # three lines: "Press Ctrl+Enter to apply" stays under a short text, not on it
    help=t("encoder_decoder.target_help"),
)
n_chars = controls.too_long(sections.K_TARGET, MAX_CHARS)
if n_chars:
    st.warning(t("msg.too_long", n=n_chars, limit=MAX_CHARS))
if len(target) > URL_TEXT_CHARS:  # left out of the URL (its Param's in_url): say so
    st.warning(t("msg.not_in_link", n=f"{len(target):,}", limit=f"{URL_TEXT_CHARS:,}"))
n_layers, layer, norm_first = sections.model_controls()
part = sections.part_picker()
src = sections.source_target_tokens(settings.text, settings.tokenizer, "source")
tgt = sections.source_target_tokens(target, settings.tokenizer, "target")
if not (src and tgt):
    url.stop()

cfg = compute.model_config(settings.d_model, settings.n_heads, n_layers, norm_first, settings.seed)
view = controls.clamp(sections.K_VIEW, sections.VIEWS)  # the attention view shown (and lit)
sections.diagram(cfg, layer, part, view)

# --- the part shown ----------------------------------------------------------------------------
src_key, tgt_key = tuple(src), tuple(tgt)
sections.part_intro(part, layer, norm_first)
if part == "attention":
    views = controls.enum_views(f"{sections.P}.view", sections.VIEWS, key=sections.K_VIEW)
    pair = compute.pair(src_key, tgt_key, cfg, settings.positional)
    draw = {v: (lambda v=v: sections.attention_view(pair, layer, v)) for v in sections.VIEWS}
    controls.draw_open(views, draw)
elif part in ("padding", "addnorm"):
    cut, head = sections.batch_controls(len(src), cfg.n_heads, part)
    sentences = (src_key,) if cut is None else (src_key, src_key[:cut])
    batch = compute.batch(sentences, cfg, layer, settings.positional)
    if part == "padding":
        sections.padding(batch, head)
    else:
        sections.add_norm(batch)
else:
    p, head = sections.dropout_controls(cfg.n_heads)
    seed = st.session_state[sections.K_DROP_SEED]
    drop = compute.dropout(src_key, tgt_key, cfg, settings.positional, layer, head, p, seed)
    sections.dropout(drop, src, head, layer, seed)

sections.checked_note()
