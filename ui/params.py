"""A page's controls, each declared once: its session key, its first value, how the URL's text
turns back into it, what it is clamped to when the sidebar's model changes, and which other
settings may change it.

Each page's section module holds its `PARAMS` (a tuple of `Param`), and `ui.page.open_page(name,
PARAMS)` derives from it the defaults, the URL mirror and the clamping; the sequence tests derive
their tables from it too (tests/helpers/sequences.py, tests/helpers/depends.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mha_core import MAX_TOKENS
from mha_core.layer.limits import D_MODELS, MAX_HEADS
from ui.state import Settings, parse_int

TOKENS = frozenset({"text", "tokenizer"})  # a change here changes the sentence's tokens
HEADS = frozenset({"d_model", "n_heads"})  # ... and here the number of heads or d_k
NO_DEFAULT = object()  # a control the page gives its first value when it draws it
NEAREST = object()  # a stale value is clamped to the nearest valid one


@dataclass(frozen=True)
class Range:
    """A URL value that is a whole number from `lo` to `hi` (digits only)."""

    lo: int
    hi: int

    def __call__(self, raw: str) -> int:
        return parse_int(raw, self.lo, self.hi)


def index(n: int) -> Range:
    """An index into `n` things: 0 .. n - 1."""
    return Range(0, n - 1)


@dataclass(frozen=True)
class OneOf:
    """A URL value that is one of `options` (stable values); `read` turns the text into the
    options' type first (`str`: the text itself)."""

    options: tuple
    read: Callable[[str], Any] = str

    def __call__(self, raw: str) -> Any:
        value = self.read(raw)
        if value not in self.options:
            raise ValueError(raw)
        return self.options[self.options.index(value)]


@dataclass(frozen=True)
class Distinct:
    """A URL value that is a comma-separated list of at most `most` distinct `item`s ("": none)."""

    item: Callable[[str], Any]
    most: int

    def __call__(self, raw: str) -> list:
        values = [self.item(part) for part in raw.split(",")] if raw else []
        if len(set(values)) != len(values) or len(values) > self.most:
            raise ValueError(raw)
        return values


def whole(raw: str) -> int:
    """A whole number as the URL writes it (digits only), for `OneOf` over numbers."""
    return parse_int(raw, 0, 10**9 - 1)


def cut(limit: int) -> Callable[[str], str]:
    """A text from the URL, cut to `limit` characters."""
    return lambda raw: raw[:limit]


# the bounds of an index in a link, whatever the current sentence or model (clamped afterwards)
HEAD_INDEX = index(MAX_HEADS)  # a head of the sidebar's model
TOKEN_INDEX = index(MAX_TOKENS)  # a token of the sentence
DIM_INDEX = index(max(D_MODELS))  # a dimension of d_model (or of d_k)


def head_indices(settings: Settings) -> range:
    """What a head picker's value is clamped to: the sidebar's heads."""
    return range(settings.n_heads)


@dataclass(frozen=True)
class Param:
    """One page control.

    - `key`: its session key, "<page>.<name>"; the URL calls it `<name>`.
    - `default`: its first value (kept across reruns, pages and languages afterwards), or a
      function of the sidebar's settings that gives it; `NO_DEFAULT`: the page gives it one
      when it draws it.
    - `parse`: the URL's text -> a valid value, or ValueError; None: not in the URL.
    - `within`: the sidebar's settings -> the options it is clamped to when the page opens (None:
      no clamp then), to `fallback` or else the nearest one, so that a choice whose widget is
      not drawn (a closed view) stays valid and the URL never holds a stale one.
    - `for_tokens`: the number of the sentence's tokens -> the options it is clamped to once
      the page has its tokens (`ui.page.clamp_to_tokens`), for a closed view's choice too.
    - `depends_on`: the URL names of the settings whose change may change it (a clamp); any
      other change of it is a lost setting (the sequence tests check this).
    - `in_url`: whether its value is mirrored in the URL now (None: always).
    """

    key: str
    default: Any = NO_DEFAULT
    parse: Callable[[str], Any] | None = None
    within: Callable[[Settings], Sequence | None] | None = None
    fallback: Any = NEAREST
    for_tokens: Callable[[int], Sequence] | None = None
    depends_on: frozenset[str] = frozenset()
    in_url: Callable[[Any], bool] | None = None

    @property
    def name(self) -> str:
        """Its name in the URL: the key after the page prefix ("step.head" -> "head")."""
        return self.key.split(".", 1)[1]


def defaults(params: Sequence[Param], settings: Settings) -> dict:
    """{key: first value} of the controls that have one (a callable default: of `settings`)."""
    return {
        p.key: p.default(settings) if callable(p.default) else p.default
        for p in params
        if p.default is not NO_DEFAULT
    }


def parsers(params: Sequence[Param], values: dict) -> dict[str, Callable[[str], Any]]:
    """{key: parser} of the controls mirrored in the URL, given the session's `values`."""
    return {
        p.key: p.parse
        for p in params
        if p.parse is not None and (p.in_url is None or p.in_url(values.get(p.key)))
    }


def depends(params: Sequence[Param]) -> dict[str, frozenset]:
    """{URL name: what may change it} of the controls that depend on another setting."""
    return {p.name: p.depends_on for p in params if p.depends_on}
