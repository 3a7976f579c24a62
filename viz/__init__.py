"""Figure builders: numpy in, plotly Figure out. No streamlit, no torch."""

from .heads import PHONE_X_STEP, head_grid
from .heatmap import attention_heatmap
from .labels import Notation, escape_label, escape_labels
from .overview import bin_heads
from .theme import DEFAULT_PALETTE, DIVERGING, PALETTES

__all__ = [
    "DEFAULT_PALETTE",
    "Notation",
    "DIVERGING",
    "PALETTES",
    "PHONE_X_STEP",
    "attention_heatmap",
    "bin_heads",
    "escape_label",
    "escape_labels",
    "head_grid",
]
