"""mha_core.export on its own: the CSV and JSON carry exactly the trace's numbers."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest

from mha_core import AttentionConfig, run_attention
from mha_core.layer.export import CSV_COLUMNS, trace_json, weights_csv

TOKENS = ["the", "cat", ",", "the", '"dog"', "=1+1"]


def test_csv_has_one_row_per_weight_with_exact_values_and_literal_tokens():
    res = run_attention(TOKENS, AttentionConfig(d_model=16, n_heads=2, mask="causal"))
    w = res.attention.weights[0].numpy()
    rows = list(csv.reader(io.StringIO(weights_csv(w, TOKENS))))
    assert tuple(rows[0]) == CSV_COLUMNS
    body = rows[1:]
    assert len(body) == 2 * len(TOKENS) ** 2
    for h, i, qt, j, kt, value in body:
        h, i, j = int(h), int(i), int(j)
        assert (qt, kt) == (TOKENS[i], TOKENS[j])  # quotes, commas and '=' survive as typed
        assert float(value) == float(w[h, i, j])  # repr round-trips the float exactly
    assert float(body[1][5]) == 0.0  # causal: query 0 never sees key 1


def test_csv_checks_the_shapes():
    with pytest.raises(ValueError, match="do not match"):
        weights_csv(np.zeros((1, 2, 3)), ["a", "b"])


def test_json_is_strict_and_holds_the_trace():
    cfg = AttentionConfig(d_model=16, n_heads=4, mask="causal", seed=3)
    res = run_attention(TOKENS, cfg)
    doc = json.loads(trace_json(res))  # strict JSON: no NaN / Infinity tokens
    tr = res.attention
    assert doc["tokens"] == TOKENS and doc["settings"]["seed"] == 3 and doc["d_k"] == 4
    np.testing.assert_array_equal(np.array(doc["weights"], dtype=np.float32), tr.weights[0])
    np.testing.assert_array_equal(np.array(doc["output"], dtype=np.float32), tr.output[0])
    logits = doc["logits"]
    assert logits[0][0][1] is None  # -inf (masked) is written as null
    assert math.isfinite(logits[0][1][0])
    assert doc["shapes"]["weights"] == [4, len(TOKENS), len(TOKENS)]
