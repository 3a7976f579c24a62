"""Axes of matrices whose rows and columns are tokens (or dimensions).

Numeric positions on the axis, tokens as tick text: a repeated token ("the cat saw the dog")
keeps its own row and column, and `%{x}` / `%{y}` in a hover show the token.
"""

from __future__ import annotations

from collections.abc import Sequence

from .labels import escape_labels


def tick_size(n: int) -> int:
    """Tick font size for n labels on one axis."""
    return 11 if n <= 24 else 9 if n <= 48 else 7


def token_axis(
    labels: Sequence[str] | None,
    n: int | None = None,
    *,
    start: int = 0,
    reverse: bool = False,
) -> dict:
    """A layout axis over positions start..start+n-1 (n defaults to len(labels)).

    labels: one label per position (user text: escaped here), or None for plain numbers (ticks
    at every position when there are at most 10). reverse: first position at the top, for the
    rows of a matrix.
    """
    n = len(labels) if n is None else n
    lo, hi = start - 0.5, start + n - 0.5
    ax: dict = {
        "showgrid": False,
        "zeroline": False,
        "automargin": True,
        "range": [hi, lo] if reverse else [lo, hi],
    }
    if labels is not None:
        ax.update(
            tickmode="array",
            tickvals=list(range(start, start + n)),
            ticktext=escape_labels(labels),
            tickfont={"size": tick_size(n)},
        )
    elif n <= 10:
        ax.update(tickmode="linear", tick0=start, dtick=1)
    return ax
