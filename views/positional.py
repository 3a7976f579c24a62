"""Positional encoding: the sinusoidal table, what it encodes, and what it does to attention."""

import streamlit as st

from mha_core.layer.positional import wavelengths as positional_wavelengths
from ui import controls, widgets
from ui.compute import positional as compute
from ui.i18n import t
from ui.numbers import num
from ui.page import open_page, set_defaults, url_state
from ui.sections import positional as sections
from ui.sections.positional import (
    K_ANCHOR,
    K_D_MODEL,
    K_DIMS,
    K_HEAD,
    K_N_POSITIONS,
    K_SHUFFLE_SEED,
    K_VIEW,
    VIEWS,
)
from ui.state import MAX_SEED, parse_choice, parse_int

D_MODEL_RANGE = (2, 512)  # even only: every sine has its cosine partner
POSITIONS_RANGE = (2, 256)
DEFAULTS = {
    K_D_MODEL: 64,
    K_N_POSITIONS: 64,
    K_SHUFFLE_SEED: 0,
    K_HEAD: 0,
    K_DIMS: None,  # None: a few fast and slow ones for the chosen d_model
    K_ANCHOR: 32,
    sections.K_ROPE_PAIR: 0,
    sections.K_ROPE_SHIFT: 100,
    K_VIEW: VIEWS[0],
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
        K_D_MODEL: _parse_even,
        K_N_POSITIONS: lambda r: parse_int(r, *POSITIONS_RANGE),
        K_DIMS: _parse_dims,
        K_ANCHOR: lambda r: parse_int(r, 0, POSITIONS_RANGE[1] - 1),
        K_SHUFFLE_SEED: lambda r: parse_int(r, 0, MAX_SEED),
        K_HEAD: lambda r: parse_int(r, 0, 511),
        sections.K_ROPE_PAIR: lambda r: parse_int(r, 0, 255),
        sections.K_ROPE_SHIFT: lambda r: parse_int(r, 1, sections.MAX_SHIFT),
        K_VIEW: parse_choice(VIEWS),
    },
)
st.markdown(t("positional.intro"))
st.latex(
    r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right), \qquad "
    r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"
)
_longest = float(positional_wavelengths(ss[K_D_MODEL])[-1])  # 2 pi 10000^((d - 2)/d)
st.markdown(t("positional.symbols", d=ss[K_D_MODEL], longest=num(_longest, 3)))

# the choices that depend on the heads stay valid while their tab is closed too (a stale one
# would stay in the URL and change when the tab opens)
controls.clamp(K_HEAD, range(settings.n_heads), fallback=0)
if settings.d_k % 2 == 0:  # RoPE turns pairs of dimensions: d_k / 2 of them
    controls.clamp(sections.K_ROPE_PAIR, range(settings.d_k // 2))


def encoding() -> None:
    """The sinusoidal table on its own: its size, curves, table, wavelengths, similarities."""
    widgets.empty_sentence_note(settings)  # this tab does not read the sentence
    c1, c2 = st.columns(2)
    d_model = controls.slider(
        t("positional.d_model"),
        *D_MODEL_RANGE,
        step=2,
        key=K_D_MODEL,
        help=t("positional.d_model_help"),
        where=c1,
    )
    n_pos = controls.slider(
        t("positional.n_positions"), *POSITIONS_RANGE, key=K_N_POSITIONS, where=c2
    )
    table = compute.positional_table(n_pos, d_model)
    pe_norm, e_norm = compute.encoding_norms(n_pos, d_model)
    st.info(
        t(
            "positional.range", lo=table.value_min, hi=table.value_max, n=n_pos, d=d_model,
            pe=num(pe_norm, 3), e=num(e_norm, 3), ratio=num(pe_norm / e_norm, 2),
        )
    )  # fmt: skip
    sections.curves(table, n_pos, d_model)
    sections.table(table, n_pos, d_model)
    sections.wavelengths(table, n_pos, d_model)
    sections.similarity(table, n_pos, d_model)
    sections.layouts(table, n_pos, d_model)


# Only the open tab is drawn: a sidebar step redraws the sentence's charts only when they show.
tabs = controls.enum_tabs("positional.tab", VIEWS, key=K_VIEW)
draw = {
    "encoding": encoding,
    "sentence": lambda: sections.sentence(settings),
    "rope": lambda: sections.rope(settings),
    "alibi": lambda: sections.alibi(settings),
}
controls.draw_open(tabs, draw)
