"""What the encoder-decoder page shows, computed from an `EncoderDecoder` and its traces.

Sentences enter as token embeddings plus (optionally) the sinusoidal positional encoding,
`embed_tokens(tokens, d_model, seed, positional=...)`, through `forward_embeddings`, so the
page's vectors are the ones every other page uses for the same sentence and seed.

Three results, each small (numbers the page draws, not the whole trace):
- `PairAttention`: one source / target pair (B = 1): the encoder self-attention, the decoder's
  masked self-attention and the cross-attention weights of every layer;
- `PaddedBatch`: a batch of sentences of different lengths, padded to the longest, through the
  encoder: the padding mask, one layer's self-attention (padded keys get exactly 0 weight),
  the same layer with padded queries masked too (rows with no key: zeros, never NaN), and the
  layer's first Add & Norm (the residual sum, LayerNorm against BatchNorm on that batch);
- `DropoutComparison`: one head's weights through seeded attention dropout, training against eval.

Shapes: L layers, B batch, nh heads, S source tokens, T target tokens, P the padded length,
C = d_model, N the real (non-padded) tokens of a batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..layer.embed import embed_tokens
from ..layer.masks import padding_mask as make_padding_mask
from ..transformer.model import EncoderDecoder
from .addnorm import DropoutResult, NormStatistics, attention_dropout, norm_statistics


def _owned(t: torch.Tensor) -> torch.Tensor:
    """A detached copy that owns its storage (a view would pickle the whole trace tensor)."""
    return t.detach().clone()


def _check_tokens(tokens, name: str) -> list[str]:
    tokens = list(tokens)
    if not tokens:
        raise ValueError(f"the {name} has no tokens: type at least one word")
    return tokens


def sentence_embeddings(model: EncoderDecoder, tokens, *, positional: bool = True) -> torch.Tensor:
    """(T, C) the vectors a sentence enters the model with: E (+ PE), seeded by the model's seed."""
    cfg = model.config
    return embed_tokens(list(tokens), cfg.d_model, cfg.seed, positional=positional)


# --- one pair --------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class PairAttention:
    """One source / target pair through every layer: the three kinds of attention."""

    src_tokens: tuple[str, ...]  # S
    tgt_tokens: tuple[str, ...]  # T
    encoder_self: torch.Tensor  # (L, nh, S, S) encoder self-attention weights per layer
    decoder_self: torch.Tensor  # (L, nh, T, T) decoder masked (causal) self-attention weights
    decoder_cross: torch.Tensor  # (L, nh, T, S) cross-attention: target queries, source keys
    causal: torch.Tensor  # (T, T) bool, True where a target query may attend (on/below diagonal)

    @property
    def n_layers(self) -> int:
        return self.encoder_self.shape[0]

    def above_diagonal_max(self, layer: int) -> float:
        """The largest decoder self-attention weight above the diagonal (0.0: exactly none)."""
        w = self.decoder_self[layer]  # (nh, T, T)
        upper = w.masked_select(~self.causal)  # every head's entries above the diagonal
        return float(upper.max()) if upper.numel() else 0.0

    def row_sum_range(self, kind: str, layer: int) -> tuple[float, float]:
        """(min, max) over heads and queries of the row sums of one attention of one layer."""
        w = {
            "encoder_self": self.encoder_self,
            "decoder_self": self.decoder_self,
            "decoder_cross": self.decoder_cross,
        }[kind][layer].double()  # (nh, Tq, Tk)
        sums = w.sum(dim=-1)  # (nh, Tq)
        return float(sums.min()), float(sums.max())


