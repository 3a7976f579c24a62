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


def _no_sideways_scroll(page) -> None:
    overflow = page.evaluate(
        "() => document.querySelector('[data-testid=stMain]').scrollWidth - innerWidth"
    )
    assert overflow <= 1, "the page scrolls sideways"


def _charts(page, n: int) -> None:
    page.wait_for_function(
        f"() => document.querySelectorAll('.js-plotly-plot').length >= {n}", timeout=60_000
    )


def test_one_head_step_by_step_the_lens_and_the_distances(app_url, page, tmp_path):
    shots = _shots(tmp_path)
    page.set_viewport_size({"width": 1400, "height": 1600})
    page.goto(f"{app_url}/{URL_PATH}?view=arithmetic&layer=15&head=4&query=20&stage=rope")
    wait_for_app(page, timeout=120_000)
    title = "Layer 15, head 4 (key/value head 1) at query 20 ('\\n')"
    page.get_by_role("heading", name=title).wait_for(timeout=120_000)
    page.get_by_text("1 rad per position", exact=False).wait_for()
    _charts(page, 1)
    wait_for_app(page)
    page.mouse.move(5, 5)
    page.screenshot(path=str(shots / "llm_one_rope.png"), full_page=True)

    view_button(page, "4 Scores, mask, softmax").click()
    wait_for_params(page, stage="scores", view="arithmetic", layer="15", head="4", query="20")
    page.get_by_text("The causal mask sets the 16 keys after the query", exact=False).wait_for()
    _charts(page, 2)
    wait_for_app(page)
    page.mouse.move(5, 5)
    page.screenshot(path=str(shots / "llm_one_scores.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 2400})  # phone width
    view_button(page, "5 αV and W_O").click()
    wait_for_params(page, stage="output")
    page.get_by_text("Head 4's slice of W_O", exact=False).first.wait_for()
    wait_for_app(page)
    page.wait_for_timeout(500)
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / "llm_one_output_phone.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 1600})

    view_button(page, "Logit lens").click()
    wait_for_params(page, view="lens")
    page.get_by_role("heading", name="Which heads write", exact=False).wait_for(timeout=60_000)
    _charts(page, 2)
    wait_for_app(page)
    page.mouse.move(5, 5)
    page.screenshot(path=str(shots / "llm_lens.png"), full_page=True)

    view_button(page, "Short or long range?").click()
    wait_for_params(page, view="distance")
    page.get_by_text("the shortest is layer", exact=False).wait_for(timeout=60_000)
    _charts(page, 1)
    page.set_viewport_size({"width": 390, "height": 2400})
    wait_for_app(page)
    page.wait_for_timeout(500)
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / "llm_distance_phone.png"), full_page=True)


def test_stop_keeps_the_answer_written_so_far(app_url, page):
    question = "Write a long story about a dragon who learns to cook."
    page.goto(f"{app_url}/{URL_PATH}?max_new=64&question={question.replace(' ', '+')}")
    wait_for_app(page, timeout=120_000)
    generate = page.get_by_role("button", name="Generate", exact=True)
    generate.wait_for(timeout=120_000)
    generate.click()
    stop = page.get_by_role("button", name="Stop", exact=True)
    stop.wait_for(timeout=60_000)
    # a few tokens written, then Stop
    page.locator("[data-testid=stCode]").first.wait_for(timeout=60_000)
    stop.click()
    caption = page.get_by_text("; stopped.", exact=False)
    caption.wait_for(timeout=60_000)
    text = caption.inner_text()
    n = int(text.split(" new tokens")[0])
    assert 1 <= n < 64, text
    assert page.locator("[data-testid=stCode]").first.inner_text().strip()
    expect(stop).to_have_count(0)


def test_a_layer_step_reruns_the_pickers_fragment_and_keeps_the_link(app_url, page):
    page.goto(f"{app_url}/{URL_PATH}?view=heads&layer=15&head=2&query=last")
    wait_for_app(page, timeout=120_000)
    page.get_by_role("heading", name="Layer 15, head 2 (key/value head 0)").wait_for(
        timeout=120_000
    )
    _charts(page, 4)
    thumb = page.locator('[class*="st-key-_w-llm-layer"] input[type="range"]')
    thumb.focus()
    page.keyboard.press("ArrowRight")
    page.get_by_role("heading", name="Layer 16, head 2 (key/value head 0)").wait_for()
    wait_for_params(page, layer="16", head="2", view="heads", query="last")
    assert page.locator('[data-testid="stException"]').count() == 0
