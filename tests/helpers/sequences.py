"""Users act in sequences: type, slide, switch language, change page, come back. One Hypothesis
state machine drives any page of the app through AppTest with the sidebar's settings and the
page's own controls, and checks after every step that the page holds together.

What AppTest cannot follow: it drops the widgets that the `st.navigation` entry script (the
sidebar, made in router.py) creates from its element tree after the first rerun, so the sidebar's
settings are set here through their values in session state, as a shared link or a click would
leave them; the page's own widgets are clicked for real. The Chromium walk
(tests/browser/test_random_walk.py) clicks the sidebar's widgets themselves.
"""

from __future__ import annotations

from hypothesis import strategies as hs
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from streamlit.testing.v1 import AppTest

from mha_core.lessons.scaling import D_K_GRID
from tests.helpers.app import make_app
from tests.helpers.depends import DEPENDS, page_params
from ui import controls, url
from ui.compute import train as train_compute
from ui.pages import BY_ID, IDS
from ui.params import OneOf, Param, Range
from ui.sections import efficient, lesson, llm, reading
from ui.sections import encoder_decoder as encdec
from ui.sections.scaling import TEMPERATURES
from ui.state import EXAMPLES, URL_TEXT_CHARS, parse_bool

WORDS_500 = " ".join(["the quick brown fox jumps over the lazy dog"] * 56)  # 504 words
TEXTS = [
    *EXAMPLES,
    "",
    "   ",
    "?!.,",
    "x",
    " ".join(["the"] * 40),
    '<b>x</b> <a href="https://example.com">x</a> <img src=x onerror=alert(1)>',
    '<span style="font-size:400px">W</span>',
    WORDS_500,
    "注意力机制很有用。我想住在欧洲。",
    "👩‍👩‍👧 family\u200b\u200bzero width",
    "مرحبا بالعالم hello",
    "e\u0301 cafe\u0301 combining",
]
SHARED = {
    "text": TEXTS,
    "tokenizer": ["words", "wordpiece"],
    "d_model": [4, 12, 64, 96, 256],
    "n_heads": [1, 2, 3, 4, 8, 12, 16],
    "seed": [0, 1, 41, 1_000_000],
    "positional": [True, False],
    "scale": [True, False],
    "mask": ["none", "causal"],
    "scoring": ["dot", "additive"],
    "present": [True, False],
    "table": [True, False],  # "Show charts as tables" (ui/a11y.py): every chart's numbers
}

# The values to try of a page's own controls, where its declaration (`PARAMS` in
# ui/sections/<page>.py) does not give them: valid ones, and ones the current sentence or heads
# may make stale (a head past the heads, a token past the tokens), as a link or an earlier state
# would leave them. Every other control tries its options (`OneOf`), both booleans, or the ends
# and default of its range (`Range`).
SAMPLES: dict[str, list] = {
    lesson.K_STATION: ["why", "qkv", "heads", "positional", "mask", "cost", lesson.END],
    lesson.K_PICK: ["0", "1", "3", "40", "lt25", "permute", "kv", "zz"],
    lesson.K_ANSWERS: ["", "why:0:00000000", "qkv:-:00000000,cost:kv:00000000"],
    "attention.head": [0, 3, 15],
    "attention.weights": ["random", "minilm"],  # SmolLM2 is loaded by its own tests only
    "attention.layer": [0, 2, 5],
    "attention.minilm_heads": [1, 12, 16],
    "step.head": [0, 1, 2, 3, 7, 15],
    "step.query": [0, 1, 2, 5, 8, 40, 511],
    "step.dims": [0, 64, 128, 192],
    "step.dk_dims": [0, 64],
    "scaling.samples": [1_000, 2_000],
    "scaling.hist_d_k": [D_K_GRID[0], 64, D_K_GRID[-1]],
    "scaling.head": [0, 1, 3, 15],
    "scaling.tau": [TEMPERATURES[0], 1.0, 4.0, TEMPERATURES[-1]],
    "positional.pe_d_model": [2, 16, 64, 512],
    "positional.n_positions": [2, 17, 64, 256],
    "positional.dims": [[0, 1], [3], [0, 5, 63], []],
    "positional.anchor": [0, 10, 255],
    "positional.shuffle_seed": [0, 7],
    "positional.head": [0, 2, 15],
    "positional.rope_pair": [0, 3, 255],
    "pretrained.pair": ["", "a second sentence", "<b>pair</b>"],
    "pretrained.layer": [0, 3, 5],
    "pretrained.head": [0, 7, 11],
    "pretrained.rehead_heads": [1, 4, 12, 384],
    encdec.K_TARGET: [encdec.DEFAULT_TARGET, "", "ja", "<b>y</b> z", "目标 句子"],
    encdec.K_LAYER: [0, 1, 3],
    encdec.K_CUT: [1, 3, 9],
    encdec.K_HEAD: [0, 3, 15],
    encdec.K_P: [0.0, 0.2, 0.9],
    encdec.K_DROP_SEED: [0, 5],
    encdec.K_TRAINED_LAYER: [0, 1],
    "train.dim": [16, 64],
    "train.heads": [1, 2, 4, 8],
    "train.steps": [1, 20, 3000],
    "train.lr": [train_compute.LRS[0], train_compute.LRS[-1]],
    "train.run_seed": [0, 3],
    "train.layer": [0, 1, 2],
    "train.try": ["cabbage", "", "<b>x</b> hg"],
    "induction.steps": [20, 100, 1500],
    "induction.run_seed": [0, 2],
    "induction.layer": [0, 1, 5],
    "induction.head": ["best", 0, 3, 7],
    "induction.typed": ["", "abcdefabcdef", "<b>x</b> 1 2", "🙂 z"],
    reading.K_LAYER: [0, 2, 5],
    reading.K_HEAD: [0, 5, 11],
    reading.K_THRESHOLD: [reading.THRESHOLDS[0], 0.1],
    reading.K_LINES_HEADS: [[0], [0, 1, 2], [4, 11], []],
    reading.K_LINES_TOKEN: [reading.ALL, 0, 3, 60],
    reading.K_QK_QUERY: [reading.ALL, 0, 2, 200],
    efficient.K_KV: [1, 2, 4, 16],
    efficient.K_STEP: [0, 3, 63],
    efficient.K_BATCH: [1, 8],
    efficient.K_SINKS: [0, 4],
    efficient.K_GLOBAL: [[], [0], [1, 5], [40]],
    efficient.K_BLOCK: [1, 4, 32],
    efficient.K_HEAD: [0, 3, 15],
    efficient.K_ROW: [0, 5, 63, 511],
    efficient.K_TILE: [0, 2, 60],
    llm.K_QUESTION: [llm.DEFAULT_QUESTION, "", "<b>x</b> **y** $z$", "Why?", "为什么?"],
    llm.K_TEMP: [0.0, 0.7],
    llm.K_TOP_K: [0, 5],
    llm.K_MAX_NEW: [8, 24],
    llm.K_HEAD: [0, 4, 8],
    llm.K_QUERY: [llm.LAST, 0, 5, 300],
    llm.K_PAIR: [0, 5, llm.N_PAIRS - 1],
}


