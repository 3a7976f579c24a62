"""The A real language model page in a real Chromium against a real `streamlit run`: the
default question is answered (greedy), the Every head view draws its mosaic, the link keeps the
view; then 中文 at a phone's width. Screenshots go to the test's tmp_path (LLM_SHOTS: there)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import view_button, wait_for_app, wait_for_params

pytestmark = pytest.mark.browser

URL_PATH = "llm"
ANSWER = "The capital of France is Paris."  # greedy; tests/app/test_llm.py checks it is the core's


def _shots(tmp_path) -> Path:
    return Path(os.environ.get("LLM_SHOTS", tmp_path))


def test_ask_then_every_head_then_chinese_on_a_phone(app_url, page, tmp_path):
    shots = _shots(tmp_path)
    page.set_viewport_size({"width": 1400, "height": 1600})
    page.goto(f"{app_url}/{URL_PATH}")
    wait_for_app(page, timeout=120_000)
    # the model loads when the page first runs (up to ~20 s from the GGUF file on a cold cache)
    generate = page.get_by_role("button", name="Generate", exact=True)
    generate.wait_for(timeout=120_000)
    generate.click()
    page.locator("[data-testid=stCode]").get_by_text(ANSWER, exact=True).wait_for(timeout=90_000)
    page.get_by_role("heading", name="Each new token and the model's top candidates").wait_for()
    page.wait_for_function("() => document.querySelector('.js-plotly-plot')", timeout=30_000)
    page.mouse.move(5, 5)
    page.screenshot(path=str(shots / "llm_ask.png"), full_page=True)

    view_button(page, "Every head").click()
    wait_for_params(page, view="heads")
    page.get_by_role("heading", name="Every layer and head at query 44").wait_for(timeout=60_000)
    page.get_by_role("heading", name="Layer 15, head 0 (key/value head 0)").wait_for()
    page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot').length >= 3", timeout=30_000
    )
    expect(page.get_by_text("x 45 tokens x 4 bytes", exact=False)).to_be_visible()
    page.get_by_role("heading", name="Head scores over all 270 heads").wait_for(timeout=60_000)
    page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot').length >= 4", timeout=30_000
    )
    wait_for_app(page)
    page.mouse.move(5, 5)
    page.screenshot(path=str(shots / "llm_heads.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 6000})  # the whole view, for a look
    page.wait_for_timeout(1000)
    page.screenshot(path=str(shots / "llm_heads_tall.png"))
    page.set_viewport_size({"width": 1400, "height": 1600})

    page.get_by_text("中文", exact=True).click()
    page.get_by_role("heading", name="查询 44 处的所有层和所有头").wait_for(timeout=60_000)
    wait_for_params(page, lang="zh", view="heads", query="last")
    page.set_viewport_size({"width": 390, "height": 2400})  # phone width
    wait_for_app(page)
    page.wait_for_timeout(500)
    overflow = page.evaluate(
        "() => document.querySelector('[data-testid=stMain]').scrollWidth - innerWidth"
    )
    assert overflow <= 1, "the page scrolls sideways on a phone"
    page.screenshot(path=str(shots / "llm_heads_zh_phone.png"), full_page=True)
