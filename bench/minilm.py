"""What the MiniLM benchmarks share (bench/pretrained.py, bench/ablation.py): inputs of a chosen
length and the ratios they print."""

import statistics

SENTENCE = "the cat sat on the mat and the dog saw a bird in the tree by the old house"
WORDS = SENTENCE.split(" ")


def text_of(n_tokens: int) -> str:
    """A text of exactly n_tokens WordPiece tokens with [CLS] and [SEP] (one token per word)."""
    return " ".join(WORDS[i % len(WORDS)] for i in range(n_tokens - 2))


def ratios(times: dict[str, list[float]], reference: str) -> dict[str, tuple[float, float, float]]:
    """name -> (median ms, median / the reference's median, median of the paired ratios: each
    round's time over the reference's time in the same round)."""
    med = statistics.median
    ref = times[reference]
    return {
        name: (med(t) * 1e3, med(t) / med(ref), med(a / b for a, b in zip(t, ref)))
        for name, t in times.items()
    }
