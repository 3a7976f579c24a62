"""Memory of one app process with both real models loaded (MiniLM and SmolLM2-135M-Instruct),
after N "sessions" on the A real language model page, each with its own 512-token text, traced
through the page's own cached calls (`ui.compute.llm`) as its views ask for them:

- Every head: `query_view` (every layer's row at the query, the chosen layer's weights) at two
  layers, and `head_scores` (all 270 heads' scores; the text's L x nh x T x T weights while it
  runs);
- One head, step by step: `one_head` at two heads;
- Logit lens: `lens` (a full trace of the text while it runs: every layer kept);
- MiniLM: a sentence (the text's first 64 tokens) traced as the pretrained page does
  (`ui.compute.pretrained.run`).

Generation is not run (its KV cache is 46 kB a token, 2.9 MB for 64 tokens, and answers are
kept as ids). RSS is read from /proc/self/status after each session (VmRSS) with the peak
(VmHWM). Exit status 1 when the peak is over the limit.

    python bench/llm_memory.py [--sessions 10] [--tokens 512] [--limit-mb 2048]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident memory of this process, MiB."""
    status = Path("/proc/self/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def texts(model, n_sessions: int, n_tokens: int) -> list[tuple[int, ...]]:
    """n_sessions different texts of n_tokens tokens each: windows of the corpus and the seed
    texts, one after another (no two the same)."""
    paths = [ROOT / "mha_core" / "data" / "corpus_en.txt"]
    paths += sorted(Path("/work/shared/seeds").glob("*.txt"))
    ids: list[int] = []
    for p in paths:
        if p.exists():
            ids += model.tokenizer.encode(p.read_text(encoding="utf-8"))
    if len(ids) < n_tokens * n_sessions:
        raise SystemExit(f"only {len(ids)} tokens of text for {n_sessions} x {n_tokens}")
    return [tuple(ids[i * n_tokens : (i + 1) * n_tokens]) for i in range(n_sessions)]


def run(sessions: int = 10, n_tokens: int = 512, limit_mb: float = 2048.0) -> dict:
    import torch

    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")
    import logging

    logging.getLogger("streamlit").setLevel(logging.ERROR)
    from ui.compute import llm as compute
    from ui.compute import pretrained

    start = time.perf_counter()
    base = rss_mb()[0]
    pretrained.model()
    minilm = rss_mb()[0]
    m = compute.model()
    both = rss_mb()[0]
    print(f"python + torch + the app's modules: {base:.0f} MiB")
    print(f"+ MiniLM: {minilm:.0f} MiB; + SmolLM2-135M-Instruct: {both:.0f} MiB")
    rows = []
    for i, ids in enumerate(texts(m, sessions, n_tokens)):
        t0 = time.perf_counter()
        last = len(ids) - 1
        for layer in (15, 3 + i % 27):
            compute.query_view(ids, layer, last)
        compute.head_scores(ids)
        for head in (0, 1 + i % 8):
            compute.one_head(ids, 15, head, last)
        compute.lens(ids, last)
        pretrained.run(m.tokenizer.decode(list(ids[:64])), None)  # the MiniLM pages' trace
        now, peak = rss_mb()
        rows.append((i + 1, now, peak, time.perf_counter() - t0))
        print(f"session {i + 1:2d}: RSS {now:.0f} MiB, peak {peak:.0f} MiB "
              f"({time.perf_counter() - t0:.1f} s)")  # fmt: skip
    now, peak = rss_mb()
    took = time.perf_counter() - start
    print(f"after {sessions} sessions of {n_tokens} tokens: RSS {now:.0f} MiB, peak {peak:.0f} "
          f"MiB (limit {limit_mb:.0f} MiB); {took:.0f} s in all")  # fmt: skip
    return {"base": base, "both": both, "rss": now, "peak": peak, "rows": rows,
            "ok": peak < limit_mb}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--tokens", type=int, default=512)
    ap.add_argument("--limit-mb", type=float, default=2048.0)
    a = ap.parse_args()
    result = run(a.sessions, a.tokens, a.limit_mb)
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
