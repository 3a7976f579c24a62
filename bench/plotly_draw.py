"""What drawing a figure costs in Chromium: plotly.js alone, no Streamlit.

The browser's share of a slider step (bench/ui_latency.py) is mostly Plotly drawing the charts,
and most of that is laying out tick labels (automargin re-measures them; the cost grows faster
than the number of labels: a 16-head grid of 64 tokens, 2,048 labels, takes tens of seconds).
This draws the app's figures (and variants of the head grid) with the plotly.js that ships with
the plotly package, in a page of its own: `newPlot` (a chart appears) and `react` with a new
copy of the same figure (what Streamlit does on a rerun), each until two frames are painted.
Variants run interleaved, round after round; medians.

    python bench/plotly_draw.py [--rounds 3] [--big]
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import plotly  # noqa: E402
import plotly.io as pio  # noqa: E402
import streamlit.elements.plotly_chart  # noqa: E402,F401  (the app's default template)

from bench.browser_timing import BENCH_ARGS  # noqa: E402
from tests.browser.server import chromium_path  # noqa: E402
from viz import grid, heatmap, matrix  # noqa: E402

DRAW = """
async ([spec, repeats]) => {
  const painted = () => new Promise(
      (r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const g = document.getElementById('g');
  Plotly.purge(g);
  await painted();
  let t0 = performance.now();
  await Plotly.newPlot(g, spec.data, spec.layout, {displaylogo: false});
  await painted();
  const first = performance.now() - t0;
  const again = [];
  for (let i = 0; i < repeats; i++) {
    const copy = JSON.parse(JSON.stringify(spec));
    t0 = performance.now();
    await Plotly.react(g, copy.data, copy.layout);
    await painted();
    again.push(performance.now() - t0);
  }
  again.sort((a, b) => a - b);
  return [first, again[again.length >> 1]];
}
"""


def _softmax(rng, *shape) -> np.ndarray:
    e = np.exp(rng.normal(size=shape))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


def _spec(fig) -> dict:
    return json.loads(pio.to_json(fig.to_dict(), validate=False))


def _axes(spec: dict, **changes) -> dict:
    spec = copy.deepcopy(spec)
    for name, axis in spec["layout"].items():
        if name.startswith(("xaxis", "yaxis")):
            axis.update(changes)
    return spec


def figures() -> dict[str, dict]:
    rng = np.random.default_rng(0)
    tok = lambda n: [f"word{i}" for i in range(n)]  # noqa: E731
    w4, w8, w12, w16 = (_softmax(rng, 4, 7, 7), _softmax(rng, 8, 7, 7),
                        _softmax(rng, 12, 32, 32), _softmax(rng, 16, 64, 64))  # fmt: skip
    g8 = _spec(heatmap.head_grid(w8, tok(7)))
    return {
        "attention_heatmap 7": _spec(heatmap.attention_heatmap(w8[0], tok(7))),
        "matrix_heatmap 7x64": _spec(matrix.matrix_heatmap(rng.normal(size=(7, 64)), tok(7))),
        "head_grid 4 x 7": _spec(heatmap.head_grid(w4, tok(7))),
        "head_grid 8 x 7": g8,
        "  no tick labels": _axes(g8, showticklabels=False),
        "  no automargin": _axes(g8, automargin=False),
        "head_grid 12 x 32": _spec(heatmap.head_grid(w12, tok(32))),
        "layer_head_mosaic 6x12x32": _spec(grid.layer_head_mosaic(_softmax(rng, 6, 12, 32, 32))),
        # --big only (one round each; minutes): 1,000+ tick labels
        "head_grid 16 x 64": _spec(heatmap.head_grid(w16, tok(64))),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3, help="react calls per round")
    ap.add_argument("--big", action="store_true", help="also head_grid 16 x 64 (one round)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    specs = figures()
    big = {name: specs.pop(name) for name in ("head_grid 16 x 64",)}
    js = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text()
    times: dict[str, list] = {name: [] for name in specs}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        page_file = Path(tmp) / "draw.html"
        page_file.write_text(
            f"<html><body><div id='g' style='width:1100px'></div><script>{js}</script>"
            "</body></html>"
        )
        browser = p.chromium.launch(executable_path=chromium_path(), args=BENCH_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(page_file.as_uri())
        for k in range(args.rounds):
            for name, spec in specs.items():
                times[name].append(page.evaluate(DRAW, [spec, args.repeats]))
                if k == 0:
                    print(f"  round 1: {name:<26}{times[name][0][0]:>9.0f}", flush=True)
        if args.big:
            for name, spec in big.items():
                times[name] = [page.evaluate(DRAW, [spec, 1])]
                specs[name] = spec
        browser.close()
    print(f"plotly.js bundled with plotly.py {plotly.__version__}; Chromium headless, software")
    print(f"rendering; median of {args.rounds} interleaved rounds, ms to two painted frames")
    print(f"{'figure':<26}{'newPlot':>9}{'react':>9}{'kB':>8}")
    for name, ts in times.items():
        first = statistics.median(t[0] for t in ts)
        again = statistics.median(t[1] for t in ts)
        kb = len(json.dumps(specs[name])) / 1e3
        print(f"{name:<26}{first:>9.0f}{again:>9.0f}{kb:>8.1f}")


if __name__ == "__main__":
    main()