@torch.inference_mode()
def pair_attention(
    model: EncoderDecoder, src_tokens, tgt_tokens, *, positional: bool = True
) -> PairAttention:
    """Run one source / target pair (teacher forcing: the whole target at once, causal mask)."""
    src_tokens = _check_tokens(src_tokens, "source sentence")
    tgt_tokens = _check_tokens(tgt_tokens, "target sentence")
    src_x = sentence_embeddings(model, src_tokens, positional=positional)[None]  # (1, S, C)
    tgt_x = sentence_embeddings(model, tgt_tokens, positional=positional)[None]  # (1, T, C)
    tr = model.forward_embeddings(src_x, tgt_x, tgt_mask="causal")
    T = len(tgt_tokens)
    return PairAttention(
        src_tokens=tuple(src_tokens),
        tgt_tokens=tuple(tgt_tokens),
        encoder_self=torch.stack([a.weights[0] for a in tr.encoder_self]),  # (L, nh, S, S)
        decoder_self=torch.stack([a.weights[0] for a in tr.decoder_self]),  # (L, nh, T, T)
        decoder_cross=torch.stack([a.weights[0] for a in tr.decoder_cross]),  # (L, nh, T, S)
        causal=torch.ones(T, T, dtype=torch.bool).tril(),  # (T, T)
    )


# --- a padded batch through the encoder ------------------------------------------------------
@dataclass(frozen=True, eq=False)
class PaddedBatch:
    """B sentences padded to P tokens, through the encoder up to one layer."""

    tokens: tuple[tuple[str, ...], ...]  # the B sentences, unpadded
    layer: int
    norm_first: bool
    padding_mask: torch.Tensor  # (B, P) bool, True = padding
    weights: torch.Tensor  # (B, nh, P, P) the layer's self-attention, padded keys masked
    alone_max_diff: float  # max |a sentence's weights run alone - its block in the batch|
    query_masked: torch.Tensor  # (B, nh, P, P) the same, with padded queries masked too
    empty_rows: torch.Tensor  # (B, nh, P) bool: queries left with no key (rows all 0)
    plain_softmax_nan_rows: int  # rows that a plain softmax of those logits makes NaN
    residual: torch.Tensor  # (B, P, C) "Add": x + SelfAttn(x) (pre-norm: x + SelfAttn(LN(x)))
    model_normed: torch.Tensor  # (B, P, C) "Norm": the layer's own LayerNorm of the residual
    norms: NormStatistics  # LayerNorm and BatchNorm of the residual (padding left out)
    layer_out: NormStatistics  # statistics OF the LayerNorm output (per token, per feature)
    batch_out: NormStatistics  # statistics OF the BatchNorm output (per token, per feature)

    @property
    def real(self) -> torch.Tensor:
        """(B, P) bool, True for a real token."""
        return ~self.padding_mask

    @property
    def n_padded(self) -> int:
        return int(self.padding_mask.sum())

    @property
    def padded_key_max(self) -> float:
        """The largest weight any query (any head) gives a padded key: 0.0 when none does."""
        pad_keys = self.padding_mask[:, None, None, :].expand_as(self.weights)  # (B, nh, P, P)
        vals = self.weights.masked_select(pad_keys)
        return float(vals.max()) if vals.numel() else 0.0

    @property
    def nan_count(self) -> int:
        """NaN entries in both weight tensors (0: fully masked rows are zeros, not NaN)."""
        return int(self.weights.isnan().sum() + self.query_masked.isnan().sum())

    @property
    def empty_row_max(self) -> float:
        """The largest |weight| in a row with no key left (0.0: those rows are all zero)."""
        rows = self.query_masked[self.empty_rows]  # (n_empty, P)
        return float(rows.abs().max()) if rows.numel() else 0.0

    def real_rows(self, x: torch.Tensor) -> torch.Tensor:
        """(B, P, ...) -> (N, ...): the real tokens, sentence after sentence."""
        return x[self.real]

    @property
    def row_labels(self) -> list[tuple[int, str]]:
        """(sentence, token) of each real row, in the order of `real_rows`."""
        return [(b, tok) for b, sent in enumerate(self.tokens) for tok in sent]

    @property
    def model_norm_max_diff(self) -> float:
        """max |the layer's own LayerNorm - norm_statistics' LayerNorm| over real tokens
        (the LayerNorm's scale is 1 and shift 0 as initialised, so the two agree to rounding)."""
        d = self.real_rows(self.model_normed).double() - self.real_rows(self.norms.layer_normed)
        return float(d.abs().max())


