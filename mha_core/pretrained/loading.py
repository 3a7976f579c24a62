"""Load all-MiniLM-L6-v2 from its files (safetensors + config.json + tokenizer.json) into our
modules; Hugging Face's parameter names are renamed to ours. Never downloads."""

from __future__ import annotations

from pathlib import Path

import torch
from safetensors.torch import load_file

from ..layer.wordpiece import BertTokenizer, default_model_path, load_wordpiece
from .config import BertConfig
from .model import PretrainedModel


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


def load_pretrained(path: str | Path | None = None) -> PretrainedModel:
    """Load all-MiniLM-L6-v2 (or another BERT folder with model.safetensors, config.json and
    tokenizer.json) into our modules. Reads local files only; never downloads."""
    folder = default_model_path() if path is None else Path(path)
    for name in ("model.safetensors", "config.json", "tokenizer.json"):
        if not (folder / name).is_file():
            raise FileNotFoundError(f"{folder} has no {name}; expected a BERT model folder")
    config = BertConfig.from_json(folder / "config.json")
    tokenizer = BertTokenizer(load_wordpiece(folder), config.max_position_embeddings)
    model = PretrainedModel(config, tokenizer)
    state = _hf_to_ours(load_file(str(folder / "model.safetensors")), config.num_hidden_layers)
    model.load_state_dict(state, strict=True, assign=True)
    model.requires_grad_(False)
    return model.eval()
