"""The corpus pass ("What does MiniLM look at?") against plain traces of the same sentences.

Prints the time of `corpus_statistics(model, sentences)` over the built-in corpus (shares under
weights and under value norms, for every sentence) and of the reference measured in the same
run: `model.trace(s, keep_layers=False)` for each sentence alone, the forward every statistic
needs. The ratio is what the value norms and the shares add. Then prints the per-layer shares.

    python bench/corpus.py [--n 200] [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from mha_core.interpret import CATEGORIES, corpus_statistics, load_corpus  # noqa: E402
from mha_core.pretrained import load_pretrained  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="sentences (0: the whole corpus)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    model = load_pretrained()
    corpus = load_corpus()
    sentences = corpus[: args.n] if args.n else corpus
    print(
        f"torch {torch.__version__}, {torch.get_num_threads()} threads, {len(sentences)} of "
        f"{len(corpus)} sentences, {args.repeats} repeats"
    )

    def traces():
        for s in sentences:
            model.trace(s, keep_layers=False)

    def stats():
        return corpus_statistics(model, sentences)

    result = stats()  # warm-up, and the numbers printed below
    t_ref, t_stats = [], []
    for i in range(args.repeats):
        order = [(traces, t_ref), (stats, t_stats)]
        for fn, times in order if i % 2 == 0 else order[::-1]:
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    med = statistics.median
    print(
        f"traces only {med(t_ref):.2f} s, corpus_statistics {med(t_stats):.2f} s, "
        f"ratio {med(t_stats) / med(t_ref):.2f} (paired "
        f"{med(a / b for a, b in zip(t_stats, t_ref)):.2f}); "
        f"{result.n_tokens} tokens, {1e3 * med(t_stats) / len(sentences):.1f} ms per sentence"
    )
    print("per layer (mean over heads): weights | value norms")
    print(f"{'':>6}" + "".join(f"{'L' + str(i + 1):>7}" for i in range(result.n_layers)))
    for c in CATEGORIES:
        for measure in ("weights", "norms"):
            row = "".join(f"{v:>7.3f}" for v in result.layer_share(c, measure))
            print(f"{c:>6}{row}   {measure}")
    for c in ("prev", "next", "sep", "cls"):
        for measure in ("weights", "norms"):
            hits = ", ".join(
                f"L{h.layer + 1}H{h.head + 1} {h.share:.2f}"
                for h in result.heads_above(c, 0.5, measure)
            )
            print(f"heads with {c} share > 0.5 ({measure}): {hits or 'none'}")


if __name__ == "__main__":
    main()
