"""Attention as today's language models use it: RoPE, ALiBi, grouped-query attention, the KV
cache, window / sink / global masks and FlashAttention's tiles with the online softmax."""

from .alibi import alibi_attention, alibi_bias, alibi_slopes
from .flash import FlashResult, FlashStep, ScoreMemory, flash_attention, score_memory
from .gqa import (
    GroupedAttention,
    check_kv_heads,
    grouped_query_attention,
    kv_head_of,
    mean_pool_kv,
    repeat_kv,
    valid_kv_head_counts,
)
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
from .rope import (
    PairRotation,
    ShiftTest,
    apply_rope,
    pair_rotation,
    rope_cos_sin,
    rope_frequencies,
    rotate_half,
    shift_test,
)

__all__ = [
    "BYTES_PER_VALUE",
    "PUBLISHED_CONFIGS",
    "CacheStep",
    "CachedDecode",
    "FlashResult",
    "FlashStep",
    "GroupedAttention",
    "PairRotation",
    "PublishedConfig",
    "ReceptiveField",
    "ScoreMemory",
    "ShiftTest",
    "alibi_attention",
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "attention_mask",
    "check_kv_heads",
    "decode_with_cache",
    "flash_attention",
    "grouped_query_attention",
    "kv_cache_bytes",
    "kv_head_of",
    "mean_pool_kv",
    "pair_rotation",
    "receptive_field",
    "repeat_kv",
    "rope_cos_sin",
    "rope_frequencies",
    "rotate_half",
    "score_memory",
    "shift_test",
    "sliding_window_mask",
    "valid_kv_head_counts",
    "window_reach",
]
