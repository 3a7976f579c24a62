"""The attention layer and its inputs: settings and limits, masks, `MultiHeadAttention`,
positional encodings, tokenizers, embeddings, per-head statistics, export, and the one-call
pipeline from a sentence to its attention."""

from .attention import AttentionTrace, MultiHeadAttention
from .config import AttentionConfig, check_heads, valid_head_counts
from .embed import embed_tokens, token_embedding
from .masks import causal_mask, padding_mask
from .pipeline import SentenceAttention, build_attention, run_attention
from .positional import layout_permutation, sinusoidal_encoding, wavelengths
from .tokenize import MAX_TOKENS, TokenizedText, split_words, word_tokenize
from .wordpiece import load_wordpiece, wordpiece_tokenize

__all__ = [
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