def samples(p: Param) -> list:
    """The values the sequence tests try for control `p`."""
    if p.key in SAMPLES:
        return SAMPLES[p.key]
    if isinstance(p.parse, OneOf):
        return list(p.parse.options)
    if p.parse is parse_bool:
        return [True, False]
    if isinstance(p.parse, Range):
        ends = {p.parse.lo, p.parse.hi}
        return sorted(ends | ({p.default} if isinstance(p.default, int) else set()))
    raise AssertionError(f"{p.key}: give the values to try in SAMPLES")


# each page's controls and the values to try: {page: {key: values}}
CONTROLS: dict[str, dict[str, list]] = {
    page: {p.key: samples(p) for p in page_params(page)} for page in IDS
}
assert set(SAMPLES) <= {k for spec in CONTROLS.values() for k in spec}, "SAMPLES of no control"
# buttons a user presses, by the start of their keys ("<page>.<name>"); training, ablation and
# the corpus run are not pressed here: they take seconds; their own tests and the Chromium walk
# press them
BUTTONS = (
    "step.next_",
    "positional.reshuffle",
    "encoder_decoder.resample",
    "lesson.check",
    "lesson.show",
    "lesson.next",
    "lesson.prev",
)
KINDS = (
    "selectbox",
    "radio",
    "select_slider",
    "multiselect",
    "toggle",
    "checkbox",
    "number_input",
    "slider",
    "text_input",
    "text_area",
    "segmented_control",  # a page's views (ui.controls.views)
)


def page_path(page: str) -> str:
    return BY_ID[page].path


def buttons_of(page: str) -> tuple[str, ...]:
    return tuple(b for b in BUTTONS if b.startswith(f"{page}."))


def widget(at: AppTest, key: str):
    """The widget that shows control `key` in this run, or None when the page did not draw it."""
    wkey = controls.widget_key(key)
    for kind in KINDS:
        for w in getattr(at, kind):
            k = w.key or ""
            if k == wkey or k.startswith(wkey + "."):
                return w
    return None


def _shows(w, value) -> bool:
    """Whether select widget `w` offers `value` (its label is one of the options)."""
    try:
        if isinstance(value, list):
            return all(str(w.format_func(v)) in w.options for v in value)
        return str(w.format_func(value)) in w.options
    except (IndexError, KeyError, TypeError, ValueError):
        return False


# the widgets whose options are labels of values (AppTest's class names)
CHOICE_KINDS = ("Selectbox", "Radio", "SelectSlider", "Multiselect", "ButtonGroup")


def offered(w, candidates: list) -> list:
    """The candidates a user could pick in widget `w` now."""
    kind = type(w).__name__
    if kind in CHOICE_KINDS:
        limit = getattr(w.proto, "max_selections", 0) if kind == "Multiselect" else 0
        return [v for v in candidates if _shows(w, v) and not (limit and len(v) > limit)]
    if kind in ("NumberInput", "Slider"):
        return [v for v in candidates if w.min <= v <= w.max]
    return list(candidates)


