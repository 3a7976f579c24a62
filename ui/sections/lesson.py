"""The Lesson page's sections: the path of stations, one question each before its live answer.

State (all in the URL): the station (`lesson.station`, a station id), the answers
(`lesson.answers`: "station:value:fingerprint,..."), the option picked and not yet checked
(`lesson.pick`, an option value) and quiz mode (`lesson.quiz`). Each answer keeps the
fingerprint of the sentence and settings it was given under (`ui.compute.lesson.fingerprint`):
under another fingerprint it is not graded, the station asks again."""

from __future__ import annotations

import re
import urllib.parse

import streamlit as st

from mha_core.lessons import quiz
from ui import controls, present, url
from ui.compute import lesson as compute
from ui.i18n import t
from ui.pages import BY_ID
from ui.params import HEADS, TOKENS, OneOf, Param
from ui.sections.lesson_figures import figure
from ui.sections.lesson_text import (
    Context,
    NeedsMore,
    P,
    explain,
    intro_text,
    option_label,
    question,
    question_text,
)
from ui.state import parse_bool

K_STATION, K_ANSWERS, K_PICK, K_QUIZ = f"{P}.station", f"{P}.answers", f"{P}.pick", f"{P}.quiz"
_PICK_FOR = f"{P}._pick_for"  # (station, fingerprint) the pick was last set for (not a control)

STATIONS = (
    "why",
    "qkv",
    "scaling",
    "softmax",
    "heads",
    "positional",
    "mask",
    "addnorm",
    "transformer",
    "cost",
    "real",
    "limits",
)
END = "end"
STOPS = (*STATIONS, END)
SKIPPED = "-"  # the answer of a station whose answer was shown without one
_VALUE = re.compile(r"^[A-Za-z0-9_-]{1,12}$")
_FP = re.compile(r"^[0-9a-f]{8}$")


# --- answers: "station:value:fingerprint,..." -----------------------------------------------
def parse_answers(raw: str) -> str:
    """The answers of a link, checked (ValueError otherwise) and in station order."""
    return format_answers(_answers_of(raw, strict=True))


def _answers_of(raw: str, strict: bool = False) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for entry in filter(None, (raw or "").split(",")):
        parts = entry.split(":")
        ok = (
            len(parts) == 3
            and parts[0] in STATIONS
            and bool(_VALUE.match(parts[1]))
            and bool(_FP.match(parts[2]))
        )
        if not ok:
            if strict:
                raise ValueError(entry)
            continue
        out[parts[0]] = (parts[1], parts[2])
    return out


_NUMBERS = frozenset({"seed", "positional", "scale", "mask", "scoring", "station", "answers"})


def parse_pick(raw: str) -> str:
    """An option value of a link (checked against the station's options when drawn); empty:
    nothing picked yet, as a link of a station not yet answered writes it."""
    if raw and not _VALUE.match(raw):
        raise ValueError(raw)
    return raw


PARAMS = (
    Param(K_STATION, STATIONS[0], OneOf(STOPS)),
    Param(K_ANSWERS, "", parse_answers),
    # the pick starts again at the first option (or the answer given) on a new station or new
    # numbers: every model setting makes new numbers
    Param(K_PICK, "", parse_pick, depends_on=TOKENS | HEADS | _NUMBERS),
    Param(K_QUIZ, False, parse_bool),
)


def format_answers(answers: dict[str, tuple[str, str]]) -> str:
    return ",".join(f"{s}:{v}:{fp}" for s in STATIONS if s in answers for v, fp in [answers[s]])


def answers() -> dict[str, tuple[str, str]]:
    return _answers_of(st.session_state.get(K_ANSWERS, ""))


def record(station: str, value: str, fp: str) -> None:
    """Keep `value` as the answer to `station`, given under fingerprint `fp` (a callback)."""
    given = answers()
    given[station] = (value, fp)
    st.session_state[K_ANSWERS] = format_answers(given)


def record_pick(station: str, fp: str) -> None:
    record(station, str(st.session_state.get(K_PICK, "")), fp)


def go(stop: str) -> None:
    """Open station `stop` (a callback of the navigation buttons)."""
    st.session_state[K_STATION] = stop


