"""The real all-MiniLM-L6-v2 (a 6-layer BERT encoder) running through our own attention core.

Weights come from `model.safetensors`, the tokenizer from `tokenizer.json` (via the
`tokenizers` library); `transformers` is never imported. Every layer's self-attention is our
`MultiHeadAttention`, so each layer hands back a full `AttentionTrace` (q, k, v, scores,
weights, per-head outputs, concat, output) for the teaching views.

One BERT layer (post-LayerNorm, as in the original paper):

    a = MultiHeadAttention(x)                    # 12 heads of 32 dims, fused Q/K/V projection
    x = LayerNorm(x + a.output)                  # Add & Norm
    x = LayerNorm(x + W_2 gelu(W_1 x + b_1) + b_2)  # feed-forward (exact erf GELU), Add & Norm

Shapes: T tokens, C = d_model (384), nh heads, hs = C / nh, L layers.
Results are returned, never stored on the module: one loaded model serves every user at once.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.torch import load_file
from tokenizers import Tokenizer
from torch import nn

from .attention import AttentionTrace, MultiHeadAttention
from .config import valid_head_counts
from .tokenize import default_model_path, load_wordpiece


def _empty(*shape: int, dtype: torch.dtype) -> torch.Tensor:
    """`torch.empty` for the big result buffers, allocated by NumPy: on Linux NumPy advises
    transparent huge pages for arrays over 4 MB, so filling the 75 MB of attentions at 512 tokens
    takes ~40 page faults of 2 MB instead of ~18 000 of 4 kB (a fifth of a forward's time here).
    The tensor shares the array's memory; everything else about it is an ordinary tensor."""
    np_dtype = {torch.float32: np.float32, torch.float64: np.float64}.get(dtype)
    if np_dtype is None:
        return torch.empty(*shape, dtype=dtype)
    return torch.from_numpy(np.empty(shape, dtype=np_dtype))


@dataclass(frozen=True)
class BertConfig:
    """The BERT hyper-parameters that decide what the encoder computes (from config.json)."""

    vocab_size: int = 30522
    hidden_size: int = 384  # C = d_model
    num_hidden_layers: int = 6  # L
    num_attention_heads: int = 12  # nh
    intermediate_size: int = 1536  # feed-forward width
    max_position_embeddings: int = 512  # the longest input, in tokens
    type_vocab_size: int = 2  # segment A / segment B
    layer_norm_eps: float = 1e-12
    hidden_act: str = "gelu"
    position_embedding_type: str = "absolute"
    pad_token_id: int = 0

    def __post_init__(self) -> None:
        if self.hidden_act != "gelu":
            raise ValueError(
                f"only hidden_act='gelu' (the exact erf GELU) is supported, got {self.hidden_act!r}"
            )
        if self.position_embedding_type != "absolute":
            raise ValueError(
                "only absolute position embeddings are supported, got "
                f"{self.position_embedding_type!r}"
            )
        if self.hidden_size % self.num_attention_heads:
            raise ValueError(
                f"hidden_size={self.hidden_size} is not divisible by "
                f"num_attention_heads={self.num_attention_heads}"
            )

    @classmethod
    def from_json(cls, path: str | Path) -> BertConfig:
        """Read the fields we know from a Hugging Face config.json; ignore the others."""
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        if raw.get("model_type", "bert") != "bert":
            raise ValueError(f"expected a BERT config.json, got model_type={raw['model_type']!r}")
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in known})

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_attention_heads


@dataclass(frozen=True)
class Tokenized:
    """WordPiece tokens of a text (and optional second text) with [CLS]/[SEP] added."""

    tokens: tuple[str, ...]  # T WordPiece strings, e.g. ("[CLS]", "hello", "##s", "[SEP]")
    ids: tuple[int, ...]  # T vocabulary ids
    type_ids: tuple[int, ...]  # T segment ids: 0 for [CLS] text [SEP], 1 for pair [SEP]
    special: tuple[bool, ...]  # T, True for [CLS] / [SEP]
    offsets: tuple[tuple[int, int], ...]  # T (start, end) character spans in their own text
    n_total: int  # tokens of the whole input, before truncation
    truncated: bool  # True when tokens were cut to the limit


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
        h = F.gelu(self.intermediate(x))  # (B, T, 4C), approximate="none": the erf GELU
        x = self.output_norm(x + self.output(h))  # (B, T, C)
        return x, att


