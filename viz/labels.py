"""Make user-typed strings safe for Plotly, which renders a subset of HTML in text.

Plotly interprets tags such as <b>, <a href>, <span style> and <br> in titles, tick labels and
hover text. It decodes the entities &lt; &gt; and &amp; back to characters, but shows &quot;
literally, so only those three characters are escaped (not quotes, unlike html.escape).
"""

from __future__ import annotations

import re

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def escape_label(text: str) -> str:
    """`text` shown literally by Plotly: '<b>x</b>' -> '&lt;b&gt;x&lt;/b&gt;'."""
    return str(text).translate(_ESCAPES)


class Notation(str):
    """A title written in the page's plain notation ("W_Q^h of head 0", "Q_h K_h^T"), drawn
    with subscripts and superscripts as the equations beside it are typeset. Only for text the
    app wrote (numbers formatted in, never tokens): a typed "a_b" must stay as typed."""


_SUB = re.compile(r"(?<=[A-Za-zα])_([A-Za-z0-9]+)")
_SUP = re.compile(r"\^([A-Za-z0-9]+)")


def title_label(text: str) -> str:
    """A chart title for Plotly: escaped; a `Notation` also gets its sub- and superscripts."""
    escaped = escape_label(text)
    if not isinstance(text, Notation):
        return escaped
    return _SUP.sub(r"<sup>\1</sup>", _SUB.sub(r"<sub>\1</sub>", escaped))


def escape_labels(texts) -> list[str]:
    return [escape_label(t) for t in texts]


def check_lengths(matrix_shape: tuple[int, ...], q_tokens, k_tokens) -> None:
    """Renderers take data, not a model: refuse labels that do not fit the matrix."""
    t_q, t_k = matrix_shape[-2], matrix_shape[-1]
    if len(q_tokens) != t_q or len(k_tokens) != t_k:
        raise ValueError(
            f"matrix is {t_q} x {t_k} but got {len(q_tokens)} query and {len(k_tokens)} key labels"
        )


def two_lines(title: str, most: int = 14) -> str:
    """A title of more than `most` characters broken at its middle space."""
    if len(title) <= most or " " not in title:
        return title
    spaces = [i for i, ch in enumerate(title) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(title) / 2))
    return title[:cut] + "<br>" + title[cut + 1 :]
