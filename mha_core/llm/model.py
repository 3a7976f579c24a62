"""A llama-architecture decoder (SmolLM2, LLaMA) built from our own parts.

    x = embed[ids]                                         token embeddings, no position table
    for each of the L blocks:
        h = RMSNorm(x)                                     pre-norm, no mean, no bias
        x = x + Attn(h)                                    our MultiHeadAttention: nh query
                                                           heads share n_kv key/value heads
                                                           (GQA), q and k turned by RoPE
        x = x + SwiGLU(RMSNorm(x))                         down(silu(gate(x)) * up(x))
    logits = RMSNorm(x) @ embed^T                          the unembedding tied to the embedding

Shapes: B batch (1 here), T tokens, C = d_model, F = d_ff, V vocabulary, L layers, nh query
heads, n_kv key/value heads, hs = C / nh. Results are returned, never stored on the module: one
loaded model serves every caller at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from ..layer.attention import AttentionTrace, MultiHeadAttention
from ..layer.buffers import BufferPool
from ..layer.positional_rope import rope_cos_sin
from .config import LlmConfig
from .generation import Generation, GenerationStep, KVCache, check_sampling, pick_token
from .tokenizer import LlmTokenizer

VOCAB_BLOCK = 1024  # rows of W_U per matmul when many positions are unembedded (logits_of)


class RMSNorm(nn.Module):
    """x / rms(x) * g, with rms(x) = sqrt(mean(x^2) + eps) over the features (no mean taken
    away, no bias: LayerNorm without its centring)."""

    def __init__(self, d_model: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d_model))  # g (C,)
        self.eps = eps

    def inv_rms(self, x: torch.Tensor) -> torch.Tensor:
        """(..., T, 1) 1 / rms(x) of each token."""
        return torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.weight * (x * self.inv_rms(x))  # (..., T, C)


class SwiGLU(nn.Module):
    """The gated MLP: down(silu(gate(x)) * up(x)), C -> F -> C, no biases."""

    def __init__(self, d_model: int, d_ff: int) -> None:
        super().__init__()
        self.gate = nn.Linear(d_model, d_ff, bias=False)
        self.up = nn.Linear(d_model, d_ff, bias=False)
        self.down = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(F.silu(self.gate(x)) * self.up(x))  # (B, T, C)


@dataclass(frozen=True, eq=False)
class BlockOutput:
    x: torch.Tensor  # (B, T, C) the residual stream after the block
    normed: torch.Tensor  # (B, T, C) RMSNorm(input): what the attention read
    attn: AttentionTrace  # q, k (after RoPE), v, weights (B, nh, T, Tk), head_outputs, output
    mlp_out: torch.Tensor  # (B, T, C) what the MLP added


class Block(nn.Module):
    """One decoder block: pre-norm attention, then pre-norm SwiGLU, each added to the stream."""

    def __init__(self, config: LlmConfig) -> None:
        super().__init__()
        C = config.d_model
        self.attn_norm = RMSNorm(C, config.rms_eps)
        self.attn = MultiHeadAttention(
            C,
            config.n_heads,
            n_kv_heads=config.n_kv_heads,
            bias=False,
            rope_base=config.rope_base,
            seed=None,
        )
        self.mlp_norm = RMSNorm(C, config.rms_eps)
        self.mlp = SwiGLU(C, config.d_ff)

    def forward(
        self,
        x: torch.Tensor,
        rope: tuple[torch.Tensor, torch.Tensor],
        past_kv: tuple[torch.Tensor, torch.Tensor] | None = None,
        weights_out: torch.Tensor | None = None,
    ) -> BlockOutput:
        h = self.attn_norm(x)  # (B, T, C)
        att = self.attn(
            h, mask="causal", past_kv=past_kv, weights_out=weights_out, rope_cos_sin=rope
        )  # q and k turned by RoPE; with past_kv, keys and values of the cache first
        x = x + att.output  # (B, T, C) the attention's output joins the residual stream
        m = self.mlp(self.mlp_norm(x))  # (B, T, C)
        return BlockOutput(x=x + m, normed=h, attn=att, mlp_out=m)


@dataclass(frozen=True, eq=False)
class LayerTrace:
    """One layer in full (for the layers a trace keeps)."""

    layer: int
    normed: torch.Tensor  # (T, C) RMSNorm of the layer's input: what its attention read
    attn: AttentionTrace  # batch of 1: q (1, nh, T, hs) and k (1, n_kv, T, hs) after RoPE,
    #                       v (1, n_kv, T, hs), weights (1, nh, T, T), head_outputs (1, nh, T, hs)


@dataclass(frozen=True, eq=False)
class LlmTrace:
    """One forward pass over one sequence. `rows` are the query positions whose logits and
    attention rows were kept (all by default)."""

    ids: torch.Tensor  # (T,) int64
    rows: torch.Tensor  # (R,) positions of the rows of logits and attentions
    logits: torch.Tensor  # (R, V)
    attentions: torch.Tensor  # (L, nh, R, T) every layer's weights at the kept rows
    head_outputs: torch.Tensor  # (L, nh, R, hs) every head's output (alpha V) at the kept rows
    hidden_states: torch.Tensor  # (L+1, T, C) the residual stream before each block and after
    #                              the last (before the final norm, unlike Hugging Face's last)
    attn_outputs: torch.Tensor | None  # (L, T, C) what each attention added to the stream
    mlp_outputs: torch.Tensor | None  # (L, T, C) what each MLP added
    layers: dict[int, LayerTrace]  # the kept layers in full, by index

    @property
    def n_tokens(self) -> int:
        return self.ids.shape[0]


def _index_list(values, n: int, what: str) -> list[int]:
    out = [int(v) for v in values]
    for v in out:
        if not 0 <= v < n:
            raise ValueError(f"{what} must be in 0 .. {n - 1}, got {v}")
    return out


class LlmModel(nn.Module):
    """A llama-architecture chat model: `trace` one sequence, `generate` an answer."""

    def __init__(self, config: LlmConfig, tokenizer: LlmTokenizer) -> None:
        super().__init__()
        self.config = config
        self.tokenizer = tokenizer
        self.embed = nn.Embedding(config.vocab_size, config.d_model)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.n_layers))
        self.norm = RMSNorm(config.d_model, config.rms_eps)
        if not config.tied:
            self.unembed = nn.Linear(config.d_model, config.vocab_size, bias=False)
        self.buffers = BufferPool()  # a trace's big results (283 MB of attentions at 512 tokens)
        self._rows_copy: tuple[torch.Tensor, int, torch.Tensor] | None = None  # W_U, version, copy

    def release_buffers(self) -> None:
        """Hand the memory of freed traces kept for the next one back to the system."""
        self.buffers.release()

    @property
    def unembedding(self) -> torch.Tensor:
        """(V, C) W_U: logits = RMSNorm(x) @ W_U^T (the embedding itself when tied)."""
        return self.embed.weight if self.config.tied else self.unembed.weight

    def keep_row_major_unembedding(self) -> None:
        """Keep a row-major copy of W_U when it is stored column-major (`load_llm` stores it so,
        for writing: one vector times W_U streams faster that way), for `logits_of` many rows.
        The copy is used only while W_U is the same tensor, unchanged since."""
        w = self.unembedding
        if w.is_contiguous() or w.is_inference():  # an inference tensor has no version to check
            self._rows_copy = None
        else:
            self._rows_copy = (w, w._version, w.contiguous())

    @property
    def unembedding_rows(self) -> torch.Tensor:
        """(V, C) W_U row-major: the copy while it is current, else W_U as it is stored."""
        w = self.unembedding
        kept = self._rows_copy
        if kept is not None and kept[0] is w and kept[1] == w._version:
            return kept[2]
        return w

    def embed_tokens(self, ids: torch.Tensor) -> torch.Tensor:
        """(T,) ids -> (T, C) their rows of the embedding (of the row-major copy when tied:
        a row of a column-major table is C scattered numbers)."""
        return F.embedding(ids, self.unembedding_rows) if self.config.tied else self.embed(ids)

    def logits_of(self, h: torch.Tensor) -> torch.Tensor:
        """(R, C) residual-stream rows -> (R, V) logits: the final RMSNorm, then @ W_U^T; one
        row (C,) -> (V,).

        One row multiplies W_U as it is stored (a (C,) row: a matrix-vector product). Several
        rows multiply a row-major W_U in blocks of VOCAB_BLOCK tokens of the vocabulary: MKL
        took 10-25% longer for the whole (R, 49,152) product at once, at 4 to 512 rows (README).
        """
        h = self.norm(h)  # (R, C)
        w = self.unembedding_rows
        if h.dim() == 1 or h.shape[0] == 1 or not w.is_contiguous():
            return F.linear(h, self.unembedding)  # (R, V) or (V,)
        out = torch.empty(h.shape[0], w.shape[0], dtype=h.dtype)  # (R, V)
        for j in range(0, w.shape[0], VOCAB_BLOCK):
            torch.mm(h, w[j : j + VOCAB_BLOCK].t(), out=out[:, j : j + VOCAB_BLOCK])
        return out

    def rope(self, start: int, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        """(n, hs) cos and sin of RoPE's angles at positions start .. start + n - 1."""
        positions = torch.arange(start, start + n)
        return rope_cos_sin(positions, self.config.head_size, self.config.rope_base)

    # --- text ---------------------------------------------------------------------------------
    def chat_ids(self, question: str, system: str | None = None) -> list[int]:
        """The prompt ids of a one-question chat, ending where the assistant's answer starts
        (the file's template; with no `system`, the template's default system message)."""
        messages = [] if system is None else [{"role": "system", "content": system}]
        messages.append({"role": "user", "content": question})
        return self.tokenizer.encode(self.tokenizer.chat_text(messages))

    def _ids(self, ids) -> torch.Tensor:
        t = torch.as_tensor(ids, dtype=torch.long).reshape(-1)  # (T,)
        if t.numel() == 0:
            raise ValueError("no tokens: give at least one token id")
        V = self.config.vocab_size
        if int(t.min()) < 0 or int(t.max()) >= V:
            raise ValueError(f"token ids must be in 0 .. {V - 1}")
        if t.numel() > self.config.context_length:
            raise ValueError(
                f"{t.numel()} tokens: the model reads at most {self.config.context_length}"
            )
        return t

    # --- one pass over a sequence -------------------------------------------------------------
    @torch.inference_mode()
    def trace(
        self,
        ids,
        *,
        layers: Sequence[int] | None = None,
        rows: Sequence[int] | None = None,
        residual: bool = True,
    ) -> LlmTrace:
        """Run the model over one sequence of token ids and return what it computed.

        What is kept (memory: at 512 tokens every layer's weights are L nh T T x 4 bytes =
        283 MB for SmolLM2-135M):
        - `layers`: the layers kept in full (`LlmTrace.layers`); None = all, () = none;
        - `rows`: the query positions whose attention rows, head outputs and logits are kept;
          None = all;
        - `residual`: keep each layer's attention and MLP outputs (L, T, C) each.
        """
        cfg = self.config
        ids = self._ids(ids)
        T, L, nh = ids.shape[0], cfg.n_layers, cfg.n_heads
        keep = set(range(L)) if layers is None else set(_index_list(layers, L, "layers"))
        row_list = list(range(T)) if rows is None else _index_list(rows, T, "rows")
        row_t = torch.tensor(row_list, dtype=torch.long)
        all_rows = rows is None
        new = self.buffers.empty  # the memory of an earlier trace's results once they are gone
        attentions = new(L, nh, len(row_list), T)  # (L, nh, R, T)
        head_outs = new(L, nh, len(row_list), cfg.head_size)  # (L, nh, R, hs)
        hidden = new(L + 1, T, cfg.d_model)  # (L+1, T, C)
        attn_outs = new(L, T, cfg.d_model) if residual else None
        mlp_outs = new(L, T, cfg.d_model) if residual else None
        kept: dict[int, LayerTrace] = {}

        x = self.embed_tokens(ids)[None]  # (1, T, C) token embeddings
        rope = self.rope(0, T)  # (T, hs) cos and sin, shared by every layer
        for i, block in enumerate(self.blocks):
            hidden[i] = x[0]
            # all rows: the softmax writes straight into this layer's slice of the stack
            out = block(x, rope, weights_out=attentions[i : i + 1] if all_rows else None)
            if all_rows:
                head_outs[i] = out.attn.head_outputs[0]  # (nh, T, hs)
            else:
                attentions[i] = out.attn.weights[0][:, row_t]  # (nh, R, T)
                head_outs[i] = out.attn.head_outputs[0][:, row_t]  # (nh, R, hs)
            if residual:
                attn_outs[i] = out.attn.output[0]
                mlp_outs[i] = out.mlp_out[0]
            if i in keep:
                kept[i] = LayerTrace(layer=i, normed=out.normed[0], attn=out.attn)
            x = out.x  # (1, T, C)
        hidden[L] = x[0]
        logits = self.logits_of(x[0, row_t])  # (R, V)
        return LlmTrace(
            ids=ids,
            rows=row_t,
            logits=logits,
            attentions=attentions,
            head_outputs=head_outs,
            hidden_states=hidden,
            attn_outputs=attn_outs,
            mlp_outputs=mlp_outs,
            layers=kept,
        )

    # --- generation with our KV cache ---------------------------------------------------------
    @torch.inference_mode()
    def forward_cached(self, ids, cache: KVCache) -> torch.Tensor:
        """Run new tokens `ids` (T,) after the tokens already in `cache` (appended to it);
        return the logits of the last new token (V,). Equal to running the whole sequence."""
        ids = torch.as_tensor(ids, dtype=torch.long).reshape(-1)
        x = self.embed_tokens(ids)[None]  # (1, T, C)
        rope = self.rope(cache.length, ids.shape[0])  # the new tokens' positions
        for i, block in enumerate(self.blocks):
            out = block(x, rope, past_kv=cache.layer(i))
            cache.set(i, out.attn.k, out.attn.v)  # (1, n_kv, Tp + T, hs): past and new
            x = out.x
        return self.logits_of(x[0, -1])  # (V,)

    def stream(
        self,
        ids,
        max_new_tokens: int,
        temperature: float = 0.0,
        top_k: int | None = None,
        top_p: float | None = None,
        seed: int = 0,
        n_candidates: int = 5,
    ) -> Iterator[GenerationStep]:
        """Yield the answer token by token (stop early by no longer asking for the next);
        ends after the end-of-turn token (EOS, <|im_end|> for SmolLM2) or max_new_tokens."""
        check_sampling(max_new_tokens, temperature, top_k, top_p, n_candidates)
        prompt = self._ids(ids)
        if prompt.numel() + max_new_tokens > self.config.context_length:
            raise ValueError(
                f"{prompt.numel()} prompt tokens + {max_new_tokens} new ones exceed the "
                f"model's {self.config.context_length} tokens"
            )
        g = torch.Generator().manual_seed(int(seed))
        cache = KVCache(self.config.n_layers)
        eos = self.tokenizer.eos_id
        new: list[int] = []
        text = ""
        logits = self.forward_cached(prompt, cache) if max_new_tokens else None
        for n in range(max_new_tokens):
            token, cand, probs = pick_token(logits, temperature, top_k, top_p, g, n_candidates)
            new.append(token)
            full = self.tokenizer.decode(new)
            piece, text = full[len(text) :] if full.startswith(text) else full, full
            done = token == eos
            yield GenerationStep(
                index=n,
                token=token,
                piece=piece,
                candidates=cand,
                probs=probs,
                eos=done,
            )
            if done or n + 1 == max_new_tokens:
                return
            logits = self.forward_cached([token], cache)

    def generate(
        self,
        ids,
        max_new_tokens: int,
        temperature: float = 0.0,
        top_k: int | None = None,
        top_p: float | None = None,
        seed: int = 0,
        on_token: Callable[[GenerationStep], object] | None = None,
        stop: Callable[[], bool] | None = None,
        n_candidates: int = 5,
    ) -> Generation:
        """Generate up to max_new_tokens after `ids` with our KV cache.

        temperature 0 is greedy (the most likely token each step); otherwise the logits / T are
        sampled, after top-k and top-p (nucleus) filtering, from a generator seeded by `seed`.
        `on_token(step)` is called after each token; `stop()` (e.g. `event.is_set`) is asked
        before each next token and ends the answer when it returns True.
        """
        steps: list[GenerationStep] = []
        reason = "length"
        stream = self.stream(ids, max_new_tokens, temperature, top_k, top_p, seed, n_candidates)
        for step in stream:
            steps.append(step)
            if on_token is not None:
                on_token(step)
            if step.eos:
                reason = "eos"
            elif stop is not None and stop():
                reason = "stopped"
                stream.close()
                break
        new = [s.token for s in steps]
        return Generation(
            prompt=tuple(int(i) for i in torch.as_tensor(ids).reshape(-1)),
            ids=tuple(new),
            text=self.tokenizer.decode(new),
            steps=tuple(steps),
            stop_reason=reason,
        )