def values(at: AppTest, page: str) -> dict:
    """Every setting of the sidebar and of the page, as the session holds them."""
    keys = [f"shared.{name}" for name in (*SHARED, "lang")] + list(CONTROLS[page])
    return {k: at.session_state[k] for k in keys if k in at.session_state}


class PageSequence(RuleBasedStateMachine):
    """Random sequences of actions on one page (`page`, set by a subclass)."""

    page = "attention"

    def __init__(self) -> None:
        super().__init__()
        self.at = self._run(make_app(page_path(self.page)))

    # --- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _run(at: AppTest) -> AppTest:
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    def _lang(self) -> str:
        return self.at.session_state["shared.lang"]

    def _url(self) -> dict:
        return dict(self.at.query_params.items()) if hasattr(self.at.query_params, "items") else {}

    def _check_kept(self, before: dict, cause: str) -> None:
        """Only what depends on `cause` (tests/helpers/depends.py) changed with it: a setting
        that an unrelated action changes was lost (the walk's "lost" finding)."""
        after = values(self.at, self.page)
        depends = {**DEPENDS["*"], **DEPENDS[self.page]}
        for key in before.keys() | after.keys():
            name = key.removeprefix("shared.") if key.startswith("shared.") else url.param(key)
            if before.get(key) == after.get(key) or name == cause:
                continue
            assert cause in depends.get(name, ()), (
                f"{cause} changed {name}: {before.get(key)!r} -> {after.get(key)!r}"
            )

    # --- what a user does -------------------------------------------------------------------
    @rule(name=hs.sampled_from(sorted(SHARED)), data=hs.data())
    def change_sidebar(self, name, data):
        before = values(self.at, self.page)
        self.at.session_state[f"shared.{name}"] = data.draw(hs.sampled_from(SHARED[name]))
        self._run(self.at)
        self._check_kept(before, name)

    @rule(data=hs.data())
    def change_page_control(self, data):
        spec = CONTROLS[self.page]
        key = data.draw(hs.sampled_from(sorted(spec)))
        w = widget(self.at, key)
        choices = offered(w, spec[key]) if w is not None else []
        before = values(self.at, self.page)
        if choices and data.draw(hs.booleans()):  # a click on the widget itself
            w.set_value(data.draw(hs.sampled_from(choices)))
        else:  # the value as a link, or an earlier sentence, may have left it
            self.at.session_state[key] = data.draw(hs.sampled_from(spec[key]))
        self._run(self.at)
        self._check_kept(before, url.param(key))

    @precondition(lambda self: bool(buttons_of(self.page)))
    @rule(data=hs.data())
    def press_button(self, data):
        buttons = [
            b
            for b in self.at.button
            if (b.key or "").startswith(buttons_of(self.page)) and not b.disabled  # as a user can
        ]
        if buttons:
            data.draw(hs.sampled_from(buttons)).click()
            self._run(self.at)

    @rule()
    def language_round_trip(self):
        """A language switch changes text only: every value and URL parameter but `lang`."""
        before, url_before, lang = values(self.at, self.page), self._url(), self._lang()
        for new in ("zh" if lang == "en" else "en", lang):
            self.at.session_state["shared.lang"] = new
            self._run(self.at)
            after = values(self.at, self.page)
            assert {**after, "shared.lang": lang} == before, (new, before, after)
            url_after = self._url()
            assert {**url_after, "lang": lang} == {**url_before, "lang": lang}, new

    @rule(other=hs.sampled_from(sorted(IDS)))
    def leave_and_come_back(self, other):
        before = values(self.at, self.page)
        self.at.switch_page(page_path(other))
        self._run(self.at)
        self.at.switch_page(page_path(self.page))
        self._run(self.at)
        assert values(self.at, self.page) == before

    @rule()
    def open_the_link_in_a_fresh_browser(self):
        """state -> URL -> state is the identity (when the sentence fits in a link)."""
        link = self._url()
        if "text" not in link:
            assert len(self.at.session_state["shared.text"]) > URL_TEXT_CHARS
            return
        fresh = self._run(make_app(page_path(self.page), query=link))
        mine, theirs = values(self.at, self.page), values(fresh, self.page)
        in_link = {k for k in mine if url.param(k) in link or k.removeprefix("shared.") in link}
        assert {k: theirs.get(k) for k in in_link} == {k: mine[k] for k in in_link}

    # --- what must hold after every step ----------------------------------------------------
    @invariant()
    def page_controls_are_valid_and_shown(self):
        at = self.at
        assert not at.exception
        link = self._url()
        for key in CONTROLS[self.page]:
            if key not in at.session_state:
                continue
            value = at.session_state[key]
            w = widget(at, key)
            if w is not None:  # drawn: it shows the value, and the value is one it offers
                assert w.value == value, (key, w.value, value)
                if type(w).__name__ in CHOICE_KINDS:
                    assert _shows(w, value), (key, value, w.options)
            if url.param(key) in link:
                assert link[url.param(key)] == url.text_of(value), key
