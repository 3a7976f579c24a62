"""The numbers behind every page, as files: CSV of weights in long form, JSON of a trace."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict

import numpy as np

from .pipeline import SentenceAttention

CSV_COLUMNS = ("head", "query_pos", "query_token", "key_pos", "key_token", "weight")


def weights_csv(weights, q_tokens: list[str], k_tokens: list[str] | None = None) -> str:
    """Every weight of (nh, Tq, Tk) as one CSV row: head, query pos/token, key pos/token, weight.

    Tokens are written exactly as they are (quoted by the csv module where needed).
    """
    k_tokens = q_tokens if k_tokens is None else k_tokens
    w = np.asarray(weights.detach().cpu() if hasattr(weights, "detach") else weights)
    if w.ndim != 3 or w.shape[1:] != (len(q_tokens), len(k_tokens)):
        raise ValueError(f"weights {w.shape} do not match {len(q_tokens)}x{len(k_tokens)} tokens")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for h in range(w.shape[0]):
        for i, qt in enumerate(q_tokens):
            for j, kt in enumerate(k_tokens):
                writer.writerow((h, i, qt, j, kt, repr(float(w[h, i, j]))))
    return out.getvalue()


def trace_dict(result: SentenceAttention) -> dict:
    """Everything one sentence's attention computed, batch dimension dropped, as lists."""
    tr = result.attention

    def arr(t):
        return t[0].detach().cpu().float().numpy().tolist()

    masked = tr.masked_scores[0].detach().cpu().float().numpy()
    return {
        "format": "attention-lens/trace-v1",
        "settings": asdict(result.config),
        "d_k": result.config.d_k,
        "tokens": list(result.tokens),
        "shapes": {
            "x": [len(result.tokens), result.config.d_model],
            "q": list(tr.q.shape[1:]),
            "weights": list(tr.weights.shape[1:]),
            "output": list(tr.output.shape[1:]),
        },
        "x": result.x.detach().cpu().float().numpy().tolist(),
        "q": arr(tr.q),
        "k": arr(tr.k),
        "v": arr(tr.v),
        "scores": arr(tr.scores),
        "scale_factor": tr.scale_factor,
        # JSON has no -inf: masked scores are written as null (key "logits", the format's name)
        "logits": np.where(np.isfinite(masked), masked, np.nan).tolist(),
        "weights": arr(tr.weights),
        "empty_rows": tr.empty_rows[0].cpu().numpy().tolist(),
        "head_outputs": arr(tr.head_outputs),
        "concat": arr(tr.concat),
        "output": arr(tr.output),
    }


def trace_json(result: SentenceAttention) -> str:
    def clean(o):  # NaN -> null (strict JSON)
        if isinstance(o, float):
            return None if o != o else o
        if isinstance(o, list):
            return [clean(x) for x in o]
        if isinstance(o, dict):
            return {k: clean(v) for k, v in o.items()}
        return o

    return json.dumps(clean(trace_dict(result)), ensure_ascii=False, allow_nan=False)
