"""The Induction page's sections: the settings, the untrained probe, the two live runs, and the
finished pair (head scores over training, probe attention, next-token prediction with each
head's direct contribution, the attention sink).

State (this session's only), as on the Train page (`ui/sections/live.py`): `LIVE` holds the
pair in progress (`LivePair`), `RUN` the last finished pair; Train both replaces them. Training
happens inside the script run in short chunks, redrawing after each; any rerun interrupts
between chunks.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import viz
from mha_core.gpt import DecoderSettings, InductionTask, NextToken, model_sink_share, next_token
from mha_core.transformer import InputProblem
from ui import controls as ctl
from ui import present, url, widgets
from ui.compute import induction as compute
from ui.compute.induction import FinishedPair, InductionChoice, LivePair
from ui.i18n import t
from ui.sections import live as live_run
from ui.state import parse_int
from viz.induction import contribution_bars, control_curves, score_curves, share_grid, topk_bars
from viz.matrix import matrix_heatmap

K_STEPS, K_SEED = "induction.steps", "induction.run_seed"
K_LAYER, K_SNAP, K_TYPED = "induction.layer", "induction.snapshot", "induction.typed"
K_HEAD = "induction.head"
LIVE, RUN, STOP = live_run.live_keys("induction")
TYPED_DEFAULT = "xkcdqwertyuipzmbqwerty"
TYPED_CHARS = 200

_D = InductionChoice()
_S = DecoderSettings()
_TASK = InductionTask()
BEST = "best"  # the head option that follows the highest score of the layer's pattern
HEADS = (BEST, *range(_S.n_heads))
DEFAULTS = {K_STEPS: _D.steps, K_SEED: _D.seed, K_LAYER: 1, K_HEAD: BEST, K_TYPED: TYPED_DEFAULT}


def _parse_head(raw: str) -> str | int:
    return BEST if raw == BEST else parse_int(raw, 0, _S.n_heads - 1)


def _parse_steps(raw: str) -> int:
    value = parse_int(raw, 1, max(compute.STEP_CHOICES))
    if value not in compute.STEP_CHOICES:
        raise ValueError(raw)
    return value


URL_PARSERS = {
    K_STEPS: _parse_steps,
    K_SEED: lambda r: parse_int(r, 0, compute.MAX_SEED),
    K_LAYER: lambda r: parse_int(r, 0, _S.n_layers - 1),
    K_SNAP: lambda r: parse_int(r, 0, max(compute.STEP_CHOICES)),
    K_HEAD: _parse_head,
    K_TYPED: lambda r: r[:TYPED_CHARS],
}


def _choice() -> InductionChoice:
    ss = st.session_state
    return InductionChoice(steps=ss[K_STEPS], seed=ss[K_SEED])


def _start() -> None:
    live_run.begin("induction", LivePair.start(_choice()))


def settle() -> None:
    """Before anything is drawn: end a live pair that Stop was pressed for (or that is done)."""
    live_run.settle("induction")


def intro() -> None:
    present.prose(t("induction.intro", d_model=_S.d_model, n_heads=_S.n_heads))
    st.caption(t("induction.sidebar_note"))


def controls() -> None:
    c_steps, c_seed = st.columns(2)
    ctl.select_slider(
        t("induction.steps"),
        compute.STEP_CHOICES,
        key=K_STEPS,
        help=t("induction.steps_help", batch=_S.batch_size),
        where=c_steps,
    )
    live_run.seed_input("induction", K_SEED, c_seed)
    live_run.buttons("induction", _start)


def _kind(layer: int) -> str:
    """The pattern a layer's heads are scored on: previous token in layer 0, induction above."""
    return "previous" if layer == 0 else "induction"


def _probe_view(snap, tokens, key: str) -> None:
    """The layer and head pickers beside one head's attention on the probe in `snap` (the
    whole probe stays legible on a phone); each head is offered with its score, and "best"
    follows the head that scores highest. A step redraws this one chart."""
    c_pick, c_chart = st.columns([1, 2])
    layer = ctl.radio(
        t("induction.layer"), list(range(_S.n_layers)), key=K_LAYER, horizontal=True, where=c_pick
    )
    kind = _kind(layer)
    scores = snap.scores[kind][layer]  # (nh,)
    best = int(np.argmax(scores))

    def label(h) -> str:
        if h == BEST:
            return t("induction.head_best", h=best)
        return t("induction.head_title_score", h=h, kind=t(f"induction.kind.{kind}"),
                 score=f"{scores[h]:.2f}")  # fmt: skip

    choice = ctl.radio(t("induction.head"), HEADS, key=K_HEAD, format_func=label, where=c_pick)
    head = best if choice == BEST else choice
    weights = snap.probe_attention[layer]  # (nh, T, T)
    fig = matrix_heatmap(
        weights[head],
        list(tokens),
        list(tokens),
        title=t("induction.probe_head", layer=layer, head=label(head)),
        row_title=t("induction.query"),
        col_title=t("induction.key"),
        value_label=t("induction.weight"),
        colorscale=viz.DEFAULT_PALETTE,
        signed=False,
        zmax=float(np.max(weights)),  # one scale for the layer's heads
        colorbar_below=True,  # the side bar would take a third of a phone's width
    )
    widgets.plot(fig, key=key, where=c_chart)


