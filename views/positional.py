"""Positional encoding: the sinusoidal table, what it encodes, and what it does to attention."""

import streamlit as st

from ui import controls
from ui.compute import positional as compute
from ui.i18n import t
from ui.page import open_page, set_defaults, url_state
from ui.sections import positional as sections
from ui.state import MAX_SEED, parse_int

D_MODEL_RANGE = (2, 512)  # even only: every sine has its cosine partner
POSITIONS_RANGE = (2, 256)
DEFAULTS = {
    "positional.pe_d_model": 64,
    "positional.n_positions": 64,
    "positional.shuffle_seed": 0,
    "positional.head": 0,
    "positional.dims": None,  # None: a few fast and slow ones for the chosen d_model
    "positional.anchor": 32,
    sections.K_ROPE_PAIR: 0,
    sections.K_ROPE_SHIFT: 100,
}
ss = st.session_state
set_defaults(DEFAULTS)


settings = open_page("positional")


def _parse_even(raw: str) -> int:
    value = parse_int(raw, *D_MODEL_RANGE)
    if value % 2:
        raise ValueError(raw)
    return value


def _parse_dims(raw: str) -> list[int]:
    dims = [parse_int(part, 0, D_MODEL_RANGE[1] - 1) for part in raw.split(",")] if raw else []
    if len(dims) > sections.MAX_DIMS or len(set(dims)) != len(dims):
        raise ValueError(raw)
    return dims


url_state(
    "positional",
    {
        "positional.pe_d_model": _parse_even,
        "positional.n_positions": lambda r: parse_int(r, *POSITIONS_RANGE),
        "positional.dims": _parse_dims,
        "positional.anchor": lambda r: parse_int(r, 0, POSITIONS_RANGE[1] - 1),
        "positional.shuffle_seed": lambda r: parse_int(r, 0, MAX_SEED),
        "positional.head": lambda r: parse_int(r, 0, 511),
        sections.K_ROPE_PAIR: lambda r: parse_int(r, 0, 255),
        sections.K_ROPE_SHIFT: lambda r: parse_int(r, 1, sections.MAX_SHIFT),
    },
)
st.markdown(t("positional.intro"))
st.latex(
    r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right), \qquad "
    r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"
)
st.markdown(t("positional.symbols"))

c1, c2 = st.columns(2)
d_model = controls.slider(
    t("positional.d_model"),
    *D_MODEL_RANGE,
    step=2,
    key="positional.pe_d_model",
    help=t("positional.d_model_help"),
    where=c1,
)
n_pos = controls.slider(
    t("positional.n_positions"), *POSITIONS_RANGE, key="positional.n_positions", where=c2
)
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
