"""A seeded random walk through every page in Chromium (tests/browser/walk.py): whatever controls
are visible, tabs, the page's buttons, the navigation and the language, in any order.

It fails on an exception shown in the page, a JavaScript dialog, a language switch that changes
anything in the URL but `lang` (or a round trip that does not come back to the same URL), a lost
setting, a visible control missing from the URL, a page that does not settle within 90 s, and a
page the walk never reached. The seed and the length: WALK_SEED and WALK_STEPS (a longer walk:
`python -m tests.browser.walk --seed N --steps 1000`, which prints the same findings with the
actions that led to them)."""

from __future__ import annotations

import os

import pytest

from tests.browser.walk import _WIDGETS_JS, PAGES, walk
from tests.helpers.browser import eventually, wait_for_app

pytestmark = pytest.mark.browser

SEED = int(os.environ.get("WALK_SEED", "16"))
STEPS = int(os.environ.get("WALK_STEPS", "100"))  # about 2.5 min on 2 cores


def test_random_walk_keeps_every_page_working(app_url, browser):
    result = walk(browser, app_url, SEED, STEPS)
    findings = "\n".join(map(str, result.findings))
    steps = "\n".join(result.log)  # each step's action: replay with the same seed to reproduce
    shown = f"{result.summary()}\n{result.table()}\n{findings}\nsteps:\n{steps}"

    def found(kind: str) -> list[str]:
        return [str(f) for f in result.findings if f.kind == kind]

    assert not found("unsettled"), shown
    assert result.steps == STEPS, shown
    assert not found("exception"), shown
    assert not found("dialog"), shown
    assert not found("lang"), shown
    assert not found("lost"), shown
    assert not found("unmirrored"), shown
    assert result.visited == set(PAGES), shown


def test_walk_reads_a_disabled_slider_with_help_as_disabled(app_url, page):
    """Scaling, on the sentence, with the temperature fixed to sqrt(d_k): the slider only shows
    it (disabled, with a help button). The walk once read the help button as the slider, pressed
    keys on a thumb that takes no focus, and the keys switched the language radio focused
    before (seed 4305, a "lost" lang that the app did not lose)."""
    page.goto(f"{app_url}/scaling?view=sentence&tau_sqrt=1")
    wait_for_app(page)
    sliders = eventually(
        lambda: [w for w in page.evaluate(_WIDGETS_JS, ["stSlider"]) if w["area"] == "main"]
        if page.locator('[data-testid="stSlider"] button').count() else None
    )
    shown = [w for w in sliders if not w["key"]]
    assert len(shown) == 1, sliders  # the shown temperature: no key, no state
    assert shown[0]["disabled"], sliders
    assert all(not w["disabled"] for w in sliders if w["key"]), sliders
