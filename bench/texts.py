"""Inputs of a chosen length for the MiniLM benchmarks (bench/pretrained.py, bench/ablation.py)."""

SENTENCE = "the cat sat on the mat and the dog saw a bird in the tree by the old house"
WORDS = SENTENCE.split(" ")


def text_of(n_tokens: int) -> str:
    """A text of exactly n_tokens WordPiece tokens with [CLS] and [SEP] (one token per word)."""
    return " ".join(WORDS[i % len(WORDS)] for i in range(n_tokens - 2))
