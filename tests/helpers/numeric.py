"""Comparing two computations of the same float32 numbers; attention weights to draw."""

import numpy as np
import torch

F32_RTOL = 1e-5  # a few float32 ulps of relative error: what two different kernels may differ by


def assert_close_f32(actual, expected, *, rtol: float = F32_RTOL, atol: float = 1e-6) -> None:
    """Two different computations of the same float32 numbers (ours against torch's modules,
    SDPA or Hugging Face; a matmul against its pieces) agree to float32 rounding on any CPU.

    Kernels differ by CPU (AVX2, AVX-512, the default path under ATEN_CPU_CAPABILITY=default)
    and thread count, and so does their summation order: the error scales with the values, so
    the check is relative (rtol) plus a small absolute floor for values near 0 (atol). Use exact
    equality only where the same operations run in the same order.
    """
    a, e = (
        torch.as_tensor(np.asarray(x)) if not torch.is_tensor(x) else x for x in (actual, expected)
    )
    torch.testing.assert_close(a, e, rtol=rtol, atol=atol, check_dtype=False)


def attention_weights(nh: int, tq: int, tk: int | None = None, seed: int = 0) -> np.ndarray:
    """(nh, tq, tk) float32 weights for figures: each row random and positive, summing to 1."""
    w = np.random.default_rng(seed).random((nh, tq, tq if tk is None else tk))
    return (w / w.sum(-1, keepdims=True)).astype(np.float32)
