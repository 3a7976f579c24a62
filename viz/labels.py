"""Make user-typed strings safe for Plotly, which renders a subset of HTML in text.

Plotly interprets tags such as <b>, <a href>, <span style> and <br> in titles, tick labels and
hover text. It decodes the entities &lt; &gt; and &amp; back to characters, but shows &quot;
literally, so only those three characters are escaped (not quotes, unlike html.escape).
"""

from __future__ import annotations

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def escape_label(text: str) -> str:
    """`text` shown literally by Plotly: '<b>x</b>' -> '&lt;b&gt;x&lt;/b&gt;'."""
    return str(text).translate(_ESCAPES)


def escape_labels(texts) -> list[str]:
    return [escape_label(t) for t in texts]


def check_lengths(matrix_shape: tuple[int, ...], q_tokens, k_tokens) -> None:
    """Renderers take data, not a model: refuse labels that do not fit the matrix."""
    t_q, t_k = matrix_shape[-2], matrix_shape[-1]
    if len(q_tokens) != t_q or len(k_tokens) != t_k:
        raise ValueError(
            f"matrix is {t_q} x {t_k} but got {len(q_tokens)} query and {len(k_tokens)} key labels"
        )
