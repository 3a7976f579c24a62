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
