"""The hyper-parameters of a llama-architecture model, read from a GGUF file's metadata."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..efficient.kv_cache import kv_cache_bytes
from ..layer.config import check_heads
from ..layer.grouped import check_kv_heads


@dataclass(frozen=True)
class LlmConfig:
    """Every hyper-parameter of an `LlmModel` (the GGUF key after `llama.` in the comments)."""

    vocab_size: int  # V (vocab_size, or the number of tokens)
    d_model: int  # C (embedding_length)
    n_layers: int  # L (block_count)
    n_heads: int  # nh query heads (attention.head_count)
    n_kv_heads: int  # key/value heads (attention.head_count_kv); nh / n_kv queries share one
    d_ff: int  # F, the SwiGLU width (feed_forward_length)
    rope_base: float = 10000.0  # RoPE's base (rope.freq_base)
    rms_eps: float = 1e-5  # RMSNorm's epsilon (attention.layer_norm_rms_epsilon)
    context_length: int = 2048  # tokens the model was trained on (context_length)
    tied: bool = True  # the unembedding is the token embedding (no output.weight)

    def __post_init__(self) -> None:
        for name in ("vocab_size", "d_model", "n_layers", "n_heads", "n_kv_heads", "d_ff"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        check_heads(self.d_model, self.n_heads)
        check_kv_heads(self.n_heads, self.n_kv_heads)
        if self.head_size % 2:
            raise ValueError(f"RoPE turns pairs of dimensions: the head size must be even, "
                             f"got {self.head_size}")
        if not self.rope_base > 1.0:
            raise ValueError(f"rope_base must be > 1, got {self.rope_base}")
        if not self.rms_eps > 0.0:
            raise ValueError(f"rms_eps must be positive, got {self.rms_eps}")

    @property
    def head_size(self) -> int:
        """hs = C / nh, the dimensions of one head (64 for SmolLM2-135M)."""
        return self.d_model // self.n_heads

    def kv_cache_bytes(
        self, n_tokens: int, n_kv_heads: int | None = None, bytes_per_value: int = 4
    ) -> int:
        """Bytes of the KV cache for `n_tokens` tokens of one sequence: 2 (k and v) x L x
        n_kv_heads x hs x T x bytes_per_value; `n_kv_heads` None: the model's own (3 for
        SmolLM2-135M; its 9 query heads would need 3 times as much)."""
        return kv_cache_bytes(
            n_layers=self.n_layers,
            n_kv_heads=self.n_kv_heads if n_kv_heads is None else n_kv_heads,
            d_k=self.head_size,
            n_tokens=n_tokens,
            bytes_per_value=bytes_per_value,
        )

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_metadata(cls, meta: dict, tensor_names: set[str]) -> LlmConfig:
        """From GGUF metadata (key -> value) and the file's tensor names; a clear ValueError
        when the file is not a llama model this code can run."""
        arch = meta.get("general.architecture")
        if arch != "llama":
            raise ValueError(
                f"this GGUF file holds a {arch!r} model; only the llama architecture is supported"
            )

        def get(key: str, default=None):
            value = meta.get(f"llama.{key}", default)
            if value is None:
                raise ValueError(f"the GGUF file has no llama.{key} in its metadata")
            return value

        n_heads = int(get("attention.head_count"))
        d_model = int(get("embedding_length"))
        tokens = meta.get("tokenizer.ggml.tokens")
        vocab = meta.get("llama.vocab_size", len(tokens) if tokens is not None else None)
        if vocab is None:
            raise ValueError("the GGUF file gives neither llama.vocab_size nor a vocabulary")
        head_size = d_model // n_heads if n_heads else 0
        for key in ("rope.dimension_count", "attention.key_length", "attention.value_length"):
            value = meta.get(f"llama.{key}")
            if value is not None and int(value) != head_size:
                raise ValueError(
                    f"llama.{key} = {value}, but d_model / n_heads = {head_size}: heads of "
                    "another size, or RoPE on part of a head, are not supported"
                )
        scaling = meta.get("llama.rope.scaling.type")
        if scaling not in (None, "none"):
            raise ValueError(f"RoPE scaling {scaling!r} is not supported")
        return cls(
            vocab_size=int(vocab),
            d_model=d_model,
            n_layers=int(get("block_count")),
            n_heads=n_heads,
            n_kv_heads=int(get("attention.head_count_kv", n_heads)),
            d_ff=int(get("feed_forward_length")),
            rope_base=float(get("rope.freq_base", 10000.0)),
            rms_eps=float(get("attention.layer_norm_rms_epsilon")),
            context_length=int(get("context_length", 2048)),
            tied="output.weight" not in tensor_names,
        )
