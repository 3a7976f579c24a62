"""One real head, step by step: layer l, query head h, at one query token, recomputed from the
residual stream and the layer's weights, each step beside what the model's own forward computed.

    x            the residual stream entering layer l at the query position          (C,)
    n = g * x / rms(x)                RMSNorm (rms(x) = sqrt(mean(x^2) + eps))       (C,)
    q = W_Q[h] n                      the head's 64 rows of W_Q                      (hs,)
    k_j = W_K[g] n_j, v_j = W_V[g] n_j   its key/value head g = h // (nh / n_kv)     (T, hs)
    RoPE: pair i (dims i, i + hs/2) of q turned by query * w_i, of k_j by j * w_i
    s_j = q . k_j / sqrt(hs)          every key of the text                          (T,)
    s_j = -inf for j > query          the causal mask
    alpha = softmax(s)                                                               (T,)
    o = sum_j alpha_j v_j             the head's output                              (hs,)
    W_O[:, h] o                       what the head adds to the residual stream      (C,)

`head_steps` returns every one of these (numpy) and, for each step, the largest difference from
the trace of the same text (`checks`): the page shows the model's real numbers, not a copy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from ..layer.positional_rope import rope_cos_sin, rope_frequencies, rotate_half
from .model import LlmModel, LlmTrace


@dataclass(frozen=True, eq=False)
class HeadSteps:
    """One query head of one layer at one query token, step by step (numpy, float32)."""

    layer: int
    head: int
    kv_head: int  # the key/value head this query head reads (h // group)
    query: int  # the query's position
    x: np.ndarray  # (C,) the residual stream entering the layer at the query
    inv_rms: float  # 1 / rms(x)
    gain: np.ndarray  # (C,) the norm's g
    normed: np.ndarray  # (C,) g * x / rms(x): what the attention reads
    q: np.ndarray  # (hs,) W_Q[h] n, before RoPE
    k: np.ndarray  # (T, hs) W_K[g] n_j of every token, before RoPE
    v: np.ndarray  # (T, hs) W_V[g] n_j
    q_rot: np.ndarray  # (hs,) q after RoPE (turned by the query's position)
    k_rot: np.ndarray  # (T, hs) each k_j turned by its position j
    frequencies: np.ndarray  # (hs/2,) w_i = 1 / base^(2i/hs), radians per position
    scale: float  # 1 / sqrt(hs)
    scores: np.ndarray  # (T,) q_rot . k_rot_j * scale, every key (also those after the query)
    allowed: np.ndarray  # (T,) bool, True for keys 0 .. query (the causal mask)
    weights: np.ndarray  # (T,) softmax over the allowed keys, 0 elsewhere
    output: np.ndarray  # (hs,) sum_j weights_j v_j
    w_o: np.ndarray  # (C, hs) the head's slice of W_O (its 64 columns)
    added: np.ndarray  # (C,) W_O[:, h] output: what this head adds to the stream
    checks: dict[str, float]  # step -> largest |ours - the trace's|

    @property
    def n_tokens(self) -> int:
        return self.scores.shape[0]

    def pair(self, i: int, key: int | None = None) -> PairTurn:
        """Pair i of q and of one key (default: the most-attended key after position 0, whose
        pair RoPE does not turn; position 0 when the query is 0), before and after RoPE."""
        hs = self.q.shape[0]
        if not 0 <= i < hs // 2:
            raise ValueError(f"pair must be in 0 .. {hs // 2 - 1}, got {i}")
        if key is None:
            j = 1 + int(np.argmax(self.weights[1 : self.query + 1])) if self.query else 0
        elif 0 <= key <= self.query:
            j = int(key)
        else:
            raise ValueError(f"key must be in 0 .. {self.query} (the keys the query sees)")
        dims = [i, i + hs // 2]
        return PairTurn(
            index=i,
            key=j,
            frequency=float(self.frequencies[i]),
            q=self.q[dims],
            q_rot=self.q_rot[dims],
            k=self.k[j, dims],
            k_rot=self.k_rot[j, dims],
            q_angle=float(self.query * self.frequencies[i]),
            k_angle=float(j * self.frequencies[i]),
        )


@dataclass(frozen=True, eq=False)
class PairTurn:
    """One RoPE pair (dims i and i + hs/2) of the query and of one key, turned by their positions.
    Each 2-d pair keeps its length; the query's turns by query * w_i, the key's by key * w_i, so
    their dot product depends on the offset (query - key) * w_i only."""

    index: int
    key: int  # the key's position
    frequency: float  # w_i, radians per position
    q: np.ndarray  # (2,) before RoPE
    q_rot: np.ndarray  # (2,) after
    k: np.ndarray  # (2,)
    k_rot: np.ndarray  # (2,)
    q_angle: float  # query * w_i (radians)
    k_angle: float  # key * w_i


def _max_diff(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a.float() - b.float()).abs().max()) if a.numel() else 0.0


def _checks(
    model: LlmModel, trace: LlmTrace, layer: int, head: int, query: int, mine: dict
) -> dict[str, float]:
    """The largest difference between each step recomputed (`mine`) and the trace's own."""
    cfg = model.config
    nh, hs = cfg.n_heads, cfg.head_size
    g = head // (nh // cfg.n_kv_heads)
    attn = model.blocks[layer].attn
    kept = trace.layers[layer]
    row = (trace.rows == query).nonzero()
    if row.numel() == 0:
        raise ValueError(f"the trace did not keep row {query}")
    at = kept.attn  # batch of 1
    all_heads = at.head_outputs[0, :, query]  # (nh, hs)
    w_o_all = attn.out_proj.weight.view(cfg.d_model, nh, hs)  # (C, nh, hs)
    stream_add = torch.einsum("hd,chd->c", all_heads, w_o_all)  # (C,) every head's, summed
    return {
        "normed": _max_diff(mine["normed"], kept.normed[query]),
        "q": _max_diff(mine["q"], at.q[0, head, query]),
        "k": _max_diff(mine["k"][: query + 1], at.k[0, g, : query + 1]),
        "v": _max_diff(mine["v"][: query + 1], at.v[0, g, : query + 1]),
        "weights": _max_diff(mine["weights"], trace.attentions[layer, head, int(row[0, 0])]),
        "output": _max_diff(mine["output"], at.head_outputs[0, head, query]),
        "added": _max_diff(mine["added"], all_heads[head] @ w_o_all[:, head].T),
        "heads_sum": _max_diff(stream_add, at.output[0, query]),
    }


