"""The filter of the Reading heads page and the query/key map, against direct computations:
loops over rows for the filter, an eigen-decomposition of the covariance (not an SVD) for the
PCA, and torch's softmax for the claim that translating the keys leaves attention unchanged."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_core.interpret import filter_attention, query_key_map


def _stochastic(rng, *shape):
    a = rng.random(shape) ** 3
    return a / a.sum(-1, keepdims=True)


def test_no_filter_hides_nothing():
    a = _stochastic(np.random.default_rng(0), 5, 5)
    f = filter_attention(a)
    assert f.n_hidden == 0 and f.hidden_share == 0.0 and not f.hidden.any()
    np.testing.assert_array_equal(f.shown, a)


@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.floats(0.0, 1.0),
    st.integers(0, 2**31 - 1),
)
@settings(max_examples=60, deadline=None)
def test_threshold_hides_cells_below_it(tq, tk, thr, seed):
    a = _stochastic(np.random.default_rng(seed), tq, tk)
    f = filter_attention(a, "threshold", threshold=thr)
    lost, count = 0.0, 0
    for i in range(tq):
        for j in range(tk):
            if a[i, j] < thr:
                lost += a[i, j]
                count += 1
                assert f.hidden[i, j] and np.isnan(f.shown[i, j])
            else:
                assert not f.hidden[i, j] and f.shown[i, j] == a[i, j]
    assert f.n_hidden == count
    # rows sum to 1: the share hidden is the mean over rows of each row's lost weight
    assert f.hidden_share == pytest.approx(lost / tq, rel=1e-12, abs=1e-15)


@given(st.integers(1, 9), st.integers(1, 12), st.integers(1, 14), st.integers(0, 2**31 - 1))
@settings(max_examples=60, deadline=None)
def test_top_k_keeps_each_rows_largest(tq, tk, k, seed):
    a = _stochastic(np.random.default_rng(seed), tq, tk)
    f = filter_attention(a, "top_k", top_k=k)
    kept = min(k, tk)
    lost = 0.0
    for i in range(tq):
        keep = ~f.hidden[i]
        assert keep.sum() == kept
        largest = sorted(a[i], reverse=True)[:kept]
        assert sorted(a[i][keep], reverse=True) == largest
        lost += a[i][~keep].sum()
    assert f.hidden_share == pytest.approx(lost / a.sum(), rel=1e-12, abs=1e-15)


def test_top_k_ties_keep_the_earlier_key_and_batches_work():
    a = np.full((2, 3, 4), 0.25)
    f = filter_attention(a, "top_k", top_k=2)
    assert (f.hidden[..., :2] == False).all() and f.hidden[..., 2:].all()  # noqa: E712
    assert f.hidden_share == pytest.approx(0.5)


def test_existing_nan_counts_as_hidden_and_bad_settings_explain():
    a = np.array([[0.5, np.nan], [0.2, 0.8]])
    f = filter_attention(a, "threshold", threshold=0.3)
    assert f.hidden.tolist() == [[False, True], [True, False]]
    assert f.hidden_share == pytest.approx(0.2 / 1.5)
    with pytest.raises(ValueError, match="filter must be"):
        filter_attention(a, "median")
    with pytest.raises(ValueError, match="threshold"):
        filter_attention(a, "threshold", threshold=float("nan"))
    with pytest.raises(ValueError, match="top-k"):
        filter_attention(a, "top_k", top_k=0)
    with pytest.raises(ValueError, match="never < 0"):
        filter_attention(-a, "threshold", threshold=0.1)
    with pytest.raises(ValueError, match="at least"):
        filter_attention(np.ones(3))
    assert filter_attention(np.zeros((2, 2)), "top_k", top_k=1).hidden_share == 0.0


def _pca_reference(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates on the two leading eigenvectors of the covariance, and their variance share."""
    c = points - points.mean(axis=0)
    vals, vecs = np.linalg.eigh(c.T @ c)  # ascending
    order = np.argsort(vals)[::-1][:2]
    return c @ vecs[:, order], vals[order] / vals.sum()


@pytest.mark.parametrize("translate", [True, False])
@pytest.mark.parametrize("tq,tk,hs", [(7, 7, 32), (3, 5, 4), (12, 12, 8)])
def test_query_key_map_is_the_pca_of_both_clouds(translate, tq, tk, hs):
    rng = np.random.default_rng(tq * 100 + hs)
    q = rng.normal(size=(tq, hs)) + 2.0
    k = rng.normal(size=(tk, hs)) * 0.5 - 1.0
    m = query_key_map(q, k, translate_keys=translate)
    shift = q.mean(0) - k.mean(0) if translate else 0.0
    ref, share = _pca_reference(np.concatenate([q, k + shift]))
    got = np.concatenate([m.queries, m.keys])
    for axis in range(2):  # the same axes up to sign
        sign = np.sign(got[:, axis] @ ref[:, axis])
        np.testing.assert_allclose(got[:, axis], sign * ref[:, axis], rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(m.explained, share, rtol=1e-7)
    if translate:  # the keys' centre is the queries' centre
        np.testing.assert_allclose(m.keys.mean(0), m.queries.mean(0), atol=1e-9)
        np.testing.assert_allclose(m.translation, q.mean(0) - k.mean(0))
    else:
        assert not m.translation.any()


def test_translating_the_keys_leaves_attention_unchanged():
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=(6, 16)), rng.normal(size=(6, 16)) + 3.0
    m = query_key_map(q, k)
    scale = 16**-0.5
    before = torch.softmax(torch.tensor(q @ k.T) * scale, dim=-1)
    after = torch.softmax(torch.tensor(q @ (k + m.translation).T) * scale, dim=-1)
    torch.testing.assert_close(after, before, rtol=1e-10, atol=1e-12)


def test_query_key_map_degenerate_inputs():
    m = query_key_map(np.ones((1, 4)), np.ones((1, 4)))  # every point the same
    assert m.queries.shape == (1, 2) and not m.queries.any() and not m.explained.any()
    m = query_key_map(np.array([[0.0, 0.0]]), np.array([[1.0, 0.0]]), translate_keys=False)
    assert m.explained.tolist() == [1.0, 0.0]  # a single direction
    assert abs(m.queries[0, 0] - m.keys[0, 0]) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="same d_k"):
        query_key_map(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(ValueError, match="same d_k"):
        query_key_map(np.ones((0, 3)), np.ones((2, 3)))
