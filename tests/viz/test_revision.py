"""`layout.datarevision` (viz.revision.stamp): the same figure gives the same revision, and any
change to any value, arrays included, gives a new one (plotly.js then redraws the chart)."""

from __future__ import annotations

import viz
from tests.helpers.numeric import attention_weights
from viz.llm import query_mosaic
from viz.revision import stamp

TOKENS = ["the", "cat", "saw", "the", "dog"]


def _revision(fig) -> str:
    return stamp(fig).layout.datarevision


def test_the_same_figure_built_twice_has_the_same_revision():
    a = _revision(viz.head_grid(attention_weights(4, len(TOKENS)), TOKENS))
    b = _revision(viz.head_grid(attention_weights(4, len(TOKENS)), TOKENS))
    assert a == b and len(a) == 24


def test_text_arrays_are_read_by_value():
    """An object array's bytes are its strings' addresses; two equal texts in new strings (the
    next rerun's) are the same figure. The llm page's mosaic names each cell's token so."""
    rows = attention_weights(9, len(TOKENS))[None]  # (1 layer, 9 heads, T keys)
    a = _revision(query_mosaic(rows[:, :, 0], [t.upper().lower() for t in TOKENS]))
    b = _revision(query_mosaic(rows[:, :, 0], ["".join(t) for t in TOKENS]))
    c = _revision(query_mosaic(rows[:, :, 0], [*TOKENS[:-1], "cow"]))
    assert a == b != c


def test_stamping_again_keeps_the_revision():
    fig = viz.head_grid(attention_weights(4, len(TOKENS)), TOKENS)
    assert _revision(fig) == _revision(fig)


def test_a_change_anywhere_gives_a_new_revision():
    w = attention_weights(4, len(TOKENS))
    base = _revision(viz.attention_heatmap(w[0], TOKENS))
    one_cell = w[0].copy()
    one_cell[2, 3] += 1e-6  # one weight in the z array
    changed = [
        viz.attention_heatmap(one_cell, TOKENS),
        viz.attention_heatmap(w[0], [*TOKENS[:-1], "cow"]),  # one tick label
        viz.attention_heatmap(w[0], TOKENS, title="head 1"),  # the layout
        viz.attention_heatmap(w[0], TOKENS, colorscale="Cividis"),  # the trace's colours
    ]
    revisions = [_revision(f) for f in changed]
    assert base not in revisions and len(set(revisions)) == len(revisions)
