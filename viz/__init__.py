"""Figure builders: numpy in, plotly Figure out. No streamlit, no torch."""

from .heatmap import (
    DEFAULT_PALETTE,
    DIVERGING,
    PALETTES,
    PHONE_X_STEP,
    attention_heatmap,
    head_grid,
)
from .labels import Notation, escape_label, escape_labels
from .overview import bin_heads

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
