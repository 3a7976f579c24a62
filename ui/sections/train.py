"""The Train page's sections: the settings, the live run, and the finished run (curves,
snapshots, try-it box, downloads).

State (this session's only, see `ui/sections/live.py`): `LIVE` holds a run in progress
(`LiveRun`), `RUN` the last finished one (`FinishedRun`); a new run replaces both. Training
happens inside the script run, one short chunk at a time, redrawing the progress bar and the
curve after each chunk.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import streamlit as st

import viz
from mha_core import TASKS
from mha_core.transformer import (
    InputProblem,
    Prediction,
    alignment,
    alignment_over_time,
    n_parameters,
    try_input,
    weights_bytes,
)
from ui import controls as ctl
from ui import present, url, widgets
from ui.compute import train as compute
from ui.compute.train import FinishedRun, LiveRun, TrainChoice
from ui.i18n import t
from ui.params import OneOf, Param, Range, cut, index, whole
from ui.sections import live as live_run
from viz.train import alignment_curves, training_curves

K_TASK, K_DIM, K_HEADS, K_LAYERS = "train.task", "train.dim", "train.heads", "train.layers"
K_STEPS, K_LR, K_SEED = "train.steps", "train.lr", "train.run_seed"
K_SNAP, K_KIND, K_LAYER = "train.snapshot", "train.kind", "train.layer"
K_TRY, K_TRY_KIND, K_TRY_LAYER = "train.try", "train.try_kind", "train.try_layer"
LIVE, RUN, STOP = live_run.live_keys("train")
ERROR = "train._error"


def _fmt_lr(lr: float) -> str:
    return f"{lr:g}"


KINDS = ("cross", "decoder_self", "encoder_self")
OCTETS = "application/octet-stream"
TRY_DEFAULT = "cabbage"  # every letter in a..h
TRY_CHARS = 200

_D = TrainChoice()  # the core's defaults: train_toy("reverse", seed=0)


def _parse_lr(raw: str) -> float:
    texts = [_fmt_lr(lr) for lr in compute.LRS]
    return compute.LRS[texts.index(OneOf(tuple(texts))(raw))]


# the settings in the URL (not the weights): /train?task=reverse&dim=64&heads=4&...
PARAMS = (
    Param(K_TASK, _D.task, OneOf(compute.TASK_NAMES)),
    Param(K_DIM, _D.d_model, OneOf(compute.D_MODELS, whole)),
    # the heads offered are the divisors of the width
    Param(K_HEADS, _D.n_heads, Range(1, compute.MAX_HEADS), depends_on=frozenset({"dim"})),
    Param(K_LAYERS, _D.n_layers, Range(1, compute.MAX_LAYERS)),
    Param(K_STEPS, _D.steps, Range(1, compute.MAX_STEPS)),
    Param(K_LR, _D.lr, _parse_lr),
    Param(K_SEED, _D.seed, Range(0, compute.MAX_SEED)),
    # how the trained model is looked at (the model itself cannot be in a link)
    Param(K_KIND, "cross", OneOf(KINDS)),
    Param(K_LAYER, 0, index(compute.MAX_LAYERS)),
    Param(K_TRY_KIND, "cross", OneOf(KINDS)),
    Param(K_TRY_LAYER, 0, index(compute.MAX_LAYERS)),
    Param(K_TRY, TRY_DEFAULT, cut(TRY_CHARS)),
)


def current_choice() -> TrainChoice:
    ss = st.session_state
    return TrainChoice(
        task=ss[K_TASK],
        d_model=ss[K_DIM],
        n_heads=ss[K_HEADS],
        n_layers=ss[K_LAYERS],
        steps=ss[K_STEPS],
        lr=ss[K_LR],
        seed=ss[K_SEED],
    )


def _start() -> None:
    """The Train button: a new run replaces the current one (finished or not)."""
    ss = st.session_state
    ss.pop(ERROR, None)
    try:
        run = LiveRun.start(current_choice())
    except ValueError as exc:  # the controls only offer valid settings; say why if not
        ss[ERROR] = str(exc)
        return
    ss.pop(K_SNAP, None)  # the new run's scrubber starts at its last snapshot
    live_run.begin("train", run)


def settle() -> None:
    """Before anything is drawn: end a live run that Stop was pressed for (or that is done)."""
    live_run.settle("train")


def intro() -> None:
    task = TASKS[st.session_state[K_TASK]]
    alphabet = " ".join(task.alphabet)
    present.prose(t("train.intro", min_len=task.min_len, max_len=task.max_len, alphabet=alphabet))
    st.caption(t("train.sidebar_note"))


def controls() -> None:
    """The settings of the next run, and the Train / Stop buttons."""
    c_task, c_desc = st.columns([1, 2])
    task = ctl.enum_radio(
        "train.task", compute.TASK_NAMES, key=K_TASK, help=t("train.task_help"), where=c_task
    )
    c_desc.markdown(t(f"train.task_desc.{task}"))
    c_dim, c_heads, c_layers = st.columns(3)
    d_model = ctl.select_slider(
        t("train.d_model"), compute.D_MODELS, key=K_DIM, help=t("train.d_model_help"), where=c_dim
    )
    ctl.select_slider(
        t("train.n_heads"),
        compute.head_options(d_model),
        key=K_HEADS,
        help=t("train.n_heads_help"),
        where=c_heads,
    )
    ctl.select_slider(
        t("train.n_layers"),
        range(1, compute.MAX_LAYERS + 1),
        key=K_LAYERS,
        help=t("train.n_layers_help"),
        where=c_layers,
    )
    c_steps, c_lr, c_seed = st.columns(3)
    ctl.number_input(
        t("train.steps"),
        min_value=1,
        max_value=compute.MAX_STEPS,
        step=50,
        key=K_STEPS,
        help=t("train.steps_help", max=compute.MAX_STEPS),
        where=c_steps,
    )
    ctl.select_slider(
        t("train.lr"),
        compute.LRS,
        format_func=_fmt_lr,
        key=K_LR,
        help=t("train.lr_help"),
        where=c_lr,
    )
    live_run.seed_input("train", K_SEED, c_seed)
    _buttons(current_choice())


def _buttons(choice: TrainChoice) -> None:
    """d_k of the next run, the Train / Stop buttons, and the last run's error if any."""
    ss = st.session_state
    c = choice  # d_k, and how often the run keeps a snapshot
    text = t("train.d_k", d_model=c.d_model, n_heads=c.n_heads, d_k=c.d_k, every=c.snapshot_every)
    st.markdown(text)
    live_run.buttons("train", _start)
    if ss.get(ERROR):
        st.error(t("msg.error", error=ss[ERROR]))


