"""Text as the reader sees it in Chromium (issue 18's screenshots): the token block wraps inside
the page at 1400 and 390 px, right-to-left tokens keep their place in it, and the target box's
"Press Ctrl+Enter to apply" does not cover the text. Geometry from bounding boxes."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import eventually, wait_for_app

pytestmark = pytest.mark.browser

LONG = "I want to live in Europe and travel across many countries with good friends every summer"
ARABIC = "مرحبا بالعالم يا صديقي and hello world"

# x of every visible character of the first token block, and the block's own box
CHARS_JS = """() => {
  const code = document.querySelector('[data-testid=stCode] code');
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const out = [];
  let node;
  while ((node = walker.nextNode())) {
    const s = node.textContent;
    for (let i = 0; i < s.length; i++) {
      if ('\\u2068\\u2069 '.includes(s[i])) continue;
      const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
      const b = r.getBoundingClientRect();
      out.push({ch: s[i], left: b.left, right: b.right, top: b.top});
    }
  }
  const box = code.closest('[data-testid=stCode]').getBoundingClientRect();
  return {chars: out, box: {left: box.left, right: box.right}};
}"""


def _open(page, path: str, text: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 1000})
    page.goto(f"{path}?text={quote(text)}")
    page.locator("[data-testid=stCode] code").first.wait_for()
    wait_for_app(page)  # the token block is drawn: its run is over, the page laid out


@pytest.mark.parametrize("width", [1400, 390])
def test_token_block_wraps_inside_the_page(app_url, page, width):
    _open(page, app_url, LONG, width)

    def wrapped():  # the block as laid out now (its font may load after it is drawn)
        got = page.evaluate(CHARS_JS)
        chars, box = got["chars"], got["box"]
        assert "".join(c["ch"] for c in chars).endswith("15:summer")
        assert all(box["left"] - 1 <= c["left"] and c["right"] <= box["right"] + 1 for c in chars)
        assert box["right"] <= width
        if width == 390:
            assert len({round(c["top"]) for c in chars}) >= 3  # wrapped onto several lines

    eventually(wrapped)


def test_right_to_left_tokens_keep_their_place(app_url, page):
    """Each index is followed by its own token, left to right: "0:" then the first Arabic word
    (drawn right to left inside its isolate), then "1:" ..., as the tokens are numbered."""
    _open(page, app_url, ARABIC, 1400)

    def in_place():
        chars = page.evaluate(CHARS_JS)["chars"]
        digits = [c for c in chars if c["ch"].isdigit()]
        assert [d["ch"] for d in digits] == list("0123456")
        lefts = [d["left"] for d in digits]
        assert lefts == sorted(lefts)  # the numbers read left to right, one line
        arabic = [c for c in chars if "\u0600" <= c["ch"] <= "\u06ff"]
        first_word = arabic[:5]  # مرحبا
        assert all(lefts[0] < c["left"] < lefts[1] for c in first_word)
        second = arabic[5:12]  # بالعالم
        assert all(lefts[1] < c["left"] < lefts[2] for c in second)

    eventually(in_place)


BOXES = {
    "encoder_decoder": "Target sentence (what the decoder reads)",
    "pretrained": "Second sentence (optional)",
}


@pytest.mark.parametrize("width", [1400, 390])
@pytest.mark.parametrize("path", list(BOXES))
def test_page_text_box_instructions_do_not_cover_the_text(app_url, page, path, width):
    """The page's own text box (the target; the second sentence) keeps the "Press Ctrl+Enter
    to apply" hint below a two-line text: a one-line box drew it over the text."""
    page.set_viewport_size({"width": width, "height": 1000})
    page.goto(f"{app_url}/{path}")
    box = page.get_by_role("textbox", name=BOXES[path])
    box.wait_for()
    wait_for_app(page)  # the box is drawn: its run is over (a rerun would redraw the box)
    box.click()
    box.press("End")
    added = " Nous voulons voyager dans beaucoup de pays"
    box.type(added, delay=5)
    expect(box).to_have_value(re.compile(re.escape(added) + "$"))
    hint = page.locator("[data-testid=InputInstructions]").first
    hint.wait_for()

    def below_the_text():  # the box grows with its text after the keys: as laid out now
        # the bottom of the last line of text: the box's content height measured at height 0
        text_bottom = box.evaluate(
            """e => {
              const cs = getComputedStyle(e), h = e.style.height, m = e.style.minHeight;
              e.style.minHeight = '0px';
              e.style.height = '0px';
              const content = e.scrollHeight - parseFloat(cs.paddingBottom);
              e.style.height = h;
              e.style.minHeight = m;
              return e.getBoundingClientRect().top + parseFloat(cs.borderTopWidth) + content;
            }"""
        )
        assert hint.bounding_box()["y"] >= text_bottom - 1
        assert box.evaluate("e => e.scrollHeight <= e.clientHeight")  # nothing hidden by a scroll

    eventually(below_the_text)
