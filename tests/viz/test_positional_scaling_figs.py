"""Figures of the positional-encoding and scaling pages: data in = data shown, labels escaped."""

from __future__ import annotations

import ast
import base64
import json
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from viz import DIVERGING
from viz import positional as pv
from viz import scaling as sv

ROOT = Path(__file__).resolve().parents[2]
MARKUP = ["<b>x</b>", '<a href="https://example.com">y</a>', "<img src=x onerror=alert(1)>"]
ESCAPED = [
    "&lt;b&gt;x&lt;/b&gt;",
    '&lt;a href="https://example.com"&gt;y&lt;/a&gt;',
    "&lt;img src=x onerror=alert(1)&gt;",
]


def _arr(v) -> np.ndarray:
    """A plotly data array as numpy, whether plain list or typed-array {dtype, bdata}."""
    if isinstance(v, dict) and "bdata" in v:
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        if "shape" in v:
            shape = v["shape"]
            shape = [int(x) for x in shape.split(",")] if isinstance(shape, str) else shape
            a = a.reshape(shape)
        return a
    return np.asarray(v)


def _json(fig: go.Figure) -> dict:
    return json.loads(fig.to_json())


def _colorscale(name: str) -> list:
    return [list(c) for c in go.Heatmap(colorscale=name).colorscale]


