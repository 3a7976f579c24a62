"""Small llama models written as GGUF files with the gguf package's own writer, the way
llama.cpp's converter writes them (W_Q and W_K rows permuted for its RoPE, 1-D norms in F32),
for checking our reader and model against Hugging Face beyond the shipped file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

CHATML = (
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content']"
    " + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|im_start|>assistant\n' }}{% endif %}"
)
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
MERGES = ["Ġ t", "h e", "Ġt he", "i n", "a t", "Ġ a", "e r", "o n", "Ġ s", "r e"]


@dataclass(frozen=True)
class TinyLlama:
    d_model: int = 64
    n_heads: int = 4
    n_kv_heads: int = 2
    n_layers: int = 2
    d_ff: int = 96
    rope_base: float = 10000.0
    rms_eps: float = 1e-5
    context: int = 256
    seed: int = 0


def byte_alphabet() -> list[str]:
    """GPT-2's 256 byte characters, in byte order (written independently of our tokenizer)."""
    bs = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
          *range(ord("®"), ord("ÿ") + 1)]
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    table = dict(zip(bs, cs, strict=True))
    return [chr(table[b]) for b in range(256)]


def vocabulary() -> tuple[list[str], list[int], list[str]]:
    """Tokens (3 control tokens, 256 bytes, one per merge), their types, the merges."""
    merged = [m.replace(" ", "") for m in MERGES]
    tokens = SPECIAL + byte_alphabet() + merged
    types = [3] * len(SPECIAL) + [1] * (len(tokens) - len(SPECIAL))
    return tokens, types, MERGES


def llama_cpp_permute(w: np.ndarray, n_head: int) -> np.ndarray:
    """llama.cpp's convert_hf_to_gguf.py `LlamaModel.permute`: HF rows -> GGUF rows."""
    return (w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:])
            .swapaxes(1, 2).reshape(w.shape))


def random_weights(cfg: TinyLlama, vocab_size: int) -> dict[str, np.ndarray]:
    """Hugging Face-layout weights (rotate-half Q/K rows), GGUF names. Q and K are larger than
    the rest so that the attention is far from uniform and RoPE's pairing matters."""
    rng = np.random.default_rng(cfg.seed)
    C, F, kv = cfg.d_model, cfg.d_ff, cfg.n_kv_heads * (cfg.d_model // cfg.n_heads)

    def normal(*shape, std=0.08):
        return (rng.standard_normal(shape) * std).astype(np.float32)

    w = {"token_embd.weight": normal(vocab_size, C, std=0.5),
         "output_norm.weight": 1 + normal(C, std=0.1)}
    for i in range(cfg.n_layers):
        b = f"blk.{i}."
        w |= {b + "attn_norm.weight": 1 + normal(C, std=0.1),
              b + "attn_q.weight": normal(C, C, std=0.3),
              b + "attn_k.weight": normal(kv, C, std=0.3),
              b + "attn_v.weight": normal(kv, C, std=0.15),
              b + "attn_output.weight": normal(C, C, std=0.15),
              b + "ffn_norm.weight": 1 + normal(C, std=0.1),
              b + "ffn_gate.weight": normal(F, C, std=0.15),
              b + "ffn_up.weight": normal(F, C, std=0.15),
              b + "ffn_down.weight": normal(C, F, std=0.15)}
    return w


def write_llama_gguf(
    path: Path,
    cfg: TinyLlama = TinyLlama(),
    qtype: str = "F32",
    *,
    pre: str = "smollm",
    architecture: str = "llama",
    drop: tuple[str, ...] = (),
    raw: dict[str, tuple[str, np.ndarray]] | None = None,
) -> dict[str, np.ndarray]:
    """Write a random tiny llama as GGUF; 2-D weights stored as `qtype` (norms F32). Returns
    the HF-layout float32 weights before quantization. `drop` leaves tensors out; `raw` writes
    a tensor as given bytes of a given type (to test formats the reader refuses)."""
    import gguf

    tokens, types, merges = vocabulary()
    weights = random_weights(cfg, len(tokens))
    writer = gguf.GGUFWriter(str(path), architecture)
    writer.add_block_count(cfg.n_layers)
    writer.add_context_length(cfg.context)
    writer.add_embedding_length(cfg.d_model)
    writer.add_feed_forward_length(cfg.d_ff)
    writer.add_head_count(cfg.n_heads)
    writer.add_head_count_kv(cfg.n_kv_heads)
    writer.add_rope_freq_base(cfg.rope_base)
    writer.add_rope_dimension_count(cfg.d_model // cfg.n_heads)
    writer.add_layer_norm_rms_eps(cfg.rms_eps)
    writer.add_vocab_size(len(tokens))
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(pre)
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)
    writer.add_pad_token_id(2)
    writer.add_add_bos_token(False)
    writer.add_chat_template(CHATML)
    q = gguf.GGMLQuantizationType[qtype]
    for name, w in weights.items():
        if name in drop:
            continue
        if raw and name in raw:
            kind, data = raw[name]
            writer.add_tensor(name, data, raw_dtype=gguf.GGMLQuantizationType[kind])
            continue
        if name.endswith(("attn_q.weight", "attn_k.weight")):
            n = cfg.n_heads if "attn_q" in name else cfg.n_kv_heads
            w = llama_cpp_permute(w, n)
        if w.ndim == 1 or qtype == "F32":
            writer.add_tensor(name, w)
        elif qtype == "F16":
            writer.add_tensor(name, w.astype(np.float16))
        else:
            writer.add_tensor(name, gguf.quantize(w, q), raw_dtype=q)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return weights
