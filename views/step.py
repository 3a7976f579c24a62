"""Step by step: one head's arithmetic on the sidebar sentence, following one query token."""

import streamlit as st

from ui import controls, widgets
from ui.compute.step import head_steps
from ui.i18n import t
from ui.page import open_page
from ui.sections import step as sections
from ui.state import parse_choice, parse_int

WINDOW = 64  # at most this many d_model / d_k dimensions per axis in one figure
K_HEAD, K_QUERY, K_DIMS, K_DK = "step.head", "step.query", "step.dims", "step.dk_dims"
K_STAGE = "step.stage"  # the open tab: a step id, "0" .. "5"
STAGES = tuple(str(i) for i in range(6))


def _follow_head(d_k: int) -> None:
    """Choosing a head moves the d_model window to that head's block of columns."""
    st.session_state[K_DIMS] = st.session_state[K_HEAD] * d_k // WINDOW * WINDOW
    st.session_state[K_DK] = 0


def _window_starts(size: int) -> range:
    """The starts a window over an axis of `size` can take (only 0 when every dimension fits)."""
    return range(0, size, WINDOW) if size > WINDOW else range(1)


def _window_picker(key: str, size: int, label: str, help: str, where) -> tuple[int, int]:
    """[start, stop) of the dimensions shown on an axis of `size` (all of them when small)."""
    if size <= WINDOW:
        controls.clamp(key, _window_starts(size))  # every dimension fits: no window (no URL)
        return 0, size
    start = controls.select_slider(
        label,
        _window_starts(size),
        format_func=lambda s: t("step.window_option", start=s, stop=min(s + WINDOW, size) - 1),
        key=key,
        help=help,
        where=where,
    )
    return start, min(start + WINDOW, size)


settings = open_page(
    "step",
    {K_HEAD: 0, K_QUERY: 0, K_DIMS: 0, K_DK: 0, K_STAGE: STAGES[0]},
    {
        K_HEAD: lambda r: parse_int(r, 0, 511),
        K_QUERY: lambda r: parse_int(r, 0, 511),
        K_DIMS: lambda r: parse_int(r, 0, 511),
        K_DK: lambda r: parse_int(r, 0, 511),
        K_STAGE: parse_choice(STAGES),
    },
)
# the choices that follow the model's size, also while an empty sentence stops the page below
controls.clamp(K_HEAD, range(settings.n_heads))
controls.clamp(K_DIMS, _window_starts(settings.d_model))
controls.clamp(K_DK, _window_starts(settings.d_model // settings.n_heads))
tokens = widgets.sentence_tokens(settings)
config = settings.config()
T, C, nh, dk = len(tokens), config.d_model, config.n_heads, config.d_k

st.write(t("step.intro"))
st.caption(t("step.random_note", seed=settings.seed))
widgets.token_chips(tokens)

# --- the controls --------------------------------------------------------------------------
c_head, c_query, c_dims, c_dk = st.columns(4)
head = controls.selectbox(
    t("step.head"),
    range(nh),
    format_func=lambda h: t("step.head_option", h=h),
    key=K_HEAD,
    on_change=_follow_head,
    args=(dk,),
    help=t("step.head_help", d_k=dk),
    where=c_head,
)
query = controls.selectbox(
    t("step.query"),
    range(T),
    format_func=lambda i: t("step.query_option", i=i, token=tokens[i]),
    key=K_QUERY,
    help=t("step.query_help"),
    where=c_query,
)
d0, d1 = _window_picker(
    K_DIMS, C, t("step.dims"), t("step.dims_help", d_model=C, window=WINDOW), c_dims
)
k0, k1 = _window_picker(
    K_DK, dk, t("step.dk_dims"), t("step.dk_dims_help", d_k=dk, window=WINDOW), c_dk
)

s = head_steps(tuple(tokens), config, head, query)
h0, h1 = s.head_columns
if (d0, d1) != (0, C):
    st.info(t("step.window_note", start=d0, stop=d1 - 1, total=C))
if (k0, k1) != (0, dk):
    st.info(t("step.dk_window_note", start=k0, stop=k1 - 1, total=dk))
st.caption(t("step.outline_note", i=query, h=head))

view = sections.StepView(
    tokens=tokens,
    head=head,
    query=query,
    n_heads=nh,
    d_model=C,
    d_k=dk,
    dims=(d0, d1),
    dk_dims=(k0, k1),
    head_columns=(h0, h1),
    labels=sections.AxisLabels.current(),
)
# One tab per step; only the open one is drawn (on_change="rerun"), so a slider step redraws
# two to six charts instead of all eighteen. "Next" buttons walk through them in order.
steps = (
    sections.input_x,
    sections.projections,
    sections.score_matrices,
    sections.softmax_and_sum,
    sections.concatenation,
    sections.final_projection,
)
labels = [t(f"step.tab.{i}") for i in STAGES]
tabs = controls.tabs(STAGES, labels, key=K_STAGE)
for i, (stage, draw) in enumerate(zip(STAGES, steps)):
    if tabs[stage].open:
        with tabs[stage]:
            draw(s, view)
            if i + 1 < len(steps):
                st.button(
                    t("step.next", step=labels[i + 1]),
                    key=f"step.next_{i}",
                    on_click=st.session_state.__setitem__,
                    args=(K_STAGE, STAGES[i + 1]),
                )
