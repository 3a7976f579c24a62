"""Positional encoding: the sinusoidal table, what it encodes, and what it does to attention."""

import streamlit as st

from mha_core.permutation import permutation_matrix, shuffle_permutation
from ui import cache_lab, state, widgets
from ui.i18n import t
from ui.sidebar import url_notice
from ui.state import MAX_SEED
from viz import positional as pviz

D_MODEL_RANGE = (2, 512)  # even only: every sine has its cosine partner
POSITIONS_RANGE = (2, 256)
DEFAULTS = {"pe.d_model": 64, "pe.n_positions": 64, "pe.shuffle_seed": 0, "pe.head": 0}
MAX_DIMS = 7
SAME_TOL = 1e-5  # float32 rounding of one attention layer stays far below this

ss = st.session_state
for name, value in DEFAULTS.items():
    ss.setdefault(name, value)


def default_dims(d_model: int) -> list[int]:
    """A few fast (low) and slow (high) dimensions."""
    return sorted({0, 1, 6, d_model // 4, d_model // 2, d_model - 1} & set(range(d_model)))


def _reshuffle() -> None:
    ss["pe.shuffle_seed"] = (int(ss["pe.shuffle_seed"]) + 1) % (MAX_SEED + 1)


st.title(t("pe.title"))
url_notice()
st.markdown(t("pe.intro"))
st.latex(
    r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right), \qquad "
    r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"
)
st.markdown(t("pe.symbols"))

c1, c2 = st.columns(2)
c1.slider(t("pe.d_model"), *D_MODEL_RANGE, step=2, key="pe.d_model", help=t("pe.d_model_help"))
c2.slider(t("pe.n_positions"), *POSITIONS_RANGE, key="pe.n_positions")
d_model, n_pos = int(ss["pe.d_model"]), int(ss["pe.n_positions"])
table = cache_lab.positional_table(n_pos, d_model)
wl = table.wavelengths
st.info(t("pe.range", lo=table.value_min, hi=table.value_max, n=n_pos, d=d_model))

# --- curves -----------------------------------------------------------------------------------
st.subheader(t("pe.curves"))


def dim_label(d: int) -> str:
    return t("pe.dim_option", d=d, fn="sin" if d % 2 == 0 else "cos", wl=wl[d // 2])


kept = [d for d in ss.get("pe.dims", []) if isinstance(d, int) and 0 <= d < d_model]
if "pe.dims" not in ss or (ss["pe.dims"] and not kept):
    kept = default_dims(d_model)
ss["pe.dims"] = kept
dims = st.multiselect(
    t("pe.dims"),
    list(range(d_model)),
    key="pe.dims",
    format_func=dim_label,
    max_selections=MAX_DIMS,
    help=t("pe.dims_help", n=MAX_DIMS),
)
if dims:
    fig = pviz.encoding_curves(
        table.pe,
        dims,
        names=[dim_label(d) for d in dims],
        x_title=t("pe.position"),
        y_title=t("pe.value"),
    )
    widgets.plot(fig, key="pe.curves_fig")
    fast, slow = min(dims), max(dims)
    st.caption(
        t("pe.curves_caption", fast=fast, wl_fast=wl[fast // 2], slow=slow, wl_slow=wl[slow // 2])
    )
else:
    st.info(t("pe.no_dims"))

# --- table --------------------------------------------------------------------------------------
st.subheader(t("pe.heatmap"))
st.caption(t("pe.heatmap_caption"))
fig = pviz.encoding_heatmap(
    table.pe, x_title=t("pe.dimension"), y_title=t("pe.position"), value_label="PE"
)
widgets.plot(fig, key="pe.heatmap_fig")

# --- wavelengths --------------------------------------------------------------------------------
st.subheader(t("pe.wavelengths"))
st.latex(r"\lambda_i = \frac{2\pi}{\omega_i} = 2\pi \cdot 10000^{2i/d_{model}}")
fig = pviz.wavelength_chart(
    wl,
    n_positions=n_pos,
    name=t("pe.wavelength"),
    x_title=t("pe.pair"),
    y_title=t("pe.wavelength_axis"),
    positions_label=t("pe.positions_shown"),
)
widgets.plot(fig, key="pe.wavelength_fig")
n_long = int((wl > n_pos).sum())
st.caption(
    t(
        "pe.wavelength_caption",
        shortest=wl[0],
        longest=wl[-1],
        last=len(wl) - 1,
        n_long=n_long,
        n_pairs=len(wl),
        n=n_pos,
    )
)

# --- similarity ---------------------------------------------------------------------------------
st.subheader(t("pe.similarity"))
st.markdown(t("pe.similarity_intro"))
st.latex(
    r"PE(p)\cdot PE(q) = \sum_{i} \big[\sin(p\,\omega_i)\sin(q\,\omega_i) + "
    r"\cos(p\,\omega_i)\cos(q\,\omega_i)\big] = \sum_{i} \cos\big((p-q)\,\omega_i\big)"
)
fig = pviz.similarity_heatmap(
    table.similarity,
    x_title=t("pe.position_q"),
    y_title=t("pe.position_p"),
    value_label="PE(p)·PE(q)",
)
widgets.plot(fig, key="pe.similarity_fig")
# the slider's range follows n_pos, which makes Streamlit create it anew; keep the position
# the user chose (clamped to the table) in a plain session key across that
anchor = st.slider(
    t("pe.anchor"),
    0,
    n_pos - 1,
    value=min(ss.get("pe._anchor", n_pos // 2), n_pos - 1),
    key="pe.anchor",
    help=t("pe.anchor_help"),
)
ss["pe._anchor"] = anchor
anchors = sorted({0, int(anchor)})
closed = cache_lab.offset_similarity(n_pos, d_model)
fig = pviz.offset_profiles(
    [table.offset_profile(a) for a in anchors],
    names=[t("pe.profile", p=a) for a in anchors],
    closed_form=closed,
    closed_name=t("pe.closed_form"),
    x_title=t("pe.offset"),
    y_title="PE(p)·PE(p+k)",
)
widgets.plot(fig, key="pe.offset_fig")
st.markdown(
    t(
        "pe.similarity_check",
        spread=table.offset_spread,
        dev=table.offset_max_dev,
        peak=table.similarity[0, 0],
        d=d_model,
    )
)

# --- layouts ------------------------------------------------------------------------------------
st.subheader(t("pe.layouts"))
st.markdown(t("pe.layouts_intro"))
fig = pviz.layout_comparison(
    table.pe,
    table.concatenated,
    titles=(t("pe.interleaved"), t("pe.concatenated")),
    x_title=t("pe.dimension"),
    y_title=t("pe.position"),
)
widgets.plot(fig, key="pe.layouts_fig")
shown = table.layout_perm[: min(d_model, 12)].tolist()
more = "…" if d_model > 12 else ""
st.markdown(
    t(
        "pe.layouts_perm",
        perm=", ".join(map(str, shown)) + more,
        diff=table.layout_max_diff,
        d=d_model,
    )
)

# --- the user's sentence --------------------------------------------------------------------
st.subheader(t("pe.shuffle"))
st.markdown(t("pe.shuffle_intro"))
settings = state.current()
tokens = widgets.sentence_tokens(settings)
if len(tokens) < 2:
    st.info(t("pe.shuffle_need_two"))
    st.stop()
if settings.mask == "causal":
    st.caption(t("pe.shuffle_causal"))

if ss["pe.head"] >= settings.n_heads:
    ss["pe.head"] = 0
c1, c2, c3 = st.columns([2, 1, 2], vertical_alignment="bottom")
c1.number_input(
    t("pe.shuffle_seed"), min_value=0, max_value=MAX_SEED, step=1, key="pe.shuffle_seed"
)
c2.button(t("pe.reshuffle"), key="pe.reshuffle", on_click=_reshuffle)
head = c3.selectbox(
    t("pe.head"),
    list(range(settings.n_heads)),
    key="pe.head",
    format_func=lambda h: t("pe.head_option", h=h),
)

perm = shuffle_permutation(len(tokens), int(ss["pe.shuffle_seed"]))
shuffled = [tokens[i] for i in perm]
st.markdown(t("pe.perm", perm=", ".join(map(str, perm.tolist()))))
st.code(
    "\n".join(
        t("pe.perm_row", i=i, j=int(j), tok=tok) for i, (j, tok) in enumerate(zip(perm, shuffled))
    ),
    language=None,
)
fig = pviz.permutation_figure(
    permutation_matrix(perm),
    tokens,
    shuffled,
    x_title=t("pe.original_position"),
    y_title=t("pe.shuffled_position"),
)
widgets.plot(fig, key="pe.perm_fig")

titles = (t("pe.panel_a"), t("pe.panel_shuffled"), t("pe.panel_pap"))
for positional in (False, True):
    config = settings.config(positional=positional, mask="none")
    result = cache_lab.shuffle_attention(tuple(tokens), config, tuple(int(i) for i in perm))
    st.markdown("#### " + t("pe.with_pe" if positional else "pe.without_pe"))
    fig = pviz.shuffle_panels(
        result.weights[head],
        result.shuffled_weights[head],
        result.predicted[head],
        tokens,
        result.shuffled_tokens,
        titles=titles,
        value_label=t("pe.weight"),
        x_title=t("pe.key"),
        y_title=t("pe.query"),
    )
    widgets.plot(fig, key=f"pe.shuffle_fig_{int(positional)}")
    same = result.max_abs_diff < SAME_TOL
    st.markdown(
        t(
            "pe.verdict_same" if same else "pe.verdict_changed",
            diff=result.max_abs_diff,
            heads=settings.n_heads,
            tol=SAME_TOL,
        )
    )
