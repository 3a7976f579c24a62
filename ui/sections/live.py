"""What the Train and Induction pages share about a run trained live in the session: its
session keys, the Train / Stop buttons, ending a run that Stop was pressed for, and the loop that
trains it chunk by chunk while the page redraws.

State (this session's only): `<page>._live` holds the run in progress (a `LiveTraining`),
`<page>._run` the last finished one; Train replaces both. Any rerun (the Stop button, a click
anywhere) interrupts the script at one of the redraws, between two chunks; the next script run
goes on with the same live run, or ends it when Stop was pressed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import streamlit as st

from mha_core.layer.limits import MAX_SEED
from ui import controls
from ui.compute.live import LiveTraining
from ui.i18n import t


def live_keys(page: str) -> tuple[str, str, str]:
    """The session keys of a page's live run, finished run and Stop request."""
    return f"{page}._live", f"{page}._run", f"{page}._stop"


def begin(page: str, live: LiveTraining) -> None:
    """A new run replaces the current one (finished or not)."""
    LIVE, RUN, STOP = live_keys(page)
    ss = st.session_state
    ss.pop(RUN, None)
    ss[LIVE] = live
    ss[STOP] = False


def _request_stop(page: str) -> None:
    st.session_state[live_keys(page)[2]] = True


def keep(page: str, live: LiveTraining, fin) -> None:
    """Make a run that ended the current one, unless Train has replaced it meanwhile (an old
    script thread may end its run after a newer one started)."""
    LIVE, RUN, _ = live_keys(page)
    ss = st.session_state
    if ss.get(LIVE) is live:
        ss[RUN] = fin
        ss.pop(LIVE, None)


def settle(page: str) -> None:
    """Before anything is drawn: end a live run that Stop was pressed for (or that is done)."""
    LIVE, _, STOP = live_keys(page)
    ss = st.session_state
    live = ss.get(LIVE)
    if live is not None and (ss.get(STOP) or live.done):
        keep(page, live, live.stop())
    ss[STOP] = False


def seed_input(page: str, key: str, where) -> None:
    """The seed of the next run's weights and data (`<page>.seed`, 0 to MAX_SEED)."""
    controls.number_input(
        t(f"{page}.seed"),
        min_value=0,
        max_value=MAX_SEED,
        step=1,
        key=key,
        help=t(f"{page}.seed_help", max=MAX_SEED),
        where=where,
    )


def buttons(page: str, on_start: Callable[[], None]) -> None:
    """The Train and Stop buttons (Stop only while a run is live); texts `<page>.start`,
    `<page>.stop` and their `_help`."""
    c_start, c_stop, _ = st.columns([1, 1, 4])
    c_start.button(
        t(f"{page}.start"),
        key=f"{page}.start",
        type="primary",
        on_click=on_start,
        help=t(f"{page}.start_help"),
        width="stretch",
    )
    c_stop.button(
        t(f"{page}.stop"),
        key=f"{page}.stop",
        on_click=partial(_request_stop, page),
        disabled=st.session_state.get(live_keys(page)[0]) is None,
        help=t(f"{page}.stop_help"),
        width="stretch",
    )


def train(
    page: str,
    live: LiveTraining,
    measures: Callable[[LiveTraining], dict],
    draw: Callable[[LiveTraining], None],
    caption: str | None = None,
) -> None:
    """Under the title `<page>.live.title` (and a caption), train the live run chunk by chunk
    under a progress bar (`<page>.progress` with the step and `measures(live)`), `draw(live)`
    after each chunk (in one place on the page); at the end keep the finished run and rerun the
    page."""

    def progress_text(live: LiveTraining) -> str:
        steps = live.choice.steps
        step = live.recorded  # what the curves and the measures hold
        if step == 0:
            return t(f"{page}.progress_start", steps=steps)
        return t(f"{page}.progress", step=step, steps=steps, **measures(live))

    st.header(t(f"{page}.live.title"))
    if caption is not None:
        st.caption(caption)
    st.caption(t("live.background"))
    live.run_in_background()  # trains on when this script is stopped (another page, a click)
    bar = st.progress(live.fraction, text=progress_text(live))
    where = st.empty()
    with where.container():
        draw(live)
    drawn = live.step  # after the draw: a chart's key may name the step (one per redraw)
    while not live.done and live.running:
        live.wait()  # the run trains meanwhile; the page draws at most every DRAW_S
        if live.step == drawn:
            continue
        bar.progress(live.fraction, text=progress_text(live))
        with where.container():
            draw(live)
        drawn = live.step
    if live.error is not None:
        raise live.error
    keep(page, live, live.finish())
    st.rerun()


def result_header(page: str, run, wall_s: float, caption: str | None = None, **measures) -> None:
    """A finished run's title (`<page>.result.title`), a caption, a warning when Stop ended it
    before its last step (`<page>.stopped`), and what it did (`<page>.done`: the steps done,
    the wall time from the Train press, and the page's `measures`)."""
    st.header(t(f"{page}.result.title"))
    if caption is not None:
        st.caption(caption)
    if run.stopped:
        st.warning(t(f"{page}.stopped", steps_done=run.steps_done, steps=run.settings.steps))
    st.markdown(t(f"{page}.done", steps_done=run.steps_done, wall=f"{wall_s:.1f}", **measures))
