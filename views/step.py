"""Step by step: one head's arithmetic on the sidebar sentence, following one query token."""

import streamlit as st

from ui import widgets
from ui.compute.step import head_steps
from ui.i18n import t
from ui.page import keep_valid, open_page, url_state
from ui.sections import step as sections
from ui.state import parse_int

WINDOW = 64  # at most this many d_model / d_k dimensions per axis in one figure
K_HEAD, K_QUERY, K_DIMS, K_DK = "step.head", "step.query", "step.dims", "step.dk_dims"
K_STAGE = "step.stage"  # the open tab


def _follow_head(d_k: int) -> None:
    """Choosing a head moves the d_model window to that head's block of columns."""
    st.session_state[K_DIMS] = st.session_state[K_HEAD] * d_k // WINDOW * WINDOW
    st.session_state[K_DK] = 0


def _window_picker(key: str, size: int, label: str, help: str, where) -> tuple[int, int]:
    """[start, stop) of the dimensions shown on an axis of `size` (all of them when small)."""
    if size <= WINDOW:
        return 0, size
    starts = list(range(0, size, WINDOW))
    keep_valid(key, starts)
    start = where.select_slider(
        label,
        starts,
        format_func=lambda s: t("step.window_option", start=s, stop=min(s + WINDOW, size) - 1),
        key=key,
        help=help,
    )
    return start, min(start + WINDOW, size)


settings = open_page("step")
url_state("step", {K_HEAD: lambda r: parse_int(r, 0, 511), K_QUERY: lambda r: parse_int(r, 0, 511)})
tokens = widgets.sentence_tokens(settings)
config = settings.config()
T, C, nh, dk = len(tokens), config.d_model, config.n_heads, config.d_k

st.write(t("step.intro"))
st.caption(t("step.random_note", seed=settings.seed))
widgets.token_chips(tokens)

# --- the controls --------------------------------------------------------------------------
keep_valid(K_HEAD, list(range(nh)))
keep_valid(K_QUERY, list(range(T)))
c_head, c_query, c_dims, c_dk = st.columns(4)
head = c_head.selectbox(
    t("step.head"),
    range(nh),
    format_func=lambda h: t("step.head_option", h=h),
    key=K_HEAD,
    on_change=_follow_head,
    args=(dk,),
    help=t("step.head_help", d_k=dk),
)
query = c_query.selectbox(
    t("step.query"),
    range(T),
    format_func=lambda i: t("step.query_option", i=i, token=tokens[i]),
    key=K_QUERY,
    help=t("step.query_help"),
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
labels = [t(f"step.tab.{i}") for i in range(len(steps))]
for i, (tab, draw) in enumerate(zip(st.tabs(labels, key=K_STAGE, on_change="rerun"), steps)):
    if tab.open:
        with tab:
            draw(s, view)
            if i + 1 < len(steps):
                st.button(
                    t("step.next", step=labels[i + 1]),
                    key=f"step.next_{i}",
                    on_click=st.session_state.__setitem__,
                    args=(K_STAGE, labels[i + 1]),
                )
