"""Reading the real model: the logit lens, each head's direct effect on a logit, head scores.

The final norm makes the logits a function of the whole residual stream x = e + sum of what
every attention and MLP added. RMSNorm(x) = g * x / rms(x): once 1/rms(x) at a position is
treated as a constant (its value on the full stream there), the logits are LINEAR in x, and
each part of the stream contributes its own share; the shares add up to the logit exactly (up
to float rounding). That is the linearisation of `head_attribution` (TransformerLens's
`apply_ln_to_stack` does the same for LayerNorm); it ignores how a part would change rms(x).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..gpt.interpret import head_scores, target_pattern
from ..layer.stats import head_stats
from .model import LlmModel, LlmTrace


def _position(trace: LlmTrace, position: int) -> int:
    T = trace.n_tokens
    if not -T <= position < T:
        raise ValueError(f"position must be in 0 .. {T - 1}, got {position}")
    return position % T


@dataclass(frozen=True, eq=False)
class LogitLens:
    """What each layer's residual stream would predict at one position (numpy)."""

    position: int
    token: int  # the token followed through the layers (default: the model's top prediction)
    top_ids: np.ndarray  # (L+1, k) the k most likely tokens after 0 .. L blocks
    top_probs: np.ndarray  # (L+1, k) their probabilities
    rank: np.ndarray  # (L+1,) the token's rank (0 = the most likely)
    prob: np.ndarray  # (L+1,) the token's probability


@torch.inference_mode()
def logit_lens(
    model: LlmModel, trace: LlmTrace, position: int = -1, token: int | None = None, k: int = 5
) -> LogitLens:
    """Each layer's residual stream at `position` through the final RMSNorm and the
    unembedding (nostalgebraist 2020): row 0 is the token embedding alone, row L the model's own
    output. `token` defaults to the model's top prediction there."""
    pos = _position(trace, position)
    h = trace.hidden_states[:, pos]  # (L+1, C)
    logits = model.logits_of(h)  # (L+1, V)
    probs = torch.softmax(logits, dim=-1)
    tok = int(logits[-1].argmax()) if token is None else int(token)
    if not 0 <= tok < logits.shape[-1]:
        raise ValueError(f"token must be in 0 .. {logits.shape[-1] - 1}, got {tok}")
    top = torch.topk(probs, k, dim=-1)
    rank = (logits > logits[:, tok : tok + 1]).sum(dim=-1)  # tokens strictly above it
    return LogitLens(
        position=pos,
        token=tok,
        top_ids=top.indices.numpy(),
        top_probs=top.values.double().numpy(),
        rank=rank.numpy(),
        prob=probs[:, tok].double().numpy(),
    )


@dataclass(frozen=True, eq=False)
class HeadAttribution:
    """Direct contributions to one logit (see the module's docstring for the linearisation)."""

    position: int
    token: int
    heads: np.ndarray  # (L, nh) each head: its output through its slice of W_O
    mlps: np.ndarray  # (L,) each MLP's output
    embedding: float  # the token embedding at the position
    logit: float  # the model's logit

    def total(self) -> float:
        """Embedding + heads + MLPs: equals `logit` (up to float rounding)."""
        return float(self.embedding + self.heads.sum() + self.mlps.sum())


@torch.inference_mode()
def head_attribution(
    model: LlmModel, trace: LlmTrace, position: int = -1, token: int | None = None
) -> HeadAttribution:
    """Each head's direct contribution to `token`'s logit at `position` (default: the model's
    top prediction): head h of layer l adds o_lh W_O[:, h]^T to the stream, o_lh its output
    (alpha V) there; times g / rms(x) with rms(x) frozen at the final stream's value at that
    position (the linearisation), dotted with the token's unembedding row. Needs a trace that
    kept the residual parts (residual=True) and the position among its rows (the defaults of
    `trace` keep both; `trace(ids, layers=(), rows=[position])` is the light way)."""
    cfg = model.config
    pos = _position(trace, position)
    kept_rows = (trace.rows == pos).nonzero()
    if trace.mlp_outputs is None or kept_rows.numel() == 0:
        raise ValueError(
            "head attribution needs a trace with residual=True that kept the position's row"
        )
    r = int(kept_rows[0, 0])
    x = trace.hidden_states[-1, pos]  # (C,) the final stream
    w_u = model.unembedding  # (V, C)
    tok = int((model.norm(x) @ w_u.T).argmax()) if token is None else int(token)
    if not 0 <= tok < w_u.shape[0]:
        raise ValueError(f"token must be in 0 .. {w_u.shape[0] - 1}, got {tok}")
    read = model.norm.weight * model.norm.inv_rms(x) * w_u[tok]  # (C,) g / rms(x) * W_U[tok]
    nh, hs = cfg.n_heads, cfg.head_size
    heads = torch.empty(cfg.n_layers, nh, dtype=torch.float64)
    for i, block in enumerate(model.blocks):
        o = trace.head_outputs[i, :, r]  # (nh, hs)
        W_O = block.attn.out_proj.weight.view(cfg.d_model, nh, hs)  # (C, nh, hs)
        per_head = torch.einsum("hd,chd->hc", o, W_O)  # (nh, C) what each head adds
        heads[i] = (per_head @ read).double()
    mlps = (trace.mlp_outputs[:, pos] @ read).double()  # (L,)
    emb = float(trace.hidden_states[0, pos] @ read)
    return HeadAttribution(
        position=pos,
        token=tok,
        heads=heads.numpy(),
        mlps=mlps.numpy(),
        embedding=emb,
        logit=float(model.norm(x) @ w_u[tok]),
    )


