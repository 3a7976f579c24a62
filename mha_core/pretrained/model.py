"""The real all-MiniLM-L6-v2 (a 6-layer BERT encoder) running through our own attention core.

Weights come from `model.safetensors`, the tokenizer from `tokenizer.json` (via the
`tokenizers` library); `transformers` is never imported. Every layer's self-attention is our
`MultiHeadAttention`, so each layer hands back a full `AttentionTrace` (q, k, v, scores,
weights, per-head outputs, concat, output) for the teaching pages.

One BERT layer (post-LayerNorm, as in the original paper):

    a = MultiHeadAttention(x)                    # 12 heads of 32 dims, fused Q/K/V projection
    x = LayerNorm(x + a.output)                  # Add & Norm
    x = LayerNorm(x + W_2 gelu(W_1 x + b_1) + b_2)  # feed-forward (exact erf GELU), Add & Norm

Shapes: T tokens, C = d_model (384), nh heads, hs = C / nh, L layers.
Loading is in `loading.py`, re-heading in `reheading.py`, tokenizing in `layer/wordpiece.py`.
Results are returned, never stored on the module: one loaded model serves every user at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import nn

from ..layer.attention import AttentionTrace, MultiHeadAttention
from ..layer.buffers import big_empty
from ..layer.wordpiece import BertInput, BertTokenizer
from .config import BertConfig


@dataclass(frozen=True, eq=False)
class PretrainedTrace:
    """What one forward of the pretrained encoder computed on one input. Detached results."""

    text: str
    text_pair: str | None
    tokens: tuple[str, ...]  # T WordPiece strings incl. [CLS] / [SEP]
    token_ids: torch.Tensor  # (T,) int64
    token_type_ids: torch.Tensor  # (T,) int64
    special_tokens_mask: torch.Tensor  # (T,) bool, True for [CLS] / [SEP]
    offsets: tuple[tuple[int, int], ...]  # T character spans (in the text or in the pair)
    attentions: torch.Tensor  # (L, nh, T, T) softmax weights of every layer and head
    layers: list[AttentionTrace] = field(repr=False)  # L traces, each with B = 1
    hidden_states: torch.Tensor = field(repr=False)  # (L+1, T, C): embeddings, then each layer
    truncated: bool = False  # True when the input was cut to max_tokens
    n_total_tokens: int = 0  # tokens of the whole input, before truncation

    @property
    def last_hidden_state(self) -> torch.Tensor:
        """(T, C) the encoder output."""
        return self.hidden_states[-1]

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)

    @property
    def n_layers(self) -> int:
        return self.attentions.shape[0]

    @property
    def n_heads(self) -> int:
        return self.attentions.shape[1]


class BertEmbeddings(nn.Module):
    """word + token_type + position embeddings, then LayerNorm."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        C = config.hidden_size
        self.word_embeddings = nn.Embedding(config.vocab_size, C)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, C)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, C)
        self.norm = nn.LayerNorm(C, eps=config.layer_norm_eps)

    def forward(self, input_ids: torch.Tensor, token_type_ids: torch.Tensor) -> torch.Tensor:
        T = input_ids.shape[-1]
        pos = torch.arange(T, device=input_ids.device)  # (T,)
        x = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)  # (T, C)
        x = x + self.position_embeddings(pos)  # (T, C)
        return self.norm(x)  # (T, C)


