"""The Lesson page's sections: the path of stations, one question each before its live answer.

State (all in the URL): the station (`lesson.station`, a station id), the answers
(`lesson.answers`: "station:value:fingerprint,..."), the option picked and not yet checked
(`lesson.pick`, an option value) and quiz mode (`lesson.quiz`). Each answer keeps the
fingerprint of the sentence and settings it was given under (`ui.compute.lesson.fingerprint`):
under another fingerprint it is not graded, the station asks again."""

from __future__ import annotations

import re
import string
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st

import viz
from mha_core.lessons import quiz
from ui import controls, present, url, widgets
from ui.compute import lesson as compute
from ui.i18n import t
from ui.numbers import num, size
from ui.pages import BY_ID
from ui.params import HEADS, TOKENS, OneOf, Param
from ui.state import Settings, parse_bool
from viz.efficient import curves
from viz.induction import share_grid
from viz.matrix import matrix_heatmap, weights_compare
from viz.positional import shuffle_panel
from viz.scaling import std_figure
from viz.transformer import normalised_matrix

P = "lesson"
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


# --- text helpers -----------------------------------------------------------------------------
_MD = set(string.punctuation)
FSI, PDI = "\u2068", "\u2069"


def quoted(token: str) -> str:
    """A token in prose: literal (every ASCII punctuation escaped, so markup, links, LaTeX and
    emoji codes stay text), in quotes, in a bidi isolate."""
    text = "".join(f"\\{c}" if c in _MD else c for c in token)
    return f"“{FSI}{text}{PDI}”"


def token_label(tokens, i: int) -> str:
    return t("lesson.token_option", i=i, token=tokens[i])


# --- each station: the question from the core, and the reveal -----------------------------
@dataclass(frozen=True)
class Context:
    settings: Settings
    tokens: tuple[str, ...]

    @property
    def config(self):
        return self.settings.config()


class NeedsMore(Exception):
    """The input cannot carry this station's question (the text says why)."""


def question(station: str, ctx: Context) -> quiz.Question:
    """The station's question on the numbers on the screen (cached in ui.compute.lesson)."""
    tok, cfg = ctx.tokens, ctx.config
    if station in ("positional", "mask") and len(tok) < 2:
        raise NeedsMore(t("lesson.needs_two"))
    match station:
        case "scaling":
            return compute.scaling(ctx.settings.seed)
        case "cost":
            return compute.cost(len(tok), cfg)
        case "real":
            return compute.real(ctx.settings.text)
        case "limits":
            return compute.limits(ctx.settings.text)
        case _:
            return getattr(compute, station)(tok, cfg)


def option_label(station: str, q: quiz.Question, ctx: Context) -> Callable[[str], str]:
    if q.kind == quiz.TOKEN:
        return lambda v: token_label(ctx.tokens, int(v))
    if q.kind == quiz.HEAD:
        return lambda v: t("lesson.head_option", h=v)
    if station == "cost":
        return lambda v: t(f"lesson.cost.opt.{v}", value=f"{q.facts[f'opt_{v}']:,}")
    if q.options == quiz.SHARE_BINS:
        return lambda v: t(f"lesson.share.{v}")
    return lambda v: t(f"lesson.{station}.opt.{v}")


def question_text(station: str, q: quiz.Question, ctx: Context) -> str:
    f, tok, s = q.facts, ctx.tokens, ctx.settings
    match station:
        case "why" | "qkv" | "softmax":
            return t(f"lesson.{station}.q", h=f["head"], q=quoted(tok[f["q"]]))
        case "scaling":
            return t("lesson.scaling.q", lo=f["lo"], hi=f["hi"])
        case "positional":
            pe = t("lesson.positional.on" if s.positional else "lesson.positional.off")
            return t("lesson.positional.q", pe=pe, mask=t(f"side.mask.{s.mask}"))
        case "mask":
            return t("lesson.mask.q", a=quoted(tok[0]), b=quoted(tok[-1]))
        case "transformer":
            return t("lesson.transformer.q", q=quoted(compute.target_tokens()[f["q"]]))
        case "cost":
            return t("lesson.cost.q", d_model=f["d_model"], n_heads=f["n_heads"], d_k=f["d_k"])
        case _:
            return t(f"lesson.{station}.q")


def intro_text(station: str) -> str:
    if station == "transformer":
        return t("lesson.transformer.text", target=compute.TARGET)
    if station == "limits":
        return t("lesson.limits.text", layer=compute.MINILM_LAYER)
    return t(f"lesson.{station}.text")