def _settings_line(choice: TrainChoice) -> str:
    return t(
        "train.live.settings",
        task=t(f"train.task.{choice.task}"),
        d_model=choice.d_model,
        n_heads=choice.n_heads,
        n_layers=choice.n_layers,
        steps=choice.steps,
        lr=_fmt_lr(choice.lr),
        seed=choice.seed,
    )


def _curve_figure(cols: dict, total: int, title: str):
    return training_curves(
        cols["step"],
        cols["loss"],
        cols["token_acc"],
        cols["exact_acc"],
        total_steps=total,
        title=title,
        step_label=t("train.axis.step"),
        loss_label=t("train.axis.loss"),
        token_label=t("train.axis.token_acc"),
        exact_label=t("train.axis.exact_acc"),
        accuracy_label=t("train.axis.accuracy"),
    )


def _measures(live: LiveRun) -> dict:
    return {"loss": f"{live.loss[-1]:.4f}", "exact": f"{live.exact_acc[-1]:.0%}"}


def _draw_live_curve(run: LiveRun) -> None:
    fig = _curve_figure(run.curve(), run.choice.steps, t("train.fig.live"))
    widgets.plot(fig, key=f"train.fig.live.{run.step}")  # one key per redraw


def live_training() -> None:
    """Train the live run (if any) chunk by chunk, redrawing after each; at the end keep the
    finished run and rerun the page to show it."""
    run: LiveRun | None = st.session_state.get(LIVE)
    if run is None:
        return
    live_run.train("train", run, _measures, _draw_live_curve, _settings_line(run.choice))


