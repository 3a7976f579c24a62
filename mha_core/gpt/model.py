"""A GPT-style decoder-only Transformer built on our `MultiHeadAttention` (causal mask).

    x = wte[tokens] + wpe[positions]                      token + learned position embeddings
    for each block:  x = x + Attn(LN1(x))                 pre-norm (GPT-2)
                     x = x + MLP(LN2(x))                  MLP off in the attention-only mode
    logits = LN_f(x) @ wte^T                              unembedding tied to the token embedding

With `positions="attention"` the learned position embeddings are added where the heads look,
to the input of every layer's queries and keys, and not to the residual stream nor the values
(Press et al. 2021, "Shortformer"; the positional embedding of TransformerLens's attention-only
models, on which induction heads are studied): a head's output then carries tokens only.

The MLP is GPT-2's: Linear(C, F), GELU with the tanh approximation ("gelu_new"), Linear(F, C).
`DecoderOnly.from_hf_gpt2` copies a Hugging Face `GPT2LMHeadModel`. GPT-2 stores its fused
Q|K|V projection `c_attn` and its output projection as `Conv1D` layers, whose weight is
(in, out), i.e. the transpose of `nn.Linear`'s; our attention's `in_proj_weight` (3C, C) holds
Q, K, V stacked in the same order with the same head split, so the copy is one transpose each.

Shapes: B batch, T tokens, C = d_model, F = d_ff, V vocabulary, L layers, nh heads, hs = C / nh.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from ..layer.attention import AttentionTrace, MultiHeadAttention
from ..layer.config import check_heads

POSITIONS = ("residual", "attention")


def _whole(name: str, value, lo: int = 1) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo:
        raise ValueError(f"{name} must be a whole number >= {lo}, got {value!r}")


@dataclass(frozen=True)
class DecoderOnlyConfig:
    """Every hyper-parameter of a `DecoderOnly` (GPT-2's names in the comments)."""

    vocab_size: int  # V (vocab_size)
    n_positions: int  # longest sequence (n_positions)
    d_model: int = 64  # C (n_embd)
    n_heads: int = 4  # nh (n_head)
    n_layers: int = 2  # L (n_layer)
    mlp: bool = False  # False: attention-only blocks
    positions: str = "residual"  # "residual" (GPT-2) or "attention" (shortformer, see below)
    d_ff: int | None = None  # F (n_inner); None: 4 * d_model
    layer_norm_eps: float = 1e-5  # layer_norm_epsilon
    init_std: float = 0.02  # initializer_range
    seed: int | None = 0

    def __post_init__(self) -> None:
        check_heads(self.d_model, self.n_heads)
        for name in ("vocab_size", "n_positions", "n_layers"):
            _whole(name, getattr(self, name))
        if self.d_ff is not None:
            _whole("d_ff", self.d_ff)
        if self.positions not in POSITIONS:
            raise ValueError(f"positions must be one of {POSITIONS}, got {self.positions!r}")
        if not self.layer_norm_eps > 0.0:
            raise ValueError(f"layer_norm_eps must be positive, got {self.layer_norm_eps!r}")

    @property
    def ff_width(self) -> int:
        return 4 * self.d_model if self.d_ff is None else self.d_ff


def gelu_new(x: torch.Tensor) -> torch.Tensor:
    """GPT-2's GELU, the tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    return F.gelu(x, approximate="tanh")


@dataclass(frozen=True, eq=False)
class BlockTrace:
    """What one block computed. Tensors keep their autograd history when gradients are on."""

    x: torch.Tensor  # (B, T, C) the block's input (the residual stream)
    attn: AttentionTrace  # weights (B, nh, T, T), causal
    attn_residual: torch.Tensor  # (B, T, C) x + attn.output
    mlp_out: torch.Tensor | None  # (B, T, C) MLP(LN2(attn_residual)); None when attention-only
    output: torch.Tensor  # (B, T, C) attn_residual (+ mlp_out)


@dataclass(frozen=True, eq=False)
class DecoderOnlyOutput:
    """A forward pass: the logits and every layer's trace."""

    tokens: torch.Tensor  # (B, T) int64
    embedding: torch.Tensor  # (B, T, C) wte[tokens] + wpe[positions] (no wpe: shortformer)
    blocks: tuple[BlockTrace, ...]  # L traces
    residual: torch.Tensor  # (B, T, C) the final residual stream, before LN_f
    logits: torch.Tensor  # (B, T, V)

    @property
    def attentions(self) -> tuple[AttentionTrace, ...]:
        """Every layer's `AttentionTrace`."""
        return tuple(b.attn for b in self.blocks)

    @property
    def weights(self) -> torch.Tensor:
        """(B, L, nh, T, T) every layer's attention weights, stacked."""
        return torch.stack([b.attn.weights for b in self.blocks], dim=1)


class MLP(nn.Module):
    """GPT-2's feed-forward: c_fc (C -> F), gelu_new, c_proj (F -> C)."""

    def __init__(self, d_model: int, d_ff: int) -> None:
        super().__init__()
        self.c_fc = nn.Linear(d_model, d_ff)
        self.c_proj = nn.Linear(d_ff, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.c_proj(gelu_new(self.c_fc(x)))  # (B, T, C)


class Block(nn.Module):
    """Pre-norm block: x + Attn(LN1(x)), then (optionally) + MLP(LN2(.))."""

    def __init__(self, config: DecoderOnlyConfig) -> None:
        super().__init__()
        C, eps = config.d_model, config.layer_norm_eps
        self.ln_1 = nn.LayerNorm(C, eps=eps)
        self.attn = MultiHeadAttention(C, config.n_heads, seed=0)  # re-drawn by the model
        self.ln_2 = nn.LayerNorm(C, eps=eps) if config.mlp else None
        self.mlp = MLP(C, config.ff_width) if config.mlp else None

    def forward(self, x: torch.Tensor, pos: torch.Tensor | None = None) -> BlockTrace:
        """`pos` (T, C): shortformer positions, added to the queries' and keys' input only."""
        if pos is None:
            attn = self.attn(self.ln_1(x), mask="causal")  # weights (B, nh, T, T)
        else:
            qk = self.ln_1(x + pos)  # (B, T, C) where the heads look: tokens and positions
            attn = self.attn(qk, qk, self.ln_1(x), mask="causal")  # values: tokens only
        h = x + attn.output  # (B, T, C)
        mlp_out = None if self.mlp is None else self.mlp(self.ln_2(h))  # (B, T, C)
        out = h if mlp_out is None else h + mlp_out
        return BlockTrace(x=x, attn=attn, attn_residual=h, mlp_out=mlp_out, output=out)


class DecoderOnly(nn.Module):
    """GPT-style decoder; `forward(tokens)` returns a `DecoderOnlyOutput`."""

    def __init__(self, config: DecoderOnlyConfig) -> None:
        super().__init__()
        self.config = config
        C = config.d_model
        self.wte = nn.Embedding(config.vocab_size, C)  # (V, C), also the unembedding
        self.wpe = nn.Embedding(config.n_positions, C)  # (P, C)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.n_layers))
        self.ln_f = nn.LayerNorm(C, eps=config.layer_norm_eps)
        self.reset_parameters(config.seed)

    @torch.no_grad()
    def reset_parameters(self, seed: int | None = 0) -> None:
        """GPT-2's scheme from a seeded generator: normal(0, init_std) weights, zero biases,
        LayerNorms at 1 and 0, output projections (attention's and MLP's c_proj) scaled by
        1 / sqrt(2 L)."""
        g = torch.Generator()
        if seed is None:
            g.seed()
        else:
            g.manual_seed(seed)
        std = self.config.init_std
        out_std = std / math.sqrt(2 * self.config.n_layers)
        for name, m in self.named_modules():
            if isinstance(m, nn.LayerNorm):
                m.weight.fill_(1.0)
                m.bias.zero_()
            elif isinstance(m, nn.Embedding):
                m.weight.normal_(0.0, std, generator=g)
            elif isinstance(m, nn.Linear):
                out = name.endswith(("out_proj", "c_proj"))
                m.weight.normal_(0.0, out_std if out else std, generator=g)
                m.bias.zero_()
            elif isinstance(m, MultiHeadAttention):
                m.in_proj_weight.normal_(0.0, std, generator=g)  # (3C, C)
                m.in_proj_bias.zero_()

    @property
    def n_layers(self) -> int:
        return self.config.n_layers

    @property
    def n_heads(self) -> int:
        return self.config.n_heads

    def forward(self, tokens: torch.Tensor) -> DecoderOnlyOutput:
        """tokens (B, T) or (T,) int64 -> logits (B, T, V) and every layer's trace."""
        if tokens.dim() == 1:
            tokens = tokens[None]
        B, T = tokens.shape
        n_pos = self.config.n_positions
        if tokens.shape[1] > n_pos:
            raise ValueError(f"{T} tokens is longer than this model's n_positions={n_pos}")
        pe = self.wpe(torch.arange(T, device=tokens.device))  # (T, C)
        shortformer = self.config.positions == "attention"
        x = emb = self.wte(tokens) if shortformer else self.wte(tokens) + pe  # (B, T, C)
        traces = []
        for block in self.blocks:
            tr = block(x, pe if shortformer else None)
            traces.append(tr)
            x = tr.output  # (B, T, C)
        logits = self.ln_f(x) @ self.wte.weight.T  # (B, T, V) tied unembedding
        return DecoderOnlyOutput(
            tokens=tokens, embedding=emb, blocks=tuple(traces), residual=x, logits=logits
        )

    # --- Hugging Face GPT-2 ------------------------------------------------------------------
    @classmethod
    def from_hf_gpt2(cls, model: nn.Module) -> DecoderOnly:
        """Copy a Hugging Face `GPT2LMHeadModel` (or `GPT2Model`): every block has its MLP."""
        hf = model.config
        if hf.activation_function != "gelu_new":
            raise ValueError(f"only GPT-2's gelu_new is supported, got {hf.activation_function!r}")
        if not hf.scale_attn_weights or hf.scale_attn_by_inverse_layer_idx:
            raise ValueError("only GPT-2's 1/sqrt(head size) attention scaling is supported")
        config = DecoderOnlyConfig(
            vocab_size=hf.vocab_size,
            n_positions=hf.n_positions,
            d_model=hf.n_embd,
            n_heads=hf.n_head,
            n_layers=hf.n_layer,
            mlp=True,
            d_ff=hf.n_inner,
            layer_norm_eps=hf.layer_norm_epsilon,
            init_std=hf.initializer_range,
            seed=0,
        )
        ours = cls(config)
        sd = {k.removeprefix("transformer."): v for k, v in model.state_dict().items()}
        ours.load_state_dict(_gpt2_to_ours(sd, config.n_layers), strict=True)
        p = next(model.parameters())
        return ours.to(device=p.device, dtype=p.dtype).train(model.training)


def _gpt2_to_ours(sd: dict[str, torch.Tensor], n_layers: int) -> dict[str, torch.Tensor]:
    """Rename GPT-2's state dict to ours; Conv1D weights (in, out) transposed to (out, in)."""
    out = {
        "wte.weight": sd["wte.weight"],
        "wpe.weight": sd["wpe.weight"],
        "ln_f.weight": sd["ln_f.weight"],
        "ln_f.bias": sd["ln_f.bias"],
    }
    for i in range(n_layers):
        h, o = f"h.{i}.", f"blocks.{i}."
        for ln in ("ln_1", "ln_2"):
            for wb in ("weight", "bias"):
                out[f"{o}{ln}.{wb}"] = sd[f"{h}{ln}.{wb}"]
        out[o + "attn.in_proj_weight"] = sd[h + "attn.c_attn.weight"].T  # (3C, C): Q, K, V
        out[o + "attn.in_proj_bias"] = sd[h + "attn.c_attn.bias"]  # (3C,)
        out[o + "attn.out_proj.weight"] = sd[h + "attn.c_proj.weight"].T  # (C, C)
        out[o + "attn.out_proj.bias"] = sd[h + "attn.c_proj.bias"]
        for name in ("c_fc", "c_proj"):
            out[f"{o}mlp.{name}.weight"] = sd[f"{h}mlp.{name}.weight"].T  # (out, in)
            out[f"{o}mlp.{name}.bias"] = sd[f"{h}mlp.{name}.bias"]
    return {k: v.detach().clone().contiguous() for k, v in out.items()}
