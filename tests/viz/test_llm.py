"""viz.llm.query_mosaic: every head's row at one query, heads grouped by their key/value head."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.app import plotly_array
from viz.llm import HOVER_TOKENS, query_mosaic


def _rows(L=4, nh=6, T=5, seed=0):
    a = np.random.default_rng(seed).random((L, nh, T)).astype(np.float32)
    return a / a.sum(-1, keepdims=True)


def test_the_cells_are_the_rows_in_order_with_wider_gaps_between_groups():
    a = _rows()
    fig = query_mosaic(a, [f"t{i}" for i in range(5)], group=3, selected=(2, 4))
    z = plotly_array(fig.to_plotly_json()["data"][0]["z"])
    assert z.shape == (4, 6 * 5 + 5 + 2 * 1)  # 5 one-cell gaps, 2 more between the groups
    np.testing.assert_array_equal(z[~np.isnan(z)].reshape(4, 6, 5), a)
    gaps = np.isnan(z[0])
    assert [i for i in range(len(gaps)) if gaps[i]] == [5, 11, 17, 18, 19, 25, 31]
    box = fig.layout.shapes[0]
    assert (box.y0, box.y1) == (1.5, 2.5) and (box.x0, box.x1) == (25.5, 30.5)  # head 4: 26-30


def test_markup_in_tokens_is_escaped_and_long_rows_leave_tokens_out_of_the_hover():
    fig = query_mosaic(_rows(T=2), ["<b>x</b>", "y"])
    text = fig.to_plotly_json()["data"][0]["text"]
    assert "<b>" not in str(text.tolist() if hasattr(text, "tolist") else text)
    T = HOVER_TOKENS + 1
    long = query_mosaic(_rows(T=T), ["a"] * T)
    assert "text" not in long.to_plotly_json()["data"][0]


def test_a_token_count_that_does_not_match_is_refused():
    with pytest.raises(ValueError):
        query_mosaic(_rows(T=3), ["a", "b"])


def test_rope_pair_draws_directions_on_the_unit_circle_with_real_lengths_in_the_hover():
    from tests.helpers.figures import sent, validated
    from viz.llm import rope_pair

    q, q_rot = np.array([3.0, 4.0]), np.array([-4.0, 3.0])  # a quarter turn, length 5
    k, k_rot = np.array([0.0, 0.5]), np.array([0.5, 0.0])
    fig = rope_pair(q, q_rot, k, k_rot, names=("<b>q</b>", "q'", "k", "k'"), title="<i>t</i>")
    assert sent(validated(fig)) == sent(fig)
    circle, *arrows = fig.to_plotly_json()["data"]
    assert np.allclose(np.hypot(circle["x"], circle["y"]), 1.0)
    for tr, p in zip(arrows, (q, q_rot, k, k_rot), strict=True):
        end = np.array([tr["x"][1], tr["y"][1]])
        np.testing.assert_allclose(end, p / np.linalg.norm(p))  # the direction
        np.testing.assert_allclose(tr["customdata"][0][:3], [*p, np.linalg.norm(p)])
    assert arrows[0]["name"] == "&lt;b&gt;q&lt;/b&gt;"
    assert fig.layout.yaxis.scaleanchor == "x"  # a circle, not an ellipse


def test_value_grid_sequential_or_signed_with_marked_cells():
    from tests.helpers.figures import sent, validated
    from viz.llm import value_grid

    v = np.array([[0.5, 12.25], [3.0, np.nan]])
    fig = value_grid(v, value_label="<b>d</b>", fmt=".1f", marked=[(1, 0)])
    assert sent(validated(fig)) == sent(fig)
    tr = fig.to_plotly_json()["data"][0]
    assert (tr["zmin"], tr["zmax"]) == (0.0, 12.25)
    assert tr["text"] == [["0.5", "12.2"], ["3.0", ""]]
    box = fig.layout.shapes[0]
    assert (box.x0, box.x1, box.y0, box.y1) == (-0.5, 0.5, 0.5, 1.5)
    signed = value_grid(np.array([[-2.0, 1.0]]), signed=True).to_plotly_json()["data"][0]
    assert (signed["zmin"], signed["zmax"]) == (-2.0, 2.0)
    with pytest.raises(ValueError):
        value_grid(np.zeros(3))


def test_vector_rows_keep_their_height_and_show_masked_scores_as_gaps():
    from tests.helpers.figures import sent, validated
    from viz.llm import VECTOR_ROW_PX, vector_rows

    v = np.array([[1.0, -3.0, 2.0], [1.0, -np.inf, -np.inf]])
    fig = vector_rows(v, ["raw", "masked"], ["a", "<b>", "c"], col_title="key")
    assert sent(validated(fig)) == sent(fig)
    tr = fig.to_plotly_json()["data"][0]
    z = plotly_array(tr["z"])
    assert np.isnan(z[1, 1:]).all() and z[0, 1] == -3.0
    assert (tr["zmin"], tr["zmax"], tr["zmid"]) == (-3.0, 3.0, 0.0)
    assert tr["customdata"][0][1] == "&lt;b&gt;"
    one = vector_rows(np.arange(500.0)[None], ["w"], signed=False)
    assert one.layout.height - fig.layout.height == -VECTOR_ROW_PX - 70  # no labels, one row
    with pytest.raises(ValueError):
        vector_rows(v, ["one name"])
