"""Figure builders: ours (plain dicts, one unvalidated go.Figure) against the graph_objects
builders they replaced (make_subplots, add_trace, update_*: validated on every call).

The reference is the viz/ package of an earlier commit (`--before`, default: the last commit
with the graph_objects builders), extracted with `git archive` and imported under another
name, so both run in this process, interleaved. For every case the bench also checks that both
send the same figure: the JSON st.plotly_chart would send (to_dict, then to_json) must parse to
equal objects. Times are medians; "send" is Streamlit's own work on our figure (to_dict +
to_json), which no builder can avoid.

    python bench/figures.py [--repeats 15] [--before REV]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import plotly.io as pio  # noqa: E402
import plotly.tools  # noqa: E402
import streamlit.elements.plotly_chart  # noqa: E402,F401  (the app's default template)

BEFORE = "a5bc24c"  # the last commit whose viz/ built figures through graph_objects setters


def load_before(rev: str, where: Path):
    """viz/ as it was at `rev`, importable as the package `viz_before`."""
    blob = subprocess.run(
        ["git", "archive", "--format=tar", rev, "viz"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(where, filter="data")
    spec = importlib.util.spec_from_file_location(
        "viz_before", where / "viz" / "__init__.py", submodule_search_locations=[str(where / "viz")]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["viz_before"] = module
    spec.loader.exec_module(module)
    return module


def _softmax(rng, *shape) -> np.ndarray:
    x = rng.normal(size=shape)
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


def _pe(n: int, d: int) -> np.ndarray:
    pos = np.arange(n)[:, None]
    w = 1.0 / 10000 ** (np.arange(0, d, 2) / d)
    pe = np.empty((n, d))
    pe[:, 0::2], pe[:, 1::2] = np.sin(pos * w), np.cos(pos * w)
    return pe


def cases() -> list[tuple[str, str, str, tuple, dict]]:
    """(case, module, function, args, kwargs): the sizes the pages draw by default and at their
    limits."""
    rng = np.random.default_rng(0)
    tok = lambda n: [f"w{i}" for i in range(n)]  # noqa: E731
    t7, t64 = tok(7), tok(64)
    masked = rng.normal(size=(7, 7))
    masked[np.triu_indices(7, 1)] = -np.inf
    pe = _pe(64, 64)
    perm = rng.permutation(7)
    a = _softmax(rng, 7, 7)
    d_k = np.array([1, 2, 4, 8, 16, 32, 64, 128, 256, 512])
    two = lambda: np.abs(rng.normal(size=(2, len(d_k))))  # noqa: E731
    taus = 2.0 ** np.arange(-2, 7.5, 0.5)
    k = np.arange(-63, 64)
    # (no head_grid: the earlier builder drew a subplot per head, ours one trace; not the same
    # figure, bench/plotly_draw.py times it)
    return [
        ("attention_heatmap 7", "heatmap", "attention_heatmap", (a, t7), {}),
        (
            "attention_heatmap 128",
            "heatmap",
            "attention_heatmap",
            (_softmax(rng, 128, 128), tok(128)),
            {},
        ),
        (
            "layer_head_mosaic 6x12x32",
            "grid",
            "layer_head_mosaic",
            (_softmax(rng, 6, 12, 32, 32),),
            {"selected": (2, 3)},
        ),
        (
            "matrix_heatmap 7x64",
            "matrix",
            "matrix_heatmap",
            (rng.normal(size=(7, 64)), t7),
            {"highlight_row": 2},
        ),
        (
            "matrix_heatmap 7x7 masked",
            "matrix",
            "matrix_heatmap",
            (masked, t7, t7),
            {"highlight_row": 3},
        ),
        (
            "matrix_heatmap 64x512",
            "matrix",
            "matrix_heatmap",
            (rng.normal(size=(64, 512)), t64),
            {},
        ),
        ("weights_compare 7", "matrix", "weights_compare", (np.full(7, 1 / 7), a[2], t7), {}),
        (
            "encoding_curves 6 dims",
            "positional",
            "encoding_curves",
            (pe, [0, 1, 6, 16, 32, 63]),
            {"names": list("abcdef")},
        ),
        ("encoding_heatmap 64x64", "positional", "encoding_heatmap", (pe,), {}),
        (
            "wavelength_chart",
            "positional",
            "wavelength_chart",
            (2 * np.pi * 10000 ** (np.arange(32) / 32),),
            {"n_positions": 64},
        ),
        ("similarity_heatmap 64", "positional", "similarity_heatmap", (pe @ pe.T,), {}),
        (
            "offset_profiles",
            "positional",
            "offset_profiles",
            ([(k, np.cos(k / 9)), (k + 9, np.cos(k / 9))],),
            {"names": ["p0", "p9"], "closed_form": (k, np.cos(k / 9))},
        ),
        ("layout_comparison 64x64", "positional", "layout_comparison", (pe, pe[:, ::-1]), {}),
        (
            "shuffle_panel 7",
            "positional",
            "shuffle_panel",
            (a[perm][:, perm], [t7[i] for i in perm]),
            {"title": "A'", "zmax": 1.0},
        ),
        (
            "permutation_figure 7",
            "positional",
            "permutation_figure",
            (np.eye(7)[perm], t7, [t7[i] for i in perm]),
            {},
        ),
        (
            "std_figure",
            "scaling",
            "std_figure",
            (d_k, np.sqrt(d_k), np.sqrt(d_k), np.ones(10), np.ones(10)),
            {},
        ),
        (
            "histogram_figure 4000",
            "scaling",
            "histogram_figure",
            (rng.normal(0, 8, 4000), rng.normal(size=4000)),
            {},
        ),
        (
            "saturation_figure",
            "scaling",
            "saturation_figure",
            (d_k, two(), two(), two(), (0.06, 2.7, 0.2)),
            {},
        ),
        ("heatmap_pair 7", "scaling", "heatmap_pair", (a, a.T, t7), {"titles": ("s", "u")}),
        (
            "temperature_figure",
            "scaling",
            "temperature_figure",
            (taus, np.log(taus + 1), 1 / (taus + 1), [(1.0, 0.5, 0.6, "u"), (8.0, 2.0, 0.2, "s")]),
            {},
        ),
    ]


def sent(fig) -> dict:
    """What st.plotly_chart sends for `fig`, parsed; without empty objects (`title: {}`, what
    the old `update_layout(title=None)` left, sets nothing)."""
    spec = plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True)
    return _prune(json.loads(pio.to_json(spec, validate=False)))


def _prune(v):
    if isinstance(v, dict):
        return {k: _prune(x) for k, x in v.items() if x != {}}
    return [_prune(x) for x in v] if isinstance(v, list) else v


def _send(fig) -> None:
    pio.to_json(plotly.tools.return_figure_from_figure_or_data(fig, True), validate=False)


def _ms(fn, *args, **kwargs) -> float:
    t0 = time.perf_counter()
    fn(*args, **kwargs)
    return 1e3 * (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--before", default=BEFORE, help="git revision of the reference viz/")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = load_before(args.before, Path(tmp))
        rows = []
        for name, module, func, a, kw in cases():
            new = getattr(importlib.import_module(f"viz.{module}"), func)
            old = getattr(importlib.import_module(f"{before.__name__}.{module}"), func)
            same = sent(new(*a, **kw)) == sent(old(*a, **kw))
            fig = new(*a, **kw)
            t_old, t_new, t_send = [], [], []
            for i in range(args.repeats):  # interleaved: noise hits both alike
                pair = ((old, t_old), (new, t_new)) if i % 2 else ((new, t_new), (old, t_old))
                for fn, out in pair:
                    out.append(_ms(fn, *a, **kw))
                t_send.append(_ms(_send, fig))
            rows.append((name, *map(statistics.median, (t_old, t_new, t_send)), same))
    print(f"reference: viz/ at {args.before} (graph_objects), {args.repeats} interleaved repeats")
    print(f"{'figure':<28}{'before ms':>10}{'ours ms':>9}{'x faster':>9}{'send ms':>9}  same JSON")
    for name, old, new, send, same in rows:
        print(f"{name:<28}{old:>10.2f}{new:>9.2f}{old / new:>9.1f}{send:>9.2f}  {same}")
    geo = math.exp(statistics.mean(math.log(o / n) for _, o, n, _, _ in rows))
    print(f"geometric mean speed-up: {geo:.1f}x; every figure the same: {all(r[4] for r in rows)}")


if __name__ == "__main__":
    main()
