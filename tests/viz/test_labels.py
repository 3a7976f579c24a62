"""Chart titles: text shown as typed, the app's own notation with sub- and superscripts."""

from __future__ import annotations

import numpy as np

from viz.labels import Notation, title_label
from viz.matrix import matrix_heatmap


def test_notation_titles_are_drawn_with_sub_and_superscripts():
    assert title_label(Notation("W_Q^h of head 0")) == "W<sub>Q</sub><sup>h</sup> of head 0"
    assert title_label(Notation("Scores Q_h K_h^T (3 × 3)")) == (
        "Scores Q<sub>h</sub> K<sub>h</sub><sup>T</sup> (3 × 3)"
    )
    assert title_label(Notation("α_h = softmax")) == "α<sub>h</sub> = softmax"


def test_plain_titles_and_markup_stay_as_typed():
    assert title_label("my_var^2") == "my_var^2"  # a typed title is never reinterpreted
    assert title_label(Notation("<b>x_1</b>")) == "&lt;b&gt;x<sub>1</sub>&lt;/b&gt;"
    fig = matrix_heatmap(np.eye(2), title=Notation("W_O (2 × 2)"))
    assert fig.layout.title.text == "W<sub>O</sub> (2 × 2)"