class BertLayer(nn.Module):
    """Self-attention (our core), Add & Norm, feed-forward with exact GELU, Add & Norm."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        C = config.hidden_size
        self.attention = MultiHeadAttention(C, config.num_attention_heads)
        self.attention_norm = nn.LayerNorm(C, eps=config.layer_norm_eps)
        self.intermediate = nn.Linear(C, config.intermediate_size)
        self.output = nn.Linear(config.intermediate_size, C)
        self.output_norm = nn.LayerNorm(C, eps=config.layer_norm_eps)

    def forward(
        self, x: torch.Tensor, weights_out: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, AttentionTrace]:
        """x (B, T, C) -> (B, T, C) and the attention trace (weights written into weights_out)."""
        att = self.attention(x, weights_out=weights_out)  # att.output (B, T, C)
        x = self.attention_norm(x + att.output)  # (B, T, C)
        h = F.gelu(self.intermediate(x))  # (B, T, d_ff), approximate="none": the erf GELU
        x = self.output_norm(x + self.output(h))  # (B, T, C)
        return x, att


class PretrainedModel(nn.Module):
    """all-MiniLM-L6-v2 built from our modules; `trace` runs it on a text and returns everything.

    Load it with `load_pretrained()`. It is read-only after loading and safe to share between
    threads: nothing about a call is stored on the module.
    """

    def __init__(self, config: BertConfig, tokenizer: BertTokenizer) -> None:
        super().__init__()
        self.config = config
        self.tokenizer = tokenizer
        self.embeddings = BertEmbeddings(config)
        self.layers = nn.ModuleList(BertLayer(config) for _ in range(config.num_hidden_layers))

    @property
    def n_layers(self) -> int:
        return self.config.num_hidden_layers

    @property
    def n_heads(self) -> int:
        return self.config.num_attention_heads

    @property
    def d_model(self) -> int:
        return self.config.hidden_size

    @property
    def max_tokens(self) -> int:
        return self.config.max_position_embeddings

    # --- tokenizing ----------------------------------------------------------------------------
    def tokenize(self, text: str, text_pair: str | None = None, max_tokens: int = 512) -> BertInput:
        """WordPiece tokens with [CLS]/[SEP], cut to `max_tokens` (see `BertTokenizer.encode`)."""
        return self.tokenizer.encode(text, text_pair, max_tokens)

    # --- running -------------------------------------------------------------------------------
    def forward(
        self,
        input_ids: torch.Tensor,
        token_type_ids: torch.Tensor | None = None,
        *,
        keep_layers: bool = True,
    ) -> tuple[torch.Tensor, torch.Tensor, list[AttentionTrace]]:
        """input_ids (T,) -> hidden states (L+1, T, C), attentions (L, nh, T, T), L traces
        (none when keep_layers is False)."""
        T = input_ids.shape[-1]
        if input_ids.dim() != 1 or input_ids.shape[0] > self.max_tokens:
            raise ValueError(
                f"input_ids must be one sequence (T,) of at most {self.max_tokens} tokens, "
                f"got shape {tuple(input_ids.shape)}"
            )
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        L, nh, C = self.n_layers, self.n_heads, self.d_model
        x = self.embeddings(input_ids, token_type_ids)  # (T, C)
        hidden = big_empty(L + 1, T, C, dtype=x.dtype)  # (L+1, T, C), a row per layer
        # each layer's softmax writes straight into its slice: no copy to stack them
        attentions = big_empty(L, nh, T, T, dtype=torch.promote_types(x.dtype, torch.float32))
        hidden[0] = x
        x = x[None]  # (1, T, C)
        traces = []
        for i, layer in enumerate(self.layers):
            x, att = layer(x, weights_out=attentions[i : i + 1])  # (1, T, C)
            hidden[i + 1] = x[0]
            if keep_layers:
                traces.append(att)
        return hidden, attentions, traces

    def trace(
        self,
        text: str,
        text_pair: str | None = None,
        max_tokens: int = 512,
        *,
        keep_layers: bool = True,
    ) -> PretrainedTrace:
        """Tokenize `text` (and `text_pair`), run the encoder, and return every layer's attention.

        Inputs longer than `max_tokens` (at most the model's 512 positions) are truncated; the
        trace says so (`truncated`, `n_total_tokens`).

        `keep_layers=False` leaves `layers` empty and keeps only `attentions` (L, nh, T, T) and
        `hidden_states` (L+1, T, C): each layer's q, k, v, per-head outputs, concat and output
        (several (T, C) tensors per layer) are not kept. `reheading.layer_trace(model, trace, i)`
        recomputes layer i's full trace from its input hidden state (the same numbers).
        """
        tk = self.tokenize(text, text_pair, max_tokens)
        ids = torch.tensor(tk.ids, dtype=torch.long)  # (T,)
        type_ids = torch.tensor(tk.type_ids, dtype=torch.long)  # (T,)
        with torch.inference_mode():
            hidden, attentions, layers = self.forward(ids, type_ids, keep_layers=keep_layers)
        return PretrainedTrace(
            text=text,
            text_pair=text_pair,
            tokens=tk.tokens,
            token_ids=ids,
            token_type_ids=type_ids,
            special_tokens_mask=torch.tensor(tk.special, dtype=torch.bool),
            offsets=tk.offsets,
            attentions=attentions,
            layers=layers,
            hidden_states=hidden,
            truncated=tk.truncated,
            n_total_tokens=tk.n_total,
        )
