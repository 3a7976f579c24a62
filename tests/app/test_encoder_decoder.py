"""The Encoder-decoder page through streamlit.testing.v1.AppTest.

A fresh AppTest per case (tests/app/conftest.py); the page's own controls are moved within a
case. Every figure is compared with numbers computed here from the core's `EncoderDecoder`
directly (its own forward on `embed_tokens` vectors), not from the page's helpers.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from mha_core import EncoderDecoder, EncoderDecoderConfig, embed_tokens, padding_mask, word_tokenize
from tests.helpers.app import figures_by_key, make_app, page_text, plotly_array, run_app
from tests.helpers.grid import grid_heads, grid_tokens, is_one_trace_grid
from tests.helpers.inputs import RAW_MARKUP, TEXTS
from tests.helpers.numeric import assert_close_f32
from ui.strings import STRINGS

PAGE = "views/encoder_decoder.py"
P = "encoder_decoder"
SRC = ["I", "want", "to", "live", "in", "Europe", "."]  # the sidebar's default sentence
TGT = ["Je", "veux", "vivre", "en", "Europe", "."]  # the page's default target
EN, ZH = STRINGS["en"], STRINGS["zh"]
PARTS = ("attention", "padding", "addnorm", "dropout")


def _run(**state):
    """The page with sidebar settings (plain names) and the page's own keys (short names)."""
    own = {"target", "layers", "layer", "pre_norm", "part", "cut", "head", "p", "dropout_seed",
           "view"}
    values = {(f"{P}.{k}" if k in own else f"shared.{k}"): v for k, v in state.items()}
    at = make_app(page=PAGE, **values).run()
    assert not at.exception, at.exception
    return at


def _rerun(at_or_widget):
    """Run again (an AppTest, or a widget whose value was just set) and check for tracebacks."""
    at = at_or_widget.run()
    assert not at.exception, at.exception
    return at


def _all_views(at) -> dict:
    """The figures of the attention part's three tabs, each opened in turn (only the open
    tab is drawn); the page is left on the first."""
    figs = {}
    for view in ("encoder", "decoder", "cross"):
        at.session_state[f"{P}.view"] = view
        figs.update(figures_by_key(_rerun(at)))
    at.session_state[f"{P}.view"] = "encoder"
    _rerun(at)
    return figs


def _heatmaps(fig) -> list[np.ndarray]:
    """The z of every heatmap trace of a figure, float64, one matrix per trace; of a head grid
    drawn as one trace, one matrix per head."""
    if is_one_trace_grid(fig):
        return [h.astype(np.float64) for h in grid_heads(fig)]
    out = []
    for tr in fig["data"]:
        if tr.get("type") != "heatmap":
            continue
        z = plotly_array(tr["z"])
        if z.ndim == 1:  # typed arrays without a shape: rebuild it from the axes
            z = z.reshape(len(plotly_array(tr["y"])), len(plotly_array(tr["x"])))
        out.append(z.astype(np.float64))
    return out


def _model(d_model=64, n_heads=4, n_layers=2, norm_first=False, seed=0) -> EncoderDecoder:
    cfg = EncoderDecoderConfig.vectors_in(
        d_model=d_model,
        n_heads=n_heads,
        n_layers=n_layers,
        norm_first=norm_first,
        max_len=64,
        seed=seed,
    )
    return EncoderDecoder(cfg).eval()


def _pair(src, tgt, *, positional=True, **model):
    m = _model(**model)
    d, seed = m.config.d_model, m.config.seed
    with torch.no_grad():
        return m.forward_embeddings(
            embed_tokens(src, d, seed, positional=positional)[None],
            embed_tokens(tgt, d, seed, positional=positional)[None],
        )


def _batch(sentences, layer=0, **model):
    """The padded batch through the encoder: (model, padding mask, the layer's trace)."""
    m = _model(**model)
    d, seed = m.config.d_model, m.config.seed
    P_len = max(len(s) for s in sentences)
    x = torch.zeros(len(sentences), P_len, d)
    for b, s in enumerate(sentences):
        x[b, : len(s)] = embed_tokens(s, d, seed, positional=True)
    mask = padding_mask([len(s) for s in sentences], P_len)
    with torch.no_grad():
        return m, mask, m.encode(x, src_key_padding_mask=mask).layers[layer]


