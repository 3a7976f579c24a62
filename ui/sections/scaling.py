"""The Scaling lab's sections: one function per part, each drawing from its arguments and the
page's own controls (session state keys "scaling.*")."""

from __future__ import annotations

import streamlit as st

from mha_core.lessons.scaling import (
    D_K_GRID,
    DISTRIBUTIONS,
    equivalent_temperature,
    temperature_grid,
)
from ui import controls, present, widgets
from ui.compute import scaling as compute
from ui.i18n import t
from ui.numbers import num
from ui.params import HEAD_INDEX, HEADS, OneOf, Param, Range, head_indices, whole
from ui.state import Settings, parse_bool
from viz import attention_heatmap
from viz import scaling as sviz

# the page's own controls (session state keys, also their URL names after the dot)
K_DISTRIBUTION = "scaling.distribution"
K_SAMPLES = "scaling.samples"
K_HIST_D_K = "scaling.hist_d_k"
K_N_KEYS = "scaling.n_keys"
K_HEAD = "scaling.head"
K_TAU = "scaling.tau"
K_TAU_SQRT = "scaling.tau_sqrt"

TEMPERATURES = temperature_grid()  # 0.25 ... 128, sqrt(2) apart


K_VIEW = "scaling.view"  # the open view: only its sections are drawn
VIEWS = ("spread", "saturation", "sentence")
SAMPLES = (1_000, 2_000, 4_000, 8_000, 16_000)
N_KEYS = Range(2, 64)  # the keys of the saturation view's softmax


def _fmt_tau(tau: float) -> str:
    return num(tau, 3)


PARAMS = (
    Param(K_DISTRIBUTION, "normal", OneOf(DISTRIBUTIONS)),
    Param(K_SAMPLES, 4_000, OneOf(SAMPLES, whole)),
    Param(K_HIST_D_K, 64, OneOf(D_K_GRID, whole)),
    Param(K_N_KEYS, 16, N_KEYS),
    # valid while its view is closed too
    Param(K_HEAD, 0, HEAD_INDEX, within=head_indices, fallback=0, depends_on=HEADS),
    # a temperature of the grid, as the slider writes it
    Param(K_TAU, 1.0, OneOf(TEMPERATURES, float), depends_on=HEADS | {"tau_sqrt"}),
    Param(K_TAU_SQRT, False, parse_bool),
    Param(K_VIEW, VIEWS[0], OneOf(VIEWS)),
)


ss = st.session_state


def spread_figure(stats, **kw):
    """std(q.k) against d_k, measured and in theory, before and after the scaling (this page's
    chart, and the lesson's)."""
    names = ("std_measured", "std_theory", "std_scaled", "std_scaled_theory")
    return sviz.std_figure(
        stats.d_k, stats.std, stats.theory, stats.scaled_std, stats.scaled_theory,
        names=tuple(t(f"scaling.{n}") for n in names), y_title=t("scaling.std_axis"), **kw,
    )  # fmt: skip


def spread(settings: Settings, dist: str, n_samples: int, seed: int) -> None:
    """1. std(q.k) grows as sqrt(d_k) and is ~1 after scaling, measured by sampling."""
    st.subheader(t("scaling.std_title"))
    stats = compute.dot_product_stats(n_samples, seed, dist)
    fig = spread_figure(stats, x_title="d_k")
    widgets.plot(fig, key="scaling.std_fig")
    errors = stats.relative_error()
    worst = int(errors.argmax())
    st.markdown(
        t(
            "scaling.std_result",
            d_k=int(stats.d_k[-1]),
            std=stats.std[-1],
            theory=stats.theory[-1],
            err=100 * errors[-1],
            scaled=stats.scaled_std[-1],
            worst=100 * errors[worst],
            worst_d_k=int(stats.d_k[worst]),
            lo=stats.scaled_std.min(),
            hi=stats.scaled_std.max(),
            n=n_samples,
        )
    )

    controls.select_slider(t("scaling.hist_d_k"), D_K_GRID, key=K_HIST_D_K)
    sample = stats.at(int(ss[K_HIST_D_K]))
    fig = sviz.histogram_figure(
        sample.unscaled,
        sample.scaled,
        names=(t("scaling.hist_unscaled"), t("scaling.hist_scaled")),
        x_title=t("scaling.score"),
        y_title=t("scaling.density"),
    )
    widgets.plot(fig, key="scaling.hist_fig")
    (lo, hi), (slo, shi) = sample.unscaled_range, sample.scaled_range
    gap, odds, sgap, sodds = sample.one_std_odds
    st.caption(
        t(
            "scaling.hist_caption",
            d_k=sample.d_k,
            lo=lo,
            hi=hi,
            slo=slo,
            shi=shi,
            gap=gap,
            odds=num(odds, 4),
            sgap=sgap,
            sodds=num(sodds, 4),
        )
    )


