"""Figures of the encoder-decoder page (viz/transformer.py): the block diagram drawn from the
layer configuration, the padding and causal masks, tokens x features matrices with statistics."""

from __future__ import annotations

import json

import numpy as np
import pytest

from viz.transformer import (
    DIAGRAM_LABELS,
    HIGHLIGHT_LINE,
    block_diagram,
    block_layout,
    mask_figure,
    normalised_matrix,
    padding_mask_figure,
)

MARKUP = ["<b>x</b>", '<a href="https://example.com">y</a>', "a&b", "<img src=x onerror=alert(1)>"]
ESCAPED = [
    "&lt;b&gt;x&lt;/b&gt;",
    '&lt;a href="https://example.com"&gt;y&lt;/a&gt;',
    "a&amp;b",
    "&lt;img src=x onerror=alert(1)&gt;",
]
LABELS = {k: k.replace("_", " ") for k in DIAGRAM_LABELS}


def _boxes(fig) -> dict[str, dict]:
    """The named rect shapes of a diagram by name."""
    return {s.name: s for s in fig.layout.shapes if s.type == "rect" and s.name}


def _no_raw_markup(fig) -> None:
    spec = json.dumps(fig.to_plotly_json(), default=str)
    for tag in ("<b>", "<a ", "<img", "<span"):
        assert tag not in spec


# --- the block diagram ------------------------------------------------------------------------
def test_layout_follows_post_and_pre_norm():
    post, pre = block_layout(False), block_layout(True)
    assert [k for _, k in post["enc"]] == ["self_attn", "add_norm", "ff", "add_norm"]
    assert [k for _, k in pre["enc"]] == ["norm", "self_attn", "add", "norm", "ff", "add"]
    assert [k for _, k in post["dec"]] == [
        "masked_attn",
        "add_norm",
        "cross_attn",
        "add_norm",
        "ff",
        "add_norm",
    ]
    assert [i for i, _ in pre["dec"]][:3] == ["dec.norm1", "dec.masked_attn", "dec.add1"]


@pytest.mark.parametrize("norm_first", [False, True])
def test_diagram_draws_every_box_bottom_to_top_and_highlights_the_chosen(norm_first):
    chosen = {"enc.self_attn", "dec.cross_attn"}
    fig = block_diagram(norm_first, 3, {**LABELS, "repeat": "× 3"}, chosen)
    boxes = _boxes(fig)
    layout = block_layout(norm_first)
    for stack, items in layout.items():
        ys = [boxes[i].y0 for i, _ in items]
        assert ys == sorted(ys) and len(set(ys)) == len(ys)  # one above the other, in order
        xs = {(boxes[i].x0, boxes[i].x1) for i, _ in items}
        assert len(xs) == 1  # one column per stack
        assert f"{stack}.frame" in boxes
    assert ("enc.final_norm" in boxes) == norm_first and ("dec.final_norm" in boxes) == norm_first
    assert "dec.linear" in boxes
    enc_x = boxes["enc.self_attn"].x0
    assert enc_x < boxes["dec.masked_attn"].x0  # encoder left, decoder right
    lit = {n for n, s in boxes.items() if s.line.color == HIGHLIGHT_LINE}
    assert lit == chosen
    texts = [a.text for a in fig.layout.annotations]
    assert "× 3" in " ".join(texts) and "cross attn" in texts
    # one residual wire per Add box: an arrow ends at the side of each
    n_add = sum(k in ("add", "add_norm") for items in layout.values() for _, k in items)
    paths = [s for s in fig.layout.shapes if s.type == "path"]
    assert len(paths) == n_add + 1  # + the encoder's output to the cross-attention


def test_diagram_checks_its_input_and_escapes_labels():
    with pytest.raises(ValueError, match="labels"):
        block_diagram(False, 2, {"encoder": "E"})
    with pytest.raises(ValueError, match="unknown boxes"):
        block_diagram(False, 2, LABELS, {"enc.add1"})  # a pre-norm box in a post-norm diagram
    fig = block_diagram(False, 1, {**LABELS, "self_attn": MARKUP[0], "repeat": MARKUP[3]})
    _no_raw_markup(fig)
    assert ESCAPED[0] in [a.text for a in fig.layout.annotations]