def _ticks(fig, axis="xaxis"):
    """The tick text of an axis; of a head grid, the first head's."""
    if is_one_trace_grid(fig):
        return grid_tokens(fig, axis[0])
    return fig["layout"][axis]["ticktext"]


def _shape_names(fig, colour=None) -> set[str]:
    return {
        s["name"]
        for s in fig["layout"].get("shapes", [])
        if "name" in s and (colour is None or s["line"]["color"] == colour)
    }


# --- the three kinds of attention -------------------------------------------------------------
def test_default_page_shows_the_three_attentions_computed_by_the_core():
    at = _run()
    # one tab is drawn at a time: the encoder's self-attention first
    assert set(figures_by_key(at)) == {f"{P}.fig.diagram", f"{P}.fig.encoder_self"}
    assert at.query_params["view"] == "encoder"
    figs = _all_views(at)
    assert set(figs) == {
        f"{P}.fig.diagram",
        f"{P}.fig.encoder_self",
        f"{P}.fig.decoder_self",
        f"{P}.fig.causal_mask",
        f"{P}.fig.cross",
    }
    tr = _pair(SRC, TGT)
    enc, dec, cross = (
        _heatmaps(figs[f"{P}.fig.{k}"]) for k in ("encoder_self", "decoder_self", "cross")
    )
    assert len(enc) == len(dec) == len(cross) == 4  # one map per head
    for h in range(4):
        assert_close_f32(enc[h], tr.encoder_self[0].weights[0, h].double())
        assert_close_f32(dec[h], tr.decoder_self[0].weights[0, h].double())
        assert_close_f32(cross[h], tr.decoder_cross[0].weights[0, h].double())
        assert np.triu(dec[h], 1).max() == 0.0  # above the diagonal: exactly 0
        assert (dec[h][np.tril_indices(6)] > 0).all()  # on and below: every weight positive
    # cross-attention is rectangular: target queries (rows) x source keys (columns)
    assert cross[0].shape == (len(TGT), len(SRC))
    fig = figs[f"{P}.fig.cross"]
    assert _ticks(fig, "xaxis") == SRC and _ticks(fig, "yaxis") == TGT
    assert _ticks(figs[f"{P}.fig.encoder_self"], "yaxis") == SRC
    # the causal mask: 0 on and below the diagonal, -inf above (dark)
    mask_fig = figs[f"{P}.fig.causal_mask"]
    (mask_z,) = _heatmaps(mask_fig)
    np.testing.assert_array_equal(mask_z, np.triu(np.ones((6, 6)), 1))
    assert mask_fig["data"][0]["text"][0][1] == "−∞" and mask_fig["data"][0]["text"][1][0] == "0"
    assert "feed-forward width 256, N = 2 encoder and 2 decoder layers" in page_text(at)
    assert "7 × 7 per head, no mask" in page_text(at)
    at.session_state[f"{P}.view"] = "decoder"
    text = page_text(_rerun(at))
    assert "above it, so after the softmax every weight above the diagonal is exactly 0 " in text
    assert "(largest computed: 0)" in text
    at.session_state[f"{P}.view"] = "cross"
    assert "6 × 7 per head" in page_text(_rerun(at))
    # the diagram: post-norm boxes, the open tab's attention highlighted
    diagram = figures_by_key(at)[f"{P}.fig.diagram"]
    assert {"enc.self_attn", "enc.add_norm1", "dec.cross_attn", "dec.add_norm3"} <= _shape_names(
        diagram
    )
    for view, box in (("decoder", "dec.masked_attn"), ("cross", "dec.cross_attn"),
                      ("encoder", "enc.self_attn")):  # fmt: skip
        at.session_state[f"{P}.view"] = view
        diagram = figures_by_key(_rerun(at))[f"{P}.fig.diagram"]
        assert _shape_names(diagram, "#E69F00") == {box}
        assert at.query_params["view"] == view
    assert EN[f"{P}.checked.title"] in [e.label for e in at.expander]


