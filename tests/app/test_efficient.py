"""The Efficient attention page through AppTest: every control moved, the figures and the stated
numbers compared with references computed here (PyTorch's SDPA on the core layer's q, k, v;
masks written out by hand; the cache formula from the published figures)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from mha_core import AttentionConfig, build_attention, run_attention, word_tokenize
from tests.helpers.app import figure, figures, figures_by_key, make_app, page_text, plotly_array
from tests.helpers.grid import grid_heads, grid_tokens
from ui import widgets
from ui.numbers import num
from ui.strings import STRINGS

PAGE = "views/efficient.py"
EN = STRINGS["en"]
TOKENS = ["I", "want", "to", "live", "in", "Europe", "."]
CHARTS = {  # by tab: only the open one is drawn
    "gqa": ["efficient.gqa_fig"],  # the groups above the heads, one chart
    "cache": ["efficient.step_fig", "efficient.growth_fig"],
    "calculator": [],
    "masks": [
        "efficient.mask_fig",
        "efficient.reach_fig",
        "efficient.masked_fig",
        "efficient.reach_curve",
    ],
    "flash": [
        "efficient.tiles_fig",
        "efficient.ml_fig",
        "efficient.partial_fig",
        "efficient.memory_fig",
    ],
}


def _view(name: str) -> dict:
    return {"efficient.view": name}


@pytest.mark.parametrize("view", list(CHARTS))
def test_each_tab_draws_its_charts_only(view):
    at = _run(**_view(view))
    assert list(figures_by_key(at)) == CHARTS[view]
    assert at.query_params["view"] == view


def _run(query: dict | None = None, **state):
    shared = {f"shared.{k}": v for k, v in state.items() if not k.startswith("efficient.")}
    own = {k: v for k, v in state.items() if k.startswith("efficient.")}
    at = make_app(page=PAGE, query=query, **shared, **own).run()
    assert not at.exception, at.exception
    return at


def _qkv(tokens=TOKENS, d_model=64, n_heads=4, mask="none"):
    """The page's layer (sidebar defaults, scaled dot-product) run by the core here."""
    config = AttentionConfig(d_model=d_model, n_heads=n_heads, mask=mask)
    tr = run_attention(tokens, config, build_attention(config)).attention
    return tr.q, tr.k, tr.v


def _z(fig, i: int = 0) -> np.ndarray:
    hm = fig["data"][i]
    z = plotly_array(hm["z"])
    if z.ndim == 1:
        z = z.reshape(len(plotly_array(hm["y"])), len(plotly_array(hm["x"])))
    return z.astype(np.float64)


