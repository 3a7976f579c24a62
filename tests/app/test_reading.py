"""The Reading heads page through AppTest.

Every figure is compared with numbers computed here from the core (`mha_core.interpret`, our
own model loaded in this module), not from the page's helpers; the
filter is checked against a share of hidden mass computed here from the unfiltered matrix.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import torch

import mha_core
from mha_core import interpret
from mha_core.pretrained import layer_trace
from tests.helpers.app import figure as figure_drawn
from tests.helpers.app import page_text, plotly_array, run_app, shared
from tests.helpers.inputs import RAW_MARKUP, TEXTS
from ui.numbers import num
from ui.strings import STRINGS
from viz.reading import KEY_SIDE, OPACITY_LEVELS, QUERY_SIDE

PAGE = "views/reading.py"
TEXT = "The animal didn't cross the street because it was too tired."
EN, ZH = STRINGS["en"], STRINGS["zh"]


@pytest.fixture(scope="module")
def model():
    return mha_core.load_pretrained()


@pytest.fixture(scope="module")
def trace(model):
    return model.trace(TEXT, keep_layers=False)


def _run(text: str = TEXT, query: dict | None = None, **own):
    return run_app(PAGE, query, **shared(text=text), **own)


# the tab that draws each chart (only the open tab is drawn)
VIEW_OF = {"lines": "lines", "weights": "norms", "norms": "norms", "layer_shares": "norms",
           "rollout": "rollout", "raw": "rollout", "feeds": "rollout", "importance": "ablation",
           "ablated_head": "ablation", "qk": "qk", "corpus": "corpus"}  # fmt: skip


def open_view(at, view: str):
    """Open tab `view` as a click on it does (its value, then a run)."""
    if at.session_state["reading.view"] != view:
        at.session_state["reading.view"] = view
        at.run()
        assert not at.exception, at.exception
    return at


def figure(at, key: str) -> dict:
    """The chart drawn with `key`, its tab opened first."""
    return figure_drawn(open_view(at, VIEW_OF[key.removeprefix("reading.fig.")]), key)


def _z(fig, trace_index: int = 0) -> np.ndarray:
    hm = fig["data"][trace_index]
    z = plotly_array(hm["z"]).astype(np.float64)
    if z.ndim == 1:
        z = z.reshape(len(plotly_array(hm["y"])), len(plotly_array(hm["x"])))
    return z


def _segments(fig) -> dict[tuple[str, int, int], float]:
    """{(colour, query, key): opacity} of the lines view's lines."""
    out = {}
    for tr in fig["data"]:
        if tr.get("mode") != "lines" or tr["x"] == [None]:
            continue
        rgb, alpha = re.fullmatch(r"rgba\((\d+,\d+,\d+),([0-9.]+)\)", tr["line"]["color"]).groups()
        ys = tr["y"]
        for k in range(0, len(ys), 3):
            out[(rgb, int(ys[k]), int(ys[k + 1]))] = float(alpha)
    return out


def _chart_keys(at) -> set[str]:
    return {c.key for c in at.get("plotly_chart")}


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def _hidden_notes(at) -> list[tuple[float, int, int]]:
    """(share in %, hidden cells, all cells) of every 'The filter hides …' caption, in order."""
    pat = re.compile(r"hides ([0-9.]+)% of the attention mass here \((\d+) of (\d+) cells\)")
    return [(float(a), int(b), int(c)) for a, b, c in pat.findall(_captions(at))]