def test_layers_layer_and_pre_norm_change_the_model():
    at = _run()
    at.select_slider(key=f"{P}.layers").set_value(3).run()
    at.selectbox(key=f"{P}.layer").set_value(2).run()
    _rerun(at.toggle(key=f"{P}.pre_norm").set_value(True))
    assert at.query_params["layers"] == "3" and at.query_params["layer"] == "2"
    assert at.query_params["pre_norm"] == "1"
    figs = _all_views(at)
    tr = _pair(SRC, TGT, n_layers=3, norm_first=True)
    for key, attn in (("encoder_self", tr.encoder_self), ("cross", tr.decoder_cross)):
        for h, z in enumerate(_heatmaps(figs[f"{P}.fig.{key}"])):
            assert_close_f32(z, attn[2].weights[0, h].double())
    names = _shape_names(figs[f"{P}.fig.diagram"])
    assert {"enc.norm1", "enc.add1", "enc.final_norm", "dec.final_norm"} <= names
    assert "enc.add_norm1" not in names
    assert "Encoder self-attention (layer 2)" in [s.value for s in at.subheader]
    # fewer layers than the layer shown: the picker falls back to the last layer
    _rerun(at.select_slider(key=f"{P}.layers").set_value(1))
    assert at.session_state[f"{P}.layer"] == 0


def test_sidebar_size_heads_seed_and_positional_encoding():
    at = _run(d_model=32, n_heads=8, seed=7, positional=False, view="decoder")
    figs = figures_by_key(at)
    tr = _pair(SRC, TGT, d_model=32, n_heads=8, seed=7, positional=False)
    dec = _heatmaps(figs[f"{P}.fig.decoder_self"])
    assert len(dec) == 8
    for h, z in enumerate(dec):
        assert_close_f32(z, tr.decoder_self[0].weights[0, h].double())
    text = page_text(at)
    assert EN[f"{P}.no_pe"] in text and "d_model = 32, 8 heads of d_k = 4" in text


def test_wordpiece_tokenizes_both_sentences():
    at = _run(tokenizer="wordpiece", text="tokenization", target="incroyable", view="cross")
    fig = figures_by_key(at)[f"{P}.fig.cross"]
    assert "##" in "".join(_ticks(fig, "xaxis")) and "##" in "".join(_ticks(fig, "yaxis"))


# --- padding ----------------------------------------------------------------------------------
def test_padding_gives_padded_keys_exactly_zero_and_empty_rows_zero():
    at = _run(part="padding")
    figs = figures_by_key(at)
    # the batch: the sentence and its first 3 tokens (the default cut), padded to 7
    (mask_z,) = _heatmaps(figs[f"{P}.fig.padding_mask"])
    np.testing.assert_array_equal(mask_z, padding_mask([7, 3], 7).double().numpy())
    cells = figs[f"{P}.fig.padding_mask"]["data"][0]["text"]
    assert cells[0] == SRC and cells[1] == SRC[:3] + ["[PAD]"] * 4
    m, mask, tr = _batch([SRC, SRC[:3]])
    keys = _heatmaps(figs[f"{P}.fig.padded_keys"])[0]
    assert_close_f32(keys, tr.self_attn.weights[1, 0].double())
    assert (keys[:, 3:] == 0.0).all()  # padded keys: exactly 0 weight
    assert _ticks(figs[f"{P}.fig.padded_keys"]) == SRC[:3] + ["[PAD]"] * 4
    queries = _heatmaps(figs[f"{P}.fig.padded_queries"])[0]
    assert not np.isnan(queries).any()
    assert (queries[3:] == 0.0).all()  # a padded query with no key: a zero row, not NaN
    np.testing.assert_allclose(queries[:3].sum(axis=1), 1.0, rtol=1e-6)
    text = page_text(at)
    assert "all heads: **0**)" in text
    assert "gives **16** NaN rows" in text and "**16** rows have no key" in text
    assert "there are 0 NaN values in all" in text
    # a torch reference: nn.MultiheadAttention on the same weights gives NaN on such rows
    lyr = m.encoder_layers[0]
    ref = torch.nn.MultiheadAttention(64, 4, batch_first=True).eval()
    ref.load_state_dict(lyr.self_attn.state_dict())
    both = ~(~mask[:, :, None] & ~mask[:, None, :])  # True = may NOT attend (torch's bool)
    with torch.no_grad():
        _, w = ref(
            tr.attn_in,
            tr.attn_in,
            tr.attn_in,
            attn_mask=both.repeat_interleave(4, dim=0),
            average_attn_weights=False,
        )
    assert w[1, 0, 3:].isnan().all()


