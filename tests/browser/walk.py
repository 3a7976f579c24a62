"""A seeded random walk through the app in Chromium: click what is visible, check after each step.

Run it against its own server (`python -m tests.browser.walk --seed 7 --steps 300`) or against a
running app (`--url http://127.0.0.1:8501`); tests/browser/test_random_walk.py runs a short walk.

Each step, with one `random.Random(seed)`, the walker picks one action:
- a visible, enabled control of the page or the sidebar: select boxes (open, pick an option),
  radios (click an option), sliders and select sliders (focus the thumb, press ArrowLeft /
  ArrowRight / Home / End), toggles and checkboxes (click), number inputs (the +/- buttons or a
  typed value), multiselects (pick an option, or Backspace to drop the last one), text areas and
  text inputs (a text from `TEXTS`, submitted with Ctrl+Enter / Enter, or, one time in
  `BLUR_COMMIT`, left as typed and committed by blur through another control clicked at once:
  a control of the page or the sidebar, or the language);
- a tab of the page; one of the page's own buttons (`BUTTONS`: Next, Reshuffle, Resample, Stop,
  Generate, and Train after the Train page's steps are set to a few): never a download button,
  nor the Reading page's costly corpus and ablation buttons;
- a link of the sidebar's navigation (preferring pages not yet visited);
- the language radio (English / 中文), sometimes as a round trip.
It then waits until the app settles: the script is not running, no element is stale or still a
skeleton, and that holds for a quiet period; a page that does not settle in `settle_s` seconds
is a finding. After every step it records as findings: any `stException` element, any JavaScript
dialog, and lost settings (see `Walker._check_kept` for exactly what that flags, and
`Walker._check_texts`: a text box that holds a text it held earlier, which the step did not type
again); after a language switch, any URL parameter other than `lang` that changed, and after a
switch back, a URL that differs from the one before the first switch.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from tests.helpers.depends import DEPENDS
from ui import pages

PAGES = pages.IDS
HOME = pages.HOME.id  # the default page: its URL path is "/"

_WORDS = ("attention", "heads", "look", "at", "every", "token", "and", "weigh", "what", "they",
          "find", "queries", "keys", "values", "softmax", "scale")  # fmt: skip
TEXTS = (
    "",
    "<b>x</b> <img src=x onerror=alert(1)>",
    " ".join(_WORDS[i % len(_WORDS)] for i in range(500)),  # 500 words, about 3,300 characters
    "我想住在欧洲。注意力机制让每个词看见整个句子。",
    "👩‍👩‍👧‍👦 family 👨🏽‍💻 codes 🏳️‍🌈 flag 🇪🇺",
    "أريد أن أعيش في أوروبا",
    "The cat sat on the mat.",
    "a",
    "I want to live in Europe.",
)

# The sidebar's settings: the same URL parameters on every page.
SHARED = ("text", "tokenizer", "d_model", "n_heads", "seed", "positional", "scale", "mask",
          "scoring", "lang", "table", "present")  # fmt: skip
# Sidebar switches the URL holds only when on (a link without them opens them off)
ONLY_WHEN_ON = ("table", "present")
# The buttons the walker presses, by widget key: the URL parameters each one may set ("*": any
# of the page's own parameters, for Train and Stop, which replace the run the page shows).
BUTTONS: dict[str, frozenset] = {
    "step.next_": frozenset({"stage"}),
    "positional.reshuffle": frozenset({"shuffle_seed"}),
    "encoder_decoder.resample": frozenset({"dropout_seed"}),
    "train.start": frozenset({"*", "steps"}),  # the walker sets the steps before Train
    "train.stop": frozenset({"*"}),
    "induction.start": frozenset({"*", "steps"}),  # the walker first sets the fewest steps
    "induction.stop": frozenset({"*"}),
    "llm.generate_button": frozenset(),  # the answer is not in the URL; "last" follows it
}
TRAIN_SETTINGS = frozenset({"task", "dim", "heads", "layers", "steps", "lr", "run_seed"})
TRAIN_FEW_STEPS = (5, 10, 20)  # typed into the Train page's steps box before Train is pressed

# How often a typed text is committed by blur through another control clicked at once (a click
# elsewhere commits a text box: two requests in quick succession), instead of Ctrl+Enter / Enter.
BLUR_COMMIT = 0.3

# Kinds of action and their weights when all are possible.
WEIGHTS = {"control": 60, "tab": 8, "button": 8, "nav": 12, "lang": 6}

_SETTLED_JS = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) return false;
    if (app.getAttribute('data-test-connection-state') !== 'CONNECTED') return false;
    if (app.getAttribute('data-test-script-state') === 'running') return false;
    const s = document.querySelector('[data-testid="stStatusWidget"]');
    if (s && s.innerText.toLowerCase().includes('running')) return false;
    if (document.querySelector('[data-testid="stSkeleton"], [data-stale="true"]')) return false;
    return true;
}"""

