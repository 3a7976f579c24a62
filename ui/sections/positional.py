"""The Positional encoding page's sections: one function per part, each drawing from its
arguments and the page's own controls (session state keys "positional.*")."""

from __future__ import annotations

import numpy as np
import streamlit as st

from mha_core.layer import alibi_slopes, pair_rotation
from mha_core.layer.positional import PositionalTable
from mha_core.lessons.permutation import permutation_matrix, shuffle_permutation
from ui import controls, present, url, widgets
from ui.compute import positional as compute
from ui.i18n import t
from ui.numbers import num
from ui.params import HEAD_INDEX, HEADS, Distinct, OneOf, Param, Range, head_indices, index
from ui.state import D_MODELS, MAX_SEED, Settings, parse_int
from viz import positional as pviz

# the page's own controls (session state keys, also their URL names after the dot)
K_D_MODEL = "positional.pe_d_model"  # not "d_model": the sidebar has that URL name
K_N_POSITIONS = "positional.n_positions"
K_SHUFFLE_SEED = "positional.shuffle_seed"
K_HEAD = "positional.head"
K_DIMS = "positional.dims"
K_ANCHOR = "positional.anchor"
K_VIEW = "positional.view"  # the open view: only its sections are drawn
VIEWS = ("encoding", "sentence", "rope", "alibi")

MAX_DIMS = 7
SAME_TOL = 1e-5  # float32 rounding of one attention layer stays far below this

ss = st.session_state


