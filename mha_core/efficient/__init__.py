"""Attention as today's language models run it: the KV cache, window / sink / global masks and
FlashAttention's tiles with the online softmax (RoPE, ALiBi and grouped-query attention live
with the layer, in `mha_core.layer`)."""

from .flash import FlashResult, FlashStep, ScoreMemory, flash_attention, score_memory
from .kv_cache import (
    BYTES_PER_VALUE,
    PUBLISHED_CONFIGS,
    CachedDecode,
    CacheStep,
    PublishedConfig,
    decode_with_cache,
    kv_cache_bytes,
)
from .masks import (
    ReceptiveField,
    attention_mask,
    receptive_field,
    sliding_window_mask,
    window_reach,
)

__all__ = [
    "BYTES_PER_VALUE",
    "PUBLISHED_CONFIGS",
    "CacheStep",
    "CachedDecode",
    "FlashResult",
    "FlashStep",
    "PublishedConfig",
    "ReceptiveField",
    "ScoreMemory",
    "attention_mask",
    "decode_with_cache",
    "flash_attention",
    "kv_cache_bytes",
    "receptive_field",
    "score_memory",
    "sliding_window_mask",
    "window_reach",
]
