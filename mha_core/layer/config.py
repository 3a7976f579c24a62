"""Settings for the attention core: one frozen dataclass, validated on construction."""

from __future__ import annotations

from dataclasses import dataclass

SCORINGS = ("dot", "additive")
MASKS = ("none", "causal")


def valid_head_counts(d_model: int, max_heads: int | None = None) -> list[int]:
    """Every n_heads that divides d_model (optionally capped), smallest first."""
    if d_model < 1:
        return []
    cap = d_model if max_heads is None else min(max_heads, d_model)
    return [h for h in range(1, cap + 1) if d_model % h == 0]


# --- one validator per setting: every module that takes the setting calls these --------------
def _is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_d_model(d_model: int) -> None:
    if not _is_whole(d_model) or d_model < 1:
        raise ValueError(f"d_model must be a positive whole number, got {d_model!r}")


def check_heads(d_model: int, n_heads: int) -> None:
    """Raise ValueError with a learner-readable message for an invalid (d_model, n_heads)."""
    check_d_model(d_model)
    if not _is_whole(n_heads) or n_heads < 1:
        raise ValueError(f"n_heads must be a positive whole number, got {n_heads!r}")
    if d_model % n_heads:
        raise ValueError(
            f"d_model={d_model} is not divisible by n_heads={n_heads}: "
            "each head gets d_model / n_heads dimensions"
        )


def head_size(d_model: int, n_heads: int) -> int:
    """d_k = d_model / n_heads: the dimensions of one head (checked: n_heads divides d_model)."""
    check_heads(d_model, n_heads)
    return d_model // n_heads


def check_scoring(scoring: str) -> None:
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, got {scoring!r}")


def check_mask_name(mask: str) -> None:
    if mask not in MASKS:
        raise ValueError(f"mask must be one of {MASKS}, got {mask!r}")


def check_dropout(p: float) -> None:
    if not 0.0 <= p < 1.0:
        raise ValueError(f"dropout must be in [0, 1), got {p!r}")


def check_temperature(temperature: float) -> None:
    if not (temperature > 0.0 and temperature < float("inf")):
        raise ValueError(f"temperature must be positive and finite, got {temperature!r}")


def check_seed(seed: int) -> None:
    if not _is_whole(seed) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")


@dataclass(frozen=True)
class AttentionConfig:
    """Everything that decides what one multi-head attention layer computes."""

    d_model: int = 64
    n_heads: int = 4
    scale: bool = True  # divide scores by sqrt(d_k)
    scoring: str = "dot"  # "dot" (scaled dot-product) or "additive" (Bahdanau)
    mask: str = "none"  # "none" or "causal"
    positional: bool = True  # add sinusoidal positional encoding to the embeddings
    dropout: float = 0.0  # on the attention weights, training mode only
    temperature: float = 1.0  # extra softmax temperature on the (scaled) scores
    seed: int = 0

    def __post_init__(self) -> None:
        check_heads(self.d_model, self.n_heads)
        check_scoring(self.scoring)
        check_mask_name(self.mask)
        check_dropout(self.dropout)
        check_temperature(self.temperature)
        check_seed(self.seed)

    @property
    def d_k(self) -> int:
        """Dimensions per head: d_model / n_heads."""
        return head_size(self.d_model, self.n_heads)
