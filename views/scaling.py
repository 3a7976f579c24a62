"""Scaling lab: why attention divides its scores by sqrt(d_k)."""

import streamlit as st

from mha_core.lessons.scaling import DISTRIBUTIONS
from ui import controls, widgets
from ui.i18n import t
from ui.page import open_page, set_defaults, url_state
from ui.sections import scaling as sections
from ui.sections.scaling import (
    K_DISTRIBUTION,
    K_HEAD,
    K_HIST_D_K,
    K_N_KEYS,
    K_SAMPLES,
    K_TAU,
    K_TAU_SQRT,
    K_VIEW,
    VIEWS,
)
from ui.state import parse_bool, parse_choice, parse_int

SAMPLES = (1_000, 2_000, 4_000, 8_000, 16_000)
DEFAULTS = {
    K_DISTRIBUTION: "normal",
    K_SAMPLES: 4_000,
    K_HIST_D_K: 64,
    K_N_KEYS: 16,
    K_HEAD: 0,
    K_TAU: 1.0,
    K_TAU_SQRT: False,
    K_VIEW: VIEWS[0],
}

ss = st.session_state
set_defaults(DEFAULTS)
settings = open_page("scaling")
url_state(
    "scaling",
    {
        K_DISTRIBUTION: parse_choice(DISTRIBUTIONS),
        K_SAMPLES: lambda r: SAMPLES[SAMPLES.index(parse_int(r, 1, 10**6))],
        K_HIST_D_K: lambda r: sections.D_K_GRID[sections.D_K_GRID.index(parse_int(r, 1, 10**6))],
        K_N_KEYS: lambda r: parse_int(r, 2, 64),
        K_HEAD: lambda r: parse_int(r, 0, 511),
        K_TAU: sections.parse_tau,
        K_TAU_SQRT: parse_bool,
        K_VIEW: parse_choice(VIEWS),
    },
)
st.markdown(t("scaling.intro"))
st.latex(
    r"\mathrm{Var}(q\cdot k) = \sum_{i=1}^{d_k} \mathrm{Var}(q_i k_i) = d_k"
    r"\;\Rightarrow\; \mathrm{std}(q\cdot k) = \sqrt{d_k}, \qquad "
    r"\mathrm{std}\!\left(\frac{q\cdot k}{\sqrt{d_k}}\right) = 1"
)
st.caption(t("scaling.variance_why"))

controls.clamp(K_HEAD, range(settings.n_heads), fallback=0)  # valid while its tab is closed too

# Only the open tab is drawn: a sidebar step redraws one tab's charts, not six.
tabs = controls.enum_tabs("scaling.tab", VIEWS, key=K_VIEW)


def sampling() -> tuple[str, int, int]:
    """The sampled tabs' own controls, drawn in those tabs only (issue #42: on the sentence
    view, which draws no samples, they stayed live and did nothing)."""
    c1, c2 = st.columns(2)
    controls.enum_radio(
        "scaling.distribution", DISTRIBUTIONS, labels="scaling.dist", key=K_DISTRIBUTION, where=c1
    )
    controls.select_slider(
        t("scaling.samples"),
        SAMPLES,
        key=K_SAMPLES,
        format_func=lambda n: f"{n:,}",
        where=c2,
    )
    st.caption(t("scaling.seed_note", seed=settings.seed))
    return ss[K_DISTRIBUTION], int(ss[K_SAMPLES]), settings.seed


def spread() -> None:
    widgets.empty_sentence_note(settings)  # this tab does not read the sentence
    sections.spread(settings, *sampling())


def saturation() -> None:
    widgets.empty_sentence_note(settings)  # nor does this one
    sections.saturation(*sampling())


draw = {"spread": spread, "saturation": saturation, "sentence": lambda: sections.sentence(settings)}
controls.draw_open(tabs, draw)
