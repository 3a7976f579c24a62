"""The Lesson page in a real Chromium against a real `streamlit run`: the whole lesson at phone
width with the keyboard only, some answers right and some wrong, then the summary."""

from __future__ import annotations

import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import WAIT_S, assert_markup_is_text, eventually, wait_for_app
from tests.helpers.browser import params as url_params
from tests.helpers.inputs import HOSTILE_LINE
from ui.compute.lesson import fingerprint
from ui.sections.lesson import STATIONS
from ui.state import DEFAULTS, Settings
from ui.strings import STRINGS

pytestmark = pytest.mark.browser

URL_PATH = "lesson"
EN = STRINGS["en"]

FOCUSED = """() => {
    const e = document.activeElement;
    if (!e) return {};
    const group = e.closest('[data-testid]');
    const radio = e.closest('[data-testid="stRadio"]');
    return {
        tag: e.tagName, type: e.type || '', label: e.getAttribute('aria-label') || '',
        text: (e.innerText || '').trim(), testid: group ? group.getAttribute('data-testid') : '',
        group: radio ? radio.innerText.split('\\n')[0].trim() : '',
    };
}"""


def tab_to(pg, want, limit: int = 150) -> dict:
    """Press Tab until the focused element satisfies `want(focused)`; return it."""
    for _ in range(limit):
        pg.keyboard.press("Tab")
        focused = pg.evaluate(FOCUSED)
        if want(focused):
            return focused
    raise AssertionError(f"never focused; last: {focused}")


def _is_button(text: str):
    return lambda f: f.get("tag") == "BUTTON" and f.get("text") == text


def _is_pick(f) -> bool:
    answer = EN["lesson.your_answer"]
    return (f.get("type") == "radio" and f.get("group") == answer) or (
        f.get("label") == answer and f.get("testid") == "stSelectbox"
    )


def _graded(pg) -> str:
    """'right' or 'wrong', once the grade of the check just pressed is on the page."""
    main = pg.locator("[data-testid=stMain]")

    def check() -> str:
        text = main.inner_text()
        if EN["lesson.right"] in text:
            return "right"
        assert "Not this time" in text, text[-400:]
        return "wrong"

    return eventually(check)


def until(pred, what: str = "") -> None:
    """Wait until `pred()` is true (the page's URL or text read anew each time)."""

    def check() -> None:
        assert pred(), what

    eventually(check)


def test_the_whole_lesson_at_phone_width_with_the_keyboard(app_url, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(WAIT_S * 1000)
    pg = context.new_page()
    query = urllib.parse.urlencode({"text": "the cat saw the dog", "seed": "1"})
    pg.goto(f"{app_url}/{URL_PATH}?{query}")
    wait_for_app(pg, 180_000)
    grades = {}
    for i, station in enumerate(STATIONS):
        title = f"{i + 1}. {EN[f'lesson.{station}.title']}"
        expect(pg.get_by_role("heading", name=title)).to_be_visible()
        wait_for_app(pg)
        pick = tab_to(pg, _is_pick)
        if i % 2:  # every other station: another option than the first, by the keyboard
            first = url_params(pg).get("pick")
            pg.keyboard.press("ArrowDown")
            if pick["type"] != "radio":  # a select box: the list opened; down once more, Enter
                pg.keyboard.press("ArrowDown")
                pg.keyboard.press("Enter")
            until(lambda: url_params(pg).get("pick") != first, "the pick did not move")  # noqa: B023
            wait_for_app(pg)
        tab_to(pg, _is_button(EN["lesson.check"]))
        pg.keyboard.press("Enter")
        until(lambda: f"{station}:" in url_params(pg).get("answers", ""), station)  # noqa: B023
        grades[station] = _graded(pg)
        expect(pg.locator(".js-plotly-plot").first).to_be_visible()  # the reveal's figure
        tab_to(pg, _is_button(EN["lesson.next"]))
        pg.keyboard.press("Enter")
        nxt = STATIONS[i + 1] if i + 1 < len(STATIONS) else "end"
        eventually(lambda: url_params(pg).get("station") == nxt)  # noqa: B023
    right = sum(g == "right" for g in grades.values())
    assert 0 < right < len(STATIONS), grades  # some right, some wrong
    score = EN["lesson.end_score"].format(right=right, total=len(STATIONS)).replace("**", "")
    expect(pg.locator("[data-testid=stMain]")).to_contain_text(score)
    answers = url_params(pg)["answers"].split(",")
    assert [a.split(":")[0] for a in answers] == list(STATIONS)
    # the page fits the phone: nothing scrolls sideways
    assert pg.evaluate("() => document.documentElement.scrollWidth") <= 390
    context.close()


def test_hostile_sentence_stays_text_in_the_lesson(app_url, page):
    query = urllib.parse.urlencode({"text": HOSTILE_LINE, "station": "why"})
    page.goto(f"{app_url}/{URL_PATH}?{query}")
    wait_for_app(page, 180_000)
    page.get_by_role("button", name=EN["lesson.show"]).click()
    expect(page.locator(".js-plotly-plot").first).to_be_visible()
    assert_markup_is_text(page)


@pytest.mark.parametrize("station", ["heads", "cost"])
def test_a_revealed_station_meets_wcag_21_aa(app_url, browser, station):
    """axe on a station with its answer shown (the question, the grade, the figure, the link),
    light and dark, wide and phone (the page as it opens is in tests/browser/test_a11y.py)."""
    from tests.browser.test_a11y import _check, _drawn, _scheme, _width

    fp = fingerprint(Settings(**DEFAULTS))
    query = urllib.parse.urlencode({"station": station, "answers": f"{station}:-:{fp}"})
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="light")
    found: dict = {}
    try:
        pg = context.new_page()
        pg.goto(f"{app_url}/{URL_PATH}?{query}")
        wait_for_app(pg, 180_000)
        expect(pg.locator(".js-plotly-plot").first).to_be_visible()
        _drawn(pg)
        _check(pg, found, "light-wide")
        _scheme(pg, "dark")
        _check(pg, found, "dark-wide")
        _width(pg, "phone")
        _check(pg, found, "dark-phone")
        _scheme(pg, "light")
        _check(pg, found, "light-phone")
    finally:
        context.close()
    assert not {k: v for k, v in found.items() if v}, found
