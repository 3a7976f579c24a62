"""Where the heads look on average over a built-in set of sentences (`load_corpus`), under
weights and under value norms: the token categories, one input's shares, the corpus averages.

Shapes: L layers, nh heads, T tokens.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
import torch

from ..layer.stats import POSITIONS, position_shares
from ..pretrained.model import PretrainedModel
from .rollout import row_shares
from .value_norms import value_norms

CORPUS_PATH = Path(__file__).resolve().parent.parent / "data" / "corpus_en.txt"

# --- token categories and shares -------------------------------------------------------------

CATEGORIES: tuple[str, ...] = ("cls", "sep", "punct", "prev", "next", "self")
MEASURES: tuple[str, ...] = ("weights", "norms")


def is_punctuation(token: str) -> bool:
    """A WordPiece token made only of punctuation characters (Unicode category P*: . , ; : ! ?
    quotes, brackets, dashes, ...); [CLS]/[SEP]/[UNK] are not punctuation."""
    piece = token.removeprefix("##")
    if not piece or (token.startswith("[") and token.endswith("]") and len(token) > 2):
        return False
    return all(unicodedata.category(ch).startswith("P") for ch in piece)


def attention_shares(matrix, tokens: Sequence[str]) -> np.ndarray:
    """(n_categories, L, nh) where each head looks, averaged over query rows, for one input.

    `matrix` (L, nh, T, T) row-stochastic: attention weights, or value norms divided by their
    row sums (`row_shares`). Categories (`CATEGORIES`), for query row i:
    - cls, sep, punct: the share of row i on keys that are [CLS], [SEP], punctuation
      (`is_punctuation`); these three never overlap, so they sum to at most 1;
    - prev, next, self: the weight on key i-1, i+1, i (`mha_core.layer.stats.position_shares`,
      the head statistics' own definition: row 0 has no previous token and counts 0 there, the
      last row no next one). They overlap with the first three (the token before the first
      word is [CLS]).
    Each is the mean over all query rows, in float64.
    """
    m = matrix.detach().cpu().numpy() if isinstance(matrix, torch.Tensor) else np.asarray(matrix)
    if m.ndim != 4 or m.shape[-1] != m.shape[-2] or m.shape[-1] != len(tokens):
        raise ValueError(
            f"matrix must be (layers, heads, T, T) with T = {len(tokens)} tokens, got {m.shape}"
        )
    L, nh, T, _ = m.shape
    toks = np.asarray(tokens, dtype=object)
    key_sets = (toks == "[CLS]", toks == "[SEP]", np.array([is_punctuation(t) for t in toks]))
    out = np.full((len(CATEGORIES), L, nh), np.nan)  # (n_categories, L, nh)
    for i in range(L):  # a layer at a time: float64 copies of (nh, T, T), not of the whole stack
        w = m[i].astype(np.float64)  # (nh, T, T)
        for c, keys in enumerate(key_sets):
            out[c, i] = w[..., keys].sum(axis=-1).mean(axis=-1)  # (nh,)
        shares = position_shares(w)  # (4, nh): self, prev, next, first
        for c, name in enumerate(("prev", "next", "self"), start=len(key_sets)):
            out[c, i] = shares[POSITIONS.index(name)]
    return out


class HeadShare(NamedTuple):
    layer: int  # 0-based
    head: int  # 0-based
    share: float


@dataclass(frozen=True, eq=False)
class CorpusStatistics:
    """Where MiniLM's heads look, averaged over a corpus.

    `weights[c, l, h]`: the share of head h of layer l's attention on category
    `categories[c]`, averaged over each sentence's query rows, then over sentences (every
    sentence counts alike). `norms`: the same with value-weighted norms in place of weights
    (each row's norms divided by the row's sum).
    """

    categories: tuple[str, ...]
    weights: np.ndarray  # (n_categories, L, nh)
    norms: np.ndarray  # (n_categories, L, nh)
    n_sentences: int
    n_tokens: int  # WordPiece tokens in all, [CLS] and [SEP] included

    def _array(self, measure: str) -> np.ndarray:
        if measure not in MEASURES:
            raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
        return self.weights if measure == "weights" else self.norms

    def _index(self, category: str) -> int:
        if category not in self.categories:
            raise ValueError(f"category must be one of {self.categories}, got {category!r}")
        return self.categories.index(category)

    @property
    def n_layers(self) -> int:
        return self.weights.shape[1]

    @property
    def n_heads(self) -> int:
        return self.weights.shape[2]

    def share(self, category: str, measure: str = "weights") -> np.ndarray:
        """(L, nh) every head's average share on `category`."""
        return self._array(measure)[self._index(category)]

    def layer_share(self, category: str, measure: str = "weights") -> np.ndarray:
        """(L,) the layer's average share on `category` (the mean over its heads)."""
        return self.share(category, measure).mean(axis=-1)

    def heads_above(
        self, category: str, threshold: float = 0.5, measure: str = "weights"
    ) -> tuple[HeadShare, ...]:
        """The heads whose average share on `category` exceeds `threshold`, largest first."""
        s = self.share(category, measure)
        rows, cols = np.nonzero(s > threshold)
        hits = [HeadShare(int(i), int(h), float(s[i, h])) for i, h in zip(rows, cols)]
        return tuple(sorted(hits, key=lambda hs: -hs.share))


def sentence_shares(model: PretrainedModel, trace) -> tuple[np.ndarray, np.ndarray]:
    """(n_categories, L, nh) `attention_shares` of one traced sentence (a `PretrainedTrace`)
    under its attention weights and under its value-weighted norms (`row_shares`)."""
    w = attention_shares(trace.attentions, trace.tokens)
    n = attention_shares(row_shares(value_norms(model, trace)), trace.tokens)
    return w, n


def layer_shares(model: PretrainedModel, trace) -> tuple[np.ndarray, np.ndarray]:
    """(n_categories, L) `sentence_shares` averaged over each layer's heads: under weights, and
    under value norms."""
    w, n = sentence_shares(model, trace)
    return w.mean(axis=-1), n.mean(axis=-1)


def load_corpus(path: str | Path | None = None) -> tuple[str, ...]:
    """The built-in English sentences (one per line, UTF-8, written for this project)."""
    p = CORPUS_PATH if path is None else Path(path)
    lines = p.read_text(encoding="utf-8").splitlines()
    return tuple(s for line in lines if (s := line.strip()))


def corpus_statistics(
    model: PretrainedModel,
    sentences: Sequence[str],
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> CorpusStatistics:
    """Average `attention_shares` over `sentences`, under weights and under value norms.

    `on_progress(done, total)` is called after each sentence (for a progress bar).
    """
    if isinstance(sentences, str) or not sentences:
        raise ValueError("sentences must be a non-empty list of strings")
    if not all(isinstance(s, str) for s in sentences):
        raise ValueError("every sentence must be a string")
    total = len(sentences)
    sum_w = sum_n = None
    n_tokens = 0
    for done, text in enumerate(sentences, start=1):
        trace = model.trace(text, keep_layers=False)
        w, n = sentence_shares(model, trace)  # (n_categories, L, nh) each
        sum_w = w if sum_w is None else sum_w + w
        sum_n = n if sum_n is None else sum_n + n
        n_tokens += trace.n_tokens
        if on_progress is not None:
            on_progress(done, total)
    return CorpusStatistics(
        categories=CATEGORIES,
        weights=sum_w / total,
        norms=sum_n / total,
        n_sentences=total,
        n_tokens=n_tokens,
    )
