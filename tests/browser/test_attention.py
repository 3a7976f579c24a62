"""The home page in a real Chromium against a real `streamlit run`."""

from __future__ import annotations

import urllib.parse

import pytest
from playwright.sync_api import expect

from mha_core import AttentionConfig, run_attention
from tests.helpers.browser import (
    eventually,
    move_slider,
    plot_layout_axis,
    view_button,
    wait_for_app,
    wait_for_params,
)

pytestmark = pytest.mark.browser

MARKUP = (
    '<b>x</b> <a href="https://example.com">x</a> <img src=x onerror=alert(1)> '
    '<span style="font-size:400px">W</span>'
)


# The head grid: one title (annotation) per head, over one heatmap trace holding every head
# (binned past 64 tokens too; a trace per head is accepted as well).
HEADS = (
    "() => { const g = document.querySelector('.js-plotly-plot');"
    " if (!g || !g.data || !g._fullLayout) return -1;"
    " const n = g.data.filter(d => d.type === 'heatmap').length;"
    " const titles = (g._fullLayout.annotations || []).length;"
    " return n === 1 || n === titles ? titles : -1; }"
)


def _head_count(pg) -> int:
    return pg.evaluate(HEADS)


def _type_sentence(pg, text: str) -> None:
    box = pg.get_by_role("textbox", name="Sentence")
    box.fill(text)
    box.press("Control+Enter")  # Streamlit applies a text area on Ctrl+Enter or blur
    wait_for_app(pg)


def _wait_heatmaps(pg, n: int) -> None:
    """Until the head grid shows n heads."""
    pg.wait_for_function(f"(n) => ({HEADS})() === n", arg=n, timeout=60_000, polling=250)


def test_type_sentence_move_heads_and_read_labels(app_url, page, tmp_path):
    page.goto(app_url)
    wait_for_app(page)
    _wait_heatmaps(page, 4)
    _type_sentence(page, "the cat saw the dog")
    words = ["the", "cat", "saw", "the", "dog"]
    page.wait_for_function(  # two rows of two heads, one trace: the queries of both rows
        "(w) => { const g = document.querySelector('.js-plotly-plot');"
        " return g && g._fullLayout.yaxis.ticktext.join(' ') === w; }",
        arg=" ".join(words * 2),
        timeout=60_000,
    )

    def labels_drawn():  # the chart redraws under a rerun: read it until it holds the new words
        for axis in ("xaxis2", "xaxis"):  # the tokens under each head of each row: the first
            ax = plot_layout_axis(page, 0, axis)  # row's on an axis of its own, the last's on
            assert ax["ticktext"] == words * 2  # the trace's
            assert ax["tickvals"] == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10]  # a column between heads
        # the tick labels the browser actually drew: keys under all 4 heads, queries at row starts
        drawn = page.evaluate(  # (not the colour bar's numbers, under the grid)
            "() => [...document.querySelector('.js-plotly-plot')"
            ".querySelectorAll('g[class^=x][class$=tick] > text')]"
            ".filter(e => !e.closest('.colorbar')).map(e => e.textContent)"
        )
        assert drawn[:5] == words and sorted(drawn) == sorted(words * 4)
        drawn_y = page.evaluate(
            "() => [...document.querySelector('.js-plotly-plot')"
            ".querySelectorAll('g[class^=y][class$=tick] > text')].map(e => e.textContent)"
        )
        # two rows of two heads
        assert len([d for d in drawn_y if d in ("the", "cat", "saw", "dog")]) == 10

    eventually(labels_drawn)
    move_slider(page, "Heads h (only divisors of d_model)", +1)  # 4 -> 8
    _wait_heatmaps(page, 8)
    move_slider(page, "Heads h (only divisors of d_model)", -3)  # 8 -> 1
    _wait_heatmaps(page, 1)
    expect(page.get_by_text("d_k = d_model / h = 64 / 1 =")).to_contain_text("64 / 1 = 64")
    page.screenshot(path=str(tmp_path / "attention.png"), full_page=True)