def untrained() -> None:
    """Before any run, when no stored run is kept with the app: the untrained model's
    attention on the probe."""
    ss = st.session_state
    if ss.get(LIVE) is not None or ss.get(RUN) is not None or compute.stored_pair() is not None:
        return
    st.header(t("induction.probe.title"))
    st.markdown(t("induction.probe.text", probe="".join(_TASK.probe)))
    _untrained_view(ss[K_SEED])


@url.fragment
def _untrained_view(seed: int) -> None:
    tokens, snap = compute.untrained_probe(seed)
    layer = ctl.clamp(K_LAYER, range(_S.n_layers))  # a stale one is not named in the note
    st.info(t("induction.untrained", layer=layer))
    _probe_view(snap, tokens, "induction.fig.untrained")


def _names() -> list[str]:
    return [t(f"induction.name.{n}") for n in compute.LAYERS]


def _curves(live_or_fin, total: int, key: str) -> None:
    if isinstance(live_or_fin, LivePair):
        runs = [live_or_fin.curve(n) for n in compute.LAYERS]
    else:
        runs = []
        for n in compute.LAYERS:
            hist = live_or_fin.runs[n].history
            runs.append(
                {
                    "step": np.array([r.step for r in hist]),
                    "loss": np.array([r.loss for r in hist]),
                    "accuracy": np.array([r.accuracy for r in hist]),
                }
            )
    fig = control_curves(
        runs,
        total_steps=total,
        names=_names(),
        step_label=t("induction.axis.step"),
        loss_label=t("induction.axis.loss"),
        acc_label=t("induction.axis.acc"),
        title=t("induction.fig.live"),
    )
    widgets.plot(fig, key=key)


def _measures(live: LivePair) -> dict:
    """The mean accuracy on the repeats over each model's last 20 steps."""
    c1, c2 = live.curves[1]["accuracy"], live.curves[2]["accuracy"]
    return {"acc1": f"{np.mean(c1[-20:]):.0%}", "acc2": f"{np.mean(c2[-20:]):.0%}"}


def live_training() -> None:
    """Train the live pair chunk by chunk, redrawing after each; keep it when it ends."""
    live: LivePair | None = st.session_state.get(LIVE)
    if live is None:
        return
    live_run.train("induction", live, _measures, _draw_live_curves)


def _draw_live_curves(live: LivePair) -> None:
    _curves(live, live.choice.steps, f"induction.fig.live.{live.step}")


def finished() -> FinishedPair | None:
    """The last pair trained here; before any, the default pair stored with the app (the page
    opens on it: its stripe at once); during a run, none."""
    ss = st.session_state
    if ss.get(LIVE) is not None:
        return None
    return ss.get(RUN) or compute.stored_pair()


def summary(fin: FinishedPair) -> None:
    run2, run1 = fin.runs[2], fin.runs[1]
    acc = {"acc2": f"{run2.accuracy:.1%}", "acc1": f"{run1.accuracy:.1%}"}
    if fin.stored:  # the stripe first: what the page opens on
        st.header(t("induction.result.title"))
        s = fin.choice
        st.info(t("induction.stored", steps=s.steps, seed=s.seed, **acc))
        _probe_section(fin)
    else:
        live_run.result_header("induction", run2, fin.wall_s, **acc)
    _curves(fin, fin.choice.steps, "induction.fig.curves")