def test_padding_controls_cut_and_head():
    at = _run(part="padding")
    at.select_slider(key=f"{P}.cut").set_value(5).run()
    _rerun(at.selectbox(key=f"{P}.head").set_value(2))
    assert (at.query_params["cut"], at.query_params["head"]) == ("5", "2")
    figs = figures_by_key(at)
    _, _, tr = _batch([SRC, SRC[:5]])
    keys = _heatmaps(figs[f"{P}.fig.padded_keys"])[0]
    assert_close_f32(keys, tr.self_attn.weights[1, 2].double())
    assert (keys[:, 5:] == 0.0).all()
    assert "2 padded positions of 7" in figs[f"{P}.fig.padding_mask"]["layout"]["title"]["text"]


def test_one_token_source_has_nothing_to_pad():
    at = _run(part="padding", text="hello")
    assert EN[f"{P}.pad.one_token"] in [i.value for i in at.info]
    assert f"{P}.fig.padded_keys" not in figures_by_key(at)
    at = _run(part="addnorm", text="hello")  # one token: BatchNorm has nothing to normalise
    assert EN[f"{P}.norm.constant"] in page_text(at)
    (bn,) = _heatmaps(figures_by_key(at)[f"{P}.fig.batchnorm"])
    assert (bn == 0.0).all()


# --- Add & Norm -------------------------------------------------------------------------------
def test_add_and_norm_layernorm_against_batchnorm():
    at = _run(part="addnorm", cut=4)
    figs = figures_by_key(at)
    m, mask, tr = _batch([SRC, SRC[:4]])
    real = ~mask
    residual = tr.attn_residual[real].double()  # (11, 64): the real tokens, sentence by sentence
    (add,) = _heatmaps(figs[f"{P}.fig.residual"])
    assert_close_f32(add, residual)
    rows = _ticks(figs[f"{P}.fig.residual"], "yaxis")
    assert rows[0] == "1 · I" and rows[7] == "2 · I" and len(rows) == 11
    # LayerNorm: each row over its features; F.layer_norm as the reference
    ln, ln_stats = _heatmaps(figs[f"{P}.fig.layernorm"])
    assert_close_f32(ln, F.layer_norm(residual, (64,)))
    # every row: mean 0 and std 1 (just under: sqrt(var / (var + eps)))
    var = residual.var(dim=1, correction=0).numpy()
    np.testing.assert_allclose(ln.mean(axis=1), 0.0, atol=1e-6)
    np.testing.assert_allclose(ln.std(axis=1), np.sqrt(var / (var + 1e-5)), rtol=1e-5)
    assert np.abs(ln.std(axis=1) - 1.0).max() < 1e-3
    assert np.abs(ln.mean(axis=0)).max() > 0.1  # the columns are not normalised
    assert ln_stats.shape == (11, 2)  # the strip beside it: mean and std of every row
    np.testing.assert_allclose(ln_stats[:, 0], ln.mean(axis=1), atol=1e-6)
    np.testing.assert_allclose(ln_stats[:, 1], ln.std(axis=1), atol=1e-6)
    # BatchNorm: each column over the 11 real tokens; F.batch_norm (training) as the reference
    (bn,) = _heatmaps(figs[f"{P}.fig.batchnorm"])
    # its mean and std per feature: two curves under it (64 grey cells could not be read)
    curves = [tr for tr in figs[f"{P}.fig.batchnorm"]["data"] if tr["type"] == "scatter"]
    bn_stats = np.stack([plotly_array(tr["y"]) for tr in curves]).astype(np.float64)
    ref = F.batch_norm(residual, None, None, training=True, eps=1e-5)
    assert_close_f32(bn, ref)
    var = residual.var(dim=0, correction=0).numpy()
    np.testing.assert_allclose(bn.mean(axis=0), 0.0, atol=1e-6)
    np.testing.assert_allclose(bn.std(axis=0), np.sqrt(var / (var + 1e-5)), rtol=1e-5)
    assert np.abs(bn.mean(axis=1)).max() > 0.01  # the rows are not normalised
    assert bn_stats.shape == (2, 64)  # below it: mean and std of every column
    np.testing.assert_allclose(bn_stats[0], bn.mean(axis=0), atol=1e-6)
    np.testing.assert_allclose(bn_stats[1], bn.std(axis=0), atol=1e-6)
    # the axes marked, the numbers stated
    notes = [a.get("text", "") for a in figs[f"{P}.fig.layernorm"]["layout"]["annotations"]]
    assert "normalised along →: each row, over its 64 features" in notes
    notes = [a.get("text", "") for a in figs[f"{P}.fig.batchnorm"]["layout"]["annotations"]]
    assert "normalised along ↓: each column, over the 11 tokens" in notes
    text = page_text(at)
    assert "over the 11 real tokens of the batch" in text
    lo, hi = ln.mean(axis=0).min(), ln.mean(axis=0).max()
    assert f"feature means run from {lo:.3f} to {hi:.3f}" in text
    assert EN[f"{P}.norm.fig_add"] == figs[f"{P}.fig.residual"]["layout"]["title"]["text"]


