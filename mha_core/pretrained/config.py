"""The BERT hyper-parameters, read from a Hugging Face config.json."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path

from ..layer.config import check_heads, head_size


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
        check_heads(self.hidden_size, self.num_attention_heads)

    @classmethod
    def from_json(cls, path: str | Path) -> BertConfig:
        """Read the fields we know from a Hugging Face config.json; ignore the others."""
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        if raw.get("model_type", "bert") != "bert":
            raise ValueError(f"expected a BERT config.json, got model_type={raw['model_type']!r}")
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in known})

    @property
    def d_k(self) -> int:
        """Dimensions per head: hidden_size / num_attention_heads."""
        return head_size(self.hidden_size, self.num_attention_heads)