def finished_run() -> FinishedRun | None:
    run = st.session_state.get(RUN)
    if run is None and st.session_state.get(LIVE) is None:
        st.info(t("train.none"))
    return run


# --- the finished run ---------------------------------------------------------------------------
def summary(fin: FinishedRun) -> None:
    run = fin.run
    caption = _settings_line(fin.choice) + " " + t("train.params", n=n_parameters(run))
    measures = {"elapsed": f"{run.elapsed_s:.1f}", "acc": f"{fin.greedy_acc:.1%}", "n": fin.n_eval}
    live_run.result_header("train", run, fin.wall_s, caption, **measures)


def _snapshot_step(run) -> int:
    """The scrubber's step: the last snapshot unless one of this run's was chosen."""
    steps = list(run.snapshot_steps)
    return ctl.clamp(K_SNAP, steps, fallback=steps[-1])


def curves(fin: FinishedRun) -> None:
    run = fin.run
    # the steps run: after Stop the axis spanned the planned steps, most of it empty
    fig = _curve_figure(run.history_columns(), run.steps_done, t("train.fig.curves"))
    widgets.plot(fig, key="train.fig.curves")
    present.prose(t("train.curves_note"))
    files = (
        ("weights", weights_bytes, "toy_transformer.safetensors", OCTETS),
        ("history", compute.history_csv, "training_history.csv", "text/csv"),
    )
    for col, (kind, build, file_name, mime) in zip(st.columns(len(files)), files):
        col.download_button(
            t(f"train.download_{kind}"),
            data=partial(build, run),
            file_name=file_name,
            mime=mime,
            on_click="ignore",
            key=f"train.download_{kind}",
        )
    st.caption(t("train.download_help"))


def _kind_and_layer(kind_key: str, layer_key: str, n_layers: int) -> tuple[str, int]:
    c_kind, c_layer = st.columns([3, 1])
    kind = ctl.enum_radio("train.kind", KINDS, key=kind_key, where=c_kind)
    layer = ctl.clamp(layer_key, range(n_layers))
    if n_layers > 1:
        layer = ctl.selectbox(t("train.layer"), range(n_layers), key=layer_key, where=c_layer)
    return kind, layer


def _hint(kind: str, task: str) -> str:
    return t(f"train.hint.cross.{task}") if kind == "cross" else t(f"train.hint.{kind}")


def _grid(weights: np.ndarray, rows, cols, titles: list[str], key: str) -> None:
    label = t("train.weight")
    fig = viz.head_grid(
        weights, list(rows), list(cols), titles=titles, value_label=label, **widgets.axis_titles()
    )
    widgets.plot(fig, key=key)


def _axes(kind: str, src, tgt) -> tuple:
    """(query tokens, key tokens) of an attention kind."""
    return {"cross": (tgt, src), "decoder_self": (tgt, tgt), "encoder_self": (src, src)}[kind]


def _probe_heads(snap, task, n_layers: int, probe: tuple, key: str = "train.fig.snapshot"):
    """The kind and layer pickers, and every head's attention on the probe in `snap`."""
    kind, layer = _kind_and_layer(K_KIND, K_LAYER, n_layers)
    weights = {"cross": snap.cross, "decoder_self": snap.decoder_self}
    w = (weights | {"encoder_self": snap.encoder_self})[kind][layer]  # (nh, Tq, Tk)
    titles = [t("train.head_title", h=h) for h in range(w.shape[0])]
    shares = alignment(task, w, len(task.probe)) if kind == "cross" else None
    if shares is not None:
        titles = [t("train.head_title_share", h=h, share=f"{s:.2f}") for h, s in enumerate(shares)]
    present.prose(_hint(kind, task.name))
    rows, cols = _axes(kind, *probe)
    _grid(w, rows, cols, titles, key)


def before_training(choice: TrainChoice) -> None:
    """Before any run: the untrained model's heads on the probe (what random heads look like)."""
    if st.session_state.get(RUN) is not None or st.session_state.get(LIVE) is not None:
        return
    view = compute.untrained(choice)
    task = TASKS[choice.task]
    st.header(t("train.before.title"))
    present.prose(t("train.before.text", probe=" ".join(task.probe), seed=choice.seed))
    _probe_heads(view.snapshot, task, choice.n_layers, view.probe, key="train.fig.before")