def test_add_and_norm_pre_norm_shows_the_norm_before_the_feed_forward():
    at = _run(part="addnorm", pre_norm=True, layer=1)
    figs = figures_by_key(at)
    assert figs[f"{P}.fig.residual"]["layout"]["title"]["text"] == EN[f"{P}.norm.fig_add_pre"]
    _, mask, tr = _batch([SRC, SRC[:3]], layer=1, norm_first=True)
    (add,) = _heatmaps(figs[f"{P}.fig.residual"])
    assert_close_f32(add, tr.attn_residual[~mask].double())
    highlighted = _shape_names(figs[f"{P}.fig.diagram"], "#E69F00")
    assert highlighted == {"enc.add1", "enc.norm2"}


# --- dropout ----------------------------------------------------------------------------------
def test_dropout_training_against_eval_and_resample():
    at = _run(part="dropout", p=0.5, head=1)
    figs = figures_by_key(at)
    tr = _pair(SRC, TGT)
    weights = tr.encoder_self[0].weights[0, 1].double().numpy()
    (ev,) = _heatmaps(figs[f"{P}.fig.dropout_eval"])
    (train,) = _heatmaps(figs[f"{P}.fig.dropout_train"])
    assert_close_f32(ev, weights)  # eval mode: the weights as they are
    kept = train != 0.0
    np.testing.assert_allclose(train[kept], weights[kept] * 2.0, rtol=1e-6)  # 1 / (1 - 0.5)
    assert 0 < (~kept).sum() < kept.size
    # the dropped cells crossed out, one cross each (issue #42: 0.00 looked like a small weight)
    (cross,) = [d for d in figs[f"{P}.fig.dropout_train"]["data"] if d["type"] == "scatter"]
    crossed = {(int(y), int(x)) for x, y in zip(plotly_array(cross["x"]), plotly_array(cross["y"]))}
    assert crossed == {(int(i), int(j)) for i, j in zip(*np.nonzero(~kept))}
    assert EN[f"{P}.drop.crossed"] in page_text(at)
    sums = train.sum(axis=1)
    assert not np.allclose(sums, 1.0)  # rows no longer sum to 1
    text = page_text(at)
    assert f"Dropped **{(~kept).sum()}** of 49 weights" in text
    assert "= 2 (training ÷ eval on the kept weights, computed: 2.000000 … 2.000000)" in text
    assert f"in training mode from {sums.min():.4f} to {sums.max():.4f}" in text
    table = at.dataframe[0].value
    np.testing.assert_allclose(table[EN[f"{P}.drop.col_train"]].to_numpy(), sums, rtol=1e-6)
    # a new mask: the seed moves on, the dropped cells change, eval does not
    _rerun(at.button(key=f"{P}.resample").click())
    assert at.session_state[f"{P}.dropout_seed"] == 1 and at.query_params["dropout_seed"] == "1"
    figs = figures_by_key(at)
    (train2,) = _heatmaps(figs[f"{P}.fig.dropout_train"])
    assert not np.array_equal(train2 != 0.0, kept)
    assert_close_f32(_heatmaps(figs[f"{P}.fig.dropout_eval"])[0], weights)
    # p = 0: nothing dropped
    _rerun(at.select_slider(key=f"{P}.p").set_value(0.0))
    (train0,) = _heatmaps(figures_by_key(at)[f"{P}.fig.dropout_train"])
    assert_close_f32(train0, weights)
    assert EN[f"{P}.drop.p_zero"] in page_text(at)


