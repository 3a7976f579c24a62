"""Attention Lens core: pure computation (torch + numpy), no UI."""

from .addnorm import DropoutResult, NormStatistics, attention_dropout, norm_statistics
from .attention import AttentionTrace, MultiHeadAttention, causal_mask, padding_mask
from .config import AttentionConfig, check_heads, valid_head_counts
from .embed import embed_tokens, token_embedding
from .pipeline import SentenceTrace, build_attention, run_attention
from .positional import layout_permutation, sinusoidal_encoding, wavelengths
from .pretrained import PretrainedModel, PretrainedTrace, load_pretrained
from .tokenize import (
    MAX_TOKENS,
    TokenizedText,
    load_wordpiece,
    split_words,
    word_tokenize,
    wordpiece_tokenize,
)
from .toy_tasks import TASKS, ToyBatch, ToyTask, get_task, mirror_index
from .training import (
    AttentionSnapshot,
    HistoryRow,
    Prediction,
    ToyRun,
    ToyTrainer,
    TrainProgress,
    TrainSettings,
    evaluate,
    predict,
    train_toy,
)
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

__all__ = [
    "MAX_TOKENS",
    "AttentionConfig",
    "AttentionTrace",
    "MultiHeadAttention",
    "PretrainedModel",
    "PretrainedTrace",
    "SentenceTrace",
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
    "TASKS",
    "AttentionSnapshot",
    "HistoryRow",
    "Prediction",
    "ToyBatch",
    "ToyRun",
    "ToyTask",
    "ToyTrainer",
    "TrainProgress",
    "TrainSettings",
    "evaluate",
    "get_task",
    "mirror_index",
    "predict",
    "train_toy",
]