def scores(fin: FinishedPair) -> None:
    """The head scores over training, then a snapshot's attention on the probe."""
    run = fin.model_run
    st.header(t("induction.scores.title"))
    present.prose(t("induction.scores.text"))
    cols = st.columns(2)
    for col, (kind, layer) in zip(
        cols, (("previous", 0), ("induction", run.settings.n_layers - 1))
    ):
        x, s = run.curve(kind)  # (S,), (S, L, nh)
        nh = s.shape[2]
        names = [t("induction.scores.name", layer=layer, h=h) for h in range(nh)]
        fig = score_curves(
            x,
            s[:, layer],
            names,
            step_label=t("induction.axis.step"),
            value_label=t("induction.scores.value"),
            title=t(f"induction.scores.{kind}"),
        )
        with col:
            widgets.plot(fig, key=f"induction.fig.scores.{kind}")
    if not fin.stored:  # a stored run shows it first (`summary`)
        _probe_section(fin)


def _probe_section(fin: FinishedPair) -> None:
    st.subheader(t("induction.probe_attention"))
    st.markdown(t("induction.probe.text", probe="".join(fin.model_run.task.probe)))
    snapshot(fin)


@url.fragment
def snapshot(fin: FinishedPair) -> None:
    """A snapshot's step and the probe's attention in it. Its slider and pickers rerun this
    section alone: a step redraws the probe's chart only (the curves above stay)."""
    run = fin.model_run
    steps = list(run.snapshots)
    snap_step = ctl.select_slider(t("induction.snap"), steps, key=K_SNAP, fallback=steps[-1])
    snap = run.snapshots[snap_step]
    st.caption(t("induction.snap.caption", step=snap_step, acc=f"{snap.accuracy:.1%}"))
    _probe_view(snap, compute.probe_tokens(run.task), "induction.fig.probe")


def _problem(p: InputProblem, max_len: int) -> None:
    if p.kind == "empty":
        st.info(t("induction.try.empty"))
    elif p.kind == "unknown":
        st.error(t("induction.try.unknown"))
        st.code(" ".join(p.unknown), language=None)  # literal: never markup
    else:
        st.error(t("induction.try.length", max_len=max_len, n=p.n))


def _part_label(name: str) -> str:
    if name in ("embedding", "biases"):
        return t(f"induction.try.part.{name}")
    layer, head = name[1:].split("H")
    return t("induction.scores.name", layer=layer, h=head)


def try_it(fin: FinishedPair) -> None:
    run = fin.model_run
    max_len = run.task.seq_len - 1
    st.header(t("induction.try.title"))
    text = ctl.text(
        t("induction.try.label"),
        key=K_TYPED,
        limit=TYPED_CHARS,
        help=t("induction.try.help", max_len=max_len),
    )
    result = next_token(run.model, run.task, text)
    if isinstance(result, InputProblem):
        _problem(result, max_len)
        return
    p: NextToken = result
    c_top, c_parts = st.columns([1, 2])
    names, probs = zip(*p.top)
    fig = topk_bars(
        list(names),
        probs,
        value_label=t("induction.try.value"),
        title=t("induction.try.top", k=len(p.top), last=p.tokens[-1]),
    )
    with c_top:
        widgets.plot(fig, key="induction.fig.top")
    fig = contribution_bars(
        [_part_label(n) for n in p.parts],
        list(p.parts.values()),
        p.parts_sum,
        total_label=t("induction.try.sum"),
        value_label=t("induction.try.value_parts"),
        title=t("induction.try.parts", token=p.chosen),
    )
    with c_parts:
        widgets.plot(fig, key="induction.fig.parts")
    st.markdown(t("induction.try.parts_text", total=f"{p.parts_sum:.4f}", logit=f"{p.logit:.4f}"))


def sink(fin: FinishedPair) -> None:
    st.header(t("induction.sink.title"))
    present.prose(t("induction.sink.text"))
    c_ours, c_minilm = st.columns(2)
    fig = share_grid(
        model_sink_share(fin.model_run.model, fin.model_run.task),
        layer_label=t("induction.axis.layer"),
        head_label=t("induction.axis.head"),
        value_label=t("induction.sink.value"),
        title=t("induction.sink.ours"),
    )
    with c_ours:
        widgets.plot(fig, key="induction.fig.sink")
    try:
        minilm = compute.minilm_sink()
    except FileNotFoundError:
        c_minilm.info(t("induction.sink.minilm_missing"))
        return
    fig = share_grid(
        minilm,
        layer_label=t("induction.axis.layer"),
        head_label=t("induction.axis.head"),
        value_label=t("induction.sink.value"),
        title=t("induction.sink.minilm"),  # the sentence under it: a title is never wrapped
    )
    with c_minilm:
        widgets.plot(fig, key="induction.fig.sink_minilm")
        st.caption(t("induction.sink.minilm_sentence", sentence=compute.MINILM_SENTENCE))
