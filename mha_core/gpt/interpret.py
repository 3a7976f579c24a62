"""Reading a trained decoder: head scores, direct logit attribution (and the next token after
typed text, its logit split that way), the attention sink.

Head scores follow TransformerLens's head detector (`detect_head`): a head's score for a
pattern is the attention it puts on the pattern's target keys. Here, for every query row that
HAS a target, the weight on all its target keys is summed, and the sums are averaged over those
rows (TransformerLens averages over all rows of one prompt, so rows without a target dilute it;
on our sequences that would cap a perfect head below 1). A head that does exactly the pattern
scores 1.0, one that never does scores 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..transformer.symbols import InputProblem, read_symbols
from ..transformer.threads import TRAIN_THREADS, torch_threads
from .model import DecoderOnly
from .tasks import InductionTask

HEAD_KINDS = ("previous", "duplicate", "induction")


def target_pattern(tokens: torch.Tensor, kind: str) -> torch.Tensor:
    """(B, T, T) bool: True at (query i, key j) if j is the pattern's target for i.

    - previous: j = i - 1 (rows i >= 1);
    - duplicate: j < i and tokens[j] == tokens[i] (an earlier occurrence of the same token);
    - induction: j = k + 1 <= i for an earlier occurrence k < i of tokens[i] (the token that
      followed it: what an induction head copies).
    """
    if kind not in HEAD_KINDS:
        raise ValueError(f"kind must be one of {HEAD_KINDS}, got {kind!r}")
    if tokens.dim() == 1:
        tokens = tokens[None]
    B, T = tokens.shape
    i = torch.arange(T)[:, None]  # (T, 1) queries
    j = torch.arange(T)[None, :]  # (1, T) keys
    if kind == "previous":
        return (j == i - 1).expand(B, T, T)
    dup = (tokens[:, :, None] == tokens[:, None, :]) & (j < i)  # (B, T, T)
    if kind == "duplicate":
        return dup
    ind = torch.zeros_like(dup)
    ind[:, :, 1:] = dup[:, :, :-1]  # key k + 1 for an occurrence at k
    return ind & (j <= i)


def head_scores(weights: torch.Tensor | np.ndarray, tokens: torch.Tensor, kind: str) -> np.ndarray:
    """(L, nh) mean attention on the pattern's targets (see `target_pattern`).

    `weights` (B, L, nh, T, T) or (L, nh, T, T) for a single sequence `tokens` (T,).
    For each query row with at least one target, the weight summed over its target keys;
    the mean over all such rows of the batch. NaN for a pattern with no row at all.
    """
    w = torch.as_tensor(weights).float()
    if w.dim() == 4:
        w = w[None]
    pattern = target_pattern(tokens, kind)  # (B, T, T)
    if w.dim() != 5 or w.shape[0] != pattern.shape[0] or w.shape[-1] != pattern.shape[-1]:
        raise ValueError(
            f"weights {tuple(w.shape)} do not match tokens {tuple(pattern.shape[:2])}: "
            "expected (B, L, nh, T, T)"
        )
    rows = pattern.any(dim=-1)  # (B, T) queries with a target
    n = int(rows.sum())
    if n == 0:
        return np.full(w.shape[1:3], np.nan)
    on_target = (w * pattern[:, None, None].float()).sum(dim=-1)  # (B, L, nh, T)
    score = (on_target * rows[:, None, None].float()).sum(dim=(0, 3)) / n  # (L, nh)
    return score.numpy().astype(np.float64)


def sink_share(weights: torch.Tensor | np.ndarray) -> np.ndarray:
    """(L, nh) the mean weight on key 0 over query rows 1..T-1 (the attention sink).

    `weights` (L, nh, T, T) or (B, L, nh, T, T) (averaged over B too). Row 0 is left out: under
    a causal mask it can only look at position 0.
    """
    w = torch.as_tensor(weights).double()
    if w.dim() == 4:
        w = w[None]
    if w.dim() != 5 or w.shape[-1] < 2:
        raise ValueError(f"weights must be (L, nh, T, T) with T >= 2, got {tuple(w.shape)}")
    return w[..., 1:, 0].mean(dim=(0, 3)).numpy()  # (L, nh)


@dataclass(frozen=True, eq=False)
class LogitAttribution:
    """The logits of an attention-only model split into direct contributions (all numpy).

    With the final LayerNorm's scale frozen at its value on the full residual (as
    TransformerLens's `apply_ln_to_stack` does), LN_f is linear in the residual, so
        logits = embedding + heads.sum((0, 1)) + out_bias.sum(0) + ln_bias
    exactly (up to float rounding); `total()` adds the parts back up.
    """

    embedding: np.ndarray  # (T, V) token + position embedding through LN_f and the unembedding
    heads: np.ndarray  # (L, nh, T, V) each head's output (its value bias included)
    out_bias: np.ndarray  # (L, T, V) each attention's output-projection bias b_O
    ln_bias: np.ndarray  # (T, V) LN_f's bias through the unembedding
    logits: np.ndarray  # (T, V) the model's logits

    def total(self) -> np.ndarray:
        """(T, V) the sum of all parts."""
        return self.embedding + self.heads.sum((0, 1)) + self.out_bias.sum(0) + self.ln_bias


@torch.no_grad()
def direct_logit_attribution(model: DecoderOnly, tokens: torch.Tensor) -> LogitAttribution:
    """Split one sequence's logits (tokens (T,) or (1, T)) into embedding, heads and biases.

    Only for an attention-only model (no MLP): every part then writes directly to the residual
    stream. LN_f(r) = (r - mean(r)) / sigma(r) * g + b with sigma frozen: each part p adds
    (p - mean(p)) / sigma * g to LN_f's output, and the logits are that @ W_E^T.
    """
    if model.config.mlp:
        raise ValueError("direct logit attribution here is for attention-only models (mlp=False)")
    out = model(tokens if tokens.dim() == 2 else tokens[None])
    if out.tokens.shape[0] != 1:
        raise ValueError("attribute one sequence at a time")
    ln, W_E = model.ln_f, model.wte.weight  # (C,), (V, C)
    r = out.residual[0]  # (T, C)
    sigma = (r.var(dim=-1, unbiased=False, keepdim=True) + ln.eps).sqrt()  # (T, 1) frozen

    def through(p: torch.Tensor) -> np.ndarray:  # (..., T, C) -> (..., T, V)
        return (((p - p.mean(dim=-1, keepdim=True)) / sigma * ln.weight) @ W_E.T).numpy()

    heads, biases = [], []
    for block, tr in zip(model.blocks, out.blocks, strict=True):
        nh, hs = block.attn.n_heads, block.attn.d_k
        W_O = block.attn.out_proj.weight.view(-1, nh, hs)  # (C, nh, hs) head h's columns
        per_head = torch.einsum("htd,chd->htc", tr.attn.head_outputs[0], W_O)  # (nh, T, C)
        heads.append(through(per_head))
        b_O = block.attn.out_proj.bias.expand_as(r)  # (T, C)
        biases.append(through(b_O))
    return LogitAttribution(
        embedding=through(out.embedding[0]),
        heads=np.stack(heads),
        out_bias=np.stack(biases),
        ln_bias=(ln.bias @ W_E.T).expand(r.shape[0], -1).numpy(),
        logits=out.logits[0].numpy(),
    )


@torch.no_grad()
def model_sink_share(
    model: DecoderOnly, task: InductionTask, n: int = 128, seed: int = 4321
) -> np.ndarray:
    """(L, nh) `sink_share` of a trained decoder (key 0 is <bos>) on n of its task's sequences."""
    batch = task.sample(n, seed)
    with torch_threads(TRAIN_THREADS):
        return sink_share(model(batch.tokens).weights)