def test_d_model_slider_keeps_heads_valid(app_url, page):
    page.goto(app_url + "/?d_model=64&n_heads=16")
    wait_for_app(page)
    _wait_heatmaps(page, 16)
    move_slider(page, "d_model (model dimension)", -3)  # 64 -> 24: 16 heads impossible
    _wait_heatmaps(page, 12)
    expect(page.get_by_text("d_k = d_model / h = 24 / 12 =")).to_have_count(1)


def test_markup_renders_as_text(app_url, page, tmp_path):
    page.goto(app_url)
    wait_for_app(page)
    _type_sentence(page, MARKUP)
    page.wait_for_function(
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " return g && g._fullLayout.xaxis.ticktext.length > 20; }",
        timeout=60_000,
    )
    plot = page.locator(".js-plotly-plot").first

    def drawn_literally():  # the labels drawn from the chart's new layout
        drawn = page.evaluate(  # (not the colour bar's numbers, under the grid)
            "() => [...document.querySelector('.js-plotly-plot')"
            ".querySelectorAll('g[class^=x][class$=tick] > text')]"
            ".filter(e => !e.closest('.colorbar')).map(e => e.textContent)"
        )
        # over 40 tokens every k-th label, with its position: shown literally, no &lt; leaking
        assert drawn[0] == "0: <"
        assert not any("&" in d for d in drawn)

    eventually(drawn_literally)
    # the run that drew the markup is over: no element was created from it anywhere on the page
    assert page.locator('a[href="https://example.com"]').count() == 0
    assert page.locator('img[src="x"]').count() == 0
    assert plot.locator("b, i, span[style*='400px']").count() == 0
    # the text the user typed is still in the box
    expect(page.get_by_role("textbox", name="Sentence")).to_have_value(MARKUP)
    page.wait_for_timeout(1000)  # not a wait for a state: time for an image's onerror to fire
    assert page.dialogs == []
    page.screenshot(path=str(tmp_path / "markup.png"), full_page=True)


def test_hover_shows_exact_value_and_tokens(app_url, page):
    page.goto(app_url + "/?text=" + urllib.parse.quote("a b c"))
    wait_for_app(page)
    _wait_heatmaps(page, 4)
    plot = page.locator(".js-plotly-plot").first
    hover = page.locator(".hoverlayer .hovertext").first

    def hover_middle_cell():  # a person moves the mouse again if the tooltip did not show (or a
        page.mouse.move(0, 0)  # redraw of the chart took it away)
        box = plot.locator(".nsewdrag").first.bounding_box()
        # the middle cell (query 1, key 1) of head 0, in pixels from the plot area's corner
        dx, dy = page.evaluate(
            "() => { const f = document.querySelector('.js-plotly-plot')._fullLayout;"
            " return [f.xaxis.l2p(1), f.yaxis.l2p(1)]; }"
        )
        page.mouse.move(box["x"] + dx, box["y"] + dy)
        hover.wait_for(timeout=3_000)
        text = hover.evaluate(
            "e => [...e.querySelectorAll('tspan.line')].map(t => t.textContent).join('|')"
        )
        assert "query 1: b" in text and "key 1: b" in text
        value = text.split("weight = ")[1]
        assert value.startswith("0.") and len(value) >= 9  # 8 significant digits

    eventually(hover_middle_cell)


def test_url_reproduces_the_view(app_url, page):
    q = (
        "text="
        + urllib.parse.quote("I want to live in Europe")
        + "&d_model=96&n_heads=6&mask=causal"
    )
    page.goto(f"{app_url}/?{q}")
    wait_for_app(page)
    _wait_heatmaps(page, 6)
    expect(page.get_by_text("d_k = d_model / h = 96 / 6 =")).to_have_count(1)
    wait_for_params(page, n_heads="6", mask="causal")
    # a second session is independent: its own defaults
    other = page.context.browser.new_page()
    other.goto(app_url)
    wait_for_app(other)
    _wait_heatmaps(other, 4)
    other.close()


