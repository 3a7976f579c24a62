"""The home page through streamlit.testing.v1.AppTest: every control, every bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import plotly.graph_objects as go
import pytest

from mha_core import AttentionConfig, run_attention, word_tokenize
from tests.helpers.app import figure, make_app, plotly_array, rerun, run_app, shared
from tests.helpers.grid import (
    blocks,
    drawn_key_labels,
    drawn_query_labels,
    grid_columns,
    grid_heads,
    grid_tokens,
)
from tests.helpers.grid import heatmaps as _heatmaps

MARKUP = [
    "<b>x</b>",
    '<a href="https://example.com">x</a>',
    "<img src=x onerror=alert(1)>",
    '<span style="font-size:400px">W</span>',
]


def _grid(at) -> dict:
    return figure(at, "attention.heads_fig")


def _grid_shape(grid) -> tuple[int, int, int, int]:
    """(heads, columns of heads, Tq, Tk) of the head grid."""
    heads = grid_heads(grid)
    return len(heads), grid_columns(grid), *heads.shape[1:]


def _open(at, view: str):
    """Open a tab of the page ("mean", "stats", "similarity"): only the open tab is drawn."""
    at.session_state["attention.view"] = view
    return rerun(at)


def test_default_page_shows_every_head_and_the_mean():
    at = run_app(**shared())
    grid = _grid(at)
    assert grid_heads(grid).shape == (4, 7, 7)  # default d_model 64, 4 heads
    assert [a["text"] for a in grid["layout"]["annotations"]] == [f"head {h}" for h in range(4)]
    tokens = ["I", "want", "to", "live", "in", "Europe", "."]
    assert _grid_shape(grid)[1] == 2  # two heads a row: readable on a phone
    assert grid_tokens(grid) == tokens and grid_tokens(grid, "y") == tokens  # the hover's
    assert drawn_key_labels(grid) == [tokens * 2, tokens * 2]  # under each of the 4 heads
    assert drawn_query_labels(grid) == tokens * 2  # the queries at the start of each row
    bar = _heatmaps(grid)[0]["colorbar"]  # the colour bar under the heads, at most one head wide
    assert bar["orientation"] == "h" and bar["lenmode"] == "fraction" and bar["len"] <= 0.5
    titles = [a["title"]["text"] for k, a in grid["layout"].items()
              if k[1:5] == "axis" and (a.get("title") or {}).get("text")]  # fmt: skip
    assert sorted(titles) == ["key", "query"]  # issue #42
    assert [c.key for c in at.get("plotly_chart")] == [
        "attention.heads_fig"
    ]  # only the open tab is drawn
    mean = figure(_open(at, "mean"), "attention.mean_fig")
    assert len(_heatmaps(mean)) == 1
    np.testing.assert_allclose(
        plotly_array(mean["data"][0]["z"]), grid_heads(grid).mean(axis=0), rtol=1e-6, atol=1e-7
    )
    assert at.session_state["shared.n_heads"] == 4
    assert any("d_k = d_model / h = 64 / 4 = **16**" in m.value for m in at.markdown)


@pytest.mark.parametrize("d_model,n_heads", [(64, 1), (64, 8), (96, 12), (512, 16), (12, 3)])
def test_heads_slider_sets_the_number_of_heatmaps(d_model, n_heads):
    at = run_app(**shared(d_model=d_model, n_heads=n_heads))
    assert grid_heads(_grid(at)).shape[0] == n_heads
    assert any(f"= **{d_model // n_heads}**" in m.value for m in at.markdown)


def test_invalid_head_count_cannot_be_chosen():
    at = run_app(**shared(d_model=96, n_heads=5))  # 5 does not divide 96: snapped to a divisor
    h = at.session_state["shared.n_heads"]
    assert 96 % h == 0 and h in (4, 6)
    slider = at.select_slider(key="shared.n_heads")
    assert all(96 % o == 0 for o in map(int, slider.options))


def test_moving_d_model_under_the_heads_slider_keeps_heads_valid():
    # AppTest cannot move sidebar widgets after the first run (tests/app/conftest.py): a fresh
    # app with the state that moving d_model from 64 to 24 leaves behind; the browser test does
    at = run_app(**shared(d_model=24, n_heads=16))
    assert at.session_state["shared.n_heads"] == 12
    assert grid_heads(_grid(at)).shape[0] == 12


def test_figures_match_the_core():
    at = run_app(**shared(text="the cat saw the dog", d_model=32, n_heads=2, seed=3, mask="causal"))
    grid = _grid(at)
    cfg = AttentionConfig(d_model=32, n_heads=2, seed=3, mask="causal")
    ref = run_attention(["the", "cat", "saw", "the", "dog"], cfg).attention.weights[0].numpy()
    heads = grid_heads(grid)
    assert heads.shape == ref.shape
    for h in range(2):
        np.testing.assert_allclose(heads[h], ref[h], atol=1e-7)
        assert np.triu(heads[h], 1).max() == 0.0
    assert grid_tokens(grid, "y") == ["the", "cat", "saw", "the", "dog"]


@pytest.mark.parametrize(
    "control",
    [
        {"seed": 7},
        {"positional": False},
        {"scale": False},
        {"mask": "causal"},
        {"scoring": "additive"},
        {"tokenizer": "wordpiece"},
        {"lang": "zh"},
    ],
)
def test_every_sidebar_control_changes_the_page(control):
    base = _grid(run_app(**shared()))
    at = run_app(**shared(**control))
    changed = _grid(at)
    if "lang" in control:
        assert at.title[0].value == "多头注意力,逐头查看"
        assert changed["layout"]["annotations"][0]["text"] == "头 0"
    elif "tokenizer" in control:
        assert grid_tokens(changed) == [
            "i",
            "want",
            "to",
            "live",
            "in",
            "europe",
            ".",
        ]
    else:
        assert not np.array_equal(grid_heads(changed), grid_heads(base))


def test_page_controls_colour_scale_and_palette():
    at = run_app(**shared())
    shared_grid = _grid(at)
    assert _heatmaps(shared_grid)[0]["showscale"] is True
    at.radio(key="attention.colour_scale").set_value("per_head").run()
    grid = _grid(at)
    # one bar, of the share of each head's own largest weight (issue #42: there was none),
    # each head's range in its title, and a caption saying so
    bars = [h["colorbar"]["ticktext"] for h in _heatmaps(grid) if h.get("showscale")]
    assert bars == [["0", "50%", "100%"]]
    assert "Per head: each head's colours run from 0 to its own largest weight" in "\n".join(
        c.value for c in at.caption
    )
    # every head's colours on its own range [0, its largest weight], the same exact weights
    np.testing.assert_array_equal(grid_heads(grid), grid_heads(shared_grid))
    for (tr, rows, cols), w in zip(blocks(grid), grid_heads(grid)):
        np.testing.assert_allclose(plotly_array(tr["z"])[rows, cols], w / w.max(), rtol=1e-6)
    assert "%{customdata[2]:.8g}" in _heatmaps(grid)[0]["hovertemplate"]  # the exact weight
    at.selectbox(key="attention.palette").set_value("Cividis").run()
    assert not at.exception
    expect = [list(c) for c in go.Heatmap(colorscale="Cividis").colorscale]
    assert [list(c) for c in _grid(at)["data"][0]["colorscale"]] == expect
    mean = figure(_open(at, "mean"), "attention.mean_fig")
    assert [list(c) for c in mean["data"][0]["colorscale"]] == expect


def test_example_picker_fills_the_text():
    at = run_app(**shared())
    at.selectbox(key="shared.example").set_value("attention is not too shabby").run()
    assert at.session_state["shared.text"] == "attention is not too shabby"
    assert grid_tokens(_grid(at)) == [
        "attention",
        "is",
        "not",
        "too",
        "shabby",
    ]


@pytest.mark.parametrize("text", ["", "    ", "\u200b\u200b"])
def test_empty_text_gives_a_message_and_keeps_the_text(text):
    at = run_app(**shared(text=text))
    assert at.info and not at.get("plotly_chart")
    assert at.session_state["shared.text"] == text


@pytest.mark.parametrize(
    "text,n",
    [
        ("...!?", 5),
        ("hello", 1),
        ("the " * 40, 40),
        ("👩\u200d👩\u200d👧 family", 2),
        ("שלום עולם", 2),
        ("cafe\u0301 résumé", 2),
        ("我想住在欧洲", 6),
        ("a\u200bb", 2),
    ],
)
def test_odd_inputs_give_correct_figures(text, n):
    at = run_app(**shared(text=text))
    grid = _grid(at)
    assert len(grid_tokens(grid)) == n and grid_heads(grid).shape == (4, n, n)
    assert grid["layout"]["xaxis"]["tickvals"][:n] == list(range(n))
    assert at.session_state["shared.text"] == text


def test_long_text_is_truncated_with_a_notice():
    text = " ".join(f"w{i}" for i in range(600))
    at = run_app(**shared(text=text))
    assert any("600" in w.value and "512" in w.value for w in at.warning)
    # first, one head token by token: every token in a chart, the last word included
    head = figure(at, "attention.head_fig")
    assert plotly_array(_heatmaps(head)[0]["z"]).shape == (512, 512)
    assert head["layout"]["xaxis"]["ticktext"][-1] == "511: w511"
    assert at.query_params["long_view"] == "head"
    assert not [e for e in at.get("plotly_chart") if e.key == "attention.heads_fig"]
    at.selectbox(key="attention.head").set_value(3).run()
    assert not at.exception and at.query_params["head"] == "3"
    w = run_attention([f"w{i}" for i in range(512)], AttentionConfig())
    expect = w.attention.weights[0, 3].numpy()
    np.testing.assert_allclose(plotly_array(_heatmaps(figure(at, "attention.head_fig"))[0]["z"]),
                               expect, rtol=1e-6)  # fmt: skip
    # every head: means over blocks of 8 x 8 tokens, and a caption that says so
    at.radio(key="attention.long_view").set_value("blocks").run()
    assert not at.exception and at.query_params["long_view"] == "blocks"
    assert grid_heads(_grid(at)).shape == (4, 64, 64)
    assert any("8 x 8" in c.value for c in at.caption)
    assert grid_tokens(_grid(at))[-1] == "504–511"
    np.testing.assert_allclose(grid_heads(_grid(at))[3, 0, 0],
                               expect[:8, :8].mean(), rtol=1e-5)  # fmt: skip
    assert not [e for e in at.get("plotly_chart") if e.key == "attention.head_fig"]
    assert at.query_params["head"] == "3"  # kept while not drawn
    assert at.session_state["shared.text"] == text


@pytest.mark.parametrize("text", MARKUP)
def test_markup_is_literal_text(text):
    at = run_app(**shared(text=text))
    grid = _grid(at)
    expect = [
        tok.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        for tok in word_tokenize(text).tokens
    ]
    assert grid_tokens(grid) == expect and grid_tokens(grid, "y") == expect
    assert "<" not in json.dumps(grid["layout"]["xaxis"]["ticktext"])
    assert at.session_state["shared.text"] == text


def test_statistics_table_and_similarity():
    at = run_app(**shared(text="the cat saw the dog", n_heads=4))
    assert not at.dataframe  # only the open tab is drawn
    df = _open(at, "stats").dataframe[0].value
    assert len(df) == 4
    assert "entropy (nats)" in df.columns and "looks like" in df.columns
    assert (df["max weight"] <= 1).all() and (df["entropy (nats)"] >= 0).all()
    assert df.index.tolist() == [f"head {h}" for h in range(4)]
    sim = _heatmaps(figure(_open(at, "similarity"), "attention.similarity_fig"))[0]
    s = plotly_array(sim["z"])
    assert s.shape == (4, 4) and np.allclose(np.diag(s), 1.0, atol=1e-6)
    np.testing.assert_allclose(s, s.T, atol=1e-6)


@pytest.mark.parametrize(("mask", "uniform"), [("none", math.log(5)), ("causal", None)])
def test_statistics_caption_states_the_uniform_entropy_of_the_mask(mask, uniform):
    """The uniform reference follows the mask: ln 5 without one, mean_i ln(i + 1) under the
    causal mask (row i sees i + 1 keys), not ln T."""
    at = _open(run_app(**shared(text="the cat saw the dog", mask=mask)), "stats")
    uniform = np.mean(np.log(np.arange(1, 6))) if uniform is None else uniform
    caption = next(c.value for c in at.caption if "nats" in c.value)
    assert f"{uniform:.3f} = uniform" in caption


def test_downloads_present():
    at = run_app(**shared())
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Weights (CSV, long form)", "Whole trace (JSON)"]


def test_url_round_trip_and_hostile_values():
    q = {
        "text": "<b>x</b> y",
        "d_model": "96",
        "n_heads": "12",
        "seed": "5",
        "mask": "causal",
        "scale": "0",
        "positional": "0",
        "scoring": "dot",
        "tokenizer": "words",
        "lang": "en",
    }
    at = make_app(query=q).run()
    assert not at.exception
    ss = at.session_state
    assert (
        ss["shared.text"] == "<b>x</b> y"
        and ss["shared.d_model"] == 96
        and ss["shared.n_heads"] == 12
    )
    assert ss["shared.seed"] == 5 and ss["shared.mask"] == "causal" and ss["shared.scale"] is False
    mirrored = {k: at.query_params[k] for k in q}
    assert mirrored == {k: [v] for k, v in q.items()} or mirrored == q
    bad = {"d_model": "97", "n_heads": "x", "seed": "-1", "mask": "<script>", "lang": "fr"}
    at = make_app(query=bad).run()
    assert not at.exception
    assert at.session_state["shared.d_model"] == 64 and at.session_state["shared.mask"] == "none"
    assert any("reset" in w.value for w in at.warning)


def test_long_text_head_choice_follows_the_sidebar_heads_while_it_is_not_drawn():
    """The full-resolution head picker shows over 64 tokens only; with a short sentence its
    choice still follows fewer sidebar heads, in state and URL."""
    at = run_app(**shared(n_heads=2), **{"attention.head": 7})
    assert at.session_state["attention.head"] == 1
    assert at.query_params["head"] == "1"


@pytest.mark.parametrize("view", ["heads", "mean", "stats", "similarity"])
def test_colour_controls_are_shown_only_where_they_act(view):
    """Issue #42: the palette and the colour scale stayed on the statistics table."""
    from ui.strings import STRINGS

    EN = STRINGS["en"]  # noqa: N806
    at = run_app(**shared(), **{"attention.view": view, "attention.palette": "Cividis"})
    scales = [r for r in at.main.radio if r.label == EN["attention.colour_scale"]]
    palettes = [s for s in at.main.selectbox if s.label == EN["attention.palette"]]
    assert len(scales) == (view == "heads")
    assert len(palettes) == (view != "stats")
    assert at.session_state["attention.palette"] == "Cividis"  # kept while hidden


@pytest.mark.parametrize(("lang", "want"), [("en", ["key", "query"]), ("zh", ["查询", "键"])])
def test_the_grid_titles_its_axes_in_the_pages_language(lang, want):
    """Issue #42: the per-head grid had no query / key axis titles; they come from the label
    table (ui/strings/a11y.py), so 中文 reads 查询 / 键."""
    grid = _grid(run_app(**shared(lang=lang)))
    titles = [a["title"]["text"] for k, a in grid["layout"].items()
              if k[1:5] == "axis" and (a.get("title") or {}).get("text")]  # fmt: skip
    assert sorted(titles) == sorted(want)
