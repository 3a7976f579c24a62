"""Scaling lab: why attention divides its scores by sqrt(d_k)."""

import streamlit as st

from mha_core.lessons.scaling import DISTRIBUTIONS
from ui.i18n import t
from ui.page import open_page, set_defaults
from ui.sections import scaling as sections

SAMPLES = (1_000, 2_000, 4_000, 8_000, 16_000)
DEFAULTS = {
    "scaling.distribution": "normal",
    "scaling.samples": 4_000,
    "scaling.hist_d_k": 64,
    "scaling.n_keys": 16,
    "scaling.head": 0,
    "scaling.tau": 1.0,
    "scaling.tau_sqrt": False,
}

ss = st.session_state
set_defaults(DEFAULTS)
settings = open_page("scaling")
st.markdown(t("scaling.intro"))
st.latex(
    r"\mathrm{Var}(q\cdot k) = \sum_{i=1}^{d_k} \mathrm{Var}(q_i k_i) = d_k"
    r"\;\Rightarrow\; \mathrm{std}(q\cdot k) = \sqrt{d_k}, \qquad "
    r"\mathrm{std}\!\left(\frac{q\cdot k}{\sqrt{d_k}}\right) = 1"
)
st.caption(t("scaling.variance_why"))

c1, c2 = st.columns(2)
c1.radio(
    t("scaling.distribution"),
    DISTRIBUTIONS,
    format_func=lambda v: t(f"scaling.dist.{v}"),
    key="scaling.distribution",
    horizontal=True,
)
c2.select_slider(
    t("scaling.samples"),
    SAMPLES,
    key="scaling.samples",
    format_func=lambda n: f"{n:,}",
)
dist, n_samples, seed = ss["scaling.distribution"], int(ss["scaling.samples"]), settings.seed
st.caption(t("scaling.seed_note", seed=seed))

sections.spread(settings, dist, n_samples, seed)
sections.saturation(dist, n_samples, seed)
sections.sentence(settings)