# Counts the script runs that ended (the app's script state leaving "running"), so that the
# walker can tell that its action reached the server before it waits for the app to be idle.
_COUNT_RUNS_JS = """(() => {
    window.__runsDone = 0;
    const obs = new MutationObserver(records => {
        for (const r of records) if (r.oldValue === 'running') window.__runsDone++;
    });
    const start = () => obs.observe(document.documentElement, {attributes: true, subtree: true,
        attributeOldValue: true, attributeFilter: ['data-test-script-state']});
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
    else start();
})()"""
_RUN_SEEN_JS = """(before) => {
    const app = document.querySelector('[data-testid="stApp"]');
    return window.__runsDone > before
        || (!!app && app.getAttribute('data-test-script-state') === 'running');
}"""

# Every visible widget: its kind (data-testid), its index among the page's elements of that kind,
# its widget key (from the `st-key-...` class of its container: dots come out as dashes), where
# it is, and whether it is disabled.
_WIDGETS_JS = """(kinds) => {
    const out = [];
    for (const kind of kinds) {
        document.querySelectorAll(`[data-testid="${kind}"]`).forEach((el, i) => {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0 || el.closest('[data-stale="true"]')) return;
            // the key on the widget's own element container: a keyed block around it is not the
            // widget's (a walk once read a views control's key as its views' container's)
            const holder = el.closest('[data-testid="stElementContainer"]');
            const cls = (holder && [...holder.classList].find(c => c.startsWith('st-key-'))) || '';
            // the control's own input first: a help button ("?") beside a disabled slider is
            // enabled, and read as the slider it made the walk press keys on a thumb that takes
            // no focus, so the keys went to the control focused before (seed 4305: the language)
            const first = el.querySelector('input, textarea') || el.querySelector('button');
            const disabled = !!first && (first.disabled
                || first.getAttribute('aria-disabled') === 'true');
            const area = el.closest('[data-testid="stSidebar"]') ? 'sidebar' : 'main';
            const checked = kind === 'stCheckbox' && !!first && !!first.checked;
            out.push({kind, nth: i, key: cls ? cls.slice(7) : '', area, disabled, checked});
        });
    }
    return out;
}"""
CONTROL_KINDS = ("stSelectbox", "stRadio", "stSlider", "stCheckbox", "stNumberInput",
                 "stTextArea", "stTextInput", "stMultiSelect")  # fmt: skip
TEXT_KINDS = ("stTextArea", "stTextInput")
# The text each visible text box holds as the page shows it (its own text, not the URL's), by the
# widget key on its element container.
_TEXTS_JS = """() => {
    const out = {};
    document.querySelectorAll('[data-testid="stTextArea"], [data-testid="stTextInput"]')
        .forEach(el => {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0 || el.closest('[data-stale="true"]')) return;
            const holder = el.closest('[data-testid="stElementContainer"]');
            const cls = holder && [...holder.classList].find(c => c.startsWith('st-key-'));
            const box = el.querySelector('textarea, input');
            if (cls && box) out[cls.slice(7)] = box.value;
        });
    return out;
}"""
VIEWS_KIND = "stButtonGroup"  # a page's views (ui.controls.views: a segmented control)
LANG_KEY = "_w-shared-lang"


class NotSettled(Exception):
    pass