def test_downloads_give_the_numbers(app_url, page, tmp_path):
    page.goto(app_url + "/?text=" + urllib.parse.quote('the cat, "the" dog') + "&n_heads=2")
    wait_for_app(page)
    _wait_heatmaps(page, 2)
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="Weights (CSV, long form)").click()
    path = tmp_path / "weights.csv"
    info.value.save_as(path)
    import csv

    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    tokens = ["the", "cat", ",", '"', "the", '"', "dog"]
    assert len(rows) == 2 * 7 * 7
    assert [r["key_token"] for r in rows[:7]] == tokens
    for h in (0, 1):
        for i in range(7):
            row = [
                float(r["weight"]) for r in rows if r["head"] == str(h) and r["query_pos"] == str(i)
            ]
            assert abs(sum(row) - 1) < 1e-5
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="Whole trace (JSON)").click()
    import json

    info.value.save_as(tmp_path / "trace.json")
    data = json.loads((tmp_path / "trace.json").read_text(encoding="utf-8"))
    assert data["tokens"] == tokens and data["settings"]["n_heads"] == 2
    assert len(data["weights"]) == 2 and len(data["weights"][0]) == 7


def test_language_switch_keeps_the_sentence(app_url, page):
    page.goto(app_url + "/?text=" + urllib.parse.quote("attention is not too shabby"))
    wait_for_app(page)
    _wait_heatmaps(page, 4)
    page.get_by_text("中文", exact=True).click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('h1')].some(h => h.innerText.includes('多头注意力'))",
        timeout=60_000,
    )
    expect(page.get_by_role("textbox", name="句子")).to_have_value("attention is not too shabby")
    # the title comes early in the run, the URL at its end
    wait_for_params(page, lang="zh", text="attention is not too shabby")
    # the charts redraw after the title: wait for the subplot titles to change language
    page.wait_for_function(
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " const a = g && g._fullLayout.annotations;"
        " return a && a.length > 0 && a[0].text === '头 0'; }",
        timeout=60_000,
    )


def test_a_chinese_link_opens_in_chinese_navigation_included(app_url, page):
    page.goto(app_url + "/step?lang=zh")
    wait_for_app(page)
    page.get_by_role("link", name="逐步计算").wait_for(timeout=60_000)
    expect(page.get_by_role("link", name="预训练注意力头")).to_have_count(1)
    # the navigation drawn in Chinese: no English link is left in it
    assert page.get_by_role("link", name="Step by step").count() == 0


def test_settings_survive_switching_pages(app_url, page):
    page.goto(app_url)
    wait_for_app(page)
    page.get_by_role("link", name="Step by step").click()  # as soon as the menu is there
    # the step page's run has started; a pick made while it runs can be lost when the run
    # draws the box again: pick once it is over
    page.get_by_role("heading", name="Step by step: one head, one query").wait_for()
    wait_for_app(page)
    page.get_by_role("combobox", name="Head h").click()
    page.get_by_role("option", name="h = 2", exact=True).click()  # a rerun on the new page
    p = wait_for_params(page, head="2")  # that rerun's URL
    assert (p["positional"], p["scale"]) == ("1", "1"), p  # toggles stay on
    assert (p["d_model"], p["n_heads"]) == ("64", "4"), p
    page.get_by_role("link", name="Attention", exact=True).click()
    _wait_heatmaps(page, 4)  # home's run has started: wait for its end before the next click
    wait_for_app(page)
    page.get_by_text("Per head", exact=True).click()  # a rerun back home
    p = wait_for_params(page, colour_scale="per_head")  # that rerun's URL
    assert (p["positional"], p["scale"], p["d_model"]) == ("1", "1", "64"), p
    expect(page.get_by_role("switch", name="Add positional encoding")).to_be_checked()


def test_tabs_draw_the_other_views(app_url, page, tmp_path):
    page.goto(app_url + "/?text=" + urllib.parse.quote("the cat saw the dog"))
    wait_for_app(page)
    _wait_heatmaps(page, 4)
    expect(page.locator(".js-plotly-plot")).to_have_count(1)  # only the open tab is drawn
    view_button(page, "Mean over heads").click()
    page.get_by_text("Mean over the 4 heads").wait_for(timeout=60_000)
    page.wait_for_function(
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " return g && g._fullLayout && g._fullLayout.xaxis.title.text === 'key'; }",
        timeout=60_000,
        polling=250,
    )
    view_button(page, "Statistics").click()
    page.get_by_text("Head statistics", exact=True).wait_for(timeout=60_000)
    page.locator('[data-testid="stDataFrame"]').wait_for(timeout=60_000)
    view_button(page, "Similarity").click()
    page.get_by_text("Head similarity", exact=True).wait_for(timeout=60_000)
    page.wait_for_function(
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " return g && g._fullLayout && g._fullLayout.yaxis.ticktext.join() ==="
        " 'head 0,head 1,head 2,head 3'; }",
        timeout=60_000,
        polling=250,
    )
    # the open tab stays open when a slider moves, and answers with the new heads
    move_slider(page, "Heads h (only divisors of d_model)", +1)  # 4 -> 8
    page.wait_for_function(
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " return g && g._fullLayout && g._fullLayout.yaxis.ticktext.length === 8; }",
        timeout=60_000,
        polling=250,
    )
    page.screenshot(path=str(tmp_path / "similarity.png"), full_page=True)


