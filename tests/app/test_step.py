"""The Step by step page through streamlit.testing.v1.AppTest.

A fresh AppTest per case (tests/app/conftest.py: widgets of the st.navigation entry script drop out
of the element tree after the first rerun); the page's own controls are moved within a case.
Figures are compared with numbers computed here from the core, not from the page's helpers.
"""

from __future__ import annotations

import json
import math
from typing import NamedTuple

import numpy as np
import pytest

from mha_core import AttentionConfig, build_attention, run_attention, word_tokenize
from tests.helpers.app import figures_by_key, make_app, plotly_array, run_app
from ui.strings import STRINGS

PAGE = "views/step.py"
DEFAULT_TOKENS = ["I", "want", "to", "live", "in", "Europe", "."]
EN, ZH = STRINGS["en"], STRINGS["zh"]


def _run(**state):
    shared = {f"shared.{k}": v for k, v in state.items() if not k.startswith("step.")}
    own = {k: v for k, v in state.items() if k.startswith("step.")}
    at = make_app(page=PAGE, **shared, **own).run()
    assert not at.exception, at.exception
    return at


def _z(fig) -> np.ndarray:
    hm = fig["data"][0]
    z = plotly_array(hm["z"])
    if z.ndim == 1:  # typed arrays without a shape: rebuild it from the axes
        z = z.reshape(len(plotly_array(hm["y"])), len(plotly_array(hm["x"])))
    return z.astype(np.float64)


def _outline_rows(fig) -> set[tuple[float, float]]:
    return {(s["y0"], s["y1"]) for s in fig["layout"].get("shapes", [])}