def _hf_to_ours(hf: dict[str, torch.Tensor], n_layers: int) -> dict[str, torch.Tensor]:
    """Rename a Hugging Face BertModel state dict to ours; Q, K, V stacked into in_proj."""
    hf = {k.removeprefix("bert."): v for k, v in hf.items()}
    sd = {
        "embeddings.word_embeddings.weight": hf["embeddings.word_embeddings.weight"],
        "embeddings.position_embeddings.weight": hf["embeddings.position_embeddings.weight"],
        "embeddings.token_type_embeddings.weight": hf["embeddings.token_type_embeddings.weight"],
        "embeddings.norm.weight": hf["embeddings.LayerNorm.weight"],
        "embeddings.norm.bias": hf["embeddings.LayerNorm.bias"],
    }
    for i in range(n_layers):
        p, o = f"encoder.layer.{i}.", f"layers.{i}."
        qkv = [p + f"attention.self.{n}" for n in ("query", "key", "value")]
        sd[o + "attention.in_proj_weight"] = torch.cat([hf[n + ".weight"] for n in qkv])  # (3C,C)
        sd[o + "attention.in_proj_bias"] = torch.cat([hf[n + ".bias"] for n in qkv])  # (3C,)
        renames = {
            "attention.out_proj": "attention.output.dense",
            "attention_norm": "attention.output.LayerNorm",
            "intermediate": "intermediate.dense",
            "output": "output.dense",
            "output_norm": "output.LayerNorm",
        }
        for ours, theirs in renames.items():
            for wb in ("weight", "bias"):
                sd[f"{o}{ours}.{wb}"] = hf[f"{p}{theirs}.{wb}"]
    return sd


