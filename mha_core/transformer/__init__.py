"""The encoder-decoder Transformer: its layers (`layers`), the model and greedy decoding
(`model`), the toy tasks (`toy_tasks`), toy training (`training`, on the chunked, stoppable
loop of `trainer` that the GPT decoder's training shares), using a trained run
(`prediction`) and reading typed symbols (`symbols`)."""

from .layers import DecoderLayer, DecoderLayerTrace, EncoderLayer, EncoderLayerTrace
from .model import (
    DecoderOutput,
    EncoderDecoder,
    EncoderDecoderConfig,
    EncoderDecoderTrace,
    EncoderOutput,
    greedy_decode,
)
from .prediction import (
    Prediction,
    alignment,
    alignment_over_time,
    evaluate,
    expected_sources,
    n_parameters,
    predict,
    try_input,
    weights_bytes,
)
from .symbols import InputProblem, read_symbols
from .toy_tasks import TASKS, ToyBatch, ToyTask, get_task, mirror_index
from .training import (
    AttentionSnapshot,
    HistoryRow,
    ToyRun,
    ToyTrainer,
    TrainProgress,
    TrainSettings,
    suggested_lr,
    train_toy,
)

__all__ = [
    "TASKS",
    "AttentionSnapshot",
    "DecoderLayer",
    "DecoderLayerTrace",
    "DecoderOutput",
    "EncoderDecoder",
    "EncoderDecoderConfig",
    "EncoderDecoderTrace",
    "EncoderLayer",
    "EncoderLayerTrace",
    "EncoderOutput",
    "HistoryRow",
    "InputProblem",
    "Prediction",
    "ToyBatch",
    "ToyRun",
    "ToyTask",
    "ToyTrainer",
    "TrainProgress",
    "TrainSettings",
    "alignment",
    "alignment_over_time",
    "evaluate",
    "expected_sources",
    "get_task",
    "greedy_decode",
    "mirror_index",
    "n_parameters",
    "predict",
    "read_symbols",
    "suggested_lr",
    "train_toy",
    "try_input",
    "weights_bytes",
]
