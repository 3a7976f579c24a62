"""Widgets whose state is a stable value: the one way every page draws a control.

Why: Streamlit 1.67 exchanges a select widget's *formatted label* with the browser and keeps
the widget's key as its identity. When the labels change (a language switch, new tokens in
"3: cat") the browser hands back a label that is no longer an option, and the widget returns
that stale string (a `TypeError` on the Step page, a `KeyError` on Train, a radio with nothing
selected). Keyed widgets that are not drawn in a run also lose their state (leave a page and
come back, or an empty sentence that stops the page early).

The rule here: the value lives under the control's own key (`"step.query"`), a plain
session-state entry that no widget owns, so it survives anything. The widget is a view of it
under a derived key, `_w.<key>.<digest of the labels>.<incarnation>`: when the labels change the
widget is a new one, seeded from the value, and a key once replaced never comes back (the
incarnation grows); a change in the browser is copied back to the value before the script runs
(`_sync`; also when the browser's next request stopped that copy: `catch_up`).
Code that sets a control (a Next button, a clamp) writes the value key; the widget follows on
the next draw. Options are stable values (ids, indices, enum strings); what the user
reads comes from `format_func`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from ui.i18n import t

WIDGET_PREFIX = "_w."
_MISSING = object()


def widget_key(key: str, labels: Sequence[str] | None = None) -> str:
    """The widget's own key: the control's key, plus a digest of its labels when it has any."""
    if labels is None:
        return f"{WIDGET_PREFIX}{key}"
    digest = hashlib.blake2s("\x1f".join(labels).encode(), digest_size=5).hexdigest()
    return f"{WIDGET_PREFIX}{key}.{digest}"


def forget_widgets(prefix: str) -> None:
    """Drop the widget side of every control whose key starts with `prefix`: the next draw seeds
    them from their values again, as new widgets (the sidebar does this when the page changes)."""
    ss = st.session_state
    for k in [k for k in ss if isinstance(k, str) and k.startswith(WIDGET_PREFIX + prefix)]:
        del ss[k]
    for k, drawn in ss.get(_DRAWN, {}).items():
        if k.startswith(prefix):
            drawn[0] = None


_DRAWN = "_controls.drawn"  # control key -> [the widget key last drawn, its incarnation]


def _incarnation(key: str, wkey: str) -> str:
    """`wkey` plus a number that grows each time control `key` is drawn as a different widget.

    A widget key never comes back after another one replaced it: heads offered for d_model 64
    and 32 have the same labels, and when d_model went 64 -> 48 -> 32 quickly, the browser
    sometimes answered for the returning widget with its default (1 head) instead of the value
    the run had sent (a race in the browser between the superseded run's widget and the new
    one). A new key is always mounted from the value the run sends."""
    drawn = st.session_state.setdefault(_DRAWN, {})
    last = drawn.setdefault(key, [wkey, 0])
    if last[0] != wkey:
        last[0], last[1] = wkey, last[1] + 1
    return f"{wkey}.{last[1]}"


def nearest(value: Any, options: Sequence) -> Any:
    """The option nearest to `value`: the same one when offered; for numbers the closest (ties
    to the smaller); otherwise the first option."""
    if value in options:
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        numeric = [o for o in options if isinstance(o, (int, float)) and not isinstance(o, bool)]
        if numeric:
            return min(numeric, key=lambda o: (abs(o - value), o))
    return options[0]


def clamp(key: str, options: Sequence, fallback: Any = _MISSING) -> Any:
    """Make the value of control `key` one of `options` (nearest, or `fallback`); return it."""
    ss = st.session_state
    value = ss.get(key, _MISSING)
    if value is _MISSING:
        value = options[0] if fallback is _MISSING else fallback
    elif value not in options:
        value = nearest(value, options) if fallback is _MISSING else fallback
    else:
        return value
    ss[key] = value
    return value


EVERY_RUN, WHEN_DIFFERENT = "every run", "differs"


_PENDING = "_controls.pending"  # control key -> a copy from its widget not done yet (see _sync)


def _sync(key: str, wkey: str, to_value: Callable | None, callback, args, kwargs, pending) -> None:
    """A widget's on_change: copy its value to the control's value, then call the control's own
    callback.

    Streamlit stops a run for the browser's next request at any access to st.session_state, also
    in a callback at the start of a run. A text committed by blur and a click elsewhere at once
    are two requests; the second stopped the first's callback before it copied the text, and the
    run for the second saw no change in the widget (its state already held the new text): the
    value stayed old, and the box was sent the old text (issue 43). So the copy is first noted in
    `pending`, a plain dict that no request can interrupt, and done by `catch_up`: here, and
    at the start of the next run when a request cut it short."""
    pending[key] = (wkey, to_value, callback, args, kwargs)
    catch_up(pending)


def catch_up(pending: dict | None = None) -> None:
    """Do the copies from widgets to values that a new request cut short, in the order they came.
    The router calls this first in every run (before anything reads a value), and every control
    before it reads its value (a fragment's run does not pass through the router)."""
    ss = st.session_state
    pending = ss.get(_PENDING) if pending is None else pending
    for key, (wkey, to_value, callback, args, kwargs) in list((pending or {}).items()):
        if wkey in ss:  # else the widget is gone, and with it what it held
            value = ss[wkey]
            ss[key] = to_value(value) if to_value else value
            if callback is not None:
                callback(*args, **kwargs)
        del pending[key]


def _bind(
    key: str,
    wkey: str,
    shown: Any,
    kw: dict,
    to_value: Callable | None = None,
    seed: str = EVERY_RUN,
) -> dict:
    """Seed the widget from the value and route its changes back to the value.

    `seed`: when the value is sent with the widget. EVERY_RUN (choices, toggles, views): the
    last run always carries the final value, so neither a widget that the browser mounts at its
    default (when a run is superseded before the browser draws it) nor an older run's copy of a
    choice clicked again can win. WHEN_DIFFERENT (sliders, text, number boxes): only when the
    value differs from the widget's (code set it, or the widget is new), so that text being
    typed is never replaced and a thumb being moved is never pulled back: a run that a slider
    did not start (another control's, or one whose slider steps went there and back before it
    began) sent the slider's old value, and when that arrived after the person's next step the
    browser kept the old value while the URL showed the new one; the next action then brought
    the old value back (the walk's "lost" rope_shift, n_heads, n_positions)."""
    ss = st.session_state
    wkey = _incarnation(key, wkey)
    if seed == EVERY_RUN or ss.get(wkey, _MISSING) != shown:
        ss[wkey] = shown
    callback, args, kwargs = kw.pop("on_change", None), kw.pop("args", ()), kw.pop("kwargs", {})
    pending = ss.setdefault(_PENDING, {})
    return {
        **kw,
        "key": wkey,
        "on_change": _sync,
        "args": (key, wkey, to_value, callback, tuple(args or ()), dict(kwargs or {}), pending),
    }


def _labelled(options: list, format_func) -> tuple[list[str], Callable[[Any], str]]:
    """The labels of this draw, and a format function fixed to them (Streamlit may format a
    value again later, when the language or the tokens have already changed)."""
    labels = [str(format_func(o)) for o in options]

    def label_of(option: Any) -> str:
        return labels[options.index(option)] if option in options else str(option)

    return labels, label_of


def _choice(
    make: Callable, label: str, options: Sequence, key: str, format_func, slider=False,
    stable=False, **kw,
) -> Any:
    """A widget over `options`; `slider`: a select slider (seeded WHEN_DIFFERENT, its default
    given as a value), else a selectbox, radio or segmented control (EVERY_RUN, its default an
    index). New labels make a new widget, unless `stable` (see `select_slider`)."""
    options = list(options)
    catch_up()
    value = clamp(key, options, kw.pop("fallback", _MISSING))
    labels, label_of = _labelled(options, format_func)
    seed = WHEN_DIFFERENT if slider else EVERY_RUN
    bound = _bind(key, widget_key(key, None if stable else labels), value, kw, seed=seed)
    # the value is also the widget's default: a widget the browser mounts again (its place in
    # the page changed) starts from its default, and would report that as a change
    default = {"value": value} if slider else {"index": options.index(value)}
    make(label, options, format_func=label_of, **default, **bound)
    return st.session_state[key]


def selectbox(label: str, options: Sequence, *, key: str, format_func=str, where=None, **kw):
    """`st.selectbox` over stable values; returns the value (always one of `options`)."""
    return _choice((where or st).selectbox, label, options, key, format_func, **kw)


def radio(label: str, options: Sequence, *, key: str, format_func=str, where=None, **kw):
    """`st.radio` over stable values; returns the value (always one of `options`)."""
    return _choice((where or st).radio, label, options, key, format_func, **kw)


def enum_radio(text: str, options: Sequence, *, key: str, labels: str | None = None, **kw):
    """`radio` over enum values, its texts from the string table: the label `text`, each
    option's `<labels>.<value>` (labels: `text` unless given); horizontal unless told."""
    prefix = text if labels is None else labels
    kw.setdefault("horizontal", True)
    return radio(t(text), options, key=key, format_func=lambda v: t(f"{prefix}.{v}"), **kw)


def select_slider(
    label: str, options: Sequence, *, key: str, format_func=str, where=None, stable=False, **kw
):
    """`st.select_slider` over stable values; returns the value (always one of `options`).

    `stable`: the same widget when the options change (its value is always one of them): the
    browser updates the slider instead of building a new one, which costs every step whose
    options change (the efficient page's key/value slider follows the heads: README, "Where a
    rerun's time goes"). The value is clamped before the draw and sent whenever it differs from
    the widget's."""
    make = (where or st).select_slider
    return _choice(make, label, options, key, format_func, slider=True, stable=stable, **kw)


def multiselect(label: str, options: Sequence, *, key: str, format_func=str, where=None, **kw):
    """`st.multiselect` over stable values; the value is a list of options (others dropped)."""
    options = list(options)
    catch_up()
    ss = st.session_state
    chosen = [o for o in ss.get(key, []) if o in options]
    limit = kw.get("max_selections")
    chosen = chosen[:limit] if limit else chosen
    if ss.get(key) != chosen:
        ss[key] = chosen
    labels, label_of = _labelled(options, format_func)
    wkey = widget_key(key, labels)
    bound = _bind(key, wkey, chosen, kw, list)
    (where or st).multiselect(label, options, format_func=label_of, default=chosen, **bound)
    return list(ss[key])


def _plain(
    make: Callable,
    label: str,
    key: str,
    identity: Sequence[str] | None = None,
    seed: str = EVERY_RUN,
    **kw,
):
    """A widget without options; `identity`: what else makes Streamlit draw it as a new widget
    (a slider's range), so that a new one is seeded from the value too."""
    wkey = widget_key(key, identity)
    catch_up()
    value = st.session_state[key]
    make(label, value=value, **_bind(key, wkey, value, kw, seed=seed))  # default: see _choice
    return st.session_state[key]


def shown_slider(label: str, options: Sequence, value: Any, *, format_func=str, where=None,
                 help: str | None = None) -> None:
    """A disabled select slider that shows a value the page computed (not a control: it holds
    no state), e.g. the temperature a toggle fixes. `value` is added to `options` if missing."""
    options = sorted({*options, value})
    (where or st).select_slider(
        label, options, value=value, format_func=format_func, disabled=True, help=help
    )


def toggle(label: str, *, key: str, where=None, **kw) -> bool:
    return _plain((where or st).toggle, label, key, **kw)


def checkbox(label: str, *, key: str, where=None, **kw) -> bool:
    return _plain((where or st).checkbox, label, key, **kw)


def number_input(label: str, *, key: str, where=None, **kw):
    """`st.number_input`; the value is kept within [min_value, max_value] when they are given."""
    catch_up()
    ss = st.session_state
    lo, hi = kw.get("min_value"), kw.get("max_value")
    value = ss[key]
    if lo is not None and value < lo:
        ss[key] = lo
    if hi is not None and value > hi:
        ss[key] = hi
    bounds = [str(lo), str(hi)]  # digits being typed are not replaced: seeded when they differ
    make = (where or st).number_input
    return _plain(make, label, key, identity=bounds, seed=WHEN_DIFFERENT, **kw)


def slider(label: str, lo, hi, *, key: str, where=None, **kw):
    """`st.slider` from `lo` to `hi`; the value is clamped into that range."""
    catch_up()
    ss = st.session_state
    ss[key] = min(max(ss[key], lo), hi)
    make = (where or st).slider
    bounds = [str(lo), str(hi), str(kw.get("step"))]
    slider = lambda lbl, **k: make(lbl, lo, hi, **k)  # noqa: E731
    return _plain(slider, label, key, identity=bounds, seed=WHEN_DIFFERENT, **kw)


def text(label: str, *, key: str, limit: int, where=None, area: bool = False, **kw) -> str:
    """A text box with no hard cap in the browser (a paste past `limit` is never dropped); the
    value keeps everything typed. Returns the text cut to `limit` characters; the caller says so
    when it was cut (`too_long(key, limit)`)."""
    make = (where or st).text_area if area else (where or st).text_input
    value = _plain(make, label, key, seed=WHEN_DIFFERENT, **kw)
    value = value if isinstance(value, str) else ""
    return value[:limit]


def too_long(key: str, limit: int) -> int | None:
    """The length of the text under `key` when it is over `limit` characters, else None."""
    value = st.session_state.get(key)
    return len(value) if isinstance(value, str) and len(value) > limit else None


class _Closed:
    """A view that is not open: nothing is drawn in it (`draw_open` skips it)."""

    open = False


class _Open:
    """The open view: `with view:` draws into its container."""

    open = True

    def __init__(self, container) -> None:
        self._container = container

    def __enter__(self):
        return self._container.__enter__()

    def __exit__(self, *exc):
        return self._container.__exit__(*exc)


def views(ids: Sequence[str], labels: Sequence[str], *, key: str, where=None) -> dict:
    """A page's views, one open at a time: a segmented control over the view ids (its state,
    under `key`, is an id) and below it one container, the open view's; returns {id: container}
    where only the open view's `.open` is True (draw only that one). Set
    `st.session_state[key] = id` in a callback to open another.

    Not `st.tabs`: its tab panel watches every change inside it (react-aria looks for a
    focusable child after each DOM mutation, which makes the browser compute styles), and a
    heads step redrew a page with tabs slower than the same page with a segmented control
    (README, "Where a rerun's time goes")."""
    ids, where = list(ids), where or st
    text = dict(zip(ids, labels))

    def segmented(label: str, options: list, *, index: int, **kw) -> None:
        # required: clicking the open view keeps it open (no view is never a state)
        where.segmented_control(
            label, options, default=options[index], required=True,
            label_visibility="collapsed", **kw,
        )  # fmt: skip

    shown = _choice(segmented, t("view.label"), ids, key, text.__getitem__)
    view = _Open(where.container(key=f"view-{key}"))
    return {i: view if i == shown else _Closed() for i in ids}


def enum_views(text: str, ids: Sequence[str], *, key: str, where=None) -> dict:
    """`views` over ids whose labels are the string table's `<text>.<id>` (as `enum_radio`)."""
    return views(ids, [t(f"{text}.{i}") for i in ids], key=key, where=where)


def draw_open(views: dict, draw: dict[str, Callable[[], None]]) -> None:
    """Draw the open view of `views` (from `views()`): `draw[id]()` inside it; the closed views
    stay empty, so a rerun draws one view's charts."""
    for view_id, view in views.items():
        if view.open:
            with view:
                draw[view_id]()


def defaults(values: dict) -> None:
    """Give controls their first values (kept across reruns, pages and languages afterwards)."""
    for name, value in values.items():
        st.session_state.setdefault(name, value)
