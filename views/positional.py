"""Positional encoding: the sinusoidal table, what it encodes, and what it does to attention."""

import streamlit as st

from ui.compute import positional as compute
from ui.i18n import t
from ui.page import open_page, set_defaults, url_state
from ui.sections import positional as sections
from ui.state import parse_int

D_MODEL_RANGE = (2, 512)  # even only: every sine has its cosine partner
POSITIONS_RANGE = (2, 256)
DEFAULTS = {
    "positional.d_model": 64,
    "positional.n_positions": 64,
    "positional.shuffle_seed": 0,
    "positional.head": 0,
    sections.K_ROPE_PAIR: 0,
    sections.K_ROPE_SHIFT: 100,
}
ss = st.session_state
set_defaults(DEFAULTS)


settings = open_page("positional")
URL_PARSERS = {  # the RoPE controls (the page's other controls are not mirrored yet)
    sections.K_ROPE_PAIR: lambda r: parse_int(r, 0, 255),
    sections.K_ROPE_SHIFT: lambda r: parse_int(r, 1, sections.MAX_SHIFT),
}
url_state("positional", URL_PARSERS)
st.markdown(t("positional.intro"))
st.latex(
    r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right), \qquad "
    r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"
)
st.markdown(t("positional.symbols"))

c1, c2 = st.columns(2)
c1.slider(
    t("positional.d_model"),
    *D_MODEL_RANGE,
    step=2,
    key="positional.d_model",
    help=t("positional.d_model_help"),
)
c2.slider(t("positional.n_positions"), *POSITIONS_RANGE, key="positional.n_positions")
d_model, n_pos = int(ss["positional.d_model"]), int(ss["positional.n_positions"])
table = compute.positional_table(n_pos, d_model)
st.info(t("positional.range", lo=table.value_min, hi=table.value_max, n=n_pos, d=d_model))

sections.curves(table, n_pos, d_model)
sections.table(table, n_pos, d_model)
sections.wavelengths(table, n_pos, d_model)
sections.similarity(table, n_pos, d_model)
sections.layouts(table, n_pos, d_model)
sections.sentence(settings)
sections.rope(settings)
sections.alibi(settings)
url_state("positional", URL_PARSERS)  # the pair as clamped to the heads' d_k
