"""Re-heading: split a trained layer's Q, K, V and output projections into another number of
heads. The projections are the same matrices; only how their columns are grouped into heads
changes, so with the model's own head count the layer is unchanged."""

from __future__ import annotations

import torch

from ..attention import AttentionTrace, MultiHeadAttention
from ..config import valid_head_counts
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
