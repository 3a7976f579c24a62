"""Masks beyond causal, and how far information travels through a stack of them.

All masks are (T, T) bool, True where query i may attend to key j (as in
`F.scaled_dot_product_attention`), and causal unless said otherwise.
- sliding window of w tokens (Longformer; Mistral 7B): i sees j for i - w < j <= i;
- attention sinks (Xiao et al. 2023, StreamingLLM: keep the first 4 tokens): the first k
  tokens stay visible to every query beside the window;
- global tokens (Longformer, BigBird): a global token sees every token, every token sees it;
  under the causal rule, every earlier token, and every later token sees it.

Receptive field: stacking layers composes the masks. Token i at layer L holds information from
token j if a chain i -> ... -> j of allowed steps exists: the boolean product M^L. A window of w
tokens reaches L (w - 1) tokens back after L layers (Jiang et al. 2023: with w = 4,096 and 32
layers Mistral 7B "can attend to about 131K tokens"). Under the causal rule a sink sees only the
sinks, so it adds itself to every reach and relays nothing else; a global token relays the
tokens before it, one layer later.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import torch


def _check_t(t: int) -> None:
    if not isinstance(t, int) or t < 0:
        raise ValueError(f"t must be a whole number >= 0, got {t!r}")


def sliding_window_mask(t: int, window: int, *, causal: bool = True) -> torch.Tensor:
    """(T, T): query i sees the w tokens i-w+1 .. i (and i .. i+w-1 too if not causal)."""
    _check_t(t)
    if not isinstance(window, int) or window < 1:
        raise ValueError(f"window must be a whole number >= 1, got {window!r}")
    pos = torch.arange(t)
    offset = pos[:, None] - pos[None, :]  # (T, T) i - j
    if causal:
        return (offset >= 0) & (offset < window)
    return offset.abs() < window


def attention_mask(
    t: int,
    *,
    window: int | None = None,
    n_sinks: int = 0,
    global_tokens: Sequence[int] = (),
    causal: bool = True,
) -> torch.Tensor:
    """(T, T) one mask from the pieces: a window (None: every token), sinks and global tokens.

    The causal rule (no key after the query) applies to everything when `causal` is True.
    """
    _check_t(t)
    if not isinstance(n_sinks, int) or n_sinks < 0:
        raise ValueError(f"n_sinks must be a whole number >= 0, got {n_sinks!r}")
    bad = [g for g in global_tokens if not 0 <= g < t]
    if bad:
        raise ValueError(f"global tokens must be positions 0 .. {t - 1}, got {bad}")
    if window is None:
        allowed = torch.ones(t, t, dtype=torch.bool)
    else:
        allowed = sliding_window_mask(t, window, causal=False)
    allowed[:, :n_sinks] = True  # sinks: the first tokens stay visible
    g = torch.zeros(t, dtype=torch.bool)
    g[list(global_tokens)] = True
    allowed |= g[None, :] | g[:, None]  # global tokens see and are seen by every token
    # (causal below: every earlier token, and every later one)
    if causal:
        allowed &= torch.ones(t, t, dtype=torch.bool).tril()
    return allowed


class ReceptiveField(NamedTuple):
    """Which tokens can reach which, layer after layer."""

    reach: torch.Tensor  # (L, T, T) bool: after layer l+1, query i holds information from j
    # (L,) max over queries of i - (earliest j it reaches), j not one of the `special` tokens
    farthest_back: tuple[int, ...]
    visible: tuple[int, ...]  # (L,) how many tokens the last query reaches


def receptive_field(
    mask: torch.Tensor, n_layers: int, special: Sequence[int] = ()
) -> ReceptiveField:
    """Compose a (T, T) mask over n_layers: reach_1 = M, reach_l = reach_(l-1) M (boolean).

    Each layer's mask must let a token see itself (the residual stream carries it along), so
    that what a token reached stays reached. `special` (sinks, global tokens): every query may
    see them directly, so "farthest back" counts the other tokens only; what such a token
    relays from the tokens it sees is counted, as any other chain.
    """
    if mask.dim() != 2 or mask.shape[0] != mask.shape[1] or mask.dtype != torch.bool:
        raise ValueError("mask must be a square (T, T) bool tensor")
    if not isinstance(n_layers, int) or n_layers < 1:
        raise ValueError(f"n_layers must be a whole number >= 1, got {n_layers!r}")
    T = mask.shape[0]
    m = (mask | torch.eye(T, dtype=torch.bool)).float()  # (T, T) self always reachable
    reach = [m > 0]
    for _ in range(n_layers - 1):
        reach.append((reach[-1].float() @ m) > 0)  # (T, T) one more hop
    stack = torch.stack(reach)  # (L, T, T)
    pos = torch.arange(T)
    ordinary = torch.ones(T, dtype=torch.bool)
    ordinary[list(special)] = False
    back = []
    for r in reach:
        r = r & ordinary[None, :]
        earliest = torch.where(r, pos[None, :], T).min(dim=1).values  # (T,) first j reached
        back.append(int((pos - earliest).clamp(min=0).max()) if T else 0)  # T: none reached
    visible = tuple(int(r[-1].sum()) if T else 0 for r in reach)
    return ReceptiveField(reach=stack, farthest_back=tuple(back), visible=visible)


def window_reach(window: int, n_layers: int) -> int:
    """Closed form: tokens back that a window of w reaches after L layers, L (w - 1)."""
    if window < 1 or n_layers < 1:
        raise ValueError("window and n_layers must be >= 1")
    return n_layers * (window - 1)
