"""Rotary position embedding (RoPE; Su et al. 2021), the rotate-half layout of GPT-NeoX and
Hugging Face (Meta's LLaMA code pairs adjacent dimensions 2i, 2i + 1; Hugging Face permutes
W_Q and W_K when it converts those weights, so the scores are the same).

Dimension i of a head is paired with dimension i + hs/2; pair i turns by the angle
pos * w_i with w_i = 1 / base^(2i/hs). A query at position m and a key at position n then meet
at the angle (m - n) w_i: the score q_m . k_n depends on the offset m - n only.

Angles are computed in float32 for float32 (and half) inputs, as LLaMA and Hugging Face's
`LlamaRotaryEmbedding` do, and in float64 for float64 inputs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch

from .positional import sinusoidal_encoding


def _check_head_size(hs: int) -> None:
    if hs < 2 or hs % 2:
        raise ValueError(
            f"RoPE turns pairs of dimensions: the head size d_k must be even, got {hs}"
        )


def _check_base(base: float) -> None:
    if not base > 1.0:
        raise ValueError(f"base must be > 1, got {base}")


def rope_frequencies(d_k: int, base: float = 10000.0, dtype=torch.float32) -> torch.Tensor:
    """Angular frequency of each pair i: w_i = 1 / base^(2i/d_k), shape (d_k/2,)."""
    _check_head_size(d_k)
    _check_base(base)
    two_i = torch.arange(0, d_k, 2, dtype=torch.int64).to(dtype)  # (hs/2,)
    return 1.0 / (base ** (two_i / d_k))


def rope_cos_sin(
    positions: torch.Tensor, d_k: int, base: float = 10000.0, dtype=torch.float32
) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of every angle, each (..., T, hs): the half-size angles repeated twice."""
    angle_dtype = torch.float64 if dtype == torch.float64 else torch.float32
    w = rope_frequencies(d_k, base, angle_dtype)  # (hs/2,)
    angles = positions.to(angle_dtype)[..., None] * w  # (..., T, hs/2)
    emb = torch.cat((angles, angles), dim=-1)  # (..., T, hs)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    """(x1, x2) -> (-x2, x1) on the two halves of the last dimension."""
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply_rope(
    x: torch.Tensor, positions: torch.Tensor | None = None, base: float = 10000.0
) -> torch.Tensor:
    """Rotate queries or keys x (B, nh, T, hs) by their positions.

    positions: None (0 .. T-1), or integer positions of shape (T,) or (B, T).
    Equal to Hugging Face's `apply_rotary_pos_emb` with `LlamaRotaryEmbedding`'s cos and sin.
    """
    if x.dim() != 4:
        raise ValueError(f"x must have shape (B, nh, T, hs), got {tuple(x.shape)}")
    B, nh, T, hs = x.shape
    _check_head_size(hs)
    if positions is None:
        positions = torch.arange(T, device=x.device)
    positions = torch.as_tensor(positions, device=x.device)
    if positions.shape not in ((T,), (B, T)):
        raise ValueError(f"positions must have shape (T,) or (B, T), got {tuple(positions.shape)}")
    cos, sin = rope_cos_sin(positions, hs, base, x.dtype)  # (T, hs) or (B, T, hs)
    if cos.dim() == 3:
        cos, sin = cos[:, None], sin[:, None]  # (B, 1, T, hs)
    return x * cos + rotate_half(x) * sin  # (B, nh, T, hs)


class PairRotation(NamedTuple):
    """One pair of dimensions turning on the unit circle as the position grows."""

    pair: int  # i: dimensions i and i + d_k/2
    frequency: float  # w_i, radians per position
    wavelength: float  # 2 pi / w_i, positions for a full turn
    positions: np.ndarray  # (T,)
    angles: np.ndarray  # (T,) pos * w_i, radians
    x: np.ndarray  # (T,) cos(angle): where the unit vector (1, 0) lands
    y: np.ndarray  # (T,) sin(angle)


def pair_rotation(n_positions: int, d_k: int, pair: int = 0, base: float = 10000.0) -> PairRotation:
    """The angle of one pair at each position 0 .. n_positions-1 (float64)."""
    _check_head_size(d_k)
    if not 0 <= pair < d_k // 2:
        raise ValueError(f"pair must be 0 .. {d_k // 2 - 1} for d_k={d_k}, got {pair}")
    if n_positions < 1:
        raise ValueError(f"n_positions must be >= 1, got {n_positions}")
    w = float(rope_frequencies(d_k, base, torch.float64)[pair])
    pos = np.arange(n_positions, dtype=np.float64)
    angles = pos * w
    return PairRotation(
        pair=pair,
        frequency=w,
        wavelength=2 * np.pi / w,
        positions=pos,
        angles=angles,
        x=np.cos(angles),
        y=np.sin(angles),
    )


class ShiftTest(NamedTuple):
    """How much the scores change when every position moves by the same shift s."""

    shift: int
    score_scale: float  # max |score| without a shift (to read the changes against)
    rope_max_change: float  # max |RoPE scores at positions + s - at positions|: float rounding
    sinusoidal_max_change: float  # the same with sinusoidal PE added to q and k: not small
    rope_scores: torch.Tensor  # (B, nh, T, T) RoPE scores at positions 0 .. T-1
    rope_shifted: torch.Tensor  # (B, nh, T, T) at positions s .. s+T-1
    sinusoidal_scores: torch.Tensor  # (B, nh, T, T) (q + PE) (k + PE)^T
    sinusoidal_shifted: torch.Tensor  # (B, nh, T, T) with PE of positions s .. s+T-1


def shift_test(q: torch.Tensor, k: torch.Tensor, shift: int, base: float = 10000.0) -> ShiftTest:
    """Scores of q, k (B, nh, T, hs) with both positions shifted by `shift`, for RoPE and for
    the sinusoidal table added to q and k (as if W_Q and W_K were the identity).

    RoPE: q_m . k_n depends on m - n only, so the change is float rounding. Added PE: the score
    has cross terms q . PE(n) and PE(m) . k, which depend on m and n themselves.
    """
    if q.dim() != 4 or k.shape != q.shape:
        raise ValueError("q and k must have the same shape (B, nh, T, hs)")
    if shift < 0:
        raise ValueError(f"shift must be >= 0, got {shift}")
    T, hs = q.shape[2], q.shape[3]
    pos = torch.arange(T, device=q.device)

    def rope_scores(p: torch.Tensor) -> torch.Tensor:
        return apply_rope(q, p, base) @ apply_rope(k, p, base).transpose(-2, -1)  # (B,nh,T,T)

    pe = sinusoidal_encoding(T + shift, hs).to(device=q.device, dtype=q.dtype)  # (T+s, hs)

    def added_scores(p: torch.Tensor) -> torch.Tensor:
        return (q + p) @ (k + p).transpose(-2, -1)  # (B, nh, T, T)

    r0, r1 = rope_scores(pos), rope_scores(pos + shift)
    s0, s1 = added_scores(pe[:T]), added_scores(pe[shift : shift + T])
    return ShiftTest(
        shift=shift,
        score_scale=float(r0.abs().max()) if r0.numel() else 0.0,
        rope_max_change=float((r1 - r0).abs().max()) if r0.numel() else 0.0,
        sinusoidal_max_change=float((s1 - s0).abs().max()) if s0.numel() else 0.0,
        rope_scores=r0,
        rope_shifted=r1,
        sinusoidal_scores=s0,
        sinusoidal_shifted=s1,
    )
