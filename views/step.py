"""Step by step: one head's arithmetic on the sidebar sentence, following one query token."""

import streamlit as st

from ui import controls, present, widgets
from ui.compute.step import head_steps
from ui.i18n import t
from ui.page import open_page
from ui.sections import step as sections
from ui.sections.step import K_DIMS, K_DK, K_HEAD, K_QUERY, K_VIEW, PARAMS, VIEWS, WINDOW


def _follow_head(d_k: int) -> None:
    """Choosing a head moves the d_model window to that head's block of columns."""
    st.session_state[K_DIMS] = st.session_state[K_HEAD] * d_k // WINDOW * WINDOW
    st.session_state[K_DK] = 0


def _window_picker(key: str, size: int, label: str, help: str, where) -> tuple[int, int]:
    """[start, stop) of the dimensions shown on an axis of `size` (all of them when small)."""
    if size <= WINDOW:
        # every dimension fits: no window (no URL)
        controls.clamp(key, sections.window_starts(size))
        return 0, size
    start = controls.select_slider(
        label,
        sections.window_starts(size),
        format_func=lambda s: t("step.window_option", start=s, stop=min(s + WINDOW, size) - 1),
        key=key,
        help=help,
        where=where,
    )
    return start, min(start + WINDOW, size)


# the choices that follow the model's size are clamped as the page opens (`PARAMS`), also
# while an empty sentence stops the page below
settings = open_page("step", PARAMS)
tokens = widgets.sentence_tokens(settings)
config = settings.config()
T, C, nh, dk = len(tokens), config.d_model, config.n_heads, config.d_k

present.prose(t("step.intro"))
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

choice = sections.StepChoice(
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
# One view per step; only the open one is drawn, so a slider step redraws two to six charts
# instead of all eighteen. "Next" buttons walk through them in order.
steps = (
    sections.input_x,
    sections.projections,
    sections.score_matrices,
    sections.softmax_and_sum,
    sections.concatenation,
    sections.final_projection,
)
labels = [t(f"step.view.{i}") for i in VIEWS]
views = controls.views(VIEWS, labels, key=K_VIEW)
for i, (view_id, draw) in enumerate(zip(VIEWS, steps)):
    if views[view_id].open:
        with views[view_id]:
            draw(s, choice)
            if i + 1 < len(steps):
                st.button(
                    t("step.next", step=labels[i + 1]),
                    key=f"step.next_{i}",
                    on_click=st.session_state.__setitem__,
                    args=(K_VIEW, VIEWS[i + 1]),
                )
