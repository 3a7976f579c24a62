"""The Train page in a real Chromium against a real `streamlit run`: live training (progress bar
and curve advancing), a rerun that does not lose the run, the Stop button, the scrubber, the
try-it box with hostile text, and 中文."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import assert_markup_is_text, eventually, wait_for_app
from tests.helpers.inputs import HOSTILE_LINE

pytestmark = pytest.mark.browser

URL_PATH = "train"
TITLE_EN = "Train a tiny Transformer and watch its heads learn"


def _progress_text(pg) -> str:
    return pg.locator("[data-testid=stProgress]").inner_text()


def _wait_more(pg, what: str, than: int, timeout: float = 60_000) -> int:
    """Wait until the progress (or the curve's point count) exceeds `than`; return the value
    that did (read in the same evaluation: a second read can land on a chart remounting)."""
    handle = pg.wait_for_function(
        {
            "progress": """(n) => { const b = document.querySelector(
                '[data-testid=stProgress] [role=progressbar]');
                const v = b ? Number(b.getAttribute('aria-valuenow')) : -1;
                return v > n ? v : null; }""",
            # the live curve by its title: right after Train the first chart on the page can
            # still be the untrained heads' grid (a heatmap, no x), and a chart remounting has
            # no data yet: both are "not yet", never an error
            "curve": """(n) => { const g = [...document.querySelectorAll('.js-plotly-plot')]
                .find(g => { const l = g._fullLayout || {};
                    const texts = [l.title && l.title.text,
                        ...(l.annotations || []).map(a => a.text)];
                    return texts.some(s => (s || '').startsWith('Loss and accuracy so far')); });
                const d = g && g._fullData && g._fullData[0];
                const v = d && d.x ? d.x.length : -1;
                return v > n ? v : null; }""",
        }[what],
        arg=than,
        timeout=timeout,
    )
    return handle.json_value()


def _wait_step_above(pg, than: int) -> int:
    """Until the progress caption shows a step past `than`; return it."""
    return pg.wait_for_function(
        """(n) => { const t = document.querySelector('[data-testid=stProgress]');
            const m = t && t.innerText.match(/Step (\\d+) of 3000/);
            return m && Number(m[1]) > n ? Number(m[1]) : null; }""",
        arg=than,
        timeout=60_000,
    ).json_value()


def _grid_first_head(pg, title_start: str):
    """z of the first head of the first head grid whose subplot titles start with title_start."""
    return pg.evaluate(
        """(start) => {
            const g = [...document.querySelectorAll('.js-plotly-plot')].find(g =>
                (g._fullLayout.annotations || []).some(a => (a.text || '').startsWith(start)));
            if (!g) return null;
            return Array.from(g._fullData[0].z, row => Array.from(row));
        }""",
        title_start,
    )


def _drawn_grid(pg):
    grid = _grid_first_head(pg, "head 0 ·")
    assert grid is not None, "no head grid drawn"
    return grid


def _slider_to(pg, label: str, key: str) -> None:
    """Move a Streamlit slider with the keyboard, as a person would (Home / End / arrows)."""
    thumb = pg.get_by_role("slider", name=label)
    thumb.focus()
    thumb.press(key)
    wait_for_app(pg)


def test_live_training_survives_a_rerun_and_stops(app_url, page, tmp_path):
    page.goto(f"{app_url}/{URL_PATH}?steps=3000")  # long enough to be stopped half way
    wait_for_app(page)
    page.get_by_role("heading", name=TITLE_EN).wait_for()
    stop = page.get_by_role("button", name="Stop", exact=True)
    expect(stop).to_be_disabled()
    page.get_by_role("button", name="Train", exact=True).click()
    page.locator("[data-testid=stProgress]").wait_for(timeout=60_000)
    page.mouse.move(5, 5)  # no tooltip over the screenshot

    # the progress bar advances and the curve grows, chunk after chunk
    page.wait_for_function("() => document.querySelector('.js-plotly-plot')", timeout=60_000)
    n1 = _wait_more(page, "curve", 0)
    p1 = _wait_more(page, "progress", -1)  # the bar as it is now (-1: remounting)
    p2 = _wait_more(page, "progress", p1)
    n2 = _wait_more(page, "curve", n1)
    assert p2 > p1 >= 0 and n2 > n1 > 0
    page.screenshot(path=str(tmp_path / "train_live.png"))

    # a click elsewhere reruns the page: the run goes on (not restarted, its own settings kept)
    step_before = int(re.search(r"Step (\d+) of 3000", _progress_text(page)).group(1))
    page.get_by_role("spinbutton", name="Seed", exact=True).fill("5")
    page.get_by_role("spinbutton", name="Seed", exact=True).press("Enter")
    page.wait_for_function(
        """() => document.querySelector('[data-testid=stNumberInput] input[aria-label="Seed"]')
            ?.value === '5'""",
        timeout=60_000,
    )
    page.locator("[data-testid=stProgress]").wait_for(timeout=60_000)
    # the run's page never ends (no URL to wait for): the rerun the seed asked for starts at
    # the run's next redraw; two more steps shown after the new seed are drawn by the rerun
    step = _wait_step_above(page, step_before)  # the run goes on
    for _ in range(2):
        step = _wait_step_above(page, step)
    expect(page.get_by_text("Reverse: d_model 64").first).to_contain_text("seed 0.")

    # Stop: the run ends (early, or at its last step if training got there before the click
    # reached the server: both are a kept run, whatever the machine's speed)
    stop.click(force=True)  # force: no wait for "enabled", which a finished run never is again
    done = page.get_by_text(re.compile(r"^Trained \d+ steps in")).first
    done.wait_for(timeout=120_000)
    k = int(re.match(r"Trained (\d+) steps", done.inner_text()).group(1))
    assert step_before < k <= 3000
    wait_for_app(page)  # the finished run's page, all of it (its warning may come after)
    stopped = re.search(r"Stopped after (\d+) of (\d+)", page.content())
    if stopped:  # stopped early: the warning names the same step, before the end
        assert (int(stopped.group(1)), int(stopped.group(2))) == (k, 3000) and k < 3000
    else:  # finished first: every planned step ran
        assert k == 3000
    assert page.locator("[data-testid=stProgress]").count() == 0
    page.get_by_role("heading", name="Watch the heads form").wait_for()
    expect(page.get_by_role("button", name="Stop", exact=True)).to_be_disabled()

    # the snapshots can be scrubbed: the step, the loss and the heads change together
    # the caption counts the steps run, not the 3000 planned (issue #42): "Step k of k trained"
    label = "Training step of the snapshot"
    caption = page.get_by_text(re.compile(r"^Step \d+ of \d+ trained · loss on the probe"))
    expect(caption).to_have_text(re.compile(rf"^Step {k} of {k} trained · loss on the probe"))
    last = eventually(lambda: _drawn_grid(page))
    _slider_to(page, label, "Home")
    page.get_by_text(re.compile(rf"^Step 0 of {k} trained · loss on the probe")).wait_for()

    def step_0_drawn():  # the grid is redrawn after the caption
        first = _grid_first_head(page, "head 0 ·")
        assert first is not None and first != last

    eventually(step_0_drawn)
    _slider_to(page, label, "End")
    page.get_by_text(re.compile(rf"^Step {k} of {k} trained · loss on the probe")).wait_for()
    assert page.dialogs == []
    page.set_viewport_size({"width": 1400, "height": 3600})  # the main column scrolls inside
    page.wait_for_timeout(500)
    page.screenshot(path=str(tmp_path / "train_stopped.png"))


def test_try_it_keeps_markup_literal_and_switches_language(app_url, page, tmp_path):
    page.goto(f"{app_url}/{URL_PATH}?steps=40")
    wait_for_app(page)
    page.get_by_role("button", name="Train", exact=True).click()
    page.get_by_role("heading", name="Try it").wait_for(timeout=90_000)
    wait_for_app(page)
    box = page.get_by_role("textbox", name="Your sequence")
    expect(box).to_have_value("cabbage")
    page.get_by_text(re.compile(r"^Input c a b b a g e → model")).wait_for()

    box.fill(HOSTILE_LINE)
    box.press("Enter")
    page.get_by_text("Use only the symbols a b c d e f g h").wait_for(timeout=60_000)
    expect(box).to_have_value(HOSTILE_LINE)  # the text stays in the box

    def shown_as_code():
        code = page.locator("[data-testid=stCode]").last.inner_text()
        assert "<" in code and ">" in code and "=" in code, code

    eventually(shown_as_code)
    assert_markup_is_text(page)  # after the message: the run that read the markup

    box.fill("hgfe")
    box.press("Enter")
    page.get_by_text(re.compile(r"^Input h g f e → model")).wait_for(timeout=60_000)

    page.get_by_text("中文", exact=True).click()
    wait_for_app(page)
    page.get_by_role("heading", name="训练一个微型 Transformer,观察它的注意力头如何学习").wait_for()
    page.get_by_role("heading", name="试一试").wait_for()
    expect(page.get_by_role("button", name="训练", exact=True)).to_have_count(1)
    page.get_by_text(re.compile(r"^输入 h g f e → 模型")).wait_for()
    page.set_viewport_size({"width": 1400, "height": 3600})  # the main column scrolls inside
    page.wait_for_timeout(500)
    page.screenshot(path=str(tmp_path / "train_zh.png"))