def explain(station: str, q: quiz.Question, ctx: Context) -> str:
    """The feedback's explanation with the live numbers."""
    f, tok = q.facts, ctx.tokens
    match station:
        case "why":
            return t(
                "lesson.why.explain",
                h=f["head"],
                q=quoted(tok[f["q"]]),
                w=num(f["w"], 2),
                top=quoted(tok[f["key"]]),
                n=f["n"],
                u=num(f["uniform"], 2),
                ratio=num(f["ratio"], 2),
            )
        case "qkv":
            second = ""
            if f["second"] is not None:
                second = t(
                    "lesson.qkv.second",
                    top=quoted(tok[f["second"]]),
                    score=num(f["second_score"], 3),
                )
            return t(
                "lesson.qkv.explain",
                h=f["head"],
                q=quoted(tok[f["q"]]),
                top=quoted(tok[f["key"]]),
                score=num(f["score"], 3),
                second=second,
            )
        case "scaling":
            return t(
                "lesson.scaling.explain",
                n=f"{compute.SPREAD_SAMPLES:,}",
                seed=ctx.settings.seed,
                lo=f["lo"],
                hi=f["hi"],
                std_lo=num(f["std_lo"], 3),
                std_hi=num(f["std_hi"], 3),
                ratio=num(f["ratio"], 3),
                sqrt_ratio=num(f["sqrt_ratio"], 3),
            )
        case "softmax":
            return t(
                "lesson.softmax.explain",
                h=f["head"],
                q=quoted(tok[f["q"]]),
                w=num(f["w"], 2),
                top=quoted(tok[f["key"]]),
                total=num(f["sum"], 3),
            )
        case "heads":
            return t(
                "lesson.heads.explain",
                head=f["head"],
                dist=num(f["dist"], 2),
                near=f["near"],
                near_dist=num(f["near_dist"], 2),
                n_heads=f["n_heads"],
                params=f"{f['params']:,}",
                d_model=ctx.settings.d_model,
            )
        case "positional":
            why = "permute" if q.answer == "permute" else "change"
            return t(
                "lesson.positional.explain",
                diff=num(f["diff"], 2),
                why=t(f"lesson.positional.why_{why}"),
            )
        case "mask":
            return t(
                "lesson.mask.explain",
                h=f["head"],
                a=quoted(tok[0]),
                b=quoted(tok[-1]),
                w=num(f["w"], 2),
                above=num(f["above_max"], 2),
            )
        case "addnorm":
            return t(
                "lesson.addnorm.explain",
                token_mean=num(f["token_mean"], 2),
                feature_mean=num(f["feature_mean"], 2),
            )
        case "transformer":
            tgt = compute.target_tokens()
            return t(
                "lesson.transformer.explain",
                q=quoted(tgt[f["q"]]),
                w=num(f["w"], 2),
                top=quoted(tok[f["key"]]),
                n_tgt=f["n_tgt"],
                n_src=f["n_src"],
            )
        case "cost":
            return t(
                "lesson.cost.explain",
                n_heads=f["n_heads"],
                d_k=f["d_k"],
                bytes=f"{f['bytes']:,}",
                total=size(f["total"]),
                T=f["T"],
                scores=size(f["scores_bytes"]),
            )
        case "real":
            return t(
                "lesson.real.explain",
                n=f["n_heads_total"],
                T=f["T"],
                share=num(f["share"], 2),
                over_half=f["over_half"],
            )
        case "limits":
            mtok = compute.minilm(ctx.settings.text)[0]
            which = "explain_same" if f["top_w"] == f["top_n"] else "explain"
            return t(
                f"lesson.limits.{which}",
                tw=quoted(mtok[f["top_w"]]),
                w=num(f["w"], 2),
                w_norm=num(f["w_norm"], 2),
                tn=quoted(mtok[f["top_n"]]),
                n=num(f["n"], 2),
                n_weight=num(f["n_weight"], 2),
            )
    raise KeyError(station)


SHOWN = widgets.GRID_FULL  # a figure draws at most this many tokens (the last ones)


def _window(tok: list[str], q: int | None = None) -> int:
    """Where a figure's tokens start: the last SHOWN tokens (the focus token among them), with a
    caption when some are left out; the numbers in the text use every token."""
    n = len(tok)
    if n <= SHOWN:
        return 0
    start = n - SHOWN if q is None else min(max(q - SHOWN + 1, 0), n - SHOWN)
    st.caption(t("lesson.capped", n=n, limit=SHOWN, a=start, b=start + SHOWN - 1))
    return start


