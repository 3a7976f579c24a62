"""Re-heading: split a trained layer's Q, K, V and output projections into another number of
heads. The projections are the same matrices; only how their columns are grouped into heads
changes, so with the model's own head count the layer is unchanged."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch

from ..layer.attention import AttentionTrace, MultiHeadAttention
from ..layer.config import valid_head_counts
from ..layer.stats import head_stats, hide_tokens
from .model import PretrainedModel, PretrainedTrace


def rehead(
    model: PretrainedModel, trace_or_text: PretrainedTrace | str, layer: int, n_heads: int
) -> AttentionTrace:
    """Run layer `layer`'s self-attention on the same input with the same trained Q, K, V and
    output projections, split into `n_heads` heads of d_model / n_heads dimensions each.

    With the model's own head count this is the layer's original trace. A string is traced
    first. Returns an `AttentionTrace` with B = 1.
    """
    if isinstance(trace_or_text, str):
        trace = model.trace(trace_or_text, keep_layers=False)
    else:
        trace = trace_or_text
    if not isinstance(layer, int) or not 0 <= layer < model.n_layers:
        raise ValueError(
            f"layer must be a whole number from 0 to {model.n_layers - 1}, got {layer!r}"
        )
    C = model.d_model
    valid = valid_head_counts(C)
    if not isinstance(n_heads, int) or isinstance(n_heads, bool) or n_heads not in valid:
        raise ValueError(
            f"n_heads={n_heads!r} does not divide d_model={C}: each head gets d_model / "
            f"n_heads dimensions, so n_heads must be one of {', '.join(map(str, valid))}"
        )
    source = model.layers[layer].attention
    mha = MultiHeadAttention(C, n_heads, seed=0)
    mha.load_state_dict(source.state_dict())  # same projections, split differently
    mha.eval()
    with torch.inference_mode():
        x = trace.hidden_states[layer][None]  # (1, T, C), the layer's input
        return mha(x)


def layer_trace(
    model: PretrainedModel, trace_or_text: PretrainedTrace | str, layer: int
) -> AttentionTrace:
    """Layer `layer`'s full AttentionTrace (q, k, v, scores, weights, ...), recomputed from the
    trace's hidden states; the same numbers as `trace.layers[layer]` of a trace that kept them."""
    return rehead(model, trace_or_text, layer, model.n_heads)


class ReheadSummary(NamedTuple):
    """A re-headed layer beside the original, as the pretrained page shows it."""

    weights: np.ndarray  # (h, T, T) the re-headed weights (specials hidden if asked)
    change: float  # ||output_h - output_orig|| / ||output_orig||
    mean_entropy: float  # mean row entropy of the re-headed heads (nats)
    mean_entropy_original: float  # the same for the layer's own heads


def rehead_summary(
    model: PretrainedModel,
    trace: PretrainedTrace,
    layer: int,
    n_heads: int,
    keep: np.ndarray | None = None,
) -> ReheadSummary:
    """Re-head layer `layer` into `n_heads` heads and compare it with the original; `keep`
    (T,) bool hides the other tokens (rows renormalised) from the weights and entropies."""
    new = rehead(model, trace, layer, n_heads)
    orig = rehead(model, trace, layer, model.n_heads)
    out_new, out_orig = new.output[0].double().numpy(), orig.output[0].double().numpy()
    w_new, w_orig = new.weights[0].numpy(), orig.weights[0].numpy()  # (h, T, T), (nh, T, T)
    if keep is not None:
        w_new, w_orig = hide_tokens(w_new, keep), hide_tokens(w_orig, keep)
    return ReheadSummary(
        weights=w_new,
        change=float(np.linalg.norm(out_new - out_orig) / np.linalg.norm(out_orig)),
        mean_entropy=float(np.nanmean(head_stats(w_new).entropy)),
        mean_entropy_original=float(np.nanmean(head_stats(w_orig).entropy)),
    )
