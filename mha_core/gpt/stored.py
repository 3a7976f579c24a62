"""A finished decoder run kept as a file (numpy's .npz): what the Induction page draws of it
(the history, every snapshot: loss, accuracy, head scores, the probe's attention) and the final
weights, so that the page can open on a finished run at once and still run the model on typed
text. `save_runs` writes the runs of one training, `load_runs` gives them back as `DecoderRun`s
that the page reads as it reads a run it trained itself.

The file holds numbers only (no pickle): settings as JSON text, each array under a name
"<n_layers>/<field>".
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from .interpret import HEAD_KINDS
from .model import DecoderOnly
from .tasks import get_lm_task
from .training import (
    DecoderHistoryRow,
    DecoderRun,
    DecoderSettings,
    DecoderSnapshot,
    decoder_config,
)

FORMAT = 1


def _arrays(run: DecoderRun, prefix: str) -> dict[str, np.ndarray]:
    snaps = list(run.snapshots.values())
    out = {
        f"{prefix}history": np.array([tuple(r) for r in run.history], dtype=np.float64),
        f"{prefix}snap_step": np.array([s.step for s in snaps], dtype=np.int64),
        f"{prefix}snap_loss": np.array([s.loss for s in snaps], dtype=np.float64),
        f"{prefix}snap_accuracy": np.array([s.accuracy for s in snaps], dtype=np.float64),
        # float16: the page draws these (3 significant digits); the file is half the size
        f"{prefix}snap_probe": np.stack([s.probe_attention for s in snaps]).astype(np.float16),
        f"{prefix}accuracy": np.array(run.accuracy, dtype=np.float64),
    }
    for kind in HEAD_KINDS:
        out[f"{prefix}snap_score_{kind}"] = np.stack([s.scores[kind] for s in snaps])
    for name, p in run.model.state_dict().items():
        out[f"{prefix}param/{name}"] = p.detach().cpu().numpy()
    return out


def save_runs(runs: dict[int, DecoderRun], path: str | Path, note: str = "") -> None:
    """Write finished runs (n_layers -> run) to `path` (.npz, compressed). `note`: how the file
    was made (kept in it, shown by `describe`)."""
    if any(run.stopped for run in runs.values()):
        raise ValueError("only runs trained to their last step are stored")
    meta = {
        "format": FORMAT,
        "note": note,
        "settings": {str(n): asdict(run.settings) for n, run in runs.items()},
    }
    arrays = {"meta": np.array(json.dumps(meta, sort_keys=True))}
    for n, run in runs.items():
        arrays.update(_arrays(run, f"{n}/"))
    np.savez_compressed(path, **arrays)


def read_meta(path: str | Path) -> dict:
    with np.load(path, allow_pickle=False) as z:
        return json.loads(str(z["meta"]))


def load_runs(path: str | Path) -> dict[int, DecoderRun]:
    """The runs `save_runs` wrote, as `DecoderRun`s (n_layers -> run): the model with the final
    weights (eval mode), the history, the snapshots; `accuracy` as it was measured."""
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: stored run format {meta.get('format')!r}, not {FORMAT}")
        data = {k: z[k] for k in z.files}
    runs = {}
    for n_text, settings in meta["settings"].items():
        p = f"{n_text}/"
        s = DecoderSettings(**settings)
        task = get_lm_task(s.task)
        model = DecoderOnly(decoder_config(s, task))  # seeded weights, replaced by the stored ones
        state = {k[len(p) + 6 :]: torch.from_numpy(v) for k, v in data.items()
                 if k.startswith(p + "param/")}  # fmt: skip
        model.load_state_dict(state)
        model.eval()
        history = tuple(
            DecoderHistoryRow(int(r[0]), *map(float, r[1:])) for r in data[p + "history"]
        )
        snapshots = {}
        for i, step in enumerate(data[p + "snap_step"].tolist()):
            scores = {k: data[f"{p}snap_score_{k}"][i] for k in HEAD_KINDS}
            snapshots[step] = DecoderSnapshot(
                step=step,
                loss=float(data[p + "snap_loss"][i]),
                accuracy=float(data[p + "snap_accuracy"][i]),
                scores=scores,
                probe_attention=data[p + "snap_probe"][i].astype(np.float32),
            )
        run = DecoderRun(
            task=task,
            settings=s,
            model=model,
            history=history,
            snapshots=snapshots,
            probe=task.encode(task.probe),
            stopped=False,
        )
        run.__dict__["accuracy"] = float(data[p + "accuracy"])  # the cached_property, as measured
        runs[int(n_text)] = run
    return runs