# Where each station's "explore" link goes, and the controls it sets there.
def links(station: str, q: quiz.Question) -> tuple[str, dict]:
    f = q.facts
    match station:
        case "why" | "qkv" | "softmax":
            stage = {"why": "3", "qkv": "2", "softmax": "3"}[station]
            return "step", {"step.head": f["head"], "step.query": f["q"], "step.stage": stage}
        case "scaling":
            return "scaling", {"scaling.view": "spread"}
        case "heads":
            return "attention", {"attention.view": "stats"}
        case "positional":
            return "positional", {"positional.view": "sentence"}
        case "mask":
            return "encoder_decoder", {
                "encoder_decoder.part": "attention",
                "encoder_decoder.view": "decoder",
            }
        case "addnorm":
            return "encoder_decoder", {"encoder_decoder.part": "addnorm"}
        case "transformer":
            return "encoder_decoder", {
                "encoder_decoder.part": "attention",
                "encoder_decoder.view": "cross",
                "encoder_decoder.layers": 1,  # the station's model: 1 layer, post-norm,
                "encoder_decoder.pre_norm": False,  # its target sentence, layer 0, head 0
                "encoder_decoder.target": compute.TARGET,
                "encoder_decoder.layer": 0,
                "encoder_decoder.head": 0,
            }
        case "cost":
            return "efficient", {"efficient.view": "cache"}
        case "real":  # the Every head view on the station's induction head, its score map,
            ind = compute.induction_head()  # over the sidebar's sentence as the station reads it
            return "llm", {
                "llm.source": "sentence",
                "llm.view": "heads",
                "llm.layer": ind.layer,
                "llm.head": ind.head,
                "llm.score": "induction",
            }
        case "limits":
            return "reading", {"reading.view": "norms", "reading.layer": compute.MINILM_LAYER}
    raise KeyError(station)


def explore(station: str, q: quiz.Question) -> None:
    page_id, values = links(station, q)
    label = t("lesson.explore", page=t(f"nav.{page_id}"))
    if st.button(label, key=f"{P}.explore", help=t("lesson.explore_help"), icon="🔎"):
        for k, v in values.items():
            st.session_state[k] = v
        st.switch_page(BY_ID[page_id].path)


# --- the page ----------------------------------------------------------------------------------
def stop_label(stop: str) -> str:
    if stop == END:
        return t("lesson.end_label")
    return t("lesson.station_label", n=STATIONS.index(stop) + 1, title=t(f"lesson.{stop}.title"))


def navigation(where=None) -> str:
    """The station picker, quiz mode; returns the open stop."""
    where = where or st
    c1, c2 = where.columns([3, 2])
    stop = controls.selectbox(
        t("lesson.station"), STOPS, key=K_STATION, format_func=stop_label, where=c1
    )
    controls.toggle(t("lesson.quiz"), key=K_QUIZ, help=t("lesson.quiz_help"), where=c2)
    return stop


def step_buttons(stop: str) -> None:
    """Previous and Next (none after the summary, the last stop)."""
    i = STOPS.index(stop)
    c1, c2 = st.columns(2)
    c1.button(
        t("lesson.prev"),
        key=f"{P}.prev",
        on_click=go,
        args=(STOPS[max(i - 1, 0)],),
        disabled=i == 0,
        width="stretch",
    )
    if stop != END:
        c2.button(
            t("lesson.next"),
            key=f"{P}.next",
            on_click=go,
            args=(STOPS[i + 1],),
            type="primary",
            width="stretch",
        )


def status(station: str, ctx: Context, fp: str) -> str:
    """right, wrong, shown, stale or open: the station's answer against the numbers on screen."""
    given = answers().get(station)
    if given is None:
        return "open"
    value, given_fp = given
    if given_fp != fp:
        return "stale"
    if value == SKIPPED:
        return "shown"
    try:
        q = question(station, ctx)
    except Exception:  # noqa: BLE001 - a station that cannot be asked is not graded
        return "open"
    return "right" if q.is_right(value) else "wrong"


