"""The inputs every interpretability function accepts: a `PretrainedTrace` of the model, or a
text to trace first."""

from __future__ import annotations

from ..pretrained.model import PretrainedModel, PretrainedTrace


def _check_trace(model: PretrainedModel, trace: PretrainedTrace) -> None:
    L, C = model.n_layers, model.d_model
    hs = trace.hidden_states
    if hs.dim() != 3 or hs.shape[0] != L + 1 or hs.shape[2] != C:
        raise ValueError(
            f"this trace does not come from this model: hidden states {tuple(hs.shape)}, "
            f"expected ({L + 1}, T, {C})"
        )


def as_trace(model: PretrainedModel, trace_or_text) -> PretrainedTrace:
    """The trace itself (checked against the model), or a text traced with keep_layers=False."""
    if isinstance(trace_or_text, str):
        return model.trace(trace_or_text, keep_layers=False)
    _check_trace(model, trace_or_text)
    return trace_or_text
