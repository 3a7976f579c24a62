"""Attention Lens core: pure computation (torch + numpy), no UI, organised by topic:

- `layer`: the attention layer and its inputs (config, masks, positional, tokenizers, ...);
- `lessons`: what the lesson pages compute (steps, scaling, permutation, add & norm, ...);
- `transformer`: encoder/decoder layers, the encoder-decoder model, toy tasks and training;
- `pretrained`: all-MiniLM-L6-v2 through our core;
- `gpt`: a GPT-style decoder-only model, its tasks (induction), training and head scores;
- `interpret`: reading trained heads (rollout, value norms, ablation, corpus, filters, ...);
- `efficient`: attention as today's language models run it (KV cache, window / sink masks,
  FlashAttention's tiles);
- `llm`: a real chat model (SmolLM2-135M-Instruct, a llama-architecture GGUF file) through our
  core: loading, tokenizer, trace, generation with our KV cache, logit lens, head attribution.

Every sub-package's public names (its `__all__`) are importable from here as well:
`mha_core.MultiHeadAttention`, `mha_core.train_toy`, `mha_core.load_pretrained`, ...
"""

from . import efficient, gpt, interpret, layer, lessons, llm, pretrained, transformer
from .efficient import *
from .gpt import *
from .interpret import *
from .layer import *
from .lessons import *
from .llm import *
from .pretrained import *
from .transformer import *

__all__ = [
    name
    for package in (layer, lessons, transformer, pretrained, interpret, gpt, efficient, llm)
    for name in package.__all__
]