def test_hover_at_512_tokens_and_16_heads_gives_the_token_and_the_exact_weight(app_url, page):
    """A paragraph of 512 tokens: the head drawn in full still answers a hover over its last
    cells with both tokens and the weight the model computed (8 significant digits)."""
    words = [chr(97 + i % 26) for i in range(512)]
    page.goto(f"{app_url}/?n_heads=16&d_model=64&head=15&text={'+'.join(words)}")
    wait_for_app(page, timeout=120_000)
    page.wait_for_function(  # one chart: the head drawn in full (the default over 64 tokens)
        "() => [...document.querySelectorAll('.js-plotly-plot')].filter(g => g._fullLayout)"
        ".length >= 1",
        timeout=120_000,
    )
    want = run_attention(words, AttentionConfig(d_model=64, n_heads=16)).attention.weights

    def hover_last_cells():  # on the chart as drawn now (a redraw may replace it under a hover)
        text = page.evaluate(
            """() => {
                const g = [...document.querySelectorAll('.js-plotly-plot')].at(-1);
                Plotly.Fx.hover(g, {xval: 510, yval: 511});
                const h = g.querySelector('.hovertext');
                return h ? [...h.querySelectorAll('tspan.line')].map(t => t.textContent).join('|')
                         : null;
            }"""
        )
        assert text, "no hover label"
        assert "query 511: r" in text and "key 510: q" in text, text
        shown = float(text.split("weight = ")[1])
        assert shown == pytest.approx(float(want[0, 15, 511, 510]), rel=1e-6)

    eventually(hover_last_cells)


def test_zooming_the_grid_moves_the_key_labels_with_the_cells(app_url, page):
    """A drag across head 0 zooms along the keys: every row's key labels follow the cells;
    the rows of heads (and the labels between them) stay where they are."""
    page.goto(app_url + "/?text=" + urllib.parse.quote("the cat saw the dog"))
    wait_for_app(page)
    _wait_heatmaps(page, 4)
    ranges = (
        "() => { const f = document.querySelector('.js-plotly-plot')._fullLayout;"
        " return [f.xaxis.range, f.xaxis2.range, f.yaxis.range]; }"
    )

    def drag_zooms():  # again if a redraw of the chart (a late rerun) undid the zoom
        before = page.evaluate(ranges)
        box = page.locator(".js-plotly-plot .nsewdrag").first.bounding_box()
        x0, y0 = box["x"] + 0.02 * box["width"], box["y"] + 0.1 * box["height"]
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x0 + 0.25 * box["width"], y0 + 0.3 * box["height"], steps=8)
        page.mouse.up()
        page.wait_for_function(
            f"() => {{ const r = ({ranges})(); return r[0][1] - r[0][0] < 6; }}", timeout=10_000
        )
        x, x2, y = page.evaluate(ranges)
        assert x2 == pytest.approx(x)  # the first row's labels follow the zoom (the last row's
        assert y == pytest.approx(before[2])  # are the trace's own); the rows of heads stay

    eventually(drag_zooms)


def test_no_parent_frame_may_control_the_app(app_url):
    """.streamlit/config.toml: Streamlit's allow-list of origins whose postMessage may stop,
    rerun or steer the app is empty (its default is Community Cloud's 16 domains, which the
    browser also checked Streamlit's own ~40 echoed messages of every rerun against)."""
    import json
    import urllib.request

    with urllib.request.urlopen(f"{app_url}/_stcore/host-config", timeout=30) as resp:
        assert json.load(resp)["allowedOrigins"] == []
