"""viz.figure sends a trace's x, y and customdata as lists up to viz.figure._LIST_MAX values
(plotly.js redrew a whole chart whose traces had them as typed arrays at the next Plotly.react
with the same figure, which Streamlit's chart does right after mounting it), and keeps the
heatmaps' z and bigger arrays typed (the payload)."""

import numpy as np

from viz import figure as fig_module
from viz.efficient import grouped_heads
from viz.figure import figure


def test_small_positions_go_as_lists_and_values_stay_typed():
    z = np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 4)
    fig = figure(
        [{"type": "heatmap", "z": z, "x": np.arange(4), "y": np.arange(3),
          "customdata": np.arange(12, dtype=np.int16).reshape(3, 4)}],
        {},
    )  # fmt: skip
    trace = fig.to_plotly_json()["data"][0]
    assert trace["x"] == [0, 1, 2, 3] and trace["y"] == [0, 1, 2]
    assert trace["customdata"] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert trace["z"]["dtype"] == "f4" and "bdata" in trace["z"]  # a typed array, as sent
    np.testing.assert_array_equal(fig.data[0].z, z)


def test_big_customdata_stays_a_compact_typed_array():
    side = int(np.ceil(np.sqrt(fig_module._LIST_MAX))) + 1  # side x side cells, past the limit
    cd = np.arange(side * side, dtype=np.int16).reshape(side, side)
    z = np.zeros((side, side), np.float32)
    fig = figure([{"type": "heatmap", "z": z, "customdata": cd}], {})
    sent = fig.to_plotly_json()["data"][0]["customdata"]
    assert sent["dtype"] == "i2" and "bdata" in sent  # a typed array, as sent
    np.testing.assert_array_equal(fig.data[0].customdata, cd)


def test_the_efficient_strip_and_grid_send_no_typed_positions():
    tokens = ["I", "want", "to", "live", "in", "Europe", "."]
    w = np.full((8, 7, 7), 1 / 7, dtype=np.float32)
    fig = grouped_heads(w, tokens, [h // 2 for h in range(8)], titles=[str(h) for h in range(8)])
    data = fig.to_plotly_json()["data"]
    strip = [tr for tr in data if tr.get("xaxis") == "x30"]
    assert len(strip) == 1 + 2  # the strip's lines (one trace) and its two rows of nodes
    assert [tr["mode"] for tr in strip] == ["lines", "markers", "markers"]
    for trace in data:
        for key in ("x", "y", "customdata"):
            assert not isinstance(trace.get(key), dict), (trace["type"], key)  # no typed array
