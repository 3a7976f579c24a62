"""Big result buffers that are filled once and handed to the caller."""

from __future__ import annotations

import numpy as np
import torch


def big_empty(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """`torch.empty` for the big result buffers, allocated by NumPy: on Linux NumPy advises
    transparent huge pages for arrays over 4 MB, so filling MiniLM's 75 MB of attentions at 512
    tokens takes ~40 page faults of 2 MB instead of ~18 000 of 4 kB. (SmolLM2's 283 MB stack
    was slower so, 2.4-2.9 s against 2.1: the kernel compacted memory for the huge pages; see
    the README.) The tensor shares the array's memory; everything else about it is an
    ordinary tensor."""
    np_dtype = {torch.float32: np.float32, torch.float64: np.float64}.get(dtype)
    if np_dtype is None:
        return torch.empty(*shape, dtype=dtype)
    return torch.from_numpy(np.empty(shape, dtype=np_dtype))