def _texts(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [i.value for i in at.info] + [h.value for h in at.header]
    return "\n".join(parts)


def _latex(at) -> list[str]:
    """The display formulas (st.latex wraps them in $$ lines)."""
    return [e.value.strip().removeprefix("$$").removesuffix("$$").strip() for e in at.get("latex")]


class Steps(NamedTuple):
    """The whole page, every tab opened in turn (only the open tab is drawn)."""

    figs: dict
    headers: list
    subheaders: list
    text: str
    latex: list
    frames: list
    infos: list


def _every_step(at) -> Steps:
    """Open each step's tab (and the expanders drawn only when opened) and gather what it shows;
    the first tab is open again afterwards."""
    stages = [str(i) for i in range(6)]
    figs, headers, subheaders, text, latex, frames, infos = {}, [], [], [], [], [], []
    at.session_state["step.parts"] = at.session_state["step.additive_parts"] = True
    for stage in stages:
        at.session_state["step.stage"] = stage
        at.run()
        assert not at.exception, at.exception
        figs.update(figures_by_key(at))
        headers += [h.value for h in at.header]
        subheaders += [s.value for s in at.main.subheader]
        text.append(_texts(at))
        latex += _latex(at)
        frames += [d.value for d in at.dataframe]
        infos += [i.value for i in at.info]
    at.session_state["step.parts"] = at.session_state["step.additive_parts"] = False
    at.session_state["step.stage"] = stages[0]
    at.run()
    return Steps(figs, headers, subheaders, "\n".join(text), latex, frames, infos)


def _core(tokens, **cfg):
    config = AttentionConfig(**cfg)
    layer = build_attention(config)
    return run_attention(tokens, config, layer), layer


# --- the default view ------------------------------------------------------------------------
def test_default_page_shows_the_five_steps_with_real_numbers():
    at = _run()
    # only the first step is drawn until another tab is opened
    assert [h.value for h in at.header] == [EN["step.s0.title"]]
    assert set(figures_by_key(at)) == {"step.fig.x"}
    steps = _every_step(at)
    assert steps.headers == [
        EN["step.s0.title"],
        EN["step.s1.title"],
        EN["step.s2.title"],
        EN["step.s3.title"],
        EN["step.s4.title"],
        EN["step.s5.title"],
    ]
    assert steps.subheaders == [EN["step.mask.title"], EN["step.naive.title"]]
    figs = steps.figs
    expected = {
        "step.fig.x",
        "step.fig.e",
        "step.fig.pe",
        "step.fig.q_weight",
        "step.fig.k_weight",
        "step.fig.v_weight",
        "step.fig.q",
        "step.fig.k",
        "step.fig.v",
        "step.fig.scores",
        "step.fig.scaled",
        "step.fig.weights",
        "step.fig.head_output",
        "step.fig.naive_weights",
        "step.fig.naive_vectors",
        "step.fig.concat",
        "step.fig.w_o",
        "step.fig.output",
    }
    assert set(figs) == expected
    assert figs["step.fig.x"]["layout"]["yaxis"]["ticktext"] == DEFAULT_TOKENS
    # the numbers are the core's, for head 0 and the default query 0
    sent, layer = _core(DEFAULT_TOKENS)
    np.testing.assert_allclose(_z(figs["step.fig.x"]), sent.x.numpy(), atol=1e-6)
    wq = layer.projection_weights()[0].detach().numpy()[:, 0:16]
    np.testing.assert_allclose(_z(figs["step.fig.q_weight"]), wq, atol=1e-7)
    w = sent.attention.weights[0, 0].numpy()
    np.testing.assert_allclose(_z(figs["step.fig.weights"]), w, atol=1e-7)
    np.testing.assert_allclose(_z(figs["step.fig.output"]), sent.attention.output[0], atol=1e-6)
    # formulas, shapes and the row sum
    latex = " ".join(steps.latex)
    assert r"\sqrt{16}" in latex and r"\text{softmax}" in latex and "W_O" in latex
    text = steps.text
    assert "$X$ (7 × 64) · $W_Q^h$ (64 × 16) → $Q_h$ (7 × 16)" in text
    assert "sums to **1.000000**" in text
    assert EN["step.mask.none"] in text
    # the table of the query row: exact values of the core
    (frame,) = steps.frames
    assert list(frame.index) == [f"{i}: {t}" for i, t in enumerate(DEFAULT_TOKENS)]
    np.testing.assert_allclose(frame[EN["step.s3.col.weight"]].to_numpy(), w[0], atol=1e-7)
    scores = sent.attention.scores[0, 0].numpy()
    np.testing.assert_allclose(frame[EN["step.s3.col.raw"]].to_numpy(), scores[0], atol=1e-6)


def test_pickers_offer_every_head_and_token():
    at = _run()
    head = at.selectbox(key="step.head")
    query = at.selectbox(key="step.query")
    assert list(head.options) == ["h = 0", "h = 1", "h = 2", "h = 3"]
    assert list(query.options) == [f"{i}: {t}" for i, t in enumerate(DEFAULT_TOKENS)]
    assert not at.get("select_slider") or all(
        s.key not in ("step.dims", "step.dk_dims") for s in at.select_slider
    )  # d_model 64 fits: no window pickers


# --- moving the page's controls ----------------------------------------------------------------
def test_head_picker_changes_every_head_piece():
    at = _run(text="attention is not too shabby", mask="causal")
    at.selectbox(key="step.head").set_value(2).run()
    assert not at.exception
    tokens = ["attention", "is", "not", "too", "shabby"]
    sent, layer = _core(tokens, mask="causal")
    steps = _every_step(at)
    figs = steps.figs
    wk = layer.projection_weights()[1].detach().numpy()[:, 32:48]
    np.testing.assert_allclose(_z(figs["step.fig.k_weight"]), wk, atol=1e-7)
    np.testing.assert_allclose(_z(figs["step.fig.v"]), sent.attention.v[0, 2].numpy(), atol=1e-7)
    np.testing.assert_allclose(
        _z(figs["step.fig.weights"]), sent.attention.weights[0, 2].numpy(), atol=1e-7
    )
    # concat: head 2's block (columns 32..47) outlined
    x0s = {(s["x0"], s["x1"]) for s in figs["step.fig.concat"]["layout"]["shapes"]}
    assert (31.5, 47.5) in x0s
    # W_O: head 2's rows outlined
    assert (31.5, 47.5) in _outline_rows(figs["step.fig.w_o"])
    assert "columns 32–47 of $W_Q$ that belongs to head 2" in steps.text


def test_query_picker_moves_the_outline_and_the_comparison():
    at = _run(text="attention is not too shabby", mask="causal")
    at.selectbox(key="step.query").set_value(3).run()
    assert not at.exception
    steps = _every_step(at)
    figs = steps.figs
    for key in ("step.fig.x", "step.fig.q", "step.fig.scores", "step.fig.weights"):
        assert (2.5, 3.5) in _outline_rows(figs[key]), key
    sent, _ = _core(["attention", "is", "not", "too", "shabby"], mask="causal")
    bars = figs["step.fig.naive_weights"]["data"]
    np.testing.assert_allclose(plotly_array(bars[0]["y"]), [0.25, 0.25, 0.25, 0.25, 0.0])
    w = sent.attention.weights[0, 0, 3].numpy()
    np.testing.assert_allclose(plotly_array(bars[1]["y"]), w, atol=1e-7)
    v = sent.attention.v[0, 0].numpy().astype(np.float64)
    vectors = _z(figs["step.fig.naive_vectors"])
    np.testing.assert_allclose(vectors[0], v[:4].mean(axis=0), atol=1e-6)
    np.testing.assert_allclose(vectors[1], w @ v, atol=1e-6)
    text = steps.text
    assert "may look at $|A_i|$ = 4 keys" in text
    assert "Row 3 of $\\alpha_h$ sums to **1.000000**" in text
    # the table follows the query: masked keys say −∞, their weight is 0
    (frame,) = steps.frames
    masked = frame[EN["step.s3.col.masked"]].to_numpy()
    assert masked[4] == -math.inf and np.isfinite(masked[:4]).all()
    assert frame[EN["step.s3.col.weight"]].to_numpy()[4] == 0.0


def test_wide_models_show_a_window_that_follows_the_head():
    at = _run(d_model=512, n_heads=2)
    dims, dk = at.select_slider(key="step.dims"), at.select_slider(key="step.dk_dims")
    assert list(dims.options) == [f"{s}–{s + 63}" for s in range(0, 512, 64)]
    assert list(dk.options) == [f"{s}–{s + 63}" for s in range(0, 256, 64)]
    assert "dimensions 0–63 of 512" in _texts(at)
    at.selectbox(key="step.head").set_value(1).run()  # head 1 = columns 256..511
    assert not at.exception
    assert at.session_state["step.dims"] == 256
    figs = _every_step(at).figs
    x = plotly_array(figs["step.fig.x"]["data"][0]["x"])
    assert x[0] == 256 and x[-1] == 319 and len(x) == 64
    assert "dimensions 256–319 of 512" in _texts(at)
    sent, layer = _core(DEFAULT_TOKENS, d_model=512, n_heads=2)
    np.testing.assert_allclose(_z(figs["step.fig.x"]), sent.x.numpy()[:, 256:320], atol=1e-6)
    at.select_slider(key="step.dk_dims").set_value(128).run()
    assert not at.exception
    figs = _every_step(at).figs
    q = sent.attention.q[0, 1].numpy()
    np.testing.assert_allclose(_z(figs["step.fig.q"]), q[:, 128:192], atol=1e-6)
    wq = layer.projection_weights()[0].detach().numpy()
    # W_Q^h of head 1: input dims 256..319 (rows), head dims 128..191 (columns)
    np.testing.assert_allclose(
        _z(figs["step.fig.q_weight"]), wq[256:320, 256 + 128 : 256 + 192], atol=1e-7
    )
    w_o = layer.out_proj.weight.detach().numpy().T
    np.testing.assert_allclose(_z(figs["step.fig.w_o"]), w_o[256:320, 256:320], atol=1e-7)
    at.select_slider(key="step.dims").set_value(448).run()
    assert not at.exception
    x = plotly_array(_every_step(at).figs["step.fig.concat"]["data"][0]["x"])
    assert x[0] == 448 and x[-1] == 511


def test_w_o_shows_the_rows_its_text_promises():
    """Issue #42: at d_model 512, head 1, the text promised the outlined rows 128-255 of W_O
    while the chart showed rows 0-63. The W_O chart's rows start at the head's block (its
    columns stay the chosen window), and a caption says which rows and columns are shown."""
    at = _run(d_model=512, n_heads=4, **{"step.head": 1, "step.dims": 0})
    assert not at.exception
    steps = _every_step(at)
    fig = steps.figs["step.fig.w_o"]
    _, layer = _core(DEFAULT_TOKENS, d_model=512, n_heads=4)
    w_o = layer.out_proj.weight.detach().numpy().T
    np.testing.assert_allclose(_z(fig), w_o[128:192, 0:64], atol=1e-7)
    outline = [sh for sh in fig["layout"].get("shapes", []) if sh.get("type") == "rect"]
    assert outline and min(sh["y0"] for sh in outline) == 127.5  # the block's first row
    text = steps.text
    assert "shows rows 128–191 (head 1's block, rows 128–255, is outlined)" in text
    assert "columns 0–63; head 1's block is columns 128–255 (outlined where" in text


def test_step_wording_follows_the_settings():
    """Issue #42: the heading said "Scaled dot-product" with scaling off, and the naive
    average was called a sum."""
    unscaled = _every_step(_run(scale=False))
    assert "2 · Dot-product attention, unscaled: the scores" in unscaled.headers
    scaled = _every_step(_run())
    assert "2 · Scaled dot-product attention: the scores" in scaled.headers
    assert "Before attention: a naive average of values" in scaled.subheaders
    assert "the tests" not in scaled.text


def test_choices_the_sidebar_made_impossible_fall_back():
    # head 7 of 8, query 6, then the sidebar leaves 2 heads and 3 tokens
    at = _run(**{"n_heads": 2, "text": "a b c", "step.head": 7, "step.query": 6})
    assert at.session_state["step.head"] == 1
    assert at.session_state["step.query"] == 2
    at = _run(**{"d_model": 64, "step.dims": 448, "step.dk_dims": 192})
    assert not at.get("select_slider") or all(
        s.key not in ("step.dims", "step.dk_dims") for s in at.select_slider
    )


# --- every sidebar setting the page explains --------------------------------------------------
def test_causal_mask_shows_the_masked_scores():
    at = _run(mask="causal")
    steps = _every_step(at)
    figs = steps.figs
    masked = figs["step.fig.masked"]["data"][0]
    hover = np.asarray(masked["hovertext"], dtype=object)
    assert hover[0, 1] == "−∞" and hover[1, 0] != "−∞"
    z = _z(figs["step.fig.masked"])
    assert np.isnan(z[np.triu_indices(7, 1)]).all()
    assert np.triu(_z(figs["step.fig.weights"]), 1).max() == 0.0
    assert EN["step.mask.causal"] in steps.text


def test_scaling_off_shows_unscaled_scores_only():
    at = _run(scale=False)
    steps = _every_step(at)
    assert "step.fig.scaled" not in steps.figs
    assert EN["step.s2.noscale"] in steps.text
    assert r"\text{score}(Q_h, K_h) = Q_h K_h^\top" in steps.latex


def test_additive_scoring_shows_its_own_formula():
    at = _run(scoring="additive")
    steps = _every_step(at)
    assert steps.headers[2] == EN["step.s2.title_additive"]
    assert any(r"v_h^\top \tanh" in v for v in steps.latex)
    assert not any(r"\sqrt{16}" in v for v in steps.latex)  # 1/sqrt(d_k) does not apply
    assert any("is not applied to additive scores" in i for i in steps.infos)
    assert any("initialisation of $v_h$" in i for i in steps.infos)  # what keeps it O(1)
    figs = steps.figs
    assert {"step.fig.additive_q", "step.fig.additive_k", "step.fig.additive_v"} <= set(figs)
    assert "step.fig.features" in figs and "step.fig.scaled" not in figs
    sent, layer = _core(DEFAULT_TOKENS, scoring="additive")
    np.testing.assert_allclose(
        _z(figs["step.fig.scores"]), sent.attention.scores[0, 0].numpy(), atol=1e-6
    )


def test_positional_encoding_off():
    at = _run(positional=False)
    assert EN["step.s0.text_nope"] in _texts(at)
    assert "step.fig.pe" not in _every_step(at).figs
    assert any(v.startswith("X = E \\in") for v in _latex(at))


def test_chinese():
    # one fresh app per tab: AppTest cannot rerun the sidebar's radios once their labels are
    # Chinese (tests/app/conftest.py)
    at = _run(lang="zh")
    assert at.title[0].value == ZH["step.title"]
    assert at.segmented_control[0].options == [ZH[f"step.view.{i}"] for i in range(6)]
    assert at.selectbox(key="step.head").options[0] == "h = 0"  # no words: see step.py
    assert at.selectbox(key="step.head").label == ZH["step.head"]
    figs = figures_by_key(at)
    assert figs["step.fig.x"]["layout"]["yaxis"]["title"]["text"] == ZH["step.axis.token"]
    at = _run(lang="zh", **{"step.stage": "1"})
    assert [h.value for h in at.header] == [ZH["step.s1.title"]]
    at = _run(lang="zh", **{"step.stage": "3"})
    assert at.dataframe[0].value.columns[-1] == ZH["step.s3.col.weight"]


# --- bad input ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "   ", "\u200b\u200b"])
def test_no_tokens_gives_a_message(text):
    at = _run(text=text)
    assert at.info and not at.get("plotly_chart")
    assert at.info[0].value in (EN["msg.empty"], EN["msg.no_tokens"])


def test_markup_stays_literal_text():
    text = '<b>x</b> <a href="https://example.com">x</a> <img src=x onerror=alert(1)>'
    at = _run(text=text)
    tokens = word_tokenize(text).tokens
    figs = _every_step(at).figs
    spec = json.dumps(figs)
    assert "<b>" not in spec and "<a href" not in spec and "<img" not in spec
    ticks = figs["step.fig.weights"]["layout"]["xaxis"]["ticktext"]
    assert ticks == [
        t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") for t in tokens
    ]
    assert list(at.selectbox(key="step.query").options)[0] == f"0: {tokens[0]}"


def test_single_token_and_repeated_tokens():
    at = _run(text="hello")
    figs = _every_step(at).figs
    assert _z(figs["step.fig.weights"]).tolist() == [[1.0]]
    at = _run(text=" ".join(["the"] * 40))
    figs = _every_step(at).figs
    assert _z(figs["step.fig.weights"]).shape == (40, 40)
    assert len(figs["step.fig.x"]["layout"]["yaxis"]["tickvals"]) == 40


def test_long_text_is_truncated_with_a_notice():
    at = _run(text=" ".join(f"w{i}" for i in range(600)))
    assert any("600 tokens" in w.value for w in at.warning)
    assert _z(_every_step(at).figs["step.fig.weights"]).shape == (512, 512)
    at.selectbox(key="step.query").set_value(511).run()
    assert not at.exception


def test_head_and_query_come_from_and_go_to_the_url():
    at = run_app(PAGE, query={"head": "2", "query": "3"})
    assert (at.session_state["step.head"], at.session_state["step.query"]) == (2, 3)
    assert (at.query_params["head"], at.query_params["query"]) == ("2", "3")
    at = run_app(PAGE, query={"head": "x9", "query": "300"})
    assert "head" in at.warning[0].value
    assert at.session_state["step.head"] == 0  # the default
    assert at.session_state["step.query"] == len(DEFAULT_TOKENS) - 1  # nearest valid token


def test_next_buttons_walk_through_the_steps():
    at = _run()
    for i in range(1, 6):
        at.button(key=f"step.next_{i - 1}").click().run()
        assert not at.exception, at.exception
        assert at.session_state["step.stage"] == str(i)
        assert at.header[0].value.startswith(f"{i} ·")
    assert not [b for b in at.button if b.key and b.key.startswith("step.next_")]  # the last


def test_the_parts_of_x_are_drawn_when_opened():
    at = _run()
    assert "step.fig.e" not in figures_by_key(at)
    at.session_state["step.parts"] = True
    at.run()
    figs = figures_by_key(at)
    sent, _ = _core(DEFAULT_TOKENS)
    np.testing.assert_allclose(
        _z(figs["step.fig.e"]) + _z(figs["step.fig.pe"]), _z(figs["step.fig.x"]), atol=1e-6
    )


def test_head_stays_valid_while_an_empty_sentence_stops_the_page():
    """An empty sentence stops the page before its pickers: the head still follows fewer
    sidebar heads (in state and URL), so typing a sentence later changes nothing else."""
    at = run_app(PAGE, **{"shared.text": "", "shared.n_heads": 2, "step.head": 3})
    assert at.info
    assert at.session_state["step.head"] == 1
    assert at.query_params["head"] == "1"


def test_dimension_windows_follow_a_smaller_model_while_an_empty_sentence_stops_the_page():
    """The walk (seed 104, step 183): windows at the far end of d_model 512 and of d_k, then an
    empty sentence, then a small model: picking an example sentence moved both windows to 0.
    They follow the model's size at once, in state and URL, before the page stops."""
    at = run_app(PAGE, **{"shared.d_model": 512, "shared.n_heads": 1})
    at.select_slider(key="step.dims").set_value(448).run()  # the last window of 512
    at.select_slider(key="step.dk_dims").set_value(448).run()
    assert at.query_params["dims"] == "448" and at.query_params["dk_dims"] == "448"
    at.session_state["shared.text"] = ""
    at.run()
    assert at.info and at.session_state["step.dims"] == 448
    at.session_state["shared.d_model"] = 32
    at.run()
    assert at.session_state["step.dims"] == 0 and at.session_state["step.dk_dims"] == 0
    assert at.query_params["dims"] == "0" and at.query_params["dk_dims"] == "0"
    at.session_state["shared.text"] = "the cat sat"
    at.run()
    assert not at.exception
    assert at.session_state["step.dims"] == 0 and at.session_state["step.dk_dims"] == 0