def test_default_page_shows_every_part_with_the_numbers_computed_here():
    at = _run()
    assert list(figures_by_key(at)) == CHARTS["gqa"]
    text = page_text(at)
    assert "**Multi-head attention:** 4 query heads, 4 key/value heads" in text
    assert at.session_state["efficient.kv_heads"] == 4
    at = _run(**_view("calculator"))
    text = page_text(at)
    # the calculator's default row is Meta's Llama 3 8B at 8,192 tokens in bf16: 1 GiB
    assert "= **1 GiB** (128 KiB a token)" in text
    masks = page_text(_run(**_view("masks")))
    assert "131,040 tokens back, about 131k" in masks  # Mistral 7B, 4,096 x 32 layers
    table = at.dataframe[0].value
    assert list(table["model"]) == ["GPT-2 small", "Llama-2-7B", "Llama-3-8B", "Mistral-7B"]
    # every row cites a dated source, listed under the table (a column of them was cut off)
    sources = [line for line in text.splitlines() if line.startswith("- ")]
    assert [s.split(":")[0] for s in sources] == ["- " + m for m in table["model"]]
    assert all("20" in source for source in sources) and "source" not in table
    # the caption's comparison is per token, and states both caches at their contexts
    assert (
        "Llama 3 8B: 128 KiB a token in bfloat16, 1 GiB at 8,192 tokens; Llama 2 7B, with as many "
        "key/value heads as query heads, needs 4 times as much a token (512 KiB; 2 GiB at its "
        "4,096-token context)" in text
    )
    q, k, v = _qkv()
    plain = F.scaled_dot_product_attention(q, k, v)
    flash_fig = figure(_run(**_view("flash")), "efficient.partial_fig")
    final = _z(flash_fig)[-1]  # the plain computation's row 0 of head 0, as drawn
    np.testing.assert_allclose(final, plain[0, 0, 0].numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n_kv", [1, 2])
def test_kv_heads_slider_pools_keys_and_values_per_group(n_kv):
    at = _run()
    at.select_slider(key="efficient.kv_heads").set_value(n_kv).run()
    assert not at.exception
    q, k, v = _qkv()
    group = 4 // n_kv
    kg = k.view(1, n_kv, group, 7, 16).mean(2)  # Ainslie et al.'s mean-pooling, written here
    vg = v.view(1, n_kv, group, 7, 16).mean(2)
    scores = (q @ kg.repeat_interleave(group, 1).transpose(-2, -1)) / 4.0
    weights = torch.softmax(scores, -1)[0].numpy()  # (nh, T, T)
    grid = _z(figure(at, "efficient.gqa_fig"))  # one trace: heads side by side, gaps NaN
    for h in range(4):
        assert np.isclose(grid, weights[h][0, 0], rtol=1e-5).any()
    kind = "Multi-query" if n_kv == 1 else "Grouped-query"
    assert kind in page_text(at)
    ref = F.scaled_dot_product_attention(q, kg, vg, enable_gqa=True)
    mha = F.scaled_dot_product_attention(q, k, v)
    assert f"by up to {num(float((ref - mha).abs().max()))}" in page_text(at)
    groups = [d for d in figure(at, "efficient.gqa_fig")["data"] if d.get("yaxis") == "y30"]
    assert len(groups) == 1 + 2  # the lines (one trace), then the two rows of nodes
    kv = plotly_array(groups[-1]["x"])  # the key/value heads, each under its group
    assert len(kv) == n_kv
    ends = {x for x in groups[0]["x"][1::3]}  # where each query head's line ends: its group
    assert sorted(ends) == sorted(kv.tolist())


def test_cache_steps_and_growth():
    at = _run(mask="causal", **_view("cache"))
    at.slider(key="efficient.step").set_value(4).run()
    q, k, v = _qkv(mask="causal")
    causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    step = _z(figure(at, "efficient.step_fig"))  # (nh, 5) weights of token 4 over the cache
    assert step.shape == (4, 5)
    w = torch.softmax((q[0, :, 4:5] @ k[0, :, :5].transpose(-2, -1)) / 4.0, -1)[:, 0]
    np.testing.assert_allclose(step, w.numpy(), rtol=1e-5, atol=1e-6)
    assert causal.shape[2] == 7
    growth = figure(at, "efficient.growth_fig")["data"]
    np.testing.assert_allclose(plotly_array(growth[0]["y"]), 2 * 4 * 16 * 4 * np.arange(1, 8))
    assert "Step 4: the new token **in** joins the cache" in page_text(at)
    assert "Over all 7 steps" in page_text(at)


def test_calculator_for_mistral_with_its_window():
    at = _run(**_view("calculator"))
    at.selectbox(key="efficient.model").set_value("Mistral-7B")
    at.number_input(key="efficient.tokens").set_value(32768)
    at.run()
    text = page_text(at)
    assert "4,096 tokens × 2 bytes × batch 1 = **512 MiB**" in text  # the rolling buffer
    assert "keeps at most 4,096 tokens" in text
    at.number_input(key="efficient.batch").set_value(4)
    at.selectbox(key="efficient.dtype").set_value("float32")
    at.run()
    assert "× 4 bytes × batch 4 = **4 GiB**" in page_text(at)


def _mask_reference(t, w, sinks, glob):
    m = np.zeros((t, t), dtype=bool)
    for i in range(t):
        for j in range(i + 1):
            m[i, j] = i - j < w or j < sinks or i in glob or j in glob
    return m


def test_mask_controls_and_receptive_field():
    at = _run(**_view("masks"))
    at.slider(key="efficient.window").set_value(2)
    at.slider(key="efficient.sinks").set_value(1)
    at.multiselect(key="efficient.global").set_value([3])
    at.slider(key="efficient.layers").set_value(3)
    at.run()
    assert not at.exception
    mask = _z(figure(at, "efficient.mask_fig"))
    np.testing.assert_array_equal(mask.astype(bool), _mask_reference(7, 2, 1, {3}))
    ref = _mask_reference(7, 2, 1, {3}).astype(int)
    reach = np.linalg.matrix_power(ref, 3) > 0
    np.testing.assert_array_equal(_z(figure(at, "efficient.reach_fig")).astype(bool), reach)
    # farthest back, the sink (0) and the global token (3) aside, layer by layer
    farthest = []
    for n in (1, 2, 3):
        r = np.linalg.matrix_power(ref, n) > 0
        r[:, [0, 3]] = False
        farthest.append(max(i - min(np.flatnonzero(r[i]), default=i) for i in range(7)))
    curve = figure(at, "efficient.reach_curve")["data"]
    np.testing.assert_array_equal(plotly_array(curve[0]["y"]), farthest)
    text = page_text(at)
    assert f"holds information from {int(reach[-1].sum())} of the 7 tokens" in text
    assert f"is {farthest[-1]} tokens back" in text and "relays nothing else" in text


def test_window_alone_agrees_with_the_closed_form():
    at = _run(text="a b c d e f g h i j k l m n o p", **_view("masks"))
    at.slider(key="efficient.window").set_value(3)
    at.slider(key="efficient.layers").set_value(4)
    at.run()
    curve = figure(at, "efficient.reach_curve")["data"]
    np.testing.assert_array_equal(plotly_array(curve[0]["y"]), [2, 4, 6, 8])
    assert "from up to 8 tokens back: the closed form L(w − 1)" in page_text(at)


@pytest.mark.parametrize("mask", ["none", "causal"])
def test_flash_tiles_for_a_chosen_row(mask):
    at = _run(mask=mask, **_view("flash"))
    at.select_slider(key="efficient.block").set_value(2)
    at.selectbox(key="efficient.head").set_value(2)
    at.selectbox(key="efficient.row").set_value(5)
    at.run()
    at.slider(key="efficient.tile").set_value(1).run()
    q, k, v = _qkv(mask=mask)
    causal = mask == "causal"
    n_tiles = 3 if causal else 4  # keys 0-1, 2-3, 4-5 (, 6) for row 5 with blocks of 2
    assert at.slider(key="efficient.tile").max == n_tiles - 1
    partial = _z(figure(at, "efficient.partial_fig"))  # after tile 0, after tile 1, plain
    s = (q[0, 2, 5] @ k[0, 2, :4].T) / 4.0  # keys 0..3: the two tiles read so far
    np.testing.assert_allclose(partial[1], (torch.softmax(s, -1) @ v[0, 2, :4]).numpy(),
                               rtol=1e-5, atol=1e-6)  # fmt: skip
    plain = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    np.testing.assert_allclose(partial[-1], plain[0, 2, 5].numpy(), rtol=1e-5, atol=1e-6)
    text = page_text(at)
    assert "Tile 1 (of tiles 0 to" in text and "keys 2 to 3" in text
    assert "Tiled against plain attention: row 5 differs by" in text
    shapes = figure(at, "efficient.tiles_fig")["layout"]["shapes"]
    assert sum(s["line"]["width"] == 4 for s in shapes) == 1  # the current tile


def test_url_round_trip_and_bad_values():
    query = {
        "kv_heads": "2", "window": "5", "sinks": "2", "global": "1,4", "layers": "6",
        "block": "8", "head": "3", "row": "6", "tile": "0", "model": "GPT-2 small",
        "tokens": "1024", "batch": "2", "dtype": "float32", "step": "3", "view": "calculator",
    }  # fmt: skip
    at = _run(query=query)
    ss = at.session_state
    assert ss["efficient.kv_heads"] == 2 and ss["efficient.window"] == 5
    assert ss["efficient.global"] == [1, 4] and ss["efficient.block"] == 8
    assert ss["efficient.model"] == "GPT-2 small" and ss["efficient.dtype"] == "float32"
    for name, value in query.items():
        assert at.query_params[name] == value, name
    assert "= **144 MiB**" in page_text(at)  # 2 x 12 x 12 x 64 x 1024 x 4 x 2 bytes
    bad = _run(query={"kv_heads": "<b>", "block": "3", "model": "GPT-5", "global": "1,1"})
    assert "kv_heads" in bad.warning[0].value and "model" in bad.warning[0].value
    assert bad.session_state["efficient.block"] == 4


def test_fewer_sidebar_heads_clamp_the_page_choices():
    at = _run(n_heads=8, **{"efficient.kv_heads": 8, "efficient.head": 7, "efficient.row": 6})
    assert at.session_state["efficient.kv_heads"] == 8
    at2 = _run(n_heads=2, text="a b c", **{"efficient.kv_heads": 8, "efficient.head": 7,
                                            "efficient.row": 6, **_view("flash")})  # fmt: skip
    assert at2.session_state["efficient.kv_heads"] == 2
    assert at2.session_state["efficient.head"] == 1
    assert at2.session_state["efficient.row"] == 2
    # the URL shows the clamped values, not the stale choices
    assert (at2.query_params["kv_heads"], at2.query_params["head"]) == ("2", "1")
    assert at2.query_params["row"] == "2"


def test_chinese_keeps_every_value():
    at = _run(lang="zh", **{"efficient.kv_heads": 2, "efficient.window": 4})
    assert "高效注意力" in at.title[0].value
    assert at.session_state["efficient.kv_heads"] == 2 and at.session_state["efficient.window"] == 4
    assert "分组查询注意力" in page_text(at)


@pytest.mark.parametrize("text", ["", "   "])
def test_no_tokens_gives_a_message(text):
    at = _run(text=text)
    assert at.info and not figures(at)
    assert at.session_state["shared.text"] == text


def test_markup_and_repeated_tokens_stay_literal():
    text = "<b>x</b> the <img src=x onerror=alert(1)> the"
    at = _run(text=text, **_view("masks"))
    toks = word_tokenize(text).tokens
    for fig in figures(at):
        spec = json.dumps(fig, ensure_ascii=False)
        assert "<b>" not in spec and "<img" not in spec
    mask = figure(at, "efficient.mask_fig")
    assert len(mask["layout"]["yaxis"]["ticktext"]) == len(toks)


def test_a_shorter_sentence_after_choices_keeps_the_page_working():
    at = _run(**_view("flash"))
    at.selectbox(key="efficient.row").set_value(6)
    at.select_slider(key="efficient.block").set_value(2)
    at.run()
    at.slider(key="efficient.tile").set_value(3).run()
    at.session_state["efficient.view"] = "masks"
    at.run()
    at.multiselect(key="efficient.global").set_value([5]).run()
    at.session_state["efficient.view"] = "cache"
    at.run()
    at.slider(key="efficient.step").set_value(6).run()
    assert not at.exception
    at.session_state["shared.text"] = "a b c"  # as the sidebar's box would set it
    at.run()
    assert not at.exception, at.exception
    ss = at.session_state
    assert ss["efficient.step"] == 2  # the open tab's choice at once
    for view in ("masks", "flash"):  # the others when their tab opens
        at.session_state["efficient.view"] = view
        at.run()
        assert not at.exception, at.exception
    assert ss["efficient.row"] == 2 and ss["efficient.global"] == []
    assert ss["efficient.tile"] == 1
    at.session_state["efficient.view"] = "masks"
    at.run()
    assert _z(figure(at, "efficient.mask_fig")).shape == (3, 3)
    at.session_state["shared.text"] = "I want to live in Europe ."
    at.run()
    assert not at.exception and at.session_state["efficient.row"] == 2  # kept, still valid


def test_head_choices_stay_valid_while_an_empty_sentence_stops_the_page():
    """Found by the Chromium walk: with the sentence box empty the page stops before its
    tabs; fewer sidebar heads then left kv_heads=2 in the URL for a 1-head layer, and typing a
    sentence changed it. The choices follow the heads at once."""
    at = _run(text="", n_heads=2, **{"efficient.kv_heads": 8, "efficient.head": 7})
    assert at.info  # the page says what to do
    assert at.session_state["efficient.kv_heads"] == 2
    assert at.session_state["efficient.head"] == 1
    assert (at.query_params["kv_heads"], at.query_params["head"]) == ("2", "1")


def test_token_choices_of_closed_tabs_follow_a_shorter_sentence_at_once():
    """Found by the Chromium walk: the cache step stayed 63 in the URL while its tab was
    closed and a shorter sentence came in, then changed when the tab was opened. The cache
    step, the row, the global tokens and the tile follow the tokens whichever tab is open."""
    state = {"efficient.step": 63, "efficient.row": 6, "efficient.global": [1, 5],
             "efficient.tile": 3, "efficient.block": 2, **_view("calculator")}  # fmt: skip
    at = _run(text="a b c", **state)
    ss = at.session_state
    assert (ss["efficient.step"], ss["efficient.row"], ss["efficient.global"]) == (2, 2, [1])
    assert ss["efficient.tile"] == 1  # row 2 reads keys 0-2: tiles of 2 -> 0 and 1
    assert (at.query_params["step"], at.query_params["row"], at.query_params["tile"]) == (
        "2", "2", "1",
    )
    at.session_state["efficient.view"] = "flash"  # opening the tabs changes nothing
    at.run()
    assert (ss["efficient.row"], ss["efficient.tile"]) == (2, 1)
    at.session_state["efficient.view"] = "cache"
    at.run()
    assert ss["efficient.step"] == 2


@pytest.mark.parametrize("view", ["gqa", "masks", "flash"])
def test_a_long_text_is_cut_to_the_tokens_every_view_draws_cell_by_cell(view):
    """512 words x 16 heads drawn cell by cell was 60 MB and 13 s a step in Chromium
    (bench/long_input.py --pages efficient): the page uses the first GRID_FULL tokens and says
    so; each head of the grid has that many."""
    words = ["w" + str(i) for i in range(300)]
    at = _run(text=" ".join(words), n_heads=16, **_view(view))
    limit = widgets.GRID_FULL
    note = EN["msg.view_capped"].format(n=300, limit=limit, why=EN["efficient.tokens_capped"])
    assert note in [c.value for c in at.caption]
    if view != "flash":
        key = "efficient.gqa_fig" if view == "gqa" else "efficient.masked_fig"
        heads = grid_heads(figure(at, key))
        assert heads.shape == (16, limit, limit)
        assert grid_tokens(figure(at, key))[-1] == f"{limit - 1}: {words[limit - 1]}"  # numbered


def test_a_chart_whose_labels_a_phone_thins_goes_in_a_keyed_container_with_the_style():
    """ui/widgets.plot: the figure's phone steps become its container's key; the narrow-screen
    style hides all but every k-th tick label (wide screens draw them all)."""
    import plotly.graph_objects as go

    from ui import widgets
    from viz import PHONE_X_STEP

    assert widgets._phone_suffix(go.Figure(layout={"meta": {PHONE_X_STEP: 3}})) == "-phone-x3"
    assert widgets._phone_suffix(go.Figure(layout={"meta": {PHONE_X_STEP: 99}})) == "-phone-x12"
    assert widgets._phone_suffix(go.Figure()) == ""
    css = widgets.PHONE_CSS
    assert css.startswith("<style>@media (max-width: 480px)")
    assert '[class*="-phone-x3"] g[class^="x"][class$="tick"]:not(:nth-of-type(3n+1))' in css


def test_flash_speaks_of_the_causal_mask_only_when_it_is_set():
    """Issue #42: the FlashAttention view's caption spoke of the causal mask with no mask set."""
    plain = page_text(_run(**_view("flash")))
    assert "causal" not in plain.lower()
    assert "Scaled scores q·k/√d_k of one head" in plain
    causal = page_text(_run(mask="causal", **_view("flash")))
    assert "Blank cells are hidden by the causal mask." in causal
    assert "Skipped because the causal mask hides them entirely" in causal