def padded_embeddings(
    model: EncoderDecoder, sentences, *, positional: bool = True
) -> tuple[torch.Tensor, torch.Tensor]:
    """x (B, P, C) with zero vectors at padding, and the padding mask (B, P), True = padding."""
    sentences = [_check_tokens(s, "sentence") for s in sentences]
    if not sentences:
        raise ValueError("a batch needs at least one sentence")
    lengths = [len(s) for s in sentences]
    P, C = max(lengths), model.config.d_model
    x = torch.zeros(len(sentences), P, C)  # (B, P, C)
    for b, sent in enumerate(sentences):
        x[b, : len(sent)] = sentence_embeddings(model, sent, positional=positional)
    return x, make_padding_mask(lengths, P)


@torch.inference_mode()
def padded_batch(
    model: EncoderDecoder, sentences, layer: int, *, positional: bool = True
) -> PaddedBatch:
    """The batch `sentences` (lists of tokens) through the encoder, seen at layer `layer`."""
    n_layers = model.config.n_layers
    if not 0 <= layer < n_layers:
        raise ValueError(f"layer must be in [0, {n_layers - 1}], got {layer!r}")
    x, pad = padded_embeddings(model, sentences, positional=positional)  # (B, P, C), (B, P)
    enc = model.encode(x, src_key_padding_mask=pad)
    tr = enc.layers[layer]
    weights = tr.self_attn.weights  # (B, nh, P, P)

    # each sentence alone (no padding at all): the same weights on its real block
    diff = 0.0
    for b, sent in enumerate(sentences):
        n = len(sent)
        alone = model.encode(x[b : b + 1, :n]).layers[layer].self_attn.weights[0]  # (nh, n, n)
        diff = max(diff, float((alone - weights[b, :, :n, :n]).abs().max()))

    # padded queries masked too: a padded query has no key left
    real = ~pad  # (B, P)
    both = real[:, :, None] & real[:, None, :]  # (B, P, P) True where query and key are real
    lyr = model.encoder_layers[layer]
    attn_in = tr.attn_in  # (B, P, C) what the attention saw
    qm = lyr.self_attn(attn_in, mask=both, key_padding_mask=pad)
    plain = torch.softmax(qm.masked_scores, dim=-1)  # (B, nh, P, P) a softmax that knows no mask
    nan_rows = int(plain.isnan().any(dim=-1).sum())

    norms = norm_statistics(tr.attn_residual, pad)
    return PaddedBatch(
        tokens=tuple(tuple(s) for s in sentences),
        layer=layer,
        norm_first=tr.norm_first,
        padding_mask=pad,
        weights=_owned(weights),
        alone_max_diff=diff,
        query_masked=_owned(qm.weights),
        empty_rows=_owned(qm.empty_rows),
        plain_softmax_nan_rows=nan_rows,
        residual=_owned(tr.attn_residual),
        model_normed=_owned(tr.attn_normed),
        norms=norms,
        layer_out=norm_statistics(norms.layer_normed, pad),
        batch_out=norm_statistics(norms.batch_normed, pad),
    )


# --- dropout on one head ---------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class DropoutComparison:
    """One head's attention weights (Tq, Tk) with dropout in training mode and in eval mode."""

    train: DropoutResult  # output = weights * keep / (1 - p)
    eval: DropoutResult  # output = weights

    @property
    def n_dropped(self) -> int:
        return int((~self.train.keep).sum())

    @property
    def n_total(self) -> int:
        return self.train.keep.numel()

    def kept_ratio_range(self) -> tuple[float, float]:
        """(min, max) of training output / eval weight over kept entries: both 1 / (1 - p)."""
        kept = self.train.keep & (self.eval.output > 0)
        if not bool(kept.any()):
            return float("nan"), float("nan")
        ratio = self.train.output.double()[kept] / self.eval.output.double()[kept]
        return float(ratio.min()), float(ratio.max())


def dropout_comparison(weights: torch.Tensor, p: float, seed: int) -> DropoutComparison:
    """Seeded dropout of `weights` (Tq, Tk) with probability p, against eval mode."""
    return DropoutComparison(
        train=attention_dropout(weights, p, training=True, seed=seed),
        eval=attention_dropout(weights, p, training=False, seed=seed),
    )