# --- the default view --------------------------------------------------------------------------
def test_default_view_shows_every_view_with_the_cores_numbers(model, trace):
    at = _run()
    assert [s.value for s in at.main.subheader] == [EN["reading.lines.title"].format(layer=0)]
    assert at.query_params["view"] == "lines"
    subheaders = []
    for view in ("lines", "norms", "rollout", "ablation", "qk", "corpus"):
        subheaders += [s.value for s in open_view(at, view).main.subheader]
    assert subheaders == [
        EN["reading.lines.title"].format(layer=0),
        EN["reading.norms.title"].format(layer=0, head=0),
        EN["reading.rollout.title"].format(layer=0),
        EN["reading.ablation.title"],
        EN["reading.qk.title"].format(layer=0, head=0),
        EN["reading.corpus.title"],
    ]
    attn = trace.attentions.numpy()
    tokens = list(trace.tokens)
    # weights and value-weighted norms of layer 0, head 0
    np.testing.assert_array_equal(
        _z(figure(at, "reading.fig.weights")), attn[0, 0].astype(np.float32)
    )
    norms = interpret.row_shares(interpret.value_norms(model, trace)).numpy()
    np.testing.assert_allclose(_z(figure(at, "reading.fig.norms")), norms[0, 0], rtol=1e-6)
    assert figure(at, "reading.fig.norms")["layout"]["xaxis"]["ticktext"] == tokens
    # per-layer shares on [CLS], [SEP], punctuation under both
    bars = [d for d in figure(at, "reading.fig.layer_shares")["data"] if d["type"] == "bar"]
    w = interpret.attention_shares(attn, tokens).mean(-1)
    n = interpret.attention_shares(norms, tokens).mean(-1)
    for k, (m, c) in enumerate([(m, c) for m in (w, n) for c in ("cls", "sep", "punct")]):
        row = m[interpret.CATEGORIES.index(c)]
        np.testing.assert_allclose(plotly_array(bars[k]["y"]), row, rtol=1e-6)
    # rollout after layer 0 and the raw head-averaged attention of layer 0
    roll = interpret.rollout(trace.attentions).numpy()
    np.testing.assert_allclose(_z(figure(at, "reading.fig.rollout")), roll[0], rtol=1e-6)
    np.testing.assert_allclose(_z(figure(at, "reading.fig.raw")), attn[0].mean(0), rtol=1e-6)
    feeds = figure(at, "reading.fig.feeds")["data"]
    np.testing.assert_allclose(plotly_array(feeds[0]["y"]), roll[-1, 0], rtol=1e-6)
    np.testing.assert_allclose(plotly_array(feeds[1]["y"]), roll[-1].mean(0), rtol=1e-6)
    # head importance, and the picked head's pattern beside it
    imp = interpret.head_ablation(model, trace)
    np.testing.assert_allclose(_z(figure(at, "reading.fig.importance")), imp, rtol=1e-9)
    np.testing.assert_array_equal(
        _z(figure(at, "reading.fig.ablated_head")), attn[0, 0].astype(np.float32)
    )
    hi = np.unravel_index(np.argmax(imp), imp.shape)
    assert f"layer {hi[0]}, head {hi[1]} (1 − cos = {num(imp[hi], 4)})" in _captions(at)
    # the query/key map of layer 0, head 0 (keys translated by default)
    att = layer_trace(model, trace, 0)
    m = interpret.query_key_map(att.q[0, 0].numpy(), att.k[0, 0].numpy(), translate_keys=True)
    pts = [d for d in figure(at, "reading.fig.qk")["data"] if d.get("mode") == "markers+text"]
    np.testing.assert_allclose(plotly_array(pts[0]["x"]), m.queries[:, 0], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(plotly_array(pts[1]["y"]), m.keys[:, 1], rtol=1e-6, atol=1e-9)
    # the lines view: heads 0, 1, 2 of layer 0, every line with opacity = its weight
    segs = _segments(figure(at, "reading.fig.lines"))
    count = 0
    for h in range(3):
        for i in range(len(tokens)):
            for j in range(len(tokens)):
                if attn[0, h, i, j] >= 0.005:
                    count += 1
                    level = min(max(round(attn[0, h, i, j] * OPACITY_LEVELS), 1), OPACITY_LEVELS)
                    assert any(
                        k[1:] == (i, j) and abs(a - level / OPACITY_LEVELS) < 1e-3
                        for k, a in segs.items()
                    )
    assert len(segs) == count
    # nothing is filtered by default; the corpus pass waits for its button
    assert not _hidden_notes(at)
    assert open_view(at, "corpus").button(key="reading.corpus_button")


def test_layer_head_and_lines_controls(trace):
    at = _run(
        **{
            "reading.layer": 3,
            "reading.head": 7,
            "reading.lines_heads": [4, 1],
            "reading.lines_token": 2,
            "reading.lines_side": "query",
        }
    )
    attn = trace.attentions.numpy()
    np.testing.assert_array_equal(
        _z(figure(at, "reading.fig.weights")), attn[3, 7].astype(np.float32)
    )
    segs = _segments(figure(at, "reading.fig.lines"))
    assert segs and all(i == 2 for _, i, _ in segs)  # only token 2's lines, as query
    assert len(segs) == sum(int((attn[3, h, 2] >= 0.005).sum()) for h in (1, 4))
    keys = [d for d in figure(at, "reading.fig.lines")["data"] if d.get("mode") == "markers+text"]
    hover = keys[KEY_SIDE]["hovertext"]
    for j in range(len(trace.tokens)):
        assert f"head 4: weight = {format(float(attn[3, 4, 2, j]), '.8g')}" in hover[j]
    # the same token as key: only the lines into it
    at = _run(**{"reading.layer": 3, "reading.lines_token": 2, "reading.lines_side": "key"})
    segs = _segments(figure(at, "reading.fig.lines"))
    assert segs and all(j == 2 for _, _, j in segs)
    # no head picked: a message instead of the figure
    at = _run(**{"reading.lines_heads": []})
    assert EN["reading.lines.no_heads"] in page_text(at)
    assert "reading.fig.lines" not in _chart_keys(at)


@pytest.mark.parametrize("mode,amount", [("threshold", 0.1), ("top_k", 2)])
def test_the_filter_hides_what_it_says(trace, mode, amount):
    own = {"reading.filter": mode, "reading.layer": 2, "reading.head": 5}
    own["reading.threshold" if mode == "threshold" else "reading.top_k"] = amount
    at = _run(**own)
    a = trace.attentions.numpy()[2, 5].astype(np.float64)
    if mode == "threshold":
        hidden = a < amount
    else:  # everything below each row's 2nd largest
        hidden = a < np.sort(a, axis=-1)[:, -2:-1]
    z = _z(figure(at, "reading.fig.weights"))
    np.testing.assert_array_equal(np.isnan(z), hidden)
    np.testing.assert_array_equal(z[~hidden], a[~hidden].astype(np.float32))
    share = a[hidden].sum() / a.sum()
    notes = []  # lines (heads 0-2), weights, norms, rollout, raw, ablated head: one note each
    for view in ("lines", "norms", "rollout", "ablation"):
        notes += _hidden_notes(open_view(at, view))
    assert len(notes) == 6
    weights_note = notes[1]
    assert weights_note == (round(100 * share, 1), int(hidden.sum()), a.size)
    # the lines view hides the same cells in each of its heads
    lines = trace.attentions.numpy()[2, :3].astype(np.float64)
    lh = lines < amount if mode == "threshold" else lines < np.sort(lines, -1)[..., -2:-1]
    assert notes[0] == (round(100 * lines[lh].sum() / lines.sum(), 1), int(lh.sum()), lines.size)
    for _, i, j in _segments(figure(at, "reading.fig.lines")):
        assert any(not lh[h, i, j] for h in range(3))


def test_rollout_without_residual_and_query_key_map_controls(model, trace):
    at = _run(
        **{
            "reading.layer": 4,
            "reading.head": 2,
            "reading.residual": False,
            "reading.qk_translate": False,
            "reading.qk_query": 3,
        }
    )
    roll = interpret.rollout(trace.attentions, residual=False).numpy()
    np.testing.assert_allclose(_z(figure(at, "reading.fig.rollout")), roll[4], rtol=1e-6)
    att = layer_trace(model, trace, 4)
    m = interpret.query_key_map(att.q[0, 2].numpy(), att.k[0, 2].numpy(), translate_keys=False)
    fig = figure(at, "reading.fig.qk")
    pts = [d for d in fig["data"] if d.get("mode") == "markers+text"]
    np.testing.assert_allclose(plotly_array(pts[1]["x"]), m.keys[:, 0], rtol=1e-6, atol=1e-9)
    row = trace.attentions.numpy()[4, 2, 3]
    for j, text in enumerate(pts[1]["hovertext"]):
        assert f"query 3 → key {j}: weight = {format(float(row[j]), '.8g')}" in text
    assert sum(len(d["x"]) // 3 for d in fig["data"] if d.get("mode") == "lines") == len(row)
    assert "PC 1 (" in fig["layout"]["xaxis"]["title"]["text"]


def test_url_state_round_trip_and_bad_values():
    query = {
        "layer": "2",
        "head": "5",
        "filter": "top_k",
        "top_k": "4",
        "lines_heads": "3,4",
        "lines_token": "1",
        "lines_side": "key",
        "residual": "0",
        "qk_query": "2",
    }
    at = _run(query=query)
    ss = at.session_state
    assert (ss["reading.layer"], ss["reading.head"], ss["reading.filter"]) == (2, 5, "top_k")
    assert (ss["reading.top_k"], ss["reading.lines_heads"]) == (4, [3, 4])
    assert (ss["reading.lines_token"], ss["reading.lines_side"]) == (1, "key")
    assert (ss["reading.residual"], ss["reading.qk_query"]) == (False, 2)
    for k, v in query.items():
        assert at.query_params[k] in (v, [v])  # mirrored back into the URL
    bad = {
        "layer": "9",
        "head": "<b>",
        "filter": "median",
        "threshold": "0.33",
        "lines_heads": "1,1",
    }
    at = _run(query=bad)
    notice = page_text(at)
    for name in bad:
        assert name in notice
    assert at.session_state["reading.layer"] == 0 and at.session_state["reading.filter"] == "none"


def test_chinese_page():
    at = run_app(PAGE, **shared(text=TEXT, lang="zh"))
    assert at.title[0].value == ZH["reading.title"]
    assert ZH["reading.view.corpus"] in at.segmented_control[0].options  # the views' labels too
    assert ZH["reading.corpus.title"] in [s.value for s in open_view(at, "corpus").main.subheader]


def test_long_input_caps_and_asks_before_ablation():
    text = " ".join(["word"] * 140)  # 142 tokens: past every cap of the page
    at = _run(text)
    assert "first 64" in page_text(at)  # the lines view's cap
    assert "first 128" in page_text(open_view(at, "norms"))  # the heatmaps' crop
    assert open_view(at, "ablation").button(key="reading.ablation_button")
    assert "reading.fig.importance" not in _chart_keys(at)
    at.button(key="reading.ablation_button").click().run()
    assert not at.exception
    assert "reading.fig.importance" in _chart_keys(at)


def test_corpus_view_on_a_few_sentences(monkeypatch, model):
    import ui.compute.reading as compute

    monkeypatch.setattr(compute, "CORPUS_LIMIT", 3)
    sentences = interpret.load_corpus()[:3]
    at = open_view(_run(), "corpus")
    assert at.button(key="reading.corpus_button").label == EN["reading.corpus.run"].format(n=3)
    at.button(key="reading.corpus_button").click().run()
    assert not at.exception, at.exception
    stats = interpret.corpus_statistics(model, sentences)
    bars = [d for d in figure(at, "reading.fig.corpus")["data"] if d["type"] == "bar"]
    cats = ("cls", "sep", "punct", "prev", "next")
    assert len(bars) == 2 * len(cats)
    for k, (measure, c) in enumerate([(m, c) for m in ("weights", "norms") for c in cats]):
        np.testing.assert_allclose(plotly_array(bars[k]["y"]), stats.layer_share(c, measure))
    tables = [json.dumps(tb.value.to_dict(), ensure_ascii=False) for tb in at.table]
    assert len(tables) == 2
    for i in range(len(interpret.CLARK_2019)):
        assert EN[f"reading.clark.{i}"] in tables[1]
    assert f"{stats.n_sentences} sentences, {stats.n_tokens} WordPiece tokens" in page_text(at)
    assert "Clark" in page_text(at) and "https://aclanthology.org/W19-4828" in page_text(at)
    # computed once: a new session shows it without the button
    at = _run(**{"reading.view": "corpus"})
    assert not at.button and "reading.fig.corpus" in _chart_keys(at)


def test_english_clark_findings_are_the_papers_words_in_the_core():
    for i, finding in enumerate(interpret.CLARK_2019):
        assert EN[f"reading.clark.{i}"] == finding.statement
    assert f"reading.clark.{len(interpret.CLARK_2019)}" not in EN


def test_click_reading_helper(monkeypatch):
    from ui import widgets

    monkeypatch.setattr(
        widgets.st,
        "session_state",
        {
            "a": {"selection": {"points": [{"customdata": {"1": 7, "0": 3}}]}},
            "b": {"selection": {"points": [{"x": 1}, {"customdata": [2, 5, 0.1]}]}},
            "c": {"selection": {"points": []}},
        },
    )
    assert widgets.clicked_point("a") == [3, 7]
    assert widgets.clicked_point("b") == [2, 5, 0.1]
    assert widgets.clicked_point("c") is None and widgets.clicked_point("missing") is None


# --- hostile input -------------------------------------------------------------------------------
@pytest.mark.parametrize("case", list(TEXTS))
def test_hostile_text(case):
    text = TEXTS[case]
    at = run_app(PAGE, **shared(text=text))
    assert at.session_state["shared.text"] == text  # nothing the user typed is lost
    if not text.strip():
        assert at.info and not at.get("plotly_chart")
        return
    drawn = set()
    for view in ("norms", "qk", "lines"):
        drawn |= _chart_keys(open_view(at, view))
        for c in at.get("plotly_chart"):
            spec = json.dumps(json.loads(c.proto.spec), ensure_ascii=False)
            assert not any(tag in spec for tag in RAW_MARKUP), "markup reached a figure unescaped"
            assert "&quot;" not in spec and "&amp;" not in spec
    assert {"reading.fig.lines", "reading.fig.weights", "reading.fig.qk"} <= drawn
    if case.startswith("markup"):
        lines = figure(at, "reading.fig.lines")
        shown = [d for d in lines["data"] if d.get("mode") == "markers+text"][QUERY_SIDE]["text"]
        assert any("&lt;" in tok for tok in shown)  # escaped, so shown literally


def test_markup_stays_literal_in_the_browser_text():
    # what the reader sees is the text typed: Plotly decodes &lt; back to "<"
    at = _run(TEXTS["markup_1"], **{"reading.qk_query": 1})
    fig = figure(at, "reading.fig.qk")
    toks = [d for d in fig["data"] if d.get("mode") == "markers+text"][KEY_SIDE]["text"]
    assert "&lt;" in "".join(toks) and "<" not in "".join(toks)
    assert torch.is_grad_enabled()  # the page leaves torch's global state alone
