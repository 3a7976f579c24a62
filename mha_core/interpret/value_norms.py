"""Value-weighted norms (Kobayashi et al. 2020, "Attention is Not Only a Weight: Analyzing
Transformers with Vector Norms"): a large weight on a token whose transformed value vector is tiny
moves almost nothing; `|| alpha_ij f_h(x_j) ||` measures what each key actually contributes.

Shapes: L layers, nh heads, T tokens, C = d_model, hs = C / nh.
"""

from __future__ import annotations

import torch

from ..pretrained.model import PretrainedModel
from .inputs import as_trace


def transformed_value_norms(model: PretrainedModel, trace_or_text) -> torch.Tensor:
    """(L, nh, T) `|| f_h(x_j) ||` with `f_h(x) = (x W_V^h + b_V^h) W_O^h`: the size of what key
    j would add to the layer's output through head h per unit of attention (Kobayashi et al.
    2020). x is the layer's input hidden state; W_O^h is the block of rows of the output
    projection (in the x @ W convention) that head h's output meets; the output bias b_O is not
    part of f (it is added once, whatever the weights). A string is traced first.

    Costs about one output projection per layer (O(L nh T hs C)), no T x T work.
    """
    trace = as_trace(model, trace_or_text)
    L, nh, C = model.n_layers, model.n_heads, model.d_model
    hs, T = model.config.d_k, trace.hidden_states.shape[1]
    out = torch.empty(L, nh, T, dtype=trace.hidden_states.dtype)  # (L, nh, T)
    with torch.inference_mode():
        for i, layer in enumerate(model.layers):
            mha = layer.attention
            x = trace.hidden_states[i]  # (T, C) the layer's input
            _, _, W_V = mha.projection_weights()  # (C, C), x @ W_V
            _, _, b_V = mha.projection_biases()  # (C,)
            v = (x @ W_V + b_V).view(T, nh, hs).transpose(0, 1)  # (nh, T, hs)
            W_O = mha.out_proj.weight.T.reshape(nh, hs, C)  # (nh, hs, C) head h's rows of W_O
            f = v @ W_O  # (nh, T, C) f_h(x_j)
            out[i] = torch.linalg.vector_norm(f, dim=-1)  # (nh, T)
    return out


def value_norms(model: PretrainedModel, trace_or_text) -> torch.Tensor:
    """(L, nh, T, T) value-weighted norms `|| alpha_ij f_h(x_j) ||` (Kobayashi et al. 2020):
    attention weight times the size of the transformed value vector it weighs.

    Since alpha_ij >= 0, `|| alpha_ij f_h(x_j) || = alpha_ij || f_h(x_j) ||`: the T x T x C
    definition costs one (L, nh, T) norm and one broadcast product here. A string is traced
    first. Rows do not sum to 1; divide by the row sum for shares (`row_shares`).
    """
    trace = as_trace(model, trace_or_text)
    norms = transformed_value_norms(model, trace)  # (L, nh, T) one per key
    return trace.attentions * norms[:, :, None, :]  # (L, nh, T, T)
