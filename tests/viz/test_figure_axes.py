"""Every axis as viz.figure finishes it: labels may overflow (the margins are reserved, so
plotly.js need not measure each label), and an axis kept only for the hover draws no tick
marks (under the Streamlit theme plotly.js would draw one per token: a dotted band)."""

from __future__ import annotations

import pytest

import viz
from tests.helpers.numeric import attention_weights


def _axes(fig) -> dict:
    layout = fig.to_plotly_json()["layout"]
    return {k: v for k, v in layout.items() if k[1:5] == "axis"}


def _words(n: int) -> list[str]:
    return [f"w{i}" for i in range(n)]


FIGURES = {
    "one head, 7 tokens": lambda: viz.attention_heatmap(attention_weights(1, 7)[0], _words(7)),
    "one head, 512 tokens": lambda: viz.attention_heatmap(
        attention_weights(1, 512)[0], _words(512)
    ),
    "grid, 60 tokens": lambda: viz.head_grid(attention_weights(4, 60), _words(60)),
}


@pytest.mark.parametrize("name", FIGURES)
def test_labels_overflow_and_hover_only_axes_draw_no_marks(name):
    axes = _axes(FIGURES[name]())
    assert axes
    for key, axis in axes.items():
        assert axis["ticklabeloverflow"] == "allow", key
        if axis.get("showticklabels") is False:
            assert axis["ticks"] == "", key


def test_a_512_token_head_draws_its_labels_on_an_overlay_and_marks_nowhere_else():
    axes = _axes(FIGURES["one head, 512 tokens"]())
    hidden = [k for k, a in axes.items() if a.get("showticklabels") is False]
    assert sorted(hidden) == ["xaxis", "yaxis"]  # every token, for the hover
    assert all(len(axes[k]["tickvals"]) == 512 for k in hidden)