# --- masks ------------------------------------------------------------------------------------
def test_padding_mask_figure_shows_tokens_and_padding():
    fig = padding_mask_figure([["the", "cat", "sat"], ["the"]], row_labels=["s1", "s2"])
    hm = fig.data[0]
    np.testing.assert_array_equal(np.asarray(hm.z), [[0, 0, 0], [0, 1, 1]])
    assert [list(r) for r in hm.text] == [["the", "cat", "sat"], ["the", "[PAD]", "[PAD]"]]
    assert list(fig.layout.yaxis.ticktext) == ["s1", "s2"]
    assert fig.layout.yaxis.range == (1.5, -0.5)  # sentence 1 on top
    fig = padding_mask_figure([MARKUP, MARKUP[:1]], row_labels=MARKUP[:2], pad_label="<pad>")
    _no_raw_markup(fig)
    assert list(fig.data[0].text[0]) == ESCAPED
    assert fig.data[0].text[1][1] == "&lt;pad&gt;"
    with pytest.raises(ValueError):
        padding_mask_figure([["a"], []], row_labels=["1", "2"])
    with pytest.raises(ValueError):
        padding_mask_figure([["a"]], row_labels=["1", "2"])


def test_mask_figure_says_what_the_mask_adds():
    allowed = np.tril(np.ones((3, 4), dtype=bool))  # rectangular: 3 queries, 4 keys
    fig = mask_figure(allowed, ["a", "b", "a"], ["w", "x", "y", "z"])
    hm = fig.data[0]
    np.testing.assert_array_equal(np.asarray(hm.z), (~allowed).astype(float))
    assert [list(r) for r in hm.text][0] == ["0", "−∞", "−∞", "−∞"]
    assert list(fig.layout.yaxis.ticktext) == ["a", "b", "a"]  # repeated tokens keep their rows
    assert list(fig.layout.xaxis.ticktext) == ["w", "x", "y", "z"]
    _no_raw_markup(mask_figure(np.ones((4, 4), bool), MARKUP))
    with pytest.raises(ValueError):
        mask_figure(allowed, ["a", "b"])


# --- tokens x features with statistics --------------------------------------------------------
def test_normalised_matrix_rows_and_columns():
    rng = np.random.default_rng(0)
    m = rng.normal(size=(5, 12))
    rows = ["the", "cat", "saw", "the", "dog"]
    fig = normalised_matrix(m, rows, axis="rows", mean=m.mean(1), std=m.std(1), axis_note="→")
    main, strip = fig.data
    np.testing.assert_array_equal(np.asarray(main.z), m.astype(np.float32))
    np.testing.assert_allclose(np.asarray(strip.z)[:, 0], m.mean(1), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(strip.z)[:, 1], m.std(1), rtol=1e-6)
    assert list(fig.layout.yaxis.ticktext) == rows and main.zmid == 0
    assert "→" in [a.text for a in fig.layout.annotations]
    fig = normalised_matrix(m, rows, axis="cols", mean=m.mean(0), std=m.std(0), axis_note="↓")
    # BatchNorm's C means and stds: two curves under the matrix, each named in its colour at its
    # start (issue #42: two rows of 64 grey cells, unreadable)
    main, mean_curve, std_curve = fig.data
    assert mean_curve.type == std_curve.type == "scatter"
    np.testing.assert_allclose(mean_curve.y, m.mean(0), rtol=1e-12)
    np.testing.assert_allclose(std_curve.y, m.std(0), rtol=1e-12)
    assert {"mean", "std"} <= {a.text for a in fig.layout.annotations}
    assert list(fig.layout.yaxis2.tickvals) == [0, 1]
    # LayerNorm's two columns of printed values take a third of the width ("meanstd" ran
    # together and "0.000" was cut in a fifth)
    ln = normalised_matrix(m, rows, axis="rows", mean=m.mean(1), std=m.std(1))
    lo, hi = ln.layout.xaxis2.domain
    assert hi - lo >= 0.3
    fig = normalised_matrix(m, MARKUP + ["x"], axis=None, title=MARKUP[1])
    assert len(fig.data) == 1
    _no_raw_markup(fig)
    with pytest.raises(ValueError, match="shape"):
        normalised_matrix(m, rows, axis="rows", mean=m.mean(0), std=m.std(0))
    with pytest.raises(ValueError, match="axis"):
        normalised_matrix(m, rows, axis="diagonal")
    with pytest.raises(ValueError, match="labels"):
        normalised_matrix(m, rows[:2], axis=None)