# --- state: the part picker, the URL, the language ----------------------------------------------
def test_part_controls_survive_switching_parts():
    at = _run(part="dropout")
    _rerun(at.select_slider(key=f"{P}.p").set_value(0.5))
    _rerun(at.radio(key=f"{P}.part").set_value("attention"))
    _rerun(at)  # a second run without the dropout controls drawn
    assert at.session_state[f"{P}.p"] == 0.5 and at.query_params["p"] == "0.5"
    _rerun(at.radio(key=f"{P}.part").set_value("dropout"))
    assert at.select_slider(key=f"{P}.p").value == 0.5


def test_page_settings_come_from_and_go_to_the_url():
    query = {"target": "a b", "layers": "3", "layer": "1", "pre_norm": "1", "part": "padding"}
    at = run_app(PAGE, query={**query, "cut": "2", "head": "3", "p": "0.35", "dropout_seed": "9"})
    ss = at.session_state
    assert ss[f"{P}.target"] == "a b" and ss[f"{P}.layers"] == 3 and ss[f"{P}.layer"] == 1
    assert ss[f"{P}.pre_norm"] is True and ss[f"{P}.part"] == "padding"
    assert (ss[f"{P}.cut"], ss[f"{P}.head"], ss[f"{P}.p"], ss[f"{P}.dropout_seed"]) == (
        2,
        3,
        0.35,
        9,
    )
    for name, value in query.items():
        assert at.query_params[name] == value
    hostile = {
        "layers": "9",
        "layer": "-1",
        "pre_norm": "maybe",
        "part": "<b>x</b>",
        "cut": "0",
        "head": "1e3",
        "p": "nan",
        "dropout_seed": "x",
    }
    at = run_app(PAGE, query=hostile)
    notice = " ".join(w.value for w in at.warning)
    for name in hostile:
        assert name in notice, f"{name} was rejected silently"
    assert at.session_state[f"{P}.part"] == "attention" and at.session_state[f"{P}.layers"] == 2


def test_chinese():
    at = _run(lang="zh", part="addnorm")
    assert at.title[0].value == ZH[f"{P}.title"]
    assert at.radio(key=f"{P}.part").label == ZH[f"{P}.part"]
    figs = figures_by_key(at)
    assert figs[f"{P}.fig.layernorm"]["layout"]["title"]["text"] == ZH[f"{P}.norm.fig_ln"]
    texts = [a["text"] for a in figs[f"{P}.fig.diagram"]["layout"]["annotations"] if a["text"]]
    assert ZH[f"{P}.box.self_attn"] in texts
    assert "LayerNorm" in page_text(at) and "编码器" in page_text(at)


# --- bad input in both boxes ------------------------------------------------------------------
CASES = list(TEXTS)


