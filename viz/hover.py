"""The hover of a heatmap of tokens: the query and key (their positions where the labels do not
carry them) and the exact value."""

from __future__ import annotations

import numpy as np

from .axes import LABEL_ALL
from .labels import escape_label

# Hover: exact to float32 precision (8 significant digits)
EXACT = ".8g"


def cell_positions(t_q: int, t_k: int) -> np.ndarray:
    """(Tq, Tk, 2) query and key position of every cell, for the hover text.

    Numbers, not token strings: Plotly sends them as a compact typed array, and `%{y}` /
    `%{x}` already show the axis' tick text (the escaped token) in the hover.
    """
    out = np.empty((t_q, t_k, 2), dtype=np.int16)
    out[:, :, 0] = np.arange(t_q)[:, None]
    out[:, :, 1] = np.arange(t_k)[None, :]
    return out


def _positions_in_hover(n: int, numbered: bool) -> bool:
    """Whether the hover names an axis' positions from customdata: not over LABEL_ALL labels
    (they carry them: "12: cat", `token_axis`), nor for labels that say where they are
    (numbered=False: "32–39", a block of tokens)."""
    return numbered and n <= LABEL_ALL


def hover_positions(t_q: int, t_k: int, numbered: bool) -> bool:
    """Whether the hover reads a position of either axis from customdata."""
    return _positions_in_hover(t_q, numbered) or _positions_in_hover(t_k, numbered)


def who(t_q: int, t_k: int, numbered: bool = True) -> str:
    """The hover's query and key: the axes' tick text, after the positions where they are not
    in it (customdata[0] and [1])."""
    query = "query %{customdata[0]}: %{y}" if _positions_in_hover(t_q, numbered) else "query %{y}"
    key = "key %{customdata[1]}: %{x}" if _positions_in_hover(t_k, numbered) else "key %{x}"
    return f"{query}<br>{key}"


def hovertemplate(
    value_label: str, fmt: str = EXACT, t_q: int = 0, t_k: int = 0, numbered: bool = True
) -> str:
    return f"{who(t_q, t_k, numbered)}<br>{escape_label(value_label)} = %{{z:{fmt}}}<extra></extra>"