def saturation(dist: str, n_samples: int, seed: int) -> None:
    """2. The unscaled softmax saturates as d_k grows: max weight, entropy, Jacobian norm."""
    st.subheader(t("scaling.sat_title"))
    present.prose(t("scaling.sat_intro"))
    st.latex(
        r"\frac{\partial\, \mathrm{softmax}(z)_i}{\partial z_j} = p_i(\delta_{ij} - p_j), \qquad "
        r"\lVert J \rVert_F = \sqrt{\textstyle\sum_{i,j} J_{ij}^2}"
    )
    lo, hi = N_KEYS.lo, N_KEYS.hi
    controls.slider(t("scaling.n_keys"), lo, hi, key=K_N_KEYS, help=t("scaling.n_keys_help"))
    n_keys = int(ss[K_N_KEYS])
    curves = compute.saturation_curves(n_keys, n_samples, seed, dist)
    uniform = curves.uniform
    fig = sviz.saturation_figure(
        curves.d_k,
        curves.max_weight,
        curves.entropy,
        curves.jacobian,
        (uniform.max_weight, uniform.entropy, uniform.jacobian),
        titles=(t("scaling.max_weight"), t("scaling.entropy"), t("scaling.jacobian")),
        names=(t("scaling.unscaled"), t("scaling.scaled"), t("scaling.uniform", t=n_keys)),
    )
    widgets.plot(fig, key="scaling.sat_fig")
    st.markdown(
        t(
            "scaling.sat_result",
            t=n_keys,
            rows=curves.n_rows,
            d_lo=int(curves.d_k[0]),
            d_hi=int(curves.d_k[-1]),
            **_unscaled_scaled(*(getattr(curves, k)[:, -1] for k in STAT_NAMES)),
            j_0=num(curves.jacobian[0, 0]),
            ratio=num(curves.jacobian[1, -1] / curves.jacobian[0, -1]),
            u_mw=uniform.max_weight,
            u_en=uniform.entropy,
        )
    )


STAT_NAMES = ("max_weight", "entropy", "jacobian")


def _unscaled_scaled(max_weight, entropy, jacobian) -> dict:
    """The texts' mw_u, mw_s, en_u, en_s, j_u, j_s from (unscaled, scaled) pairs of the mean
    largest weight, entropy and ‖J‖."""
    (mw_u, mw_s), (en_u, en_s), (j_u, j_s) = max_weight, entropy, jacobian
    return dict(mw_u=mw_u, mw_s=mw_s, en_u=en_u, en_s=en_s, j_u=num(j_u), j_s=num(j_s))


# The section's sweep recomputes softmax and its Jacobian for every row of every head at each
# of 22 temperatures: O(heads x T^2 x 22) in float64, so it reads at most this many tokens.
SENTENCE_TOKENS = 128


