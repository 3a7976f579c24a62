"""Deterministic toy token embeddings: the same (token, seed) always gives the same vector."""

from __future__ import annotations

import hashlib

import torch

from .config import check_d_model
from .positional import sinusoidal_encoding


def _token_seed(token: str, seed: int) -> int:
    digest = hashlib.blake2b(f"{seed}\x1f{token}".encode("utf-8", "surrogatepass"), digest_size=8)
    return int.from_bytes(digest.digest(), "little") & 0x7FFF_FFFF_FFFF_FFFF


def token_embedding(token: str, d_model: int, seed: int = 0) -> torch.Tensor:
    """One token's vector (d_model,): standard normal, then standardised to mean 0, variance 1."""
    g = torch.Generator().manual_seed(_token_seed(token, seed))
    x = torch.randn(d_model, generator=g, dtype=torch.float64)
    if d_model > 1:
        x = (x - x.mean()) / x.std(unbiased=False)
    return x.float()


def embed_tokens(
    tokens: list[str], d_model: int, seed: int = 0, *, positional: bool = False
) -> torch.Tensor:
    """Embeddings (T, d_model) of `tokens`, plus the sinusoidal positional encoding if asked."""
    check_d_model(d_model)
    if not tokens:
        return torch.zeros(0, d_model)
    cache: dict[str, torch.Tensor] = {}
    rows = []
    for tok in tokens:
        if tok not in cache:
            cache[tok] = token_embedding(tok, d_model, seed)
        rows.append(cache[tok])
    x = torch.stack(rows)  # (T, C)
    if positional:
        x = x + sinusoidal_encoding(len(tokens), d_model)
    return x
