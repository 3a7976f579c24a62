"""Figures of a training run (viz/train.py): data in the right panels, labels escaped."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from viz.train import alignment_curves, training_curves

MARKUP = '<b>x</b> <a href="https://example.com">y</a> <img src=x onerror=alert(1)> & "q"'
ESCAPED = (
    '&lt;b&gt;x&lt;/b&gt; &lt;a href="https://example.com"&gt;y&lt;/a&gt; '
    '&lt;img src=x onerror=alert(1)&gt; &amp; "q"'
)


def _history(n=30, seed=0):
    rng = np.random.default_rng(seed)
    step = np.arange(1, n + 1)
    loss = np.exp(-step / 10) * 2 + rng.random(n) * 0.01
    token = np.clip(step / n + rng.random(n) * 0.05, 0, 1)
    exact = np.clip(token**2, 0, 1)
    return step, loss, token, exact


def test_training_curves_put_loss_above_and_accuracies_below():
    step, loss, token, exact = _history()
    fig = training_curves(step, loss, token, exact, total_steps=300)
    assert isinstance(fig, go.Figure)
    assert [tr.name for tr in fig.data] == ["loss", "token accuracy", "exact-sequence accuracy"]
    (l_tr, t_tr, e_tr) = fig.data
    np.testing.assert_array_equal(l_tr.x, step)
    np.testing.assert_array_equal(l_tr.y, loss)
    np.testing.assert_array_equal(t_tr.y, token)
    np.testing.assert_array_equal(e_tr.y, exact)
    assert (l_tr.xaxis, l_tr.yaxis) == ("x", "y")
    assert (t_tr.xaxis, t_tr.yaxis) == (e_tr.xaxis, e_tr.yaxis) == ("x2", "y2")
    lay = fig.layout
    assert lay.yaxis.type == "log"
    assert lay.yaxis.domain[0] > lay.yaxis2.domain[1]  # loss panel above the accuracy panel
    assert tuple(lay.yaxis2.range) == (-0.02, 1.02)
    assert lay.yaxis2.title.text == "accuracy"  # both panels say what they measure
    # the x range is the planned run, so a live curve grows from the left
    assert tuple(lay.xaxis.range) == tuple(lay.xaxis2.range) == (0, 300)
    assert lay.xaxis.matches == "x2"
    assert lay.paper_bgcolor == "rgba(0,0,0,0)" and lay.plot_bgcolor == "rgba(0,0,0,0)"
    assert not lay.shapes
    # exact values on hover
    assert "%{y:.8g}" in l_tr.hovertemplate and "%{y:.2%}" in t_tr.hovertemplate


def test_training_curves_without_total_steps_span_the_data():
    step, loss, token, exact = _history(12)
    fig = training_curves(step, loss, token, exact)
    assert tuple(fig.layout.xaxis2.range) == (0, 12)
    empty = training_curves([], [], [], [], total_steps=50)  # before the first step
    assert len(empty.data[0].x) == 0 and tuple(empty.layout.xaxis2.range) == (0, 50)


def test_training_curve_labels_are_escaped():
    step, loss, token, exact = _history()
    fig = training_curves(
        step,
        loss,
        token,
        exact,
        title=MARKUP,
        step_label=MARKUP,
        loss_label=MARKUP,
        token_label=MARKUP,
        exact_label=MARKUP,
    )
    assert fig.layout.title.text == ESCAPED
    assert fig.layout.xaxis2.title.text == ESCAPED
    assert fig.layout.yaxis.title.text == ESCAPED
    assert all(tr.name == ESCAPED for tr in fig.data)
    spec = fig.to_json()
    assert "<b>" not in spec and "<a href" not in spec and "<img" not in spec


def test_training_curves_refuse_columns_of_different_lengths():
    step, loss, token, exact = _history()
    with pytest.raises(ValueError, match="one value per step"):
        training_curves(step, loss[:-1], token, exact)
    with pytest.raises(ValueError, match="one value per step"):
        training_curves(step, loss, token, exact[:3])


def test_alignment_curves_one_line_per_head():
    steps = np.array([0, 20, 40, 60])
    shares = np.array([[0.1, 0.4, 0.8, 0.95], [0.12, 0.2, 0.3, 0.5]])
    fig = alignment_curves(steps, shares, ["head 0", "head 1"])
    assert [tr.name for tr in fig.data] == ["head 0", "head 1"]
    for tr, row in zip(fig.data, shares):
        np.testing.assert_array_equal(tr.x, steps)
        np.testing.assert_array_equal(tr.y, row)
        assert "%{y:.8g}" in tr.hovertemplate
    assert tuple(fig.layout.yaxis.range) == (-0.02, 1.02)
    assert fig.data[0].line.color != fig.data[1].line.color


def test_alignment_curves_escape_and_check_shapes():
    fig = alignment_curves([0, 1], [[0.5, 0.6]], [MARKUP], title=MARKUP, value_label=MARKUP)
    assert fig.data[0].name == ESCAPED and fig.layout.title.text == ESCAPED
    assert fig.layout.yaxis.title.text == ESCAPED
    assert "<img" not in json.dumps(fig.to_plotly_json(), default=str)
    with pytest.raises(ValueError, match="lines, steps"):
        alignment_curves([0, 1, 2], [[0.5, 0.6]], ["a"])
    with pytest.raises(ValueError, match="names"):
        alignment_curves([0, 1], [[0.5, 0.6]], ["a", "b"])


def test_loss_axis_ticks_powers_of_ten_only_over_a_decade_or_more():
    step = np.arange(1, 5)
    acc = np.zeros(4)
    wide = training_curves(step, [2.5, 0.5, 0.05, 0.001], acc, acc)
    assert wide.layout.yaxis.dtick == 1
    narrow = training_curves(step, [2.4, 2.1, 1.9, 1.6], acc, acc)  # no power of ten inside
    assert narrow.layout.yaxis.dtick is None  # Plotly's own ticks keep the axis labelled
