"""From a sentence and an AttentionConfig to its attention: the path every teaching page uses."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .attention import AttentionTrace, MultiHeadAttention
from .config import AttentionConfig
from .embed import embed_tokens


@dataclass(frozen=True, eq=False)
class SentenceAttention:
    """One sentence through one attention layer."""

    tokens: list[str]
    config: AttentionConfig
    x: torch.Tensor  # (T, C) embeddings (+ positional encoding when on)
    attention: AttentionTrace  # batch of one


def build_attention(config: AttentionConfig) -> MultiHeadAttention:
    """The seeded, eval-mode layer for `config` (same config -> same weights)."""
    layer = MultiHeadAttention(
        config.d_model,
        config.n_heads,
        scale=config.scale,
        scoring=config.scoring,
        dropout=config.dropout,
        seed=config.seed,
    )
    return layer.eval()


def run_attention(
    tokens: list[str], config: AttentionConfig, layer: MultiHeadAttention | None = None
) -> SentenceAttention:
    """Embed `tokens`, run one self-attention layer, return everything it computed."""
    if not tokens:
        raise ValueError("there are no tokens to attend over: type at least one word")
    layer = build_attention(config) if layer is None else layer
    x = embed_tokens(tokens, config.d_model, config.seed, positional=config.positional)
    with torch.inference_mode():
        attention = layer(x[None], mask=config.mask, temperature=config.temperature)
    return SentenceAttention(tokens=list(tokens), config=config, x=x, attention=attention)
