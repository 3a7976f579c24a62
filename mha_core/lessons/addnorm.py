"""Helpers for teaching Add & Norm and dropout: LayerNorm against BatchNorm, attention dropout.

Shapes: B batch, T tokens, C features (d_model).

- LayerNorm normalises each TOKEN over its C features: one mean and std per (b, t).
- BatchNorm normalises each FEATURE over the batch: one mean and std per feature c, taken over
  all B * T token positions; padded positions (if a padding mask is given) are left out of the
  statistics, as a padding-aware BatchNorm for sequences does, so a batch's padding does not
  shift the numbers. Padded positions are still normalised with those statistics (a BatchNorm
  layer would output them too); `padding_mask` says which ones to grey out.

Both use the biased variance (divide by n), as `F.layer_norm` and `F.batch_norm` do when they
normalise, and no affine scale/shift (gamma = 1, beta = 0). The arithmetic runs in float64 and
results come back in the input's dtype: with few tokens a feature's spread can be tiny next to
its mean, and float32's cancellation in x - mean would then show in the normalised values.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True, eq=False)
class NormStatistics:
    """One (B, T, C) batch normalised two ways, with the statistics each used."""

    x: torch.Tensor  # (B, T, C) the input
    padding_mask: torch.Tensor | None  # (B, T) bool, True = padding (left out of batch stats)
    eps: float
    layer_mean: torch.Tensor  # (B, T) per token, over its C features
    layer_std: torch.Tensor  # (B, T) per token: sqrt(biased variance over C)
    layer_normed: torch.Tensor  # (B, T, C) (x - layer_mean) / sqrt(layer_var + eps)
    batch_mean: torch.Tensor  # (C,) per feature, over the B*T real (non-padded) tokens
    batch_std: torch.Tensor  # (C,) per feature: sqrt(biased variance over real tokens)
    batch_normed: torch.Tensor  # (B, T, C) (x - batch_mean) / sqrt(batch_var + eps)
    n_tokens: int  # real tokens that entered the batch statistics

    @property
    def real(self) -> torch.Tensor:
        """(B, T) bool, True for a real (non-padded) token."""
        B, T, _ = self.x.shape
        if self.padding_mask is None:
            return torch.ones(B, T, dtype=torch.bool, device=self.x.device)
        return ~self.padding_mask


def norm_statistics(
    x: torch.Tensor, padding_mask: torch.Tensor | None = None, *, eps: float = 1e-5
) -> NormStatistics:
    """LayerNorm and BatchNorm (training-mode statistics, no affine) of x (B, T, C) or (T, C).

    padding_mask: (B, T) bool, True where a position is padding; those positions are left out
    of BatchNorm's per-feature statistics (LayerNorm's per-token statistics never mix tokens).
    """
    if x.dim() == 2:
        x = x[None]
        if padding_mask is not None and padding_mask.dim() == 1:
            padding_mask = padding_mask[None]
    if x.dim() != 3:
        raise ValueError(f"x must have shape (B, T, C) or (T, C), got {tuple(x.shape)}")
    if not eps >= 0.0:
        raise ValueError(f"eps must be >= 0, got {eps!r}")
    B, T, C = x.shape
    if padding_mask is not None and (
        padding_mask.dtype != torch.bool or tuple(padding_mask.shape) != (B, T)
    ):
        raise ValueError(f"padding_mask must be a bool tensor of shape (B, T) = {(B, T)}")
    if not x.is_floating_point():
        x = x.float()
    out_dtype = x.dtype
    xd = x.double()  # (B, T, C) float64 for the arithmetic

    # LayerNorm: statistics over the feature axis, one pair per token
    layer_var, layer_mean = torch.var_mean(xd, dim=-1, correction=0)  # (B, T) each
    layer_normed = (xd - layer_mean[..., None]) / torch.sqrt(layer_var[..., None] + eps)

    # BatchNorm: statistics over the batch and time axes, one pair per feature
    flat = xd.reshape(B * T, C)  # (B*T, C)
    if padding_mask is not None:
        flat = flat[~padding_mask.reshape(B * T)]  # (N, C) real tokens only
    n = flat.shape[0]
    if n == 0:
        raise ValueError("every position is padding: BatchNorm has no token to average over")
    batch_var, batch_mean = torch.var_mean(flat, dim=0, correction=0)  # (C,) each
    batch_normed = (xd - batch_mean) / torch.sqrt(batch_var + eps)  # (B, T, C)

    def out(t: torch.Tensor) -> torch.Tensor:
        return t.to(out_dtype)

    return NormStatistics(
        x=x,
        padding_mask=padding_mask,
        eps=float(eps),
        layer_mean=out(layer_mean),
        layer_std=out(layer_var.sqrt()),
        layer_normed=out(layer_normed),
        batch_mean=out(batch_mean),
        batch_std=out(batch_var.sqrt()),
        batch_normed=out(batch_normed),
        n_tokens=int(n),
    )


@dataclass(frozen=True, eq=False)
class DropoutResult:
    """Dropout applied to attention weights (any shape, e.g. one head's (Tq, Tk))."""

    weights: torch.Tensor  # the input weights
    output: torch.Tensor  # training: weights * keep / (1 - p); eval: weights itself
    keep: torch.Tensor  # bool, same shape: True where a weight survived (all True in eval)
    p: float  # drop probability
    training: bool

    @property
    def scale(self) -> float:
        """The factor kept weights are multiplied by: 1 / (1 - p) in training, else 1."""
        return 1.0 / (1.0 - self.p) if self.training else 1.0

    @property
    def dropped_fraction(self) -> float:
        """Share of entries that were dropped (about p in training, 0 in eval)."""
        return float((~self.keep).float().mean()) if self.keep.numel() else 0.0

    @property
    def row_sums(self) -> torch.Tensor:
        """(..., Tq) sums over keys: 1 before dropout; after it, 1 only on average."""
        return self.output.sum(dim=-1)


def attention_dropout(
    weights: torch.Tensor, p: float, *, training: bool = True, seed: int = 0
) -> DropoutResult:
    """Seeded (inverted) dropout on attention weights, as `F.dropout` applies it in training.

    Training: each entry is kept with probability 1 - p and then scaled by 1 / (1 - p), so
    every entry keeps its expected value (and each row still sums to 1 on average).
    Eval: nothing is dropped or scaled; `output` is `weights` itself.
    """
    if not 0.0 <= p < 1.0:
        raise ValueError(f"dropout p must be in [0, 1), got {p!r}")
    if not training or p == 0.0:
        keep = torch.ones_like(weights, dtype=torch.bool)
        return DropoutResult(
            weights=weights, output=weights, keep=keep, p=float(p), training=bool(training)
        )
    g = torch.Generator(device=weights.device).manual_seed(seed)
    u = torch.rand(weights.shape, generator=g, device=weights.device)  # uniform [0, 1)
    keep = u >= p  # P(keep) = 1 - p
    output = weights * (keep.to(weights.dtype) / (1.0 - p))
    return DropoutResult(weights=weights, output=output, keep=keep, p=float(p), training=True)