def sentence(settings: Settings) -> None:
    """3. The sidebar sentence scaled and unscaled, and sqrt(d_k) as a temperature."""
    st.subheader(t("scaling.sentence_title"))
    tokens = widgets.sentence_tokens(settings)
    tokens = widgets.view_tokens(tokens, SENTENCE_TOKENS, t("scaling.sentence_capped"))
    d_k = settings.d_k
    if settings.scoring != "dot":
        st.info(t("scaling.additive_note"))
    c1, c2, c3 = st.columns([1, 1, 2], vertical_alignment="bottom")
    head = controls.selectbox(
        t("scaling.head"),
        list(range(settings.n_heads)),
        key=K_HEAD,
        format_func=lambda h: t("scaling.head_option", h=h),
        fallback=0,
        where=c1,
    )
    use_sqrt = controls.toggle(t("scaling.tau_sqrt", d_k=d_k), key=K_TAU_SQRT, where=c2)
    if use_sqrt:  # the slider shows the temperature used, √d_k; the chosen one stays stored
        tau = equivalent_temperature(d_k)
        controls.shown_slider(
            t("scaling.tau"), TEMPERATURES, tau, format_func=_fmt_tau, where=c3,
            help=t("scaling.tau_fixed", d_k=d_k, tau=_fmt_tau(tau)),
        )  # fmt: skip
    else:
        controls.select_slider(
            t("scaling.tau"), TEMPERATURES, key=K_TAU, format_func=_fmt_tau, where=c3
        )
        tau = float(ss[K_TAU])
    result = compute.sentence_scaling(tuple(tokens), settings.config(), tau)

    _scaled_pair(result, head, tokens, d_k)
    _temperature(result, head, tokens, d_k, tau)


def _scaled_pair(result, head: int, tokens: list[str], d_k: int) -> None:
    """One head's weights with and without the division by sqrt(d_k), and what changed."""
    st.markdown(t("scaling.pair_intro", d_k=d_k, sqrt=_fmt_tau(equivalent_temperature(d_k))))
    fig = sviz.heatmap_pair(
        result.scaled[head],
        result.unscaled[head],
        tokens,
        titles=(t("scaling.pair_scaled"), t("scaling.pair_unscaled")),
        value_label=t("scaling.weight"),
        x_title=t("scaling.key"),
        y_title=t("scaling.query"),
    )
    widgets.plot(fig, key="scaling.pair_fig")
    s_u, s_s = result.stats["unscaled"], result.stats["scaled"]
    st.markdown(
        t(
            "scaling.pair_result",
            std=result.score_std,
            sstd=result.scaled_score_std,
            **_unscaled_scaled(*((getattr(s_u, k), getattr(s_s, k)) for k in STAT_NAMES)),
            rows=s_u.n_rows,
        )
    )


def _temperature(result, head: int, tokens: list[str], d_k: int, tau: float) -> None:
    """The head at temperature tau, and entropy and largest weight over every temperature."""
    s_u, s_s, s_t = result.stats["unscaled"], result.stats["scaled"], result.stats["tempered"]
    st.markdown("#### " + t("scaling.temp_title"))
    st.latex(
        r"\mathrm{softmax}\!\left(\frac{QK^\top}{\tau}\right), \qquad "
        r"\tau = \sqrt{d_k} \;\Leftrightarrow\; "
        r"\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)"
    )
    fig = attention_heatmap(
        result.tempered[head],
        tokens,
        title=t("scaling.temp_heatmap", tau=_fmt_tau(tau)),
        zmax=1.0,
        value_label=t("scaling.weight"),
        x_title=t("scaling.key"),
        y_title=t("scaling.query"),
    )
    widgets.plot(fig, key="scaling.temp_fig")
    st.markdown(
        t(
            "scaling.temp_result",
            tau=_fmt_tau(tau),
            sqrt=_fmt_tau(equivalent_temperature(d_k)),
            d_k=d_k,
            diff=num(result.tempered_vs_scaled),
            mw=s_t.max_weight,
            en=s_t.entropy,
        )
    )
    marks = [
        (1.0, s_u.entropy, s_u.max_weight, t("scaling.mark_unscaled")),
        (
            equivalent_temperature(d_k),
            s_s.entropy,
            s_s.max_weight,
            t("scaling.mark_scaled", d_k=d_k),
        ),
        (tau, s_t.entropy, s_t.max_weight, t("scaling.mark_current", tau=_fmt_tau(tau))),
    ]
    fig = sviz.temperature_figure(
        result.sweep.temperatures,
        result.sweep.entropy,
        result.sweep.max_weight,
        marks,
        titles=(t("scaling.entropy"), t("scaling.max_weight")),
        curve_name=t("scaling.temp_curve"),
        x_title=t("scaling.tau_axis"),
    )
    widgets.plot(fig, key="scaling.temp_curve_fig")
    present.prose(t("scaling.temp_caption"))
