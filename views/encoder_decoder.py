"""Inside the Transformer: encoder self-attention, masked decoder self-attention,
cross-attention, padding, Add & Norm and dropout in a small seeded encoder-decoder."""

import streamlit as st

from ui import controls, url
from ui.compute import encoder_decoder as compute
from ui.i18n import t
from ui.page import open_page, set_defaults, url_state
from ui.sections import encoder_decoder as sections
from ui.sections import encoder_decoder_trained as trained
from ui.state import MAX_CHARS

settings = open_page("encoder_decoder")
set_defaults({**sections.DEFAULTS, **trained.DEFAULTS})
url_state(
    "encoder_decoder",
    {**sections.url_parsers(st.session_state[sections.K_TARGET]), **trained.URL_PARSERS},
)

# the Train page's model instead of the seeded one (the intro below is the seeded model's)
if trained.model_choice() == "trained":
    trained.trained(trained.train_run())
    url.stop()
st.write(t("encoder_decoder.intro", seed=settings.seed))
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
# the head picker is drawn for some parts only, below a stop for an empty sentence: its choice
# stays valid for the sidebar's heads meanwhile
controls.clamp(sections.K_HEAD, range(settings.n_heads))
n_layers, layer, norm_first = sections.model_controls()
part = sections.part_picker()
src = sections.source_target_tokens(settings.text, settings.tokenizer, "source")
tgt = sections.source_target_tokens(target, settings.tokenizer, "target")
if not (src and tgt):
    url.stop()

cfg = compute.model_config(settings.d_model, settings.n_heads, n_layers, norm_first, settings.seed)
view = controls.clamp(sections.K_VIEW, sections.VIEWS)  # the attention tab shown (and lit)
sections.diagram(cfg, layer, part, view)

# --- the part shown ----------------------------------------------------------------------------
src_key, tgt_key = tuple(src), tuple(tgt)
sections.part_intro(part, layer, norm_first)
if part == "attention":
    tabs = controls.enum_tabs(f"{sections.P}.tab", sections.VIEWS, key=sections.K_VIEW)
    pair = compute.pair(src_key, tgt_key, cfg, settings.positional)
    draw = {v: (lambda v=v: sections.attention_view(pair, layer, v)) for v in sections.VIEWS}
    controls.draw_open(tabs, draw)
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