def _set_pick(station: str, q: quiz.Question, fp: str) -> None:
    """The pick starts at the answer given under these numbers, else the first option; only when
    the station or the numbers changed (a link's pick is kept on its first run)."""
    ss = st.session_state
    now = (station, fp)
    given = answers().get(station)
    fresh = given is not None and given[1] == fp and given[0] in q.options
    start = given[0] if fresh else q.options[0]
    if _PICK_FOR not in ss:
        ss[_PICK_FOR] = now
    elif ss[_PICK_FOR] != now:
        ss[_PICK_FOR] = now
        ss[K_PICK] = start
    if ss.get(K_PICK) not in q.options:
        ss[K_PICK] = start


def station(stop: str, ctx: Context, fp: str) -> None:
    i = STATIONS.index(stop)
    st.subheader(f"{i + 1}. {t(f'lesson.{stop}.title')}")
    present.prose(intro_text(stop))
    try:
        q = question(stop, ctx)
    except NeedsMore as why:
        st.info(t("lesson.needs", why=str(why)))
        return
    except (ImportError, OSError, RuntimeError) as err:
        st.info(t("lesson.unavailable", error=type(err).__name__))
        return
    _set_pick(stop, q, fp)
    label = option_label(stop, q, ctx)
    st.markdown(f"**{question_text(stop, q, ctx)}**")
    pick = controls.selectbox if q.kind == quiz.TOKEN else controls.radio
    pick(t("lesson.your_answer"), q.options, key=K_PICK, format_func=label)
    quiz_mode = bool(st.session_state.get(K_QUIZ))
    c1, c2 = st.columns(2)
    c1.button(
        t("lesson.check"),
        key=f"{P}.check",
        on_click=record_pick,
        args=(stop, fp),
        type="primary",
        width="stretch",
    )
    if not quiz_mode:
        c2.button(
            t("lesson.show"),
            key=f"{P}.show",
            on_click=record,
            args=(stop, SKIPPED, fp),
            width="stretch",
        )
    given = answers().get(stop)
    if given is None:
        st.caption(t("lesson.hidden_quiz" if quiz_mode else "lesson.hidden"))
        return
    value, given_fp = given
    if given_fp != fp:
        st.warning(t("lesson.stale"))
        return
    right = label(q.answer)
    if value == SKIPPED:
        st.info(t("lesson.skipped", answer=right))
    elif q.is_right(value):
        st.success(t("lesson.right"))
    else:
        chosen = label(value) if value in q.options else value
        st.error(t("lesson.wrong", chosen=chosen, answer=right))
    st.markdown(explain(stop, q, ctx))
    figure(stop, q, ctx)
    explore(stop, q)


def progress(ctx: Context, fp: str) -> dict[str, str]:
    states = {s: status(s, ctx, fp) for s in STATIONS}
    answered = sum(v in ("right", "wrong", "shown") for v in states.values())
    right = sum(v == "right" for v in states.values())
    st.caption(t("lesson.progress", answered=answered, total=len(STATIONS), right=right))
    return states


def summary(states: dict[str, str]) -> None:
    st.subheader(t("lesson.end_title"))
    right = sum(v == "right" for v in states.values())
    st.markdown(t("lesson.end_score", right=right, total=len(STATIONS)))
    stale = sum(v == "stale" for v in states.values())
    if stale:
        st.caption(t("lesson.end_stale", n=stale))
    revisit = [s for s in STATIONS if states[s] != "right"]
    if not revisit:
        st.success(t("lesson.end_none"))
        return
    st.markdown(t("lesson.end_revisit"))
    for s in revisit:
        label = t(
            "lesson.go",
            n=STATIONS.index(s) + 1,
            title=t(f"lesson.{s}.title"),
            status=t(f"lesson.end_status.{states[s]}"),
        )
        st.button(label, key=f"{P}.go.{s}", on_click=go, args=(s,))


def teacher_link() -> None:
    """The link that opens the lesson here, with these settings and no answers."""
    params = {k: v for k, v in url.params(P).items() if k not in ("answers", "pick")}
    base = ""
    try:
        base = (st.context.url or "").split("?", 1)[0]
    except Exception:  # noqa: BLE001 - no browser context (tests): a relative link
        base = ""
    if not base.endswith(f"/{P}"):
        base = base.rsplit("/", 1)[0] + f"/{P}" if base else f"/{P}"
    with st.expander(t("lesson.teacher")):
        st.caption(t("lesson.teacher_intro"))
        st.code(f"{base}?{urllib.parse.urlencode(params)}", language=None, wrap_lines=True)