@dataclass(frozen=True, eq=False)
class LlmHeadScores:
    """One score per head (L, nh), each between 0 and 1 except the distance (in tokens)."""

    previous: np.ndarray  # on the text: weight on the token just before
    induction: np.ndarray  # on repeated random tokens: weight on the token after the earlier copy
    sink: np.ndarray  # on the text: weight on position 0 (rows 1 .. T-1)
    distance: np.ndarray  # on the text: mean attention distance sum_j w_ij |i - j|
    n_tokens: int  # tokens of the text
    induction_tokens: np.ndarray  # (1 + 2 n,) the sequence the induction score was read on

    def as_dict(self) -> dict[str, np.ndarray]:
        return {
            "previous": self.previous,
            "induction": self.induction,
            "sink": self.sink,
            "distance": self.distance,
        }


def induction_sequence(model: LlmModel, n: int = 50, seed: int = 0) -> torch.Tensor:
    """(1 + 2n,) the begin token, n random ordinary tokens, the same n again (Olsson et al.
    2022): a head that attends from the second copy to the token after the first copy is an
    induction head. Special tokens (<|im_start|>, ...) are never drawn."""
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a whole number >= 1, got {n!r}")
    special = set(model.tokenizer.tokenizer.get_added_tokens_decoder())
    ordinary = torch.tensor([i for i in range(model.config.vocab_size) if i not in special])
    g = torch.Generator().manual_seed(int(seed))
    r = ordinary[torch.randint(len(ordinary), (n,), generator=g)]  # (n,)
    bos = model.tokenizer.bos_id
    start = torch.tensor([] if bos is None else [bos], dtype=torch.long)
    return torch.cat((start, r, r))


def llm_head_scores(model: LlmModel, ids, *, n_random: int = 50, seed: int = 0) -> LlmHeadScores:
    """Scores of every head, with `mha_core.gpt`'s definitions (`head_scores`, `sink_share`)
    and the attention page's mean distance (`head_stats`): previous-token, sink share and
    distance on the text `ids`, induction on `induction_sequence(n_random, seed)`.
    Memory: the text's L x nh x T x T weights while it runs (283 MB at 512 tokens)."""
    text = model.trace(ids, layers=(), residual=False)
    w = text.attentions  # (L, nh, T, T)
    T = text.n_tokens
    nan = np.full(w.shape[:2], np.nan)
    seq = induction_sequence(model, n_random, seed)
    rep = model.trace(seq, layers=(), residual=False).attentions  # (L, nh, 1+2n, 1+2n)
    # the same definitions without whole-stack temporaries: previous-token layer by layer, and
    # sink_share's mean over rows 1..T-1 of the weight on key 0 read from the stack's column 0
    # (sink_share's float64 copy of the stack was 566 MB at 512 tokens)
    return LlmHeadScores(
        previous=np.concatenate([head_scores(x[None], text.ids, "previous") for x in w])
        if T > 1
        else nan,
        induction=head_scores(rep, seq, "induction"),
        sink=w[:, :, 1:, 0].double().mean(dim=-1).numpy() if T > 1 else nan,
        distance=np.stack([head_stats(layer).mean_distance for layer in w]),
        n_tokens=T,
        induction_tokens=seq.numpy(),
    )


@dataclass(frozen=True, eq=False)
class InductionHead:
    """The real model's strongest induction head on one repeated random sequence
    (`induction_sequence`), by the induction score of `head_scores` (Olsson et al. 2022)."""

    layer: int
    head: int
    score: float  # its induction score: weight on the token after the earlier copy, on average
    weights: np.ndarray  # (T, T) that head's attention on the sequence, T = 1 + 2n
    ids: np.ndarray  # (T,) the begin token, n random ordinary tokens, the same n again
    tokens: tuple[str, ...]  # (T,) the ids as text
    scores: np.ndarray  # (L, nh) every head's induction score on the sequence
    n: int  # the tokens of one copy
    rows: int  # the query rows the score averages over (those with an earlier occurrence)
    chance: float  # the score of a head with equal weights on every key it sees (causal)


def strongest_induction_head(model: LlmModel, n: int = 24, seed: int = 0) -> InductionHead:
    """The head with the highest induction score on `induction_sequence(model, n, seed)` (the
    first in (layer, head) order on a tie), with its attention on that sequence. One forward
    over 1 + 2n tokens (49 by default: ~0.2-0.5 s on a CPU core)."""
    seq = induction_sequence(model, n, seed)  # (T,)
    w = model.trace(seq, layers=(), residual=False).attentions  # (L, nh, T, T)
    scores = head_scores(w, seq, "induction")  # (L, nh)
    layer, head = (int(i) for i in np.unravel_index(np.nanargmax(scores), scores.shape))
    rows = int(target_pattern(seq, "induction").any(dim=-1).sum())
    T = seq.shape[0]
    even = torch.tril(torch.ones(T, T)) / torch.arange(1, T + 1)[:, None]  # (T, T) causal, equal
    chance = float(head_scores(even[None, None], seq, "induction")[0, 0])
    return InductionHead(
        layer=layer,
        head=head,
        score=float(scores[layer, head]),
        weights=w[layer, head].double().numpy().copy(),
        ids=seq.numpy(),
        tokens=tuple(model.tokenizer.token_texts(seq.tolist())),
        scores=scores,
        n=n,
        rows=rows,
        chance=chance,
    )
