"""The Induction page in a real Chromium against a real `streamlit run`: it opens on the stored
default run (its probe's stripe first), trains a short pair to the end, and its typed-sequence
box keeps markup literal; then 中文. Screenshots go to the test's tmp_path."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import assert_markup_is_text, eventually, wait_for_app
from tests.helpers.inputs import HOSTILE_LINE

pytestmark = pytest.mark.browser

URL_PATH = "induction"


def test_stored_run_then_a_short_pair_then_chinese(app_url, page, tmp_path):
    page.goto(f"{app_url}/{URL_PATH}?steps=20")
    wait_for_app(page, timeout=120_000)
    try:
        page.get_by_role("heading", name="Watch induction heads form").wait_for(timeout=90_000)
    finally:
        page.screenshot(path=str(tmp_path / "induction_first.png"), full_page=True)
    page.get_by_text("A finished run, kept with the app").wait_for()
    page.wait_for_function("() => document.querySelector('.js-plotly-plot')", timeout=30_000)
    page.mouse.move(5, 5)
    page.screenshot(path=str(tmp_path / "induction_stored.png"), full_page=True)

    page.get_by_role("button", name="Train both", exact=True).click()
    page.get_by_role("heading", name="The trained models").wait_for(timeout=120_000)
    wait_for_app(page)
    page.get_by_role("heading", name="Predict the next letter").wait_for()
    page.get_by_role("heading", name="The attention sink").wait_for()

    def timed():
        assert re.search(r"20 steps in [\d.]+ s", page.content())

    eventually(timed)

    box = page.get_by_role("textbox", name="A sequence of letters a–z")
    box.fill(HOSTILE_LINE)
    box.press("Enter")
    page.get_by_text("Only the letters a–z are in this model's vocabulary").wait_for(timeout=60_000)
    expect(box).to_have_value(HOSTILE_LINE)
    assert_markup_is_text(page)  # after the message: the run that read the markup
    box.fill("abcdefabcde")
    box.press("Enter")
    page.get_by_text(re.compile(r"they add up to")).wait_for(timeout=60_000)
    page.set_viewport_size({"width": 1400, "height": 4000})
    page.wait_for_timeout(500)
    page.screenshot(path=str(tmp_path / "induction_trained.png"), full_page=True)

    page.get_by_text("中文", exact=True).click()
    wait_for_app(page)
    page.get_by_role("heading", name="观察归纳头的形成").wait_for()
    page.get_by_role("heading", name="注意力汇聚点").wait_for()
    zh_box = page.get_by_role("textbox", name="由字母 a–z 组成的序列")
    expect(zh_box).to_have_value("abcdefabcde")  # the language switch keeps the text
    page.set_viewport_size({"width": 390, "height": 2400})  # phone width
    page.wait_for_timeout(500)
    page.screenshot(path=str(tmp_path / "induction_zh_phone.png"))