@torch.inference_mode()
def head_steps(model: LlmModel, trace: LlmTrace, layer: int, head: int, query: int) -> HeadSteps:
    """Recompute query head `head` of layer `layer` at position `query` from the trace's residual
    stream and the layer's weights, step by step, and compare each step with the trace. Needs a
    trace that kept `layer` in full (`trace(ids, layers=[layer])`) with every row (rows=None) or
    the query's row among its rows."""
    cfg = model.config
    L, nh, n_kv, hs = cfg.n_layers, cfg.n_heads, cfg.n_kv_heads, cfg.head_size
    T = trace.n_tokens
    for name, value, n in (("layer", layer, L), ("head", head, nh), ("query", query, T)):
        if not isinstance(value, (int, np.integer)) or not 0 <= value < n:
            raise ValueError(f"{name} must be in 0 .. {n - 1}, got {value!r}")
    layer, head, query = int(layer), int(head), int(query)
    if layer not in trace.layers:
        raise ValueError(f"the trace did not keep layer {layer}: trace(ids, layers=[{layer}])")
    block = model.blocks[layer]
    attn = block.attn
    g = head // (nh // n_kv)  # its key/value head

    # the norm: what the attention reads, for every token (the keys need theirs)
    xs = trace.hidden_states[layer]  # (T, C)
    inv_rms = block.attn_norm.inv_rms(xs)  # (T, 1)
    gain = block.attn_norm.weight  # (C,)
    normed = gain * (xs * inv_rms)  # (T, C)

    # the projections: the head's rows of W_Q, its key/value head's rows of W_K and W_V
    w_q, w_k, w_v = (w.T for w in attn.projection_weights())  # (C, C), (n_kv hs, C) x 2
    rows_q, rows_kv = slice(head * hs, (head + 1) * hs), slice(g * hs, (g + 1) * hs)
    q = normed[query] @ w_q[rows_q].T  # (hs,)
    k = normed @ w_k[rows_kv].T  # (T, hs)
    v = normed @ w_v[rows_kv].T  # (T, hs)

    # RoPE: each pair turned by its position
    cos, sin = rope_cos_sin(torch.arange(T), hs, cfg.rope_base)  # (T, hs)
    q_rot = q * cos[query] + rotate_half(q) * sin[query]  # (hs,)
    k_rot = k * cos + rotate_half(k) * sin  # (T, hs)

    # scores, the causal mask, the softmax, the weighted sum of the values
    scale = 1.0 / math.sqrt(hs)
    scores = (k_rot @ q_rot) * scale  # (T,)
    allowed = torch.arange(T) <= query  # (T,)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)  # (T,)
    output = weights @ v  # (hs,)

    # the head's slice of W_O and what it adds to the residual stream
    w_o = attn.out_proj.weight[:, rows_q]  # (C, hs)
    added = w_o @ output  # (C,)

    # the trace's own numbers for each step
    mine = {"normed": normed[query], "q": q_rot, "k": k_rot, "v": v, "weights": weights,
            "output": output, "added": added}  # fmt: skip
    checks = _checks(model, trace, layer, head, query, mine)
    return HeadSteps(
        layer=layer,
        head=head,
        kv_head=g,
        query=query,
        x=xs[query].numpy().copy(),
        inv_rms=float(inv_rms[query]),
        gain=gain.detach().numpy().copy(),
        normed=normed[query].numpy().copy(),
        q=q.numpy().copy(),
        k=k.numpy().copy(),
        v=v.numpy().copy(),
        q_rot=q_rot.numpy().copy(),
        k_rot=k_rot.numpy().copy(),
        frequencies=rope_frequencies(hs, cfg.rope_base).numpy().copy(),
        scale=scale,
        scores=scores.numpy().copy(),
        allowed=allowed.numpy().copy(),
        weights=weights.numpy().copy(),
        output=output.numpy().copy(),
        w_o=w_o.detach().numpy().copy(),
        added=added.numpy().copy(),
        checks=checks,
    )