def figure(station: str, q: quiz.Question, ctx: Context) -> None:
    """The reveal's one live figure, from the same builders as the pages."""
    f, tok, cfg, key = q.facts, list(ctx.tokens), ctx.config, f"{P}.fig.{station}"
    trace = compute.sentence_attention(ctx.tokens, cfg).attention
    weight, query_t, key_t = t("attention.weight"), t("step.axis.query"), t("step.axis.key")
    match station:
        case "why":
            row = f["row"]
            allowed = trace.allowed is None or trace.allowed[0, 0, f["q"]].numpy()
            uniform = np.where(allowed, 1.0 / f["n"], 0.0) * np.ones_like(row)
            a = _window(tok, f["q"])
            fig = weights_compare(
                uniform[a : a + SHOWN],
                row[a : a + SHOWN],
                tok[a : a + SHOWN],
                names=("1/T", t("lesson.attention")),
                title=t("lesson.why.fig", h=f["head"], q=tok[f["q"]]),
                x_title=key_t,
                value_label=weight,
            )
        case "qkv":
            a = _window(tok, f["q"])
            fig = matrix_heatmap(
                trace.scores[0, f["head"], a : a + SHOWN, a : a + SHOWN].numpy(),
                tok[a : a + SHOWN],
                tok[a : a + SHOWN],
                row_start=a,
                col_start=a,
                title=t("lesson.qkv.fig", h=f["head"]),
                row_title=query_t,
                col_title=key_t,
                value_label="q·k",
                highlight_row=f["q"] - a,
            )
        case "scaling":
            stats = compute.scaling_compute.dot_product_stats(
                compute.SPREAD_SAMPLES, ctx.settings.seed, "normal"
            )
            fig = std_figure(
                stats.d_k,
                stats.std,
                stats.theory,
                stats.scaled_std,
                stats.scaled_theory,
                names=(
                    t("scaling.std_measured"),
                    t("scaling.std_theory"),
                    t("scaling.std_scaled"),
                    t("scaling.std_scaled_theory"),
                ),
                y_title=t("scaling.std_axis"),
                height=360,
            )
        case "softmax" | "mask":
            source = trace if station == "softmax" else _causal(ctx)
            a = _window(tok, f["q"])
            fig = viz.attention_heatmap(
                source.weights[0, f["head"], a : a + SHOWN, a : a + SHOWN].numpy(),
                tok[a : a + SHOWN],
                title=t(f"lesson.{station}.fig", h=f["head"]),
                value_label=weight,
                x_title=key_t,
                y_title=query_t,
            )
        case "heads":
            st.caption(t("lesson.heads.fig"))
            widgets.head_grid(
                trace.weights[0].numpy(),
                tok,
                key=key,
                titles=[t("stats.head_title", h=h) for h in range(cfg.n_heads)],
                value_label=weight,
            )
            return
        case "positional":
            res = compute.positional_compute.shuffle_attention(
                ctx.tokens, cfg, compute.shuffle_perm(len(tok), cfg.seed)
            )
            a = _window(tok)
            cut = slice(a, a + SHOWN)
            shown = (res.shuffled_weights[0, cut, cut], res.predicted[0, cut, cut])
            zmax = float(max(m.max() for m in shown))
            for col, mat, name in zip(st.columns(2), shown, ("A'", "P A Pᵀ"), strict=True):
                widgets.plot(
                    shuffle_panel(
                        mat,
                        res.shuffled_tokens[cut],
                        title=name,
                        zmax=zmax,
                        value_label=weight,
                        x_title=key_t,
                        y_title=query_t,
                    ),
                    key=f"{key}.{name}",
                    where=col,
                )
            st.caption(t("lesson.positional.fig"))
            return
        case "addnorm":
            stats = compute.residual_norm(ctx.tokens, cfg)
            y = stats.layer_normed[0]
            a = _window(tok)
            fig = normalised_matrix(
                y[a : a + SHOWN].numpy(),
                tok[a : a + SHOWN],
                axis="rows",
                mean=y[a : a + SHOWN].mean(-1).numpy(),
                std=y[a : a + SHOWN].std(-1, correction=0).numpy(),
                title=t("lesson.addnorm.fig"),
                row_title=t("step.axis.token"),
                col_title=t("encoder_decoder.feature"),
                value_label=t("lesson.value"),
            )
        case "transformer":
            a = _window(tok)
            fig = viz.attention_heatmap(
                compute.cross_weights(ctx.tokens, cfg)[:, a : a + SHOWN],
                list(compute.target_tokens()),
                tok[a : a + SHOWN],
                title=t("lesson.transformer.fig"),
                value_label=weight,
                x_title=key_t,
                y_title=query_t,
            )
        case "cost":
            T = np.unique(np.geomspace(1, 4096, 25).astype(int))
            kv = 2 * ctx.settings.d_model * 4 * T
            scores = ctx.settings.n_heads * T.astype(float) ** 2 * 4
            fig = curves(
                T,
                [kv, scores],
                names=[t("lesson.cost.kv"), t("lesson.cost.scores")],
                x_title=t("lesson.cost.x"),
                y_title=t("lesson.cost.y"),
                log_x=True,
                log_y=True,
                integer_x=True,
            )
        case "real":
            fig = share_grid(
                f["shares"],
                title=t("lesson.real.fig"),
                layer_label=t("lesson.layer"),
                head_label=t("lesson.head"),
                value_label=t("lesson.share"),
            )
        case "limits":
            mtok = list(compute.minilm(ctx.settings.text)[0])
            a = _window(mtok, f["top_w"])
            fig = weights_compare(
                f["by_weight"][a : a + SHOWN],
                f["by_norm"][a : a + SHOWN],
                mtok[a : a + SHOWN],
                names=(t("lesson.limits.weights"), t("lesson.limits.norms")),
                title=t("lesson.limits.fig", layer=compute.MINILM_LAYER),
                x_title=key_t,
                value_label=t("lesson.share"),
            )
        case _:
            raise KeyError(station)
    widgets.plot(fig, key=key)


def _causal(ctx: Context):
    return compute.sentence_attention(ctx.tokens, compute.causal_config(ctx.config)).attention


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
        case "real":
            return "llm", {"llm.view": "heads"}
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
