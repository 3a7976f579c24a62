"""Using a trained toy run: exact-sequence accuracy on fresh examples, one greedy answer with
every attention that made it (`predict`, or `try_input` from typed text), how its cross-attention
heads line up with the positions the task reads, and its weights as a file."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import safetensors.torch
import torch

from .model import greedy_decode
from .symbols import InputProblem, read_symbols
from .threads import TRAIN_THREADS, torch_threads
from .toy_tasks import BOS, EOS, ToyTask, mirror_index
from .training import ToyRun


def _pad_to(ids: torch.Tensor, width: int) -> torch.Tensor:
    """Greedy output (B, 1 + m) -> predicted ids (B, width) without BOS, EOS-padded."""
    pred = ids[:, 1 : width + 1]
    if pred.shape[1] < width:
        fill = torch.full((ids.shape[0], width - pred.shape[1]), EOS, dtype=ids.dtype)
        pred = torch.cat([pred, fill], dim=1)
    return pred


@torch.no_grad()
def evaluate(run: ToyRun, n: int = 1000, seed: int = 1234) -> float:
    """Exact-sequence accuracy of greedy decoding on n fresh examples drawn with `seed`."""
    task, model = run.task, run.model
    batch = task.sample(n, seed)
    was_training = model.training
    model.eval()
    with torch_threads(TRAIN_THREADS):
        ys = greedy_decode(
            model, batch.src, BOS, task.width, src_key_padding_mask=batch.src_pad, eos_id=EOS
        )  # (B, 1 + m)
    model.train(was_training)
    return task.score(_pad_to(ys, task.width), batch)[1]


@dataclass(frozen=True, eq=False)
class Prediction:
    """The trained model's greedy answer for one input, with every attention that made it."""

    input: tuple[str, ...]  # the symbols typed
    output: tuple[str, ...]  # the model's answer (symbols, up to its EOS)
    expected: tuple[str, ...]  # the correct answer
    src_tokens: tuple[str, ...]  # encoder tokens: input, <eos>
    tgt_tokens: tuple[str, ...]  # decoder inputs (query rows): <bos>, then the answer so far
    out_tokens: tuple[str, ...]  # what each decoder row produced (the answer, then <eos>)
    encoder_self: tuple[np.ndarray, ...]  # per layer (nh, S, S)
    decoder_self: tuple[np.ndarray, ...]  # per layer (nh, T, T)
    cross: tuple[np.ndarray, ...]  # per layer (nh, T, S)
    in_training_range: bool  # False if the input length was never seen in training

    @property
    def correct(self) -> bool:
        return self.output == self.expected


@torch.no_grad()
def predict(run: ToyRun, text_or_symbols: str | Sequence[str]) -> Prediction:
    """Run the trained model greedily on one input ('h a c e', 'hace' or a list of symbols).

    Any length from 1 to the task's max_len is accepted (lengths outside training's range show
    how the model generalises). The attention is that of the decoder reading its own answer,
    which (causal masking) equals what each greedy step saw.
    """
    task, model = run.task, run.model
    if isinstance(text_or_symbols, str):
        symbols = task.parse(text_or_symbols, any_length=True)
    else:
        symbols = task.check(text_or_symbols, any_length=True)
    vocab = task.vocab
    src = torch.tensor([task.encode(symbols) + [EOS]])  # (1, S)
    was_training = model.training
    model.eval()
    with torch_threads(TRAIN_THREADS):
        ys = greedy_decode(model, src, BOS, task.width, eos_id=EOS)  # (1, 1 + m)
        gen = ys[0, 1:].tolist()
        k = gen.index(EOS) if EOS in gen else len(gen)  # rows that produced a symbol
        rows = min(k + 1, task.width)
        tgt_in = ys[:, :rows]  # (1, T)
        tr = model(src, tgt_in)
    model.train(was_training)

    def arrays(traces) -> tuple[np.ndarray, ...]:
        return tuple(t.weights[0].numpy().copy() for t in traces)

    return Prediction(
        input=symbols,
        output=task.decode(gen),
        expected=task.target(symbols),
        src_tokens=tuple(vocab[i] for i in src[0].tolist()),
        tgt_tokens=tuple(vocab[i] for i in tgt_in[0].tolist()),
        out_tokens=tuple(vocab[i] for i in gen[:rows]),
        encoder_self=arrays(tr.encoder_self),
        decoder_self=arrays(tr.decoder_self),
        cross=arrays(tr.decoder_cross),
        in_training_range=task.min_len <= len(symbols) <= task.max_len,
    )


def try_input(run: ToyRun, text: str) -> Prediction | InputProblem:
    """`predict` on typed text, or why the text is not a valid input (any length 1..max_len)."""
    symbols = read_symbols(text, run.task.alphabet, run.task.max_len)
    if isinstance(symbols, InputProblem):
        return symbols
    return predict(run, symbols)


# --- how the cross-attention heads line up with the task ------------------------------------
def expected_sources(task: ToyTask, n: int) -> list[int] | None:
    """For each decoder row t < n, the source index the task needs it to read (None: no fixed
    position, as in sorting). Reversal: the mirrored index n - 1 - t; copying: t itself."""
    if task.name == "reverse":
        return [mirror_index(t, n) for t in range(n)]
    if task.name == "copy":
        return list(range(n))
    return None


def alignment(task: ToyTask, cross: np.ndarray, n: int) -> np.ndarray | None:
    """(nh,) mean weight each cross-attention head (cross: (nh, T, S)) puts on the expected
    source position, over the n decoder rows that produce a symbol; None when the task has no
    such position."""
    src = expected_sources(task, n)
    if src is None:
        return None
    return cross[:, np.arange(n), src].mean(axis=-1)  # (nh,)


def alignment_over_time(run: ToyRun) -> np.ndarray | None:
    """(L, nh, snapshots): `alignment` of every cross-attention head at every snapshot."""
    n = len(run.probe_src) - 1  # the probe's symbols (its source ends with <eos>)
    if expected_sources(run.task, n) is None:
        return None
    per_snap = [
        np.stack([alignment(run.task, c, n) for c in snap.cross])  # (L, nh)
        for snap in run.snapshots.values()
    ]
    return np.stack(per_snap, axis=-1)  # (L, nh, snapshots)


# --- the trained model as numbers and as a file ---------------------------------------------
def n_parameters(run: ToyRun) -> int:
    """Trainable numbers in the model."""
    return sum(p.numel() for p in run.model.parameters())


def weights_bytes(run: ToyRun) -> bytes:
    """The trained weights as safetensors, the settings and vocabulary in its metadata."""
    tensors = {k: v.detach().contiguous() for k, v in run.model.state_dict().items()}
    metadata = {
        "settings": json.dumps(run.settings.as_dict()),
        "vocab": json.dumps(list(run.task.vocab)),
        "steps_done": str(run.steps_done),
        "stopped": str(run.stopped).lower(),
    }
    return safetensors.torch.save(tensors, metadata=metadata)
