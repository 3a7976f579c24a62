"""Head ablation: how much the sentence embedding moves when one head's output is zeroed.

Shapes: L layers, nh heads, T tokens, C = d_model, hs = C / nh, B a batch of ablated copies.
Everything is computed on request and returned; nothing is stored on the model or the trace.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from ..pretrained.model import BertLayer, PretrainedModel
from .inputs import as_trace


def sentence_embedding(hidden: torch.Tensor) -> torch.Tensor:
    """(..., T, C) last hidden states -> (..., C): how all-MiniLM-L6-v2 is used as a sentence
    encoder (sentence-transformers' Transformer -> mean Pooling -> Normalize). One unpadded
    sequence: the attention mask is all ones, so every token (incl. [CLS] and [SEP]) counts."""
    return F.normalize(hidden.mean(dim=-2), p=2.0, dim=-1)  # (..., C)


def _layer_forward(layer: BertLayer, x: torch.Tensor, keep: torch.Tensor | None) -> torch.Tensor:
    """One BERT layer on a batch, head h's output scaled by keep[b, h].

    x (B|1, T, C), keep (B, nh) or None -> (B, T, C). The same arithmetic as `BertLayer.forward`
    (our `MultiHeadAttention` there, `F.scaled_dot_product_attention` here: the fused softmax(Q K^T
    / sqrt(hs)) V, with no T x T buffer kept for the batch). When x has one row and keep B rows,
    Q, K, V and the heads are computed once and shared.
    """
    mha = layer.attention
    _, T, C = x.shape
    q, k, v = mha.self_attention_heads(x)  # (B1, nh, T, hs) each, one fused projection
    y = F.scaled_dot_product_attention(q, k, v)  # (B1, nh, T, hs)
    if keep is not None:
        y = y * keep[:, :, None, None].to(y.dtype)  # (B, nh, T, hs) head h scaled by keep[:, h]
    B = y.shape[0]
    concat = y.transpose(1, 2).reshape(B, T, C)  # (B, T, C)
    x = layer.attention_norm(x + mha.out_proj(concat))  # (B, T, C) Add & Norm
    h = F.gelu(layer.intermediate(x))  # (B, T, 4C) exact erf GELU
    return layer.output_norm(x + layer.output(h))  # (B, T, C)


def _run_layers(
    model: PretrainedModel, x: torch.Tensor, start: int, keep: torch.Tensor
) -> torch.Tensor:
    """x (T, C), the input of layer `start`; keep (B, L, nh) -> last hidden states (B, T, C).

    Layer `start` runs its attention once for the whole batch (every copy has the same input
    there); each later layer runs the B copies as one batch."""
    h = x[None]  # (1, T, C)
    for i in range(start, model.n_layers):
        k = keep[:, i]  # (B, nh)
        h = _layer_forward(model.layers[i], h, None if bool((k == 1).all()) and i > start else k)
    return h  # (B, T, C)


def _distance(a: torch.Tensor, b: torch.Tensor) -> np.ndarray:
    """1 - cos(a, b) of vectors (..., C), in float64, as ||a/|a| - b/|b| ||^2 / 2: the same
    number without the cancellation of 1 - cos near 0, and exactly 0.0 when a equals b."""
    a = F.normalize(a.double(), dim=-1)  # (..., C)
    b = F.normalize(b.double(), dim=-1)  # (..., C)
    d = a - b  # (..., C)
    return (0.5 * (d * d).sum(dim=-1)).numpy()


def ablate_heads(model: PretrainedModel, trace_or_text, keep) -> np.ndarray:
    """(B,) 1 - cosine similarity between the sentence embedding with heads scaled by `keep`
    (B, L, nh), 0 = head zeroed, 1 = untouched, and the embedding with no head touched.

    The copies run as one batch from the first layer that any of them changes, on the trace's
    hidden states before it (the layers before run once, in the trace). The untouched
    embedding runs in the same batch through the same operations, so a row of ones gives
    exactly 0.0. A string is traced first.
    """
    trace = as_trace(model, trace_or_text)
    L, nh = model.n_layers, model.n_heads
    keep = torch.as_tensor(keep, dtype=trace.hidden_states.dtype)
    if keep.dim() != 3 or keep.shape[1:] != (L, nh) or keep.shape[0] < 1:
        raise ValueError(
            f"keep must be shaped (copies, {L}, {nh}): one factor per layer and head "
            f"(0 = head zeroed, 1 = untouched) for each copy, got {tuple(keep.shape)}"
        )
    if not bool(torch.isfinite(keep).all()):
        raise ValueError("keep must hold finite numbers (0 = head zeroed, 1 = untouched)")
    changed = (keep != 1).any(dim=0).any(dim=-1)  # (L,) layers that any copy changes
    if not bool(changed.any()):
        return np.zeros(keep.shape[0])  # nothing changed: the embedding is the trace's own
    start = int(changed.nonzero()[0])
    untouched = torch.ones(1, L, nh, dtype=keep.dtype)  # (1, L, nh)
    batch = torch.cat([untouched, keep])  # (1+B, L, nh), row 0 untouched
    with torch.inference_mode():
        last = _run_layers(model, trace.hidden_states[start], start, batch)  # (1+B, T, C)
        pooled = last.mean(dim=-2)  # (1+B, C) mean pooling; normalised in _distance
    return _distance(pooled[1:], pooled[:1])  # (B,)


def head_ablation(
    model: PretrainedModel, trace_or_text, text_pair: str | None = None
) -> np.ndarray:
    """(L, nh) importance of each head for this input: 1 - cosine similarity between the
    sentence embedding (mean pooling + L2 normalisation, as all-MiniLM-L6-v2 is used) with that
    head's output zeroed and without. 0 = the embedding does not move; 2 = it points the other way.

    One batched pass per layer: layers before l run once (the trace's hidden states), then the
    nh copies, copy h with head h zeroed, and an untouched copy run through layers l..L-1 as one
    batch (6 batches of 13 instead of 72 forwards). A string (with an optional `text_pair`) is
    traced first.
    """
    if isinstance(trace_or_text, str):
        trace_or_text = model.trace(trace_or_text, text_pair, keep_layers=False)
    elif text_pair is not None:
        raise ValueError("text_pair goes with a text; a trace already has its pair")
    trace = as_trace(model, trace_or_text)
    L, nh = model.n_layers, model.n_heads
    out = np.empty((L, nh))
    for i in range(L):
        keep = torch.ones(nh, L, nh)  # (nh, L, nh) copy h ...
        keep[:, i] = 1.0 - torch.eye(nh)  # ... with head h of layer i zeroed
        out[i] = ablate_heads(model, trace, keep)  # (nh,)
    return out