def _check_figures(at) -> None:
    for key, fig in figures_by_key(at).items():
        spec = json.dumps(fig, ensure_ascii=False)
        assert not any(tag in spec for tag in RAW_MARKUP), f"markup reached {key} unescaped"
        # Plotly decodes &lt; &gt; &amp; once: a double escape or &quot; would show as text
        assert "&quot;" not in spec and "&amp;lt;" not in spec and "&amp;amp;" not in spec


@pytest.mark.parametrize("i", range(len(CASES)), ids=CASES)
def test_hostile_text_in_both_boxes(i):
    """Every text of quality.md once as the source and once as the target (the next-but-one
    case), each run on another part of the page."""
    source, target = TEXTS[CASES[i]], TEXTS[CASES[(i + 2) % len(CASES)]]
    at = _run(text=source, target=target, part=PARTS[i % len(PARTS)])
    assert at.session_state["shared.text"] == source  # nothing the user typed is lost
    assert at.text_area(key=f"{P}.target").value == target
    messages = "\n".join(e.value for e in [*at.info, *at.warning])
    if not source.strip():
        assert EN["msg.empty"] in messages
    elif not target.strip():
        assert EN[f"{P}.target.empty"] in messages
    if "w599" in source:
        assert "600 tokens" in messages
    if "w599" in target:
        assert "The target sentence has 600 tokens" in messages
    _check_figures(at)
    if source.strip() and target.strip() and not at.info:
        assert figures_by_key(at), "a sentence with tokens draws its figures"


@pytest.mark.parametrize("target", [TEXTS["punctuation"], TEXTS["single"], "\u200b\u200b"])
def test_more_targets(target):
    """The targets that the rotation above pairs with an empty source."""
    at = _run(target=target, view="cross")
    assert at.text_area(key=f"{P}.target").value == target
    if target.strip("\u200b"):
        tokens = word_tokenize(target).tokens
        assert _ticks(figures_by_key(at)[f"{P}.fig.cross"], "yaxis") == tokens
    else:
        assert EN[f"{P}.target.no_tokens"] in [i.value for i in at.info]


def test_markup_target_stays_literal_in_every_part():
    target = '<a href="https://example.com">x</a> <img src=x onerror=alert(1)>'
    tokens = word_tokenize(target).tokens
    escaped = [t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") for t in tokens]
    at = _run(target=target, view="cross")
    assert _ticks(figures_by_key(at)[f"{P}.fig.cross"], "yaxis") == escaped
    _check_figures(at)


def test_hostile_shared_url_parameters_fall_back_with_a_notice():
    query = {"d_model": "-1", "n_heads": "<script>", "seed": "1e99", "lang": "xx", "text": "a b",
             "view": "cross"}
    at = run_app(PAGE, query=query)
    notice = " ".join(w.value for w in at.warning)
    for name in ("d_model", "n_heads", "seed", "lang"):
        assert name in notice, f"{name} was rejected silently"
    assert _ticks(figures_by_key(at)[f"{P}.fig.cross"], "xaxis") == ["a", "b"]


def test_a_long_source_is_binned_along_its_own_axis_only():
    # 512 source tokens against the 6-token target: the keys are blocks of 8, the 6 target
    # queries stay one row each, named by their tokens (binning both axes alike averaged all
    # six queries into one row)
    source = " ".join(f"w{i}" for i in range(512))
    at = _run(text=source, view="cross")
    fig = figures_by_key(at)[f"{P}.fig.cross"]
    heads = _heatmaps(fig)
    assert len(heads) == 4 and heads[0].shape == (6, 64)
    assert _ticks(fig, "yaxis") == TGT and _ticks(fig, "xaxis")[:2] == ["0–7", "8–15"]
    assert "a block of 1 x 8 tokens" in page_text(at)
    tr = _pair(tuple(source.split()), TGT)
    cross = tr.decoder_cross[0].weights[0].double().numpy()  # (nh, 6, 512)
    for h in range(4):
        np.testing.assert_allclose(heads[h], cross[h].reshape(6, 64, 8).mean(-1), rtol=1e-5)
