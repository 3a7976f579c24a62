"""The encoder-decoder Transformer: its layers (`layers`), the model and greedy decoding
(`model`), the toy tasks (`toy_tasks`), toy training (`training`, on the chunked, stoppable
loop of `trainer` that the GPT decoder's training shares) and using a trained run
(`prediction`)."""

from .layers import DecoderLayer, DecoderLayerTrace, EncoderLayer, EncoderLayerTrace
from .model import (
    DecoderOutput,
    EncoderDecoder,
    EncoderDecoderConfig,
    EncoderDecoderTrace,
    EncoderOutput,
    greedy_decode,
)
from .prediction import Prediction, evaluate, predict
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
    "Prediction",
    "ToyBatch",
    "ToyRun",
    "ToyTask",
    "ToyTrainer",
    "TrainProgress",
    "TrainSettings",
    "evaluate",
    "get_task",
    "greedy_decode",
    "mirror_index",
    "predict",
    "suggested_lr",
    "train_toy",
]
