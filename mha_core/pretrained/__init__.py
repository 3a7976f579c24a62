"""The real all-MiniLM-L6-v2 (a 6-layer BERT encoder) running through our own attention core.

- `config.py`: the BERT hyper-parameters (`BertConfig`);
- `model.py`: embeddings, layers, `PretrainedModel.trace` -> `PretrainedTrace`;
- `loading.py`: `load_pretrained()` reads the model's files into our modules;
- `reheading.py`: one trained layer split into another number of heads.
Tokenizing (WordPiece, [CLS]/[SEP], truncation) is in `mha_core/layer/wordpiece.py`.
"""

from ..layer.wordpiece import BertInput, BertTokenizer, default_model_path
from .config import BertConfig
from .loading import load_pretrained
from .model import PretrainedModel, PretrainedTrace
from .reheading import layer_trace, rehead

__all__ = [
    "BertConfig",
    "BertInput",
    "BertTokenizer",
    "PretrainedModel",
    "PretrainedTrace",
    "default_model_path",
    "layer_trace",
    "load_pretrained",
    "rehead",
]