@dataclass
class Finding:
    kind: str  # exception | dialog | lang | lost | unmirrored | unsettled | error
    step: int
    page: str
    action: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] step {self.step} on {self.page}, after {self.action}: {self.detail}"


@dataclass
class WalkResult:
    seed: int
    steps: int = 0
    actions: Counter = field(default_factory=Counter)  # per page
    kinds: Counter = field(default_factory=Counter)  # per kind of action
    findings: list[Finding] = field(default_factory=list)
    visited: set = field(default_factory=set)
    log: list[str] = field(default_factory=list)  # "step page: action", one per step
    seconds: float = 0.0

    def count(self, kind: str, page: str | None = None) -> int:
        return sum(f.kind == kind and (page is None or f.page == page) for f in self.findings)

    def table(self) -> str:
        rows = [f"{'page':<16} {'actions':>7} {'exceptions':>10} {'lost':>5} {'lang':>5}"]
        for p in PAGES:
            rows.append(f"{p:<16} {self.actions[p]:>7} {self.count('exception', p):>10} "
                        f"{self.count('lost', p):>5} {self.count('lang', p):>5}")  # fmt: skip
        return "\n".join(rows)

    def summary(self) -> str:
        return (f"walk seed={self.seed} steps={self.steps} pages={len(self.visited)}/{len(PAGES)}"
                f" exceptions={self.count('exception')} dialogs={self.count('dialog')}"
                f" lang_changes={self.count('lang')} lost_settings={self.count('lost')}"
                f" unmirrored={self.count('unmirrored')}"
                f" unsettled={self.count('unsettled')} errors={self.count('error')}"
                f" seconds={self.seconds:.0f}")  # fmt: skip


def page_of(url: str) -> str:
    path = urlsplit(url).path.strip("/")
    return path.rsplit("/", 1)[-1] or HOME


