"""Generation: our KV cache, the choice of the next token, and what each step returns.

The KV cache: a decoder's keys and values of earlier tokens never change (causal attention
never looks ahead), so each layer keeps them, (1, n_kv, T, hs) each after RoPE, and a new token
computes only its own q, k, v and attends over the cache. Memory: 2 x L x n_kv x hs x T x 4
bytes (float32): 2 x 30 x 3 x 64 x T x 4 = 46 kB a token for SmolLM2-135M.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch


class KVCache:
    """Every layer's keys and values so far (one sequence). Made per call, never shared."""

    def __init__(self, n_layers: int) -> None:
        self._kv: list[tuple[torch.Tensor, torch.Tensor] | None] = [None] * n_layers

    def layer(self, i: int) -> tuple[torch.Tensor, torch.Tensor] | None:
        """(k, v) of layer i, (1, n_kv, T, hs) each, or None while empty."""
        return self._kv[i]

    def set(self, i: int, k: torch.Tensor, v: torch.Tensor) -> None:
        self._kv[i] = (k, v)

    @property
    def length(self) -> int:
        """Tokens in the cache."""
        return 0 if self._kv[0] is None else self._kv[0][0].shape[2]

    @property
    def nbytes(self) -> int:
        return sum(k.nbytes + v.nbytes for k, v in filter(None, self._kv))


@dataclass(frozen=True)
class GenerationStep:
    """One generated token and the distribution it was chosen from."""

    index: int  # 0 for the first new token
    token: int  # the chosen id
    piece: str  # the text this token added to the answer ("" for the end-of-turn token)
    candidates: tuple[int, ...]  # the most likely ids, best first
    probs: tuple[float, ...]  # their probabilities: softmax(logits) when greedy, else the
    #                           distribution sampled from (temperature, top-k, top-p applied)
    eos: bool  # the end-of-turn token: the answer ends here

    @property
    def prob(self) -> float | None:
        """The chosen token's probability, if it is among the candidates."""
        return dict(zip(self.candidates, self.probs, strict=True)).get(self.token)


@dataclass(frozen=True)
class Generation:
    """An answer: the new ids (the end-of-turn token included when reached) and its text."""

    prompt: tuple[int, ...]
    ids: tuple[int, ...]
    text: str  # the new ids decoded, special tokens left out
    steps: tuple[GenerationStep, ...]
    stop_reason: str  # "eos", "length" (max_new_tokens) or "stopped" (asked to stop)


def check_sampling(max_new_tokens, temperature, top_k, top_p, n_candidates) -> None:
    if not isinstance(max_new_tokens, int) or max_new_tokens < 0:
        raise ValueError(f"max_new_tokens must be a whole number >= 0, got {max_new_tokens!r}")
    if not (isinstance(temperature, int | float) and math.isfinite(temperature)
            and temperature >= 0):
        raise ValueError(f"temperature must be >= 0 (0 = greedy), got {temperature!r}")
    if top_k is not None and (not isinstance(top_k, int) or top_k < 1):
        raise ValueError(f"top_k must be a whole number >= 1 or None, got {top_k!r}")
    if top_p is not None and not (isinstance(top_p, int | float) and 0 < top_p <= 1):
        raise ValueError(f"top_p must be in (0, 1] or None, got {top_p!r}")
    if not isinstance(n_candidates, int) or n_candidates < 1:
        raise ValueError(f"n_candidates must be a whole number >= 1, got {n_candidates!r}")


@torch.inference_mode()
def sampling_probs(
    logits: torch.Tensor, temperature: float, top_k: int | None, top_p: float | None
) -> torch.Tensor:
    """(V,) the distribution the next token is drawn from: softmax(logits / temperature) over
    the top_k most likely tokens and then the smallest set whose probability reaches top_p."""
    z = logits.float() / temperature
    if top_k is not None and top_k < z.numel():
        kth = torch.topk(z, top_k).values[-1]
        z = z.masked_fill(z < kth, float("-inf"))
    if top_p is not None and top_p < 1.0:
        sorted_z, order = torch.sort(z, descending=True)
        p = torch.softmax(sorted_z, dim=-1)
        before = torch.cumsum(p, dim=-1) - p  # probability of the better tokens
        drop = torch.zeros_like(z, dtype=torch.bool)
        drop[order] = before >= top_p  # keep a token while the better ones fall short of top_p
        z = z.masked_fill(drop, float("-inf"))
    return torch.softmax(z, dim=-1)


@torch.inference_mode()
def pick_token(
    logits: torch.Tensor,
    temperature: float,
    top_k: int | None,
    top_p: float | None,
    generator: torch.Generator,
    n_candidates: int,
) -> tuple[int, tuple[int, ...], tuple[float, ...]]:
    """The next token (greedy: the argmax, the first one on a tie) and the top candidates."""
    if temperature == 0:
        probs = torch.softmax(logits.float(), dim=-1)
        token = int(torch.argmax(logits))
    else:
        probs = sampling_probs(logits, temperature, top_k, top_p)
        token = int(torch.multinomial(probs, 1, generator=generator))
    top = torch.topk(probs, min(n_candidates, probs.numel()))
    return token, tuple(top.indices.tolist()), tuple(top.values.tolist())