@torch.no_grad()
def pretrained_sink_share(model, text: str) -> np.ndarray:
    """(L, nh) `sink_share` of a pretrained encoder (MiniLM: key 0 is [CLS]) on one text.

    `model` is a `mha_core.pretrained.PretrainedModel`; its attention is bidirectional, so the
    first row is left out only to match `sink_share`.
    """
    return sink_share(model.trace(text).attentions)


# --- the next token after typed text -----------------------------------------------------------
@dataclass(frozen=True, eq=False)
class NextToken:
    """The model's next-token prediction after a typed sequence, and where its logit comes from."""

    tokens: tuple[str, ...]  # <bos>, then the typed symbols
    top: tuple[tuple[str, float], ...]  # the top-k (symbol, probability)
    chosen: str  # the token whose logit is split (the top-1)
    parts: dict[str, float]  # "embedding", "L{l}H{h}", "biases": direct contributions
    logit: float  # the chosen token's logit
    attention: np.ndarray  # (L, nh, T, T)

    @property
    def parts_sum(self) -> float:
        return float(sum(self.parts.values()))


@torch.no_grad()
def next_token(
    model: DecoderOnly, task: InductionTask, text: str, k: int = 5
) -> NextToken | InputProblem:
    """Top-k next tokens after the typed sequence, and the top token's logit split into the
    embedding path, every head's direct contribution and the biases (they add up to it).

    The text is one character per symbol, whitespace skipped (no other separator), at most
    seq_len - 1 symbols (after <bos>); otherwise the problem with it is returned."""
    symbols = read_symbols(text, task.symbols, task.seq_len - 1, separators="")
    if isinstance(symbols, InputProblem):
        return symbols
    ids = task.encode(symbols)  # (T,)
    with torch_threads(TRAIN_THREADS):
        parts = direct_logit_attribution(model, ids)
        weights = model(ids).weights[0].numpy()  # (L, nh, T, T)
    logits = torch.from_numpy(parts.logits[-1])  # (V,) after the last typed symbol
    logits[0] = float("-inf")  # <bos> is never a next symbol
    probs = torch.softmax(logits, dim=-1)  # (V,)
    top = torch.topk(probs, k)
    vocab = task.vocab
    chosen = int(top.indices[0])
    L, nh = parts.heads.shape[:2]
    split = {"embedding": float(parts.embedding[-1, chosen])}
    for layer in range(L):
        for h in range(nh):
            split[f"L{layer}H{h}"] = float(parts.heads[layer, h, -1, chosen])
    split["biases"] = float(parts.out_bias[:, -1, chosen].sum() + parts.ln_bias[-1, chosen])
    return NextToken(
        tokens=(task.bos, *symbols),
        top=tuple((vocab[int(i)], float(p)) for i, p in zip(top.indices, top.values)),
        chosen=vocab[chosen],
        parts=split,
        logit=float(parts.logits[-1, chosen]),
        attention=weights,
    )
