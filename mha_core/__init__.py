"""Attention Lens core: pure computation (torch + numpy), no UI."""

from .addnorm import DropoutResult, NormStatistics, attention_dropout, norm_statistics
from .attention import AttentionTrace, MultiHeadAttention, causal_mask, padding_mask
from .config import AttentionConfig, check_heads, valid_head_counts
from .embed import embed_tokens, token_embedding
from .pipeline import SentenceAttention, build_attention, run_attention
from .positional import layout_permutation, sinusoidal_encoding, wavelengths
from .pretrained import PretrainedModel, PretrainedTrace, load_pretrained
from .reading import (
    CLARK_2019,
    CorpusStatistics,
    ablate_heads,
    attention_shares,
    corpus_statistics,
    head_ablation,
    load_corpus,
    rollout,
    row_shares,
    sentence_embedding,
    transformed_value_norms,
    value_norms,
)
from .tokenize import MAX_TOKENS, TokenizedText, split_words, word_tokenize
from .transformer import (
    DecoderLayer,
    DecoderLayerTrace,
    DecoderOutput,
    EncoderDecoder,
    EncoderDecoderConfig,
    EncoderDecoderTrace,
    EncoderLayer,
    EncoderLayerTrace,
    EncoderOutput,
    greedy_decode,
)
from .wordpiece import load_wordpiece, wordpiece_tokenize

__all__ = [
    "MAX_TOKENS",
    "AttentionConfig",
    "AttentionTrace",
    "MultiHeadAttention",
    "PretrainedModel",
    "PretrainedTrace",
    "SentenceAttention",
    "TokenizedText",
    "build_attention",
    "causal_mask",
    "check_heads",
    "embed_tokens",
    "layout_permutation",
    "load_pretrained",
    "padding_mask",
    "run_attention",
    "sinusoidal_encoding",
    "split_words",
    "token_embedding",
    "valid_head_counts",
    "wavelengths",
    "word_tokenize",
    "wordpiece_tokenize",
    "load_wordpiece",
    "DecoderLayer",
    "DecoderLayerTrace",
    "DecoderOutput",
    "DropoutResult",
    "EncoderDecoder",
    "EncoderDecoderConfig",
    "EncoderDecoderTrace",
    "EncoderLayer",
    "EncoderLayerTrace",
    "EncoderOutput",
    "NormStatistics",
    "attention_dropout",
    "greedy_decode",
    "norm_statistics",
    "CLARK_2019",
    "CorpusStatistics",
    "ablate_heads",
    "attention_shares",
    "corpus_statistics",
    "head_ablation",
    "load_corpus",
    "rollout",
    "row_shares",
    "sentence_embedding",
    "transformed_value_norms",
    "value_norms",
]