def default_dims(d_model: int) -> list[int]:
    """A few fast (low) and slow (high) dimensions."""
    return sorted({0, 1, 6, d_model // 4, d_model // 2, d_model - 1} & set(range(d_model)))


def _reshuffle() -> None:
    ss[K_SHUFFLE_SEED] = (int(ss[K_SHUFFLE_SEED]) + 1) % (MAX_SEED + 1)


def curves(table: PositionalTable, n_pos: int, d_model: int) -> None:
    """How each dimension oscillates with position, fast to slow."""
    wl = table.wavelengths
    st.subheader(t("positional.curves"))

    def dim_label(d: int) -> str:
        fn = "sin" if d % 2 == 0 else "cos"
        return t("positional.dim_option", d=d, fn=fn, wl=num(wl[d // 2], 4))

    chosen = ss.get("positional.dims")
    kept = [d for d in chosen or [] if isinstance(d, int) and 0 <= d < d_model]
    if chosen is None or (chosen and not kept):  # none chosen yet, or none left at this d_model
        ss[K_DIMS] = default_dims(d_model)
    dims = controls.multiselect(
        t("positional.dims"),
        list(range(d_model)),
        key=K_DIMS,
        format_func=dim_label,
        max_selections=MAX_DIMS,
        help=t("positional.dims_help", n=MAX_DIMS),
    )
    if dims:
        fig = pviz.encoding_curves(
            table.pe,
            dims,
            names=[dim_label(d) for d in dims],
            x_title=t("positional.position"),
            y_title=t("positional.value"),
        )
        widgets.plot(fig, key="positional.curves_fig")
        fast, slow = min(dims), max(dims)
        st.caption(
            t(
                "positional.curves_caption",
                fast=fast,
                wl_fast=num(wl[fast // 2], 4),
                slow=slow,
                wl_slow=num(wl[slow // 2], 4),
            )
        )
    else:
        st.info(t("positional.no_dims"))


def _matrix(builder, matrix: np.ndarray, titles: tuple[str, str], value: str, key: str) -> None:
    """A position x dimension or position x position table as a heatmap (`titles`: the x and
    y axis titles' string ids)."""
    x, y = (t(f"positional.{title}") for title in titles)
    widgets.plot(builder(matrix, x_title=x, y_title=y, value_label=value), key=f"positional.{key}")


def table(table: PositionalTable, n_pos: int, d_model: int) -> None:
    """The position x dimension table."""
    st.subheader(t("positional.heatmap"))
    present.prose(t("positional.heatmap_caption"))
    _matrix(pviz.encoding_heatmap, table.pe, ("dimension", "position"), "PE", "heatmap_fig")


def wavelengths(table: PositionalTable, n_pos: int, d_model: int) -> None:
    """The wavelength of each sine/cosine pair, in positions."""
    wl = table.wavelengths
    st.subheader(t("positional.wavelengths"))
    st.latex(r"\lambda_i = \frac{2\pi}{\omega_i} = 2\pi \cdot 10000^{2i/d_{model}}")
    fig = pviz.wavelength_chart(
        wl,
        n_positions=n_pos,
        name=t("positional.wavelength"),
        x_title=t("positional.pair"),
        y_title=t("positional.wavelength_axis"),
        positions_label=t("positional.positions_shown"),
    )
    widgets.plot(fig, key="positional.wavelength_fig")
    n_long = int((wl > n_pos).sum())
    st.caption(
        t(
            "positional.wavelength_caption",
            shortest=wl[0],
            longest=num(wl[-1], 6),
            last=len(wl) - 1,
            n_long=n_long,
            n_pairs=len(wl),
            n=n_pos,
        )
    )


def similarity(table: PositionalTable, n_pos: int, d_model: int) -> None:
    """PE(p) . PE(q) depends on the offset p - q only."""
    widgets.heading("positional.similarity")
    st.latex(
        r"PE(p)\cdot PE(q) = \sum_{i} \big[\sin(p\,\omega_i)\sin(q\,\omega_i) + "
        r"\cos(p\,\omega_i)\cos(q\,\omega_i)\big] = \sum_{i} \cos\big((p-q)\,\omega_i\big)"
    )
    titles = ("position_q", "position_p")
    _matrix(pviz.similarity_heatmap, table.similarity, titles, "PE(p)·PE(q)", "similarity_fig")
    anchor = controls.slider(
        t("positional.anchor"),
        0,
        n_pos - 1,
        key=K_ANCHOR,
        help=t("positional.anchor_help"),
    )
    anchors = sorted({0, int(anchor)})
    closed = compute.offset_similarity(n_pos, d_model)
    fig = pviz.offset_profiles(
        [table.offset_profile(a) for a in anchors],
        names=[t("positional.profile", p=a) for a in anchors],
        closed_form=closed,
        closed_name=t("positional.closed_form"),
        x_title=t("positional.offset"),
        y_title="PE(p)·PE(p+k)",
    )
    widgets.plot(fig, key="positional.offset_fig")
    st.markdown(
        t(
            "positional.similarity_check",
            spread=num(table.offset_spread),
            dev=num(table.offset_max_dev),
            peak=num(table.similarity[0, 0], 6),
            d=d_model,
        )
    )


def layouts(table: PositionalTable, n_pos: int, d_model: int) -> None:
    """Interleaved and concatenated layouts: the same numbers, columns permuted."""
    widgets.heading("positional.layouts")
    fig = pviz.layout_comparison(
        table.pe,
        table.concatenated,
        titles=(t("positional.interleaved"), t("positional.concatenated")),
        x_title=t("positional.dimension"),
        y_title=t("positional.position"),
    )
    widgets.plot(fig, key="positional.layouts_fig")
    shown = table.layout_perm[: min(d_model, 12)].tolist()
    more = "…" if d_model > 12 else ""
    st.markdown(
        t(
            "positional.layouts_perm",
            perm=", ".join(map(str, shown)) + more,
            diff=num(table.layout_max_diff),
            d=d_model,
        )
    )


SHUFFLE_TOKENS = 128  # the shuffle view's seven T x T charts: ~0.6 MB at 128 tokens


def sentence(settings: Settings) -> None:
    """On the sidebar sentence: shuffling only permutes the attention without PE, not with it."""
    widgets.heading("positional.shuffle")
    tokens = widgets.sentence_tokens(settings)
    # three matrices of T x T per setting, and the permutation as a T x T matrix and a table
    tokens = widgets.view_tokens(tokens, SHUFFLE_TOKENS, t("positional.shuffle_capped"))
    if len(tokens) < 2:
        st.info(t("positional.shuffle_need_two"))
        url.stop()
    if settings.mask == "causal":
        st.caption(t("positional.shuffle_causal"))
    head = _shuffle_controls(settings)
    perm = shuffle_permutation(len(tokens), int(ss[K_SHUFFLE_SEED]))
    _permutation(tokens, perm)
    for positional in (False, True):
        _shuffled_panels(settings, tokens, perm, head, positional)


def _shuffle_controls(settings: Settings) -> int:
    """The shuffle's seed, the reshuffle button and the head picker; returns the head."""
    c1, c2, c3 = st.columns([2, 1, 2], vertical_alignment="bottom")
    controls.number_input(
        t("positional.shuffle_seed"),
        min_value=0,
        max_value=MAX_SEED,
        step=1,
        key=K_SHUFFLE_SEED,
        where=c1,
    )
    c2.button(t("positional.reshuffle"), key="positional.reshuffle", on_click=_reshuffle)
    return controls.selectbox(
        t("positional.head"),
        list(range(settings.n_heads)),
        key=K_HEAD,
        format_func=lambda h: t("positional.head_option", h=h),
        fallback=0,
        where=c3,
    )


def _permutation(tokens: list[str], perm: np.ndarray) -> None:
    """The permutation as a list (new position <- old position) and as the matrix P."""
    shuffled = [tokens[i] for i in perm]
    st.markdown(t("positional.perm", perm=", ".join(map(str, perm.tolist()))))
    st.code(
        "\n".join(
            t("positional.perm_row", i=i, j=int(j), tok=f"{widgets.FSI}{tok}{widgets.PDI}")
            for i, (j, tok) in enumerate(zip(perm, shuffled))
        ),
        language=None,
        wrap_lines=True,
    )
    fig = pviz.permutation_figure(
        permutation_matrix(perm),
        tokens,
        shuffled,
        x_title=t("positional.original_position"),
        y_title=t("positional.shuffled_position"),
    )
    widgets.plot(fig, key="positional.perm_fig")


def _shuffled_panels(
    settings: Settings, tokens: list[str], perm: np.ndarray, head: int, positional: bool
) -> None:
    """A, A on the shuffled sentence and P A P^T for one head, with or without PE, and whether
    the last two agree."""
    titles = (t("positional.panel_a"), t("positional.panel_shuffled"), t("positional.panel_pap"))
    config = settings.config(positional=positional, mask="none")
    result = compute.shuffle_attention(tuple(tokens), config, tuple(int(i) for i in perm))
    st.markdown("#### " + t("positional.with_pe" if positional else "positional.without_pe"))
    panels = (result.weights[head], result.shuffled_weights[head], result.predicted[head])
    zmax = max(float(np.max(m)) for m in panels)  # one colour scale for the three
    labels = (tokens, result.shuffled_tokens, result.shuffled_tokens)
    # one chart per matrix in columns: side by side on a wide screen, stacked on a phone
    for c, (m, lab, title, col) in enumerate(zip(panels, labels, titles, st.columns(3))):
        fig = pviz.shuffle_panel(
            m,
            lab,
            title=title,
            zmax=zmax,
            value_label=t("positional.weight"),
            x_title=t("positional.key"),
            y_title=t("positional.query"),
            colorbar=c == len(panels) - 1,  # one bar for the three, under the last
        )
        widgets.plot(fig, key=f"positional.shuffle_fig_{int(positional)}_{c}", where=col)
    same = result.max_abs_diff < SAME_TOL
    st.markdown(
        t(
            "positional.verdict_same" if same else "positional.verdict_changed",
            diff=num(result.max_abs_diff),
            heads=settings.n_heads,
            tol=num(SAME_TOL),
        )
    )


# --- what today's models use instead: RoPE and ALiBi -------------------------------------------
K_ROPE_PAIR, K_ROPE_SHIFT = "positional.rope_pair", "positional.rope_shift"
MAX_SHIFT = 4096


def rope(settings: Settings) -> None:
    """RoPE: a pair turning on the unit circle; on the sentence, shifting every position leaves
    the scores alone (float rounding), while added sinusoidal PE changes them."""
    widgets.heading("positional.rope")
    st.latex(
        r"\begin{pmatrix} q'_i \\ q'_{i + d_k/2} \end{pmatrix} = \begin{pmatrix} \cos m\omega_i"
        r" & -\sin m\omega_i \\ \sin m\omega_i & \cos m\omega_i \end{pmatrix}"
        r"\begin{pmatrix} q_i \\ q_{i + d_k/2} \end{pmatrix}, \qquad \omega_i = 10000^{-2i/d_k}"
    )
    d_k = settings.d_k
    if d_k % 2:
        st.info(t("positional.rope_odd", d_k=d_k))
        return
    tokens = widgets.sentence_tokens(settings)
    pair = controls.clamp(K_ROPE_PAIR, list(range(d_k // 2)))
    c1, c2 = st.columns(2)
    if d_k > 2:  # one pair only: nothing to choose
        pair = controls.slider(t("positional.rope_pair"), 0, d_k // 2 - 1, key=K_ROPE_PAIR,
                               where=c1, help=t("positional.rope_pair_help", d_k=d_k))  # fmt: skip
    shift = controls.slider(t("positional.rope_shift"), 1, MAX_SHIFT, key=K_ROPE_SHIFT, where=c2)
    rot = pair_rotation(len(tokens), d_k, pair)
    fig = pviz.unit_circle(
        rot.x, rot.y, tokens, angle_label=t("positional.rope_angle"),
        position_label=t("positional.position"),
    )  # fmt: skip
    widgets.plot(fig, key="positional.rope_fig")
    st.caption(
        t("positional.rope_caption", i=pair, j=pair + d_k // 2, w=num(rot.frequency),
          wl=num(rot.wavelength))
    )  # fmt: skip
    res = compute.rope_shift(tuple(tokens), settings.config(positional=False), shift)
    st.info(
        t("positional.rope_shift_result", s=shift, scale=num(res.score_scale),
          rope=num(res.rope_max_change), sin=num(res.sinusoidal_max_change), n=len(tokens),
          heads=settings.n_heads)
    )  # fmt: skip


def alibi(settings: Settings) -> None:
    """ALiBi: per-head slopes, the bias matrices, and the sentence's heads with the bias."""
    widgets.heading("positional.alibi")
    st.latex(r"\text{score}_{ij} = \frac{q_i \cdot k_j}{\sqrt{d_k}} - m_h\,(i - j), \quad j \le i")
    tokens = widgets.sentence_tokens(settings)
    nh = settings.n_heads
    slopes = alibi_slopes(nh).double().numpy()
    st.markdown(
        t("positional.alibi_slopes", nh=nh, slopes=", ".join(num(float(m)) for m in slopes))
    )
    bias, weights = compute.alibi_heads(tuple(tokens), settings.config(positional=False))
    titles = [t("positional.alibi_head", h=h, m=num(float(slopes[h]))) for h in range(nh)]
    lower = np.tril(np.ones((len(tokens), len(tokens)), dtype=bool))
    shown = np.where(lower, bias, np.nan)  # above the diagonal the causal mask removes them
    widgets.head_grid(shown, tokens, titles=titles, colorscale="Blues_r", zmin=None,
                      value_label=t("positional.alibi_bias"),
                      key="positional.alibi_bias_fig")  # fmt: skip
    present.prose(t("positional.alibi_bias_caption"))
    widgets.head_grid(weights, tokens, titles=titles, value_label=t("positional.weight"),
                      key="positional.alibi_fig")  # fmt: skip
    present.prose(t("positional.alibi_heads_caption", nh=nh))


# --- the page's controls -----------------------------------------------------------------------
D_MODEL_RANGE = (2, 512)  # even only: every sine has its cosine partner
POSITIONS_RANGE = (2, 256)


def _parse_even(raw: str) -> int:
    value = parse_int(raw, *D_MODEL_RANGE)
    if value % 2:
        raise ValueError(raw)
    return value


_DIMS = Distinct(index(D_MODEL_RANGE[1]), MAX_DIMS)  # the curves' dimensions, as a link lists them


def _rope_pairs(s: Settings) -> range | None:
    """RoPE turns pairs of dimensions: d_k / 2 of them (none for an odd d_k)."""
    return range(s.d_k // 2) if s.d_k % 2 == 0 else None


# the choices that depend on the heads stay valid while their view is closed too (a stale one
# would stay in the URL and change when the view opens)
PARAMS = (
    Param(K_D_MODEL, 64, _parse_even),
    Param(K_N_POSITIONS, 64, Range(*POSITIONS_RANGE)),
    # None: a few fast and slow ones for the chosen d_model
    Param(K_DIMS, None, _DIMS, depends_on=frozenset({"pe_d_model"})),
    Param(K_ANCHOR, 32, Range(0, POSITIONS_RANGE[1] - 1), depends_on=frozenset({"n_positions"})),
    Param(K_SHUFFLE_SEED, 0, Range(0, MAX_SEED)),
    Param(K_HEAD, 0, HEAD_INDEX, within=head_indices, fallback=0, depends_on=HEADS),
    # a pair of a head's dimensions: at most d_model / 2 of them (one head)
    Param(K_ROPE_PAIR, 0, index(max(D_MODELS) // 2), within=_rope_pairs, depends_on=HEADS),
    Param(K_ROPE_SHIFT, 100, Range(1, MAX_SHIFT)),
    Param(K_VIEW, VIEWS[0], OneOf(VIEWS)),
)
