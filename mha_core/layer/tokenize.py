"""Word-level tokenizer for the teaching pages.

"I want to live in Europe." -> I, want, to, live, in, Europe, .

Rules, chosen so that every token is something a learner recognises:
- text is NFC-normalised; zero-width spaces and BOMs count as spaces;
- a word is a run of letters, digits, underscores and combining marks (accents stay on their
  letter, Arabic and Hebrew words stay whole);
- each CJK ideograph is a token of its own (as BERT's tokenizer does);
- every other character (punctuation, symbol, emoji) is a token of its own, together with what
  grammatically belongs to it: variation selectors, skin-tone modifiers, keycaps, combining marks,
  and emoji glued by zero-width joiners (a family emoji is one token).
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

from .limits import MAX_TOKENS

_INVISIBLE_SPACES = {"\u200b", "\u2060", "\ufeff", "\u180e"}
_ZWJ = "\u200d"


class TokenizedText(NamedTuple):
    """The tokens of a text as the teaching pages use them (words or WordPiece pieces)."""

    tokens: list[str]  # at most `limit` tokens
    n_total: int  # how many tokens the whole text has
    truncated: bool  # True when tokens were cut to the limit


def check_limit(limit: int) -> None:
    if not isinstance(limit, int) or limit < 1:
        raise ValueError(f"the token limit must be a whole number >= 1, got {limit!r}")


def _is_space(ch: str) -> bool:
    return ch.isspace() or ch in _INVISIBLE_SPACES


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def _is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2FA1F
        or 0xF900 <= cp <= 0xFAFF
    )


def _is_word_char(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return (cat[0] in "LN" or ch == "_") and not _is_cjk(ch)


def _is_modifier(ch: str) -> bool:
    """Characters that belong to the symbol before them."""
    cp = ord(ch)
    return (
        0xFE00 <= cp <= 0xFE0F  # variation selectors
        or 0x1F3FB <= cp <= 0x1F3FF  # skin tones
        or 0xE0020 <= cp <= 0xE007F  # tag characters (flag sequences)
        or cp == 0x20E3  # keycap
        or _is_mark(ch)
    )


def _is_regional_indicator(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def split_words(text: str) -> list[str]:
    """All word-level tokens of `text`, without any limit."""
    text = unicodedata.normalize("NFC", text)
    tokens: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if _is_space(ch) or ch == _ZWJ and not tokens:
            i += 1
            continue
        if _is_word_char(ch) or (_is_mark(ch) and not tokens):
            j = i + 1
            while j < n and (_is_word_char(text[j]) or _is_mark(text[j])):
                j += 1
            tokens.append(text[i:j])
            i = j
            continue
        # a single symbol, ideograph or emoji with everything that attaches to it
        j = i + 1
        if _is_regional_indicator(ch) and j < n and _is_regional_indicator(text[j]):
            j += 1  # a flag is a pair of regional indicators
        while j < n:
            if _is_modifier(text[j]):
                j += 1
            elif text[j] == _ZWJ and j + 1 < n and not _is_space(text[j + 1]):
                j += 2
            elif text[j] == _ZWJ:
                j += 1
            else:
                break
        tokens.append(text[i:j])
        i = j
    return tokens


def word_tokenize(text: str, limit: int = MAX_TOKENS) -> TokenizedText:
    """Split `text` into word-level tokens, keeping at most `limit` and saying if it cut."""
    check_limit(limit)
    tokens = split_words(text)
    return TokenizedText(tokens[:limit], len(tokens), len(tokens) > limit)