def snapshots(fin: FinishedRun) -> None:
    """The slider over the saved snapshots and the probe's attention at the chosen one; how the
    heads aligned over the whole run."""
    run = fin.run
    st.header(t("train.snap.title"))
    present.prose(t("train.snap.text", probe=" ".join(run.task.probe)))
    snapshot(fin)
    over_time = alignment_over_time(run)
    if over_time is not None:
        st.subheader(t("train.align.title"))
        present.prose(t(f"train.align.text.{run.task.name}"))
        L, nh, _ = over_time.shape
        names = [t("train.align.name", layer=i, h=h) for i in range(L) for h in range(nh)]
        fig = alignment_curves(
            list(run.snapshot_steps),
            over_time.reshape(L * nh, -1),
            names,
            step_label=t("train.axis.step"),
            value_label=t("train.align.value"),
        )
        widgets.plot(fig, key="train.fig.align")


@url.fragment
def snapshot(fin: FinishedRun) -> None:
    """A snapshot's step and the probe's attention in it. The slider and the pickers rerun this
    section alone: a step redraws one chart (the curves stay)."""
    run = fin.run
    _snapshot_step(run)
    step = ctl.select_slider(t("train.snapshot"), list(run.snapshot_steps), key=K_SNAP)
    snap = run.snapshots[step]
    st.caption(
        t(
            "train.snap.caption",
            step=step,
            steps=run.steps_done,  # run, not planned ("Step 140 of 1000" after Stop)
            loss=f"{snap.loss:.4f}",
            prediction=" ".join(snap.prediction),
        )
    )
    _probe_heads(snap, run.task, run.settings.n_layers, (run.probe_src, run.probe_tgt_in))


def _problem(p: InputProblem, task) -> None:
    alphabet = " ".join(task.alphabet)
    if p.kind == "empty":
        st.info(t("train.try.empty", alphabet=alphabet))
    elif p.kind == "unknown":
        st.error(t("train.try.unknown", alphabet=alphabet))
        st.code(" ".join(p.unknown), language=None)  # literal: never markup
    else:
        st.error(t("train.try.length", max_len=task.max_len, n=p.n))


def try_it(fin: FinishedRun) -> None:
    """Type a sequence; see the model's greedy answer and the attention that made it."""
    run, task = fin.run, fin.run.task
    st.header(t("train.try.title"))
    alphabet = " ".join(task.alphabet)
    text = ctl.text(
        t("train.try.label"),
        key=K_TRY,
        limit=TRY_CHARS,
        help=t("train.try.help", alphabet=alphabet, min_len=task.min_len, max_len=task.max_len),
    )
    n_chars = ctl.too_long(K_TRY, TRY_CHARS)
    if n_chars:
        st.warning(t("msg.too_long", n=n_chars, limit=TRY_CHARS))
    result = try_input(run, text)
    if isinstance(result, InputProblem):
        _problem(result, task)
        return
    p: Prediction = result
    st.markdown(
        t(
            "train.try.answer",
            input=" ".join(p.input),
            output=" ".join(p.output) or t("train.try.empty_output"),
            expected=" ".join(p.expected),
        )
    )
    if p.correct:
        st.success(t("train.try.right"))
    else:
        st.error(t("train.try.wrong"))
    if not p.in_training_range:
        n, key = len(p.input), "train.try.outside_one" if len(p.input) == 1 else "train.try.outside"
        st.info(t(key, n=n, min_len=task.min_len, max_len=task.max_len))
    st.caption(t("train.try.attention"))
    kind, layer = _kind_and_layer(K_TRY_KIND, K_TRY_LAYER, run.settings.n_layers)
    weights = {"cross": p.cross, "decoder_self": p.decoder_self, "encoder_self": p.encoder_self}
    w = weights[kind][layer]
    rows, cols = _axes(kind, p.src_tokens, p.tgt_tokens)
    titles = [t("train.head_title", h=h) for h in range(w.shape[0])]
    _grid(w, rows, cols, titles, "train.fig.try")
