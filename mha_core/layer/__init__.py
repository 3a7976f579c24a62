"""The attention layer and its inputs: settings and limits, masks, `MultiHeadAttention` (with
grouped key/value heads), positional encodings (sinusoidal, RoPE, ALiBi), tokenizers,
embeddings, per-head statistics, export, and the one-call pipeline from a sentence to its
attention."""

from .attention import AttentionTrace, MultiHeadAttention
from .config import AttentionConfig, check_heads, valid_head_counts
from .embed import embed_tokens, token_embedding
from .grouped import (
    GroupedAttention,
    check_kv_heads,
    grouped_query_attention,
    kv_head_of,
    mean_pool_kv,
    repeat_kv,
    valid_kv_head_counts,
)
from .masks import causal_mask, padding_mask
from .pipeline import SentenceAttention, build_attention, run_attention
from .positional import layout_permutation, sinusoidal_encoding, wavelengths
from .positional_alibi import alibi_attention, alibi_bias, alibi_slopes
from .positional_rope import (
    PairRotation,
    ShiftTest,
    apply_rope,
    pair_rotation,
    rope_cos_sin,
    rope_frequencies,
    rotate_half,
    shift_test,
)
from .tokenize import MAX_TOKENS, TokenizedText, split_words, word_tokenize
from .wordpiece import load_wordpiece, wordpiece_tokenize

__all__ = [
    "GroupedAttention",
    "PairRotation",
    "ShiftTest",
    "alibi_attention",
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "check_kv_heads",
    "grouped_query_attention",
    "kv_head_of",
    "mean_pool_kv",
    "pair_rotation",
    "repeat_kv",
    "rope_cos_sin",
    "rope_frequencies",
    "rotate_half",
    "shift_test",
    "valid_kv_head_counts",
    "MAX_TOKENS",
    "AttentionConfig",
    "AttentionTrace",
    "MultiHeadAttention",
    "SentenceAttention",
    "TokenizedText",
    "build_attention",
    "causal_mask",
    "check_heads",
    "embed_tokens",
    "layout_permutation",
    "load_wordpiece",
    "padding_mask",
    "run_attention",
    "sinusoidal_encoding",
    "split_words",
    "token_embedding",
    "valid_head_counts",
    "wavelengths",
    "word_tokenize",
    "wordpiece_tokenize",
]
