"""Reading typed text as a sequence of a task's symbols, or saying why it is not one.

One reader for every page that takes typed symbols (the Train page's toy tasks, the Induction
page's sequences): a problem is returned, not raised, so that a page can explain it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class InputProblem:
    """Why typed text is not a valid input: 'empty', 'unknown' (symbols) or 'length'."""

    kind: str
    unknown: tuple[str, ...] = ()  # the unknown symbols, each once, in order of appearance
    n: int = 0  # how many symbols were typed ('unknown', 'length')


def read_symbols(
    text: str, alphabet: Sequence[str], max_len: int, *, separators: str = ",;"
) -> tuple[str, ...] | InputProblem:
    """The symbols of typed text, or the problem with it.

    With one-character symbols every character is a symbol ('cab', 'c a b' and, with the
    default separators, 'c,a;b' all read c, a, b); otherwise symbols are separated by spaces
    or `separators`. Whitespace never counts. At most `max_len` symbols.
    """
    if all(len(s) == 1 for s in alphabet):
        symbols = [c for c in text if not c.isspace() and c not in separators]
    else:
        for sep in separators:
            text = text.replace(sep, " ")
        symbols = text.split()
    if not symbols:
        return InputProblem("empty")
    known = set(alphabet)
    unknown = tuple(dict.fromkeys(s for s in symbols if s not in known))
    if unknown:
        return InputProblem("unknown", unknown=unknown, n=len(symbols))
    if len(symbols) > max_len:
        return InputProblem("length", n=len(symbols))
    return tuple(symbols)
