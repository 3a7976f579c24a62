"""Block means of long texts (viz.bin_heads), against means computed here cell by cell."""

from __future__ import annotations

import numpy as np

from viz import bin_heads


def _block_mean(w: np.ndarray, rows: slice, cols: slice) -> np.ndarray:
    return np.nanmean(w[:, rows, cols].reshape(w.shape[0], -1), axis=1)


def test_each_axis_is_binned_as_much_as_its_own_length_needs():
    # cross-attention: 6 target queries against 512 source keys keep their 6 rows
    w = np.random.default_rng(0).random((3, 6, 512), dtype=np.float32)
    b = bin_heads(w, 64)
    assert b.weights.shape == (3, 6, 64) and (b.size_q, b.size_k) == (1, 8)
    assert b.q_labels == ["0–0", "1–1", "2–2", "3–3", "4–4", "5–5"]
    assert b.k_labels[0] == "0–7" and b.k_labels[-1] == "504–511"
    np.testing.assert_allclose(b.weights[:, 2, 5], _block_mean(w, slice(2, 3), slice(40, 48)),
                               rtol=1e-6)  # fmt: skip


def test_a_square_long_text_gets_square_blocks_and_a_short_last_block():
    w = np.random.default_rng(1).random((2, 130, 130), dtype=np.float32)
    b = bin_heads(w, 64)
    assert (b.size_q, b.size_k) == (3, 3) and b.weights.shape == (2, 44, 44)
    assert b.q_labels[-1] == "129–129"  # the last block holds one token
    np.testing.assert_allclose(b.weights[:, 43, 43], w[:, 129, 129], rtol=1e-6)
    np.testing.assert_allclose(b.weights[:, 10, 7], _block_mean(w, slice(30, 33), slice(21, 24)),
                               rtol=1e-6)  # fmt: skip


def test_short_axes_are_left_as_they_are_and_nan_cells_are_left_out():
    w = np.arange(2 * 5 * 7, dtype=np.float32).reshape(2, 5, 7)
    b = bin_heads(w, 64)
    np.testing.assert_array_equal(b.weights, w)
    w = np.random.default_rng(2).random((2, 5, 140), dtype=np.float32)  # blocks of 3 keys
    w[0, 0, :] = np.nan
    w[0, 1, 4] = np.nan
    b = bin_heads(w, 64)
    assert b.size_k == 3 and np.isnan(b.weights[0, 0]).all()
    assert not np.isnan(b.weights[0, 1]).any()  # one NaN in a block: the mean of the rest
    np.testing.assert_allclose(b.weights[0, 1, 1], (w[0, 1, 3] + w[0, 1, 5]) / 2, rtol=1e-6)
