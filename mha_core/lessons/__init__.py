"""What the lesson pages compute: the Step page's five steps (`steps`), why scores are scaled
(`scaling`), order and positions (`permutation`), Add & Norm and dropout (`addnorm`), and the
encoder-decoder page's pair, batch and dropout results (`encoder_decoder`)."""

from .addnorm import DropoutResult, NormStatistics, attention_dropout, norm_statistics

__all__ = ["DropoutResult", "NormStatistics", "attention_dropout", "norm_statistics"]
