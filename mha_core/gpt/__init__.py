"""A GPT-style decoder on our attention, trained live on induction and toy LM tasks.

- `model.py`: `DecoderOnlyConfig`, `DecoderOnly` (+ `from_hf_gpt2`), `DecoderOnlyOutput`;
- `tasks.py`: the language-model tasks (`induction`, and reverse/sort/copy as "abc|cba");
- `training.py`: `train_decoder` / `DecoderTrainer` (chunked, stoppable, like `train_toy`);
- `interpret.py`: head scores, direct logit attribution, the next token after typed text, the
  attention sink.
"""

from .interpret import (
    HEAD_KINDS,
    LogitAttribution,
    NextToken,
    direct_logit_attribution,
    head_scores,
    model_sink_share,
    next_token,
    pretrained_sink_share,
    sink_share,
    target_pattern,
)
from .model import BlockTrace, DecoderOnly, DecoderOnlyConfig, DecoderOnlyOutput, gelu_new
from .tasks import LM_TASKS, InductionTask, LMBatch, SeqToSeqLM, get_lm_task
from .training import (
    DecoderHistoryRow,
    DecoderProgress,
    DecoderRun,
    DecoderSettings,
    DecoderSnapshot,
    DecoderTrainer,
    accuracy_on,
    train_decoder,
)

__all__ = [
    "HEAD_KINDS",
    "LM_TASKS",
    "BlockTrace",
    "DecoderHistoryRow",
    "DecoderOnly",
    "DecoderOnlyConfig",
    "DecoderOnlyOutput",
    "DecoderProgress",
    "DecoderRun",
    "DecoderSettings",
    "DecoderSnapshot",
    "DecoderTrainer",
    "InductionTask",
    "LMBatch",
    "LogitAttribution",
    "NextToken",
    "SeqToSeqLM",
    "accuracy_on",
    "direct_logit_attribution",
    "gelu_new",
    "get_lm_task",
    "head_scores",
    "model_sink_share",
    "next_token",
    "pretrained_sink_share",
    "sink_share",
    "target_pattern",
    "train_decoder",
]
