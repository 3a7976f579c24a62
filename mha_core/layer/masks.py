"""Attention masks. `mask`: bool, True where a query MAY attend to a key (as in
`F.scaled_dot_product_attention`); `key_padding_mask`: bool (B, Tk), True where a key is PADDING
(as in `nn.MultiheadAttention`)."""

from __future__ import annotations

import torch


def causal_mask(t_q: int, t_k: int | None = None, device=None) -> torch.Tensor:
    """(Tq, Tk) bool, True on and below the diagonal: token i may look at tokens 0..i."""
    t_k = t_q if t_k is None else t_k
    return torch.ones(t_q, t_k, dtype=torch.bool, device=device).tril()


def padding_mask(lengths: list[int], t: int) -> torch.Tensor:
    """(B, T) bool, True where a position is padding (at or past each sequence's length)."""
    return torch.arange(t)[None, :] >= torch.tensor(lengths)[:, None]


def combine_masks(
    mask: torch.Tensor | str | None,
    key_padding_mask: torch.Tensor | None,
    B: int,
    Tq: int,
    Tk: int,
    device,
) -> torch.Tensor | None:
    """One boolean 'may attend' mask broadcastable to (B, nh, Tq, Tk), or None."""
    allowed = None
    if isinstance(mask, str):
        if mask == "causal":
            allowed = causal_mask(Tq, Tk, device)[None, None]  # (1, 1, Tq, Tk)
        elif mask != "none":
            raise ValueError(f"mask must be 'causal', 'none', a bool tensor or None; got {mask!r}")
    elif mask is not None:
        if mask.dtype != torch.bool:
            raise ValueError("mask must be a bool tensor, True where attending is allowed")
        allowed = mask
        while allowed.dim() < 4:
            allowed = allowed.unsqueeze(0)  # (Tq, Tk) -> (1, 1, Tq, Tk); (B, Tq, Tk) below
        if mask.dim() == 3:
            allowed = mask[:, None]  # (B, 1, Tq, Tk)
    if key_padding_mask is not None:
        if key_padding_mask.shape != (B, Tk):
            raise ValueError(f"key_padding_mask must have shape (B, Tk) = {(B, Tk)}")
        keep = ~key_padding_mask.bool()[:, None, None, :]  # (B, 1, 1, Tk)
        allowed = keep if allowed is None else allowed & keep
    return allowed


def mask_scores(att: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    """The scores with -inf where `allowed` is False.

    Inference: a bias of 0 (x + 0 = x) or -inf added in place (att is the caller's own fresh
    scores), ~3x faster than `masked_fill` at 512 tokens. With autograd, `masked_fill`: its
    gradient is 0 at masked pairs, so a row with no allowed key (NaN after the softmax) sends
    no NaN back to q and k."""
    if att.requires_grad:
        return att.masked_fill(~allowed, float("-inf"))
    bias = torch.zeros(allowed.shape, dtype=att.dtype, device=att.device)
    bias.masked_fill_(~allowed, float("-inf"))  # (B|1, 1, Tq, Tk)
    return att.add_(bias)


def softmax_buffer(att: torch.Tensor, out: torch.Tensor | None = None) -> torch.Tensor | None:
    """Where `torch.softmax(att, -1, out=...)` writes: a caller's buffer `out` (the pretrained
    model stacks its layers' weights that way; checked to fit), else `att` itself (in place: no
    second T x T buffer), or None (a new tensor) when autograd still needs the scores."""
    if out is not None:
        if out.shape != att.shape or out.dtype != att.dtype:
            raise ValueError(
                f"weights_out must have shape {tuple(att.shape)} and dtype {att.dtype}, "
                f"got {tuple(out.shape)} and {out.dtype}"
            )
        return out
    return None if att.requires_grad else att


def zero_empty_rows(weights: torch.Tensor, allowed: torch.Tensor | None) -> torch.Tensor:
    """Softmax weights with every row that had no allowed key set to 0: the softmax of an all
    -inf row is NaN (as in `nn.MultiheadAttention`); ours says "attends to nothing"."""
    if allowed is None:
        return weights
    empty = ~allowed.any(dim=-1)  # (B|1, 1|nh, Tq)
    if not bool(empty.any()):
        return weights
    if weights.requires_grad:
        return weights.masked_fill(empty[..., None], 0.0)
    return weights.masked_fill_(empty[..., None], 0.0)