class PretrainedModel(nn.Module):
    """all-MiniLM-L6-v2 built from our modules; `trace` runs it on a text and returns everything.

    Load it with `load_pretrained()`. It is read-only after loading and safe to share between
    threads: nothing about a call is stored on the module.
    """

    def __init__(self, config: BertConfig, tokenizer: Tokenizer) -> None:
        super().__init__()
        self.config = config
        self.tokenizer = tokenizer
        self._tokenizer_lock = threading.Lock()  # truncation is a setting on the tokenizer
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
    def tokenize(self, text: str, text_pair: str | None = None, max_tokens: int = 512) -> Tokenized:
        """WordPiece tokens with [CLS]/[SEP], cut to `max_tokens` like Hugging Face's
        `truncation=True` (longest first for a pair; the final [SEP] is always kept)."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, got {type(text).__name__}")
        if text_pair is not None and not isinstance(text_pair, str):
            raise TypeError(f"text_pair must be a string or None, got {type(text_pair).__name__}")
        limit = self.max_tokens
        n_special = 2 if text_pair is None else 3
        if not isinstance(max_tokens, int) or not n_special <= max_tokens <= limit:
            raise ValueError(
                f"max_tokens must be a whole number from {n_special} to {limit} "
                f"(this model has {limit} positions), got {max_tokens!r}"
            )
        tok = self.tokenizer
        keep = None  # indices of the tokens kept; None: all
        # truncation is a setting on the shared tokenizer: set it and encode under one lock
        with self._tokenizer_lock:
            enc = tok.encode(text, text_pair)  # no truncation set: all the tokens
            n_total = len(enc.ids)
            if n_total > max_tokens and text_pair is None:
                keep = [*range(max_tokens - 1), n_total - 1]  # [CLS] first pieces ... [SEP]
            elif n_total > max_tokens:  # a pair: longest first, as the tokenizer does it
                tok.enable_truncation(max_tokens, strategy="longest_first")
                try:
                    enc = tok.encode(text, text_pair)
                finally:
                    tok.no_truncation()

        def kept(values: list) -> tuple:
            return tuple(values) if keep is None else tuple(values[i] for i in keep)

        return Tokenized(
            tokens=kept(enc.tokens),
            ids=kept(enc.ids),
            type_ids=kept(enc.type_ids),
            special=tuple(bool(s) for s in kept(enc.special_tokens_mask)),
            offsets=tuple(tuple(o) for o in kept(enc.offsets)),
            n_total=n_total,
            truncated=n_total > max_tokens,
        )

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
        hidden = _empty(L + 1, T, C, dtype=x.dtype)  # (L+1, T, C), a row per layer
        # each layer's softmax writes straight into its slice: no copy to stack them
        attentions = _empty(L, nh, T, T, dtype=torch.promote_types(x.dtype, torch.float32))
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

        `keep_layers=False` leaves `layers` empty and keeps only `attentions` and
        `hidden_states`: about half the memory (the per-layer q, k, v, logits, ... are dropped;
        at 512 tokens the logits alone are 75 MB). `layer_trace(trace, i)` recomputes layer i's
        full trace from the hidden states, identical to the one kept here.
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

    def rehead(
        self, trace_or_text: PretrainedTrace | str, layer: int, n_heads: int
    ) -> AttentionTrace:
        """Run layer `layer`'s self-attention on the same input with the same trained Q, K, V and
        output projections, split into `n_heads` heads of d_model / n_heads dimensions each.

        With the model's own head count this is the layer's original trace. A string is traced
        first. Returns an `AttentionTrace` with B = 1.
        """
        if isinstance(trace_or_text, str):
            trace = self.trace(trace_or_text, keep_layers=False)
        else:
            trace = trace_or_text
        if not isinstance(layer, int) or not 0 <= layer < self.n_layers:
            raise ValueError(
                f"layer must be a whole number from 0 to {self.n_layers - 1}, got {layer!r}"
            )
        C = self.d_model
        valid = valid_head_counts(C)
        if not isinstance(n_heads, int) or isinstance(n_heads, bool) or n_heads not in valid:
            raise ValueError(
                f"n_heads={n_heads!r} does not divide d_model={C}: each head gets d_model / "
                f"n_heads dimensions, so n_heads must be one of {', '.join(map(str, valid))}"
            )
        source = self.layers[layer].attention
        mha = MultiHeadAttention(C, n_heads, seed=0)
        mha.load_state_dict(source.state_dict())  # same projections, split differently
        mha.eval()
        with torch.inference_mode():
            x = trace.hidden_states[layer][None]  # (1, T, C), the layer's input
            return mha(x)

    def layer_trace(self, trace_or_text: PretrainedTrace | str, layer: int) -> AttentionTrace:
        """Layer `layer`'s full AttentionTrace (q, k, v, logits, weights, ...), recomputed from
        the trace's hidden states; the same numbers as `trace.layers[layer]`."""
        return self.rehead(trace_or_text, layer, self.n_heads)

    # --- reading heads: hooks into mha_core.reading -------------------------------------------
    def value_norms(self, trace_or_text: PretrainedTrace | str) -> torch.Tensor:
        """(L, nh, T, T) value-weighted norms || alpha_ij f_h(x_j) ||; see `reading.value_norms`."""
        from .reading import value_norms

        return value_norms(self, trace_or_text)

    def head_ablation(
        self, trace_or_text: PretrainedTrace | str, text_pair: str | None = None
    ) -> np.ndarray:
        """(L, nh) 1 - cos of the sentence embedding with each head zeroed; see
        `reading.head_ablation`."""
        from .reading import head_ablation

        return head_ablation(self, trace_or_text, text_pair)


def load_pretrained(path: str | Path | None = None) -> PretrainedModel:
    """Load all-MiniLM-L6-v2 (or another BERT folder with model.safetensors, config.json and
    tokenizer.json) into our modules. Reads local files only; never downloads."""
    folder = default_model_path() if path is None else Path(path)
    for name in ("model.safetensors", "config.json", "tokenizer.json"):
        if not (folder / name).is_file():
            raise FileNotFoundError(f"{folder} has no {name}; expected a BERT model folder")
    config = BertConfig.from_json(folder / "config.json")
    tokenizer = load_wordpiece(folder)  # no built-in padding or truncation: `tokenize` cuts
    model = PretrainedModel(config, tokenizer)
    state = _hf_to_ours(load_file(str(folder / "model.safetensors")), config.num_hidden_layers)
    model.load_state_dict(state, strict=True, assign=True)
    model.requires_grad_(False)
    return model.eval()