def params_of(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def param_of_key(key: str) -> str | None:
    """The URL parameter of a widget key as the DOM shows it (ui/controls.py: "_w-step-head-
    1a2b3c4d5e-0" -> "head", "_w-shared-seed-2" -> "seed"; a plain "step-head" -> "head"), or
    None for a key without a page prefix."""
    parts = key.split("-")
    if parts[0] == "_w":
        parts = parts[1:-1] if len(parts) > 2 and parts[-1].isdigit() else parts[1:]  # incarnation
    if len(parts) > 2 and len(parts[-1]) == 10 and all(c in "0123456789abcdef" for c in parts[-1]):
        parts = parts[:-1]  # the digest of the labels
    return ".".join(parts[1:]) if len(parts) > 1 else None


def diff(a: dict, b: dict) -> dict[str, tuple]:
    return {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


class Walker:
    def __init__(
        self, pg, base_url: str, seed: int, settle_s: float = 90.0, quiet_ms: int = 400,
        echo=None,
    ):  # fmt: skip
        self.pg, self.base = pg, base_url.rstrip("/")
        self.echo = echo  # called with each step's log line and each finding, as they come
        self.rng = random.Random(seed)
        self.settle_s, self.quiet_ms = settle_s, quiet_ms
        self.result = WalkResult(seed=seed)
        self.dialogs: list[str] = []
        pg.set_default_timeout(10_000)
        pg.add_init_script(_COUNT_RUNS_JS)
        self.left: dict[str, dict] = {}  # page -> its URL parameters when the walk last left it
        self.trip: str | None = None  # the URL before a language switch, until the switch back
        self.last_url: str | None = None  # the URL the last check saw
        self.unmirrored: set[tuple[str, str]] = set()  # (page, parameter) already flagged
        self.texts: dict[str, tuple[str, set[str]]] = {}  # text box -> (its text, every text held)
        self.typed: dict[str, str] = {}  # text box -> the text this step typed into it
        self.lang_radios: list[dict] = []  # the language control of this step's page
        pg.on("dialog", self._on_dialog)

    def _on_dialog(self, d) -> None:
        self.dialogs.append(f"{d.type}: {d.message}")
        d.dismiss()

    # --- waiting -----------------------------------------------------------------------------
    def runs_done(self) -> int:
        return self.pg.evaluate("() => window.__runsDone || 0")

    def settle_after(self, runs_before: int, wait_run_ms: int = 2_000) -> None:
        """Settle after an action: first give the action up to `wait_run_ms` to start a run
        (an action that changes nothing starts none), then wait until the app is idle."""
        with contextlib.suppress(Exception):  # no run started: nothing to wait for
            self.pg.wait_for_function(_RUN_SEEN_JS, arg=runs_before, timeout=wait_run_ms)
        self.settle()

    def settle(self) -> None:
        """Wait until the app is idle and stays so for `quiet_ms`; raise NotSettled when that
        takes more than `settle_s` (also when the browser itself was too busy to answer)."""
        deadline = time.monotonic() + self.settle_s
        since = None
        while time.monotonic() <= deadline:
            try:
                ok = self.pg.evaluate(_SETTLED_JS)
            except Exception:  # a navigation replaced the document: try again
                ok = False
            now = time.monotonic()
            if not ok:
                since = None
            elif since is None:
                since = now
            elif (now - since) * 1000 >= self.quiet_ms and now <= deadline:
                return
            self.pg.wait_for_timeout(100)
        raise NotSettled(f"not settled after {self.settle_s:.0f} s")

    # --- the walk ----------------------------------------------------------------------------
    def run(self, steps: int) -> WalkResult:
        t0 = time.monotonic()
        self.pg.goto(self.base + "/")
        self.settle()
        self.result.visited.add(page_of(self.pg.url))
        self._check_texts(0, page_of(self.pg.url), "(start)", set())  # the texts to begin with
        for i in range(1, steps + 1):
            if not self.step(i, force_nav=steps - i < len(set(PAGES) - self.result.visited)):
                break
        self.result.seconds = time.monotonic() - t0
        return self.result

    def step(self, i: int, force_nav: bool = False) -> bool:
        """One action and the checks after it; False when the walk cannot go on. `force_nav`: go
        to a page not visited yet (the last steps of a walk that has not seen every page)."""
        r, pg = self.result, self.pg
        t0, n_found = time.monotonic(), len(r.findings)
        page, before = page_of(pg.url), params_of(pg.url)
        if self.last_url is not None and pg.url != self.last_url:  # changed with nobody acting
            moved = diff(params_of(self.last_url), before)
            detail = f"the URL changed while idle: {self.last_url} -> {pg.url} ({moved})"
            r.findings.append(Finding("lost", i, page, "(before acting)", detail))
        widgets = pg.evaluate(_WIDGETS_JS, [*CONTROL_KINDS, VIEWS_KIND, "stButton"])
        choices = self._choices(widgets, page)
        kind = self.rng.choices(list(choices), [WEIGHTS[k] for k in choices])[0]
        kind = "nav" if force_nav else kind
        if kind != "lang":
            self.trip = None  # the round trip check is for a switch back right after a switch
        runs = self.runs_done()
        self.typed, self.lang_radios = {}, choices.get("lang", [])
        self.acting = kind  # the control chosen, named once chosen (for a failure's finding)
        try:
            action, own = getattr(self, f"_do_{kind}")(choices[kind], page)
        except NotSettled as exc:
            return self._stuck(Finding("unsettled", i, page, kind, str(exc)))
        except Exception as exc:  # the walker could not act (an element went away): go on
            shot = Path(tempfile.gettempdir()) / f"walk-{r.seed}-{i}.png"
            with contextlib.suppress(Exception):  # what the page showed, for the finding
                pg.screenshot(path=str(shot), full_page=True)
            lines = [x.strip() for x in str(exc).splitlines() if x.strip()]
            why = " | ".join([lines[0][:120], *lines[1:][-3:]]) if lines else type(exc).__name__
            action, own = f"{self.acting} (failed: {why}; page as it was: {shot})", None
            r.findings.append(Finding("error", i, page, kind, action))  # and no lost-settings check
        r.steps, r.actions[page], r.kinds[kind] = i, r.actions[page] + 1, r.kinds[kind] + 1
        t1 = time.monotonic()
        try:
            if kind == "nav" and own is not None:  # the link changes the path, then the page runs
                self.pg.wait_for_url(lambda u: page_of(u) != page, timeout=30_000)
            self.settle_after(runs)
        except Exception as exc:  # NotSettled, or a link that did not lead to its page
            return self._stuck(Finding("unsettled", i, page, action, str(exc).splitlines()[0]))
        self._check(i, page, before, action, own, kind)
        self.last_url = pg.url
        t2 = time.monotonic()
        r.log.append(f"{i} {page}: {action} (act {t1 - t0:.1f} s, settle {t2 - t1:.1f} s)")
        if self.echo:
            self.echo(r.log[-1])
            for f in r.findings[n_found:]:
                self.echo(str(f))
        return True

    def _stuck(self, finding: Finding) -> bool:
        self.result.findings.append(finding)
        self.result.log.append(str(finding))
        if self.echo:
            self.echo(str(finding))
        return False

    def _choices(self, widgets: list[dict], page: str) -> dict[str, list]:
        usable = [w for w in widgets if not w["disabled"]]
        out = {
            "control": [w for w in usable if w["kind"] in CONTROL_KINDS
                        and not w["key"].startswith(LANG_KEY)],  # fmt: skip
            "tab": [w for w in usable if w["kind"] == VIEWS_KIND and w["area"] == "main"],
            "button": [w for w in usable if w["kind"] == "stButton" and _button(w["key"])],
            "nav": [p for p in PAGES if p != page],
            "lang": [w for w in usable if w["key"].startswith(LANG_KEY)],
        }
        return {k: v for k, v in out.items() if v}

    # --- actions: each returns (description, URL parameters it may set) -----------------------
    def _loc(self, w: dict):
        return self.pg.locator(f'[data-testid="{w["kind"]}"]').nth(w["nth"])

    def _do_control(self, widgets: list[dict], page: str) -> tuple[str, set]:
        w = self.rng.choice(widgets)
        el, name = self._loc(w), param_of_key(w["key"]) or w["key"] or "?"
        self.acting = f"control {w['area']} {w['kind'][2:]} {name} (#{w['nth']})"
        own = {name} | ({"text"} if name == "example" else set())
        if w["kind"] in TEXT_KINDS:
            text, commit = self.rng.choice(TEXTS), self.rng.random() >= BLUR_COMMIT
            self.typed[_box(w["key"])] = text
            what = self._type(el, w["kind"] == "stTextArea", text, commit)
            others = [x for x in widgets if x["kind"] not in TEXT_KINDS] + self.lang_radios
            if not commit and others:  # the click elsewhere commits the text at once
                w2 = self.rng.choice(others)
                name2 = param_of_key(w2["key"]) or w2["key"] or "?"
                kind2 = "stRadio" if w2 in self.lang_radios else w2["kind"]
                self.acting += f", then {w2['area']} {kind2[2:]} {name2} (#{w2['nth']})"
                what2 = getattr(self, "_" + kind2[2:].lower())(self._loc(w2))
                own |= {name2} | ({"text"} if name2 == "example" else set())
                what = f"{what}, at once {w2['area']} {kind2[2:]} {name2}: {what2}"
        else:
            what = getattr(self, "_" + w["kind"][2:].lower())(el)
        return f"{w['area']} {w['kind'][2:]} {name}: {what}", own

    def _selectbox(self, el) -> str:
        el.locator("input").click()
        options = self.pg.locator('[role="listbox"] [role="option"]')
        try:
            options.first.wait_for(timeout=3_000)
        except Exception:
            self.pg.keyboard.press("Escape")
            return "opened, no option shown"
        n = options.count()
        k = self.rng.randrange(n)
        text = options.nth(k).inner_text()
        options.nth(k).click()
        return f"pick {text!r}"

    def _multiselect(self, el) -> str:
        box = el.locator("input")
        if self.rng.random() < 0.3:
            box.click()
            box.press("Backspace")
            self.pg.keyboard.press("Escape")
            return "Backspace (drop the last)"
        return self._selectbox(el)

    def _radio(self, el) -> str:
        labels = el.locator('label[data-testid="stRadioOption"]')
        k = self.rng.randrange(labels.count())
        text = labels.nth(k).inner_text()
        labels.nth(k).click()
        return f"click {text!r}"

    def _slider(self, el) -> str:
        thumb = el.locator('input[type="range"]').first  # react-aria: a hidden range input
        keys = [self.rng.choice(("ArrowLeft", "ArrowRight", "Home", "End"))
                for _ in range(self.rng.choice((1, 1, 2, 3)))]  # fmt: skip
        thumb.focus()
        if not thumb.evaluate("el => el === document.activeElement"):
            return "no focus, no keys"  # keys would go to whatever had the focus before
        for key in keys:
            self.pg.keyboard.press(key)
        return "+".join(keys)

    def _checkbox(self, el) -> str:
        el.locator("label").first.click()
        return "click"

    def _numberinput(self, el, value: int | None = None) -> str:
        box = el.locator("input")
        if value is None and self.rng.random() < 0.5:
            which = self.rng.choice(("Up", "Down"))
            button = el.locator(f'[data-testid="stNumberInputStep{which}"]')
            if button.is_enabled():
                button.click()
                return f"step {which.lower()}"
        if value is None:
            value = self.rng.choice((-3, 0, 1, 2, 7, 42, 999, 10**9))
        box.fill(str(value))
        box.press("Enter")
        return f"type {value}"

    def _type(self, el, area: bool, text: str, commit: bool) -> str:
        """Type `text` into a text box; `commit`: with Ctrl+Enter / Enter, else left as typed
        (a click elsewhere commits it)."""
        box = el.locator("textarea" if area else "input")
        box.fill(text)
        if commit:
            box.press("Control+Enter" if area else "Enter")
        return f"type {_short(text)}" + ("" if commit else " (not committed)")

    def _do_tab(self, tabs: list[dict], page: str) -> tuple[str, set]:
        w = self.rng.choice(tabs)
        items = self._loc(w).get_by_role("radio")
        k = self.rng.randrange(items.count())
        text = items.nth(k).inner_text()
        items.nth(k).click()
        return f"tab {text!r}", {param_of_key(w["key"]) or "?"}

    def _do_button(self, buttons: list[dict], page: str) -> tuple[str, set]:
        w = self.rng.choice(buttons)
        key = w["key"].replace("-", ".")
        own = set(_button(w["key"]))
        prefix = ""
        if key == "train.start":  # a short run only: set the steps first
            steps = self.rng.choice(TRAIN_FEW_STEPS)
            box = self.pg.locator('[class*="st-key-_w-train-steps"] input')
            runs = self.runs_done()
            box.fill(str(steps))
            box.press("Enter")
            self.settle_after(runs)
            prefix = f"steps={steps}, "
        elif key == "induction.start":  # the shortest run the page offers (its steps' first)
            thumb = self.pg.locator('[class*="st-key-_w-induction-steps"] input[type="range"]')
            runs = self.runs_done()
            thumb.first.focus()
            self.pg.keyboard.press("Home")
            self.settle_after(runs)
            prefix = "steps=fewest, "
        self._loc(w).locator("button:visible").first.click()
        return f"{prefix}button {key}", own

    def _do_nav(self, others: list[str], page: str) -> tuple[str, set]:
        fresh = [p for p in others if p not in self.result.visited]
        target = self.rng.choice(fresh or others)
        self.left[page] = params_of(self.pg.url)
        path = "/" + pages.BY_ID[target].url_path
        self.pg.locator(f'[data-testid="stSidebarNav"] a[href$="{path}"]').first.click()
        return f"nav -> {target}", set()

    def _do_lang(self, radios: list[dict], page: str) -> tuple[str, set]:
        """Switch language (half the time there and back at once)."""
        labels = self._loc(radios[0]).locator('label[data-testid="stRadioOption"]')
        checked = [labels.nth(k).get_attribute("data-selected") == "true"
                   for k in range(labels.count())]  # fmt: skip
        other = checked.index(False) if False in checked else 0
        if self.trip is None:
            self.trip = self.pg.url
        just_before = params_of(self.pg.url)  # this switch's own "before" (the trip may be older)
        text = labels.nth(other).inner_text()
        runs = self.runs_done()
        labels.nth(other).click()
        if self.rng.random() < 0.5:
            return f"language -> {text}", {"lang"}
        self.settle_after(runs)
        self._check_lang(self.result.steps + 1, page, just_before, text, True)
        back = labels.nth(1 - other if labels.count() == 2 else 0)
        back_text = back.inner_text()
        back.click()
        return f"language -> {text} -> {back_text}", {"lang"}

    # --- checks ------------------------------------------------------------------------------
    def _check(self, i: int, page: str, before: dict, action: str, own: set, kind: str) -> None:
        r, pg = self.result, self.pg
        now_page, now = page_of(pg.url), params_of(pg.url)
        r.visited.add(now_page)
        boxes = pg.locator('[data-testid="stException"]')
        for k in range(boxes.count()):
            text = " ".join(boxes.nth(k).inner_text().split())[:400]
            r.findings.append(Finding("exception", i, now_page, action, text))
        while self.dialogs:
            r.findings.append(Finding("dialog", i, now_page, action, self.dialogs.pop(0)))
        self._check_mirrored(i, now_page, now, action)
        self._check_texts(i, now_page, action, own)
        if kind == "lang":
            self._check_lang(i, now_page, before, action, switched=action.count("->") == 1)
            return
        if own is None:  # the walker's action failed half-way: what it changed is unknown
            return
        self._check_kept(i, page, before, now_page, now, action, own)

    def _check_texts(self, i: int, page: str, action: str, own: set | None) -> None:
        """Lost texts, read from the text boxes themselves (the URL may not hold a long text, and
        a box can show another text than the URL): a visible text box whose text changed to one
        it held earlier, although the step did not type that text into it again. A step whose
        action may set the box (the example picker sets `text`; Train and Stop any of the page's
        own parameters) is not checked; a failed action's only updates what each box held."""
        for box, text in self.pg.evaluate(_TEXTS_JS).items():
            name = _box(box)
            last, held = self.texts.get(name, (text, set()))
            self.texts[name] = (text, held | {text})
            if text == last or text not in held or own is None:
                continue
            param = param_of_key(box) or name
            if self.typed.get(name) == text or param in own or "*" in own:
                continue
            detail = (f"the text box {param!r} went back to an earlier text: {_short(last)} -> "
                      f"{_short(text)}")  # fmt: skip
            self.result.findings.append(Finding("lost", i, page, action, detail))

    def _check_mirrored(self, i: int, page: str, now: dict, action: str) -> None:
        """Every visible control (but the text boxes, whose text may be too long for a link,
        and the example picker, which only fills the text box) has its parameter in the URL.
        Flagged once per page and parameter."""
        widgets = self.pg.evaluate(_WIDGETS_JS, [*CONTROL_KINDS, VIEWS_KIND])
        for w in widgets:
            name = param_of_key(w["key"])
            # the Train page's snapshot is a step of the model trained in this session: a link
            # cannot hold the model, so it holds no snapshot either
            if w["kind"] in ("stTextArea", "stTextInput") or name in (None, "example", "snapshot"):
                continue
            if name in ONLY_WHEN_ON and w["kind"] == "stCheckbox" and not w["checked"]:
                continue
            if name not in now and (page, name) not in self.unmirrored:
                self.unmirrored.add((page, name))
                detail = f"the control {w['key']!r} is not in the URL ({name!r} missing)"
                self.result.findings.append(Finding("unmirrored", i, page, action, detail))

    def _check_lang(self, i: int, page: str, before: dict, action: str, switched: bool) -> None:
        """A language switch changes `lang` and nothing else in the URL (`switched`: the
        language differs from `before`); back in the first language, the URL is the same as
        before the first switch."""
        now = params_of(self.pg.url)
        changed = {k: v for k, v in diff(before, now).items() if k != "lang"}
        if page_of(self.pg.url) != page:
            changed["(page)"] = (page, page_of(self.pg.url))
        if switched and now.get("lang") == before.get("lang"):
            changed["lang (unchanged in the URL)"] = (before.get("lang"), now.get("lang"))
        if changed:
            self.result.findings.append(Finding("lang", i, page, action, f"changed {changed}"))
        if self.trip is not None and now.get("lang") == params_of(self.trip).get("lang"):
            if self.pg.url != self.trip:
                detail = f"round trip: {self.trip} -> {self.pg.url}"
                self.result.findings.append(Finding("lang", i, page, action, detail))
            self.trip = None

    def _check_kept(self, i, page, before, now_page, now, action, own) -> None:
        """Lost settings. Flags a URL parameter that changed (or appeared, or went away) although
        the step did not ask for it:
        - on the same page: any parameter other than the action's own (the control's parameter;
          `text` for the example picker; for a button, those in `BUTTONS`; for Train and Stop,
          any of the Train page's parameters but its settings `TRAIN_SETTINGS`), unless it is in
          `DEPENDS` for a parameter that changed in this step (transitively: d_model -> n_heads
          -> a head picker);
        - after a page change: a sidebar parameter (`SHARED`) that differs from the page before;
          and, on a page visited before, one of its own parameters that differs from when the
          walk left it, unless it is in `DEPENDS` for a sidebar parameter that changed since.
        Parameters appearing on a page's first visit are not checked (nothing to compare)."""
        if now_page == page:
            changed = diff(before, now)
            # several keys on one slider ("Home+End") may pass through other values and back:
            # what depends on it may have been clamped on the way
            moved = {**changed, **{k: None for k in own}} if "+" in action else changed
            allowed = self._allowed(page, set(own), moved)
            if "*" in own:
                allowed |= {k for k in changed if k not in SHARED and k not in TRAIN_SETTINGS}
            lost = {k: v for k, v in changed.items() if k not in allowed}
        else:
            lost = {k: v for k, v in diff(before, now).items() if k in SHARED}
            then = self.left.get(now_page)
            if then is not None:
                mine = {k: v for k, v in diff(then, now).items() if k not in SHARED}
                moved = {k for k, v in diff(then, now).items() if k in SHARED}
                allowed = self._allowed(now_page, moved, diff(then, now))
                lost.update({k: v for k, v in mine.items() if k not in allowed})
        if lost:
            detail = ", ".join(f"{k}: {a!r} -> {b!r}" for k, (a, b) in lost.items())
            self.result.findings.append(Finding("lost", i, now_page, action, detail))

    @staticmethod
    def _allowed(page: str, causes: set, changed: dict) -> set:
        deps = {**DEPENDS["*"], **DEPENDS.get(page, {})}
        allowed, grew = set(causes), True
        while grew:
            grew = False
            for name, why in deps.items():
                if name not in allowed and why & (allowed & set(changed)):
                    allowed.add(name)
                    grew = True
        return allowed


def _button(key: str) -> frozenset | None:
    key = key.replace("-", ".")
    for prefix, params in BUTTONS.items():
        if key.startswith(prefix):
            return params
    return None


def _box(key: str) -> str:
    """A text box's name across its widgets: its DOM key without the incarnation number."""
    parts = key.split("-")
    return "-".join(parts[:-1]) if len(parts) > 2 and parts[-1].isdigit() else key


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else f"{text[:37]}... ({len(text)} chars)")


def walk(browser, url: str, seed: int, steps: int, **kw) -> WalkResult:
    """A walk of `steps` steps in a fresh browser context (its own session)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        return Walker(context.new_page(), url, seed, **kw).run(steps)
    finally:
        context.close()


def report(result: WalkResult, out=sys.stdout) -> None:
    print(result.table(), file=out)
    for f in result.findings:
        print(f, file=out)
    print(result.summary(), file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--url", help="walk a running app instead of starting `streamlit run app.py`")
    ap.add_argument("--log", action="store_true", help="print every step and finding as it comes")
    args = ap.parse_args(argv)
    kw = {"echo": (lambda line: print(line, flush=True)) if args.log else None}

    from playwright.sync_api import sync_playwright

    from tests.browser.server import CHROMIUM_ARGS, chromium_path, streamlit_server

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        if args.url:
            result = walk(browser, args.url, args.seed, args.steps, **kw)
        else:
            with streamlit_server("app.py") as (url, _proc):
                result = walk(browser, url, args.seed, args.steps, **kw)
        browser.close()
    report(result)
    bad = sum(result.count(k) for k in ("exception", "dialog", "lang", "lost", "unmirrored",
                                        "unsettled"))  # fmt: skip
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