@pytest.mark.parametrize("module", ["viz/positional.py", "viz/scaling.py"])
def test_viz_imports_neither_streamlit_nor_torch(module):
    tree = ast.parse((ROOT / module).read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    assert not names & {"streamlit", "torch"}, names


# --- positional ---------------------------------------------------------------------------------
def _pe(n=12, d=8) -> np.ndarray:
    pos = np.arange(n)[:, None]
    w = 1.0 / 10000 ** (np.arange(0, d, 2) / d)
    pe = np.empty((n, d))
    pe[:, 0::2], pe[:, 1::2] = np.sin(pos * w), np.cos(pos * w)
    return pe


def test_encoding_curves_one_line_per_dimension_with_exact_values():
    pe = _pe()
    fig = _json(pv.encoding_curves(pe, [0, 3, 7], names=["a", "b", MARKUP[0]]))
    assert [d["type"] for d in fig["data"]] == ["scatter"] * 3
    for trace, d in zip(fig["data"], [0, 3, 7]):
        np.testing.assert_array_equal(_arr(trace["y"]), pe[:, d])
        np.testing.assert_array_equal(_arr(trace["x"]), np.arange(12))
    assert fig["data"][2]["name"] == ESCAPED[0]
    assert "%{y:.6f}" in fig["data"][0]["hovertemplate"]
    assert fig["layout"]["yaxis"]["range"] == [-1.1, 1.1]
    with pytest.raises(ValueError):
        pv.encoding_curves(pe, [8], names=["x"])
    with pytest.raises(ValueError):
        pv.encoding_curves(pe, [0, 1], names=["x"])


def test_encoding_heatmap_is_diverging_and_fixed_to_minus_one_one():
    pe = _pe(20, 6)
    fig = _json(pv.encoding_heatmap(pe, x_title=MARKUP[1]))
    (hm,) = fig["data"]
    np.testing.assert_allclose(_arr(hm["z"]), pe.astype(np.float32))
    assert (hm["zmin"], hm["zmax"]) == (-1.0, 1.0)
    assert hm["colorscale"] == _colorscale(DIVERGING)
    assert fig["layout"]["xaxis"]["title"]["text"] == ESCAPED[1]


def test_wavelength_chart_has_the_curve_and_the_positions_line_on_a_log_axis():
    wl = 2 * np.pi * 10000 ** (np.arange(4) * 2 / 8)
    fig = _json(pv.wavelength_chart(wl, n_positions=50))
    curve, line = fig["data"]
    np.testing.assert_allclose(_arr(curve["y"]), wl)
    np.testing.assert_array_equal(_arr(line["y"]), [50, 50])
    assert fig["layout"]["yaxis"]["type"] == "log"
    assert len(pv.wavelength_chart(wl).data) == 1


def test_similarity_heatmap_centres_the_diverging_scale_on_zero():
    pe = _pe(10, 8)
    sim = pe @ pe.T
    (hm,) = _json(pv.similarity_heatmap(sim))["data"]
    np.testing.assert_allclose(_arr(hm["z"]), sim.astype(np.float32))
    assert hm["zmin"] == -hm["zmax"] == pytest.approx(-4.0, abs=1e-5)


def test_offset_profiles_one_line_per_anchor_plus_closed_form():
    k = np.arange(-3, 4)
    profiles = [(k, np.cos(k)), (k + 1, np.cos(k))]
    fig = _json(
        pv.offset_profiles(
            profiles, names=["p0", MARKUP[2]], closed_form=(k, np.cos(k)), closed_name="c"
        )
    )
    assert [d["name"] for d in fig["data"]] == ["c", "p0", ESCAPED[2]]
    np.testing.assert_array_equal(_arr(fig["data"][2]["x"]), k + 1)
    assert len(pv.offset_profiles(profiles, names=["a", "b"]).data) == 2


def test_layout_comparison_two_heatmaps_one_colour_axis():
    pe = _pe(10, 8)
    perm = np.array([0, 4, 1, 5, 2, 6, 3, 7])
    concat = np.concatenate([pe[:, 0::2], pe[:, 1::2]], axis=1)
    fig = _json(pv.layout_comparison(pe, concat, titles=("a", "b")))
    left, right = fig["data"]
    assert left["coloraxis"] == right["coloraxis"] == "coloraxis"
    assert fig["layout"]["coloraxis"]["cmin"] == -1.0 and fig["layout"]["coloraxis"]["cmax"] == 1
    np.testing.assert_allclose(_arr(right["z"])[:, perm], _arr(left["z"]))
    with pytest.raises(ValueError):
        pv.layout_comparison(pe, concat[:, :4])


def test_shuffle_panel_one_heatmap_with_escaped_token_axes_and_the_given_scale():
    tokens = ["a", *MARKUP]
    perm = [3, 1, 0, 2]
    shuffled = [tokens[i] for i in perm]
    b = np.random.default_rng(0).random((4, 4))
    fig = _json(pv.shuffle_panel(b, shuffled, title=MARKUP[0], zmax=1.5))
    assert [d["type"] for d in fig["data"]] == ["heatmap"]
    np.testing.assert_allclose(_arr(fig["data"][0]["z"]), b.astype(np.float32))
    assert fig["data"][0]["zmin"] == 0.0 and fig["data"][0]["zmax"] == 1.5
    assert fig["layout"]["xaxis"]["ticktext"] == [["a", *ESCAPED][i] for i in perm]
    assert fig["layout"]["yaxis"]["ticktext"] == [["a", *ESCAPED][i] for i in perm]
    assert "<b>" not in json.dumps(fig["layout"]["title"])
    with pytest.raises(ValueError):
        pv.shuffle_panel(b, tokens[:3], title="A", zmax=1.0)


def test_shuffle_panels_keep_a_usable_plot_and_share_one_horizontal_colour_bar():
    """Issue #42: each panel's bar stood beside its plot, as wide as it, and left the matrix
    ~65 px wide in a 310 px column. Now the plot is at least SHUFFLE_PLOT_PX tall, the bar lies
    under it (it takes no width), only the panel asked for shows it, and every panel keeps the
    same margins, so the three plots line up."""
    rng = np.random.default_rng(0)
    for n in (2, 7, 30):
        tokens = [f"t{i}" for i in range(n)]
        figs = [
            _json(pv.shuffle_panel(rng.random((n, n)), tokens, title="A", zmax=1.0, colorbar=c))
            for c in (False, False, True)
        ]
        margins = [f["layout"]["margin"] for f in figs]
        assert margins[0] == margins[1] == margins[2]
        for f, shown in zip(figs, (False, False, True)):
            tr, layout = f["data"][0], f["layout"]
            assert tr["colorbar"]["orientation"] == "h"
            assert tr.get("showscale", True) is shown
            plot_h = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
            assert plot_h >= pv.SHUFFLE_PLOT_PX, (n, plot_h)


def test_permutation_figure_shows_p_exactly():
    tokens = ["x", "<b>y</b>", "z"]
    perm = [2, 0, 1]
    p = np.zeros((3, 3))
    p[np.arange(3), perm] = 1
    fig = _json(pv.permutation_figure(p, tokens, [tokens[i] for i in perm]))
    np.testing.assert_array_equal(_arr(fig["data"][0]["z"]), p)
    assert fig["layout"]["xaxis"]["ticktext"] == ["x", "&lt;b&gt;y&lt;/b&gt;", "z"]
    assert fig["layout"]["yaxis"]["ticktext"] == ["z", "x", "&lt;b&gt;y&lt;/b&gt;"]


# --- scaling ------------------------------------------------------------------------------------
def test_std_figure_measured_over_theory_on_log_axes():
    d_k = np.array([1, 4, 16, 64])
    std = np.array([1.01, 1.98, 4.05, 7.9])
    fig = _json(
        sv.std_figure(d_k, std, np.sqrt(d_k), std / np.sqrt(d_k), np.ones(4), x_title=MARKUP[0])
    )
    assert len(fig["data"]) == 4
    np.testing.assert_allclose(_arr(fig["data"][0]["y"]), std)
    np.testing.assert_allclose(_arr(fig["data"][1]["y"]), np.sqrt(d_k))
    assert fig["layout"]["xaxis"]["type"] == fig["layout"]["yaxis"]["type"] == "log"
    assert fig["layout"]["xaxis"]["tickvals"] == [1, 2, 4, 8, 16, 32, 64]
    assert fig["layout"]["xaxis"]["title"]["text"] == ESCAPED[0]
    assert fig["data"][1]["line"]["dash"] == "dash"
    # the legend at the figure's foot, in a bottom margin of its own: at y = -0.2 of the plot
    # the axis title sat on it on a phone, where the d_k labels stand upright
    legend = fig["layout"]["legend"]
    assert (legend["yref"], legend["y"], legend["yanchor"]) == ("container", 0, "bottom")
    assert fig["layout"]["margin"]["b"] >= 150


def test_histogram_figure_overlays_two_densities():
    rng = np.random.default_rng(0)
    u = rng.normal(0, 8, 500)
    fig = _json(sv.histogram_figure(u, u / 8, names=(MARKUP[0], "s")))
    assert [d["type"] for d in fig["data"]] == ["histogram", "histogram"]
    assert fig["layout"]["barmode"] == "overlay"
    np.testing.assert_allclose(_arr(fig["data"][1]["x"]), u / 8)
    assert fig["data"][0]["name"] == ESCAPED[0]


def test_saturation_figure_three_panels_of_three_traces():
    d_k = np.array([1, 2, 4, 8])
    mw = np.array([[0.2, 0.4, 0.6, 0.8], [0.2, 0.21, 0.22, 0.22]])
    ent = np.array([[2.0, 1.5, 1.0, 0.5], [2.0, 2.0, 2.0, 2.0]])
    jac = np.array([[0.3, 0.25, 0.2, 0.1], [0.3, 0.3, 0.3, 0.3]])
    fig = _json(sv.saturation_figure(d_k, mw, ent, jac, (0.0625, 2.77, 0.24)))
    assert len(fig["data"]) == 9
    np.testing.assert_allclose(_arr(fig["data"][3]["y"]), ent[0])
    np.testing.assert_allclose(_arr(fig["data"][8]["y"]), [0.24] * 4)
    assert sum(bool(d.get("showlegend", True)) for d in fig["data"]) == 3
    with pytest.raises(ValueError):
        sv.saturation_figure(d_k, mw[:1], ent, jac, (0, 0, 0))


def test_heatmap_pair_shares_one_colour_scale():
    tokens = ["the", "cat", "<b>the</b>"]
    a = np.full((3, 3), 1 / 3)
    b = np.eye(3)
    fig = _json(sv.heatmap_pair(a, b, tokens, titles=("scaled", "unscaled")))
    assert [d["coloraxis"] for d in fig["data"]] == ["coloraxis", "coloraxis"]
    assert fig["layout"]["coloraxis"]["cmin"] == 0.0 and fig["layout"]["coloraxis"]["cmax"] == 1
    assert fig["layout"]["xaxis2"]["ticktext"] == ["the", "cat", "&lt;b&gt;the&lt;/b&gt;"]
    assert fig["layout"]["xaxis"]["tickvals"] == [0, 1, 2]  # repeated tokens keep their column
    np.testing.assert_array_equal(_arr(fig["data"][1]["z"]), np.eye(3, dtype=np.float32))


def test_temperature_figure_curve_and_marks_in_both_panels():
    taus = np.array([0.25, 1, 4, 16])
    marks = [(1.0, 0.5, 0.8, "unscaled"), (4.0, 1.5, 0.4, MARKUP[0]), (2.0, 1.0, 0.6, "you")]
    fig = _json(sv.temperature_figure(taus, [0.1, 0.5, 1.5, 1.9], [0.95, 0.8, 0.4, 0.2], marks))
    assert len(fig["data"]) == 2 * (1 + len(marks))
    star = [d for d in fig["data"] if d["name"] == ESCAPED[0]]
    assert len(star) == 2 and _arr(star[0]["y"])[0] == 1.5 and _arr(star[1]["y"])[0] == 0.4
    assert fig["layout"]["xaxis"]["type"] == "log"


def test_unit_circle_places_each_token_at_its_angle_and_escapes_it():
    ang = np.arange(5) * 0.7
    fig = pv.unit_circle(np.cos(ang), np.sin(ang), ["a", "<b>x</b>", "c", "d", "a"])
    go.Figure(fig.to_dict())  # raises on any invalid property
    pts = fig.data[1]
    np.testing.assert_allclose(pts.x, np.cos(ang))
    np.testing.assert_allclose(np.asarray(pts.customdata)[:, 1], np.degrees(ang) % 360)
    assert "<b>" not in json.dumps(list(pts.text)) and len(pts.text) == 5
    with pytest.raises(ValueError):
        pv.unit_circle(np.ones(2), np.ones(2), ["a"])
