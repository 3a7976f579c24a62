"""Positional encoding: the sinusoidal table, what it encodes, and what it does to attention."""

import streamlit as st

from mha_core.layer.positional import wavelengths as positional_wavelengths
from ui import controls, present, widgets
from ui.compute import positional as compute
from ui.i18n import t
from ui.numbers import num
from ui.page import open_page
from ui.sections import positional as sections
from ui.sections.positional import K_D_MODEL, K_N_POSITIONS, K_VIEW, PARAMS, VIEWS

settings = open_page("positional", PARAMS)
ss = st.session_state
present.prose(t("positional.intro"))
st.latex(
    r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right), \qquad "
    r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"
)
_longest = float(positional_wavelengths(ss[K_D_MODEL])[-1])  # 2 pi 10000^((d - 2)/d)
present.prose(t("positional.symbols", d=ss[K_D_MODEL], longest=num(_longest, 3)))


def encoding() -> None:
    """The sinusoidal table on its own: its size, curves, table, wavelengths, similarities."""
    widgets.empty_sentence_note(settings)  # this view does not read the sentence
    c1, c2 = st.columns(2)
    d_model = controls.slider(
        t("positional.d_model"),
        *sections.D_MODEL_RANGE,
        step=2,
        key=K_D_MODEL,
        help=t("positional.d_model_help"),
        where=c1,
    )
    n_pos = controls.slider(
        t("positional.n_positions"), *sections.POSITIONS_RANGE, key=K_N_POSITIONS, where=c2
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


# Only the open view is drawn: a sidebar step redraws the sentence's charts only when they show.
views = controls.enum_views("positional.view", VIEWS, key=K_VIEW)
draw = {
    "encoding": encoding,
    "sentence": lambda: sections.sentence(settings),
    "rope": lambda: sections.rope(settings),
    "alibi": lambda: sections.alibi(settings),
}
controls.draw_open(views, draw)
