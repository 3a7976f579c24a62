"""One process with both real models (MiniLM and SmolLM2-135M-Instruct) stays under 2 GB RSS
while sessions of 512 tokens go through the llm page's cached calls (bench/llm_memory.py, in a
fresh interpreter: RSS is the process's own). Two sessions here; `python bench/llm_memory.py`
runs ten (the README's capacity figure)."""

from __future__ import annotations

import pytest

from tests.helpers.process import run_python

pytestmark = pytest.mark.slow


def test_both_models_and_two_512_token_sessions_stay_under_2_gb():
    done = run_python(
        """
        from bench.llm_memory import run

        r = run(sessions=2, n_tokens=512, limit_mb=2048)
        assert r["ok"], r
        assert r["rss"] < 1400, r  # what is kept after the sessions: the weights and the caches
        print("ok")
        """,
        timeout=900,
    )
    assert done.stdout.strip().endswith("ok"), done.stdout[-3000:]
