"""Scaling lab: why attention divides its scores by sqrt(d_k)."""

import streamlit as st

from mha_core.lessons.scaling import DISTRIBUTIONS
from ui import controls, present, widgets
from ui.i18n import t
from ui.page import open_page
from ui.sections import scaling as sections
from ui.sections.scaling import K_DISTRIBUTION, K_SAMPLES, K_VIEW, PARAMS, SAMPLES, VIEWS

ss = st.session_state
settings = open_page("scaling", PARAMS)
present.prose(t("scaling.intro"))
st.latex(
    r"\mathrm{Var}(q\cdot k) = \sum_{i=1}^{d_k} \mathrm{Var}(q_i k_i) = d_k"
    r"\;\Rightarrow\; \mathrm{std}(q\cdot k) = \sqrt{d_k}, \qquad "
    r"\mathrm{std}\!\left(\frac{q\cdot k}{\sqrt{d_k}}\right) = 1"
)
present.prose(t("scaling.variance_why"))

# Only the open view is drawn: a sidebar step redraws one view's charts, not six.
views = controls.enum_views("scaling.view", VIEWS, key=K_VIEW)


def sampling() -> tuple[str, int, int]:
    """The sampled views' own controls, drawn in those views only (issue #42: on the sentence
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
    widgets.empty_sentence_note(settings)  # this view does not read the sentence
    sections.spread(settings, *sampling())


def saturation() -> None:
    widgets.empty_sentence_note(settings)  # nor does this one
    sections.saturation(*sampling())


draw = {"spread": spread, "saturation": saturation, "sentence": lambda: sections.sentence(settings)}
controls.draw_open(views, draw)
