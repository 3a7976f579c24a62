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

from tests.browser.walk import PAGES, walk

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
