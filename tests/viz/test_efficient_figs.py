"""The Efficient attention page's figure builders: valid Plotly (validating changes nothing),
markup escaped, the data drawn as given, labels checked against the data."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.helpers.figures import sent, validated
from tests.helpers.grid import grid_heads
from viz import efficient as eviz
from viz import heatmap

TOKS = ["the", "<b>x</b>", "a & b", "the"]




def _builds():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(4, 4))
    scores[np.triu_indices(4, 1)] = -np.inf
    return {
        "grouped_heads": lambda: eviz.grouped_heads(
            rng.dirichlet(np.ones(4), size=(4, 4)), TOKS, [0, 0, 1, 1], titles=list("abcd"),
            query_label="<b>q</b>", kv_label="<i>kv</i>",
        ),  # fmt: skip
        "cache_step": lambda: eviz.cache_step(np.full((2, 3), 1 / 3), TOKS[:3], title="<i>t</i>"),
        "curves": lambda: eviz.curves(
            [1, 2, 4], [np.ones(3), np.arange(3.0)], names=["<b>a</b>", "b"], x_title="T",
            log_x=True, log_y=True, dashes=[None, "dot"],
        ),  # fmt: skip
        "mask_matrix": lambda: eviz.mask_matrix(np.tri(4, dtype=bool), TOKS),
        "tiled_scores": lambda: eviz.tiled_scores(
            scores, TOKS, block_size=2, row=3, tile=1, key_ranges=[(0, 2), (2, 4)]
        ),
        "partial_outputs": lambda: eviz.partial_outputs(
            rng.normal(size=(2, 5)), rng.normal(size=5), row_labels=["<b>1</b>", "2"]
        ),
    }


@pytest.mark.parametrize("name", list(_builds()))
def test_validation_would_change_nothing_and_markup_is_escaped(name):
    fig = _builds()[name]()
    assert sent(validated(fig)) == sent(fig)
    spec = json.dumps(sent(fig))
    assert "<b>" not in spec and "<i>" not in spec


def test_tiled_scores_outlines_the_current_tile_and_blanks_masked_scores():
    scores = np.arange(36, dtype=float).reshape(6, 6)
    scores[0, 5] = -np.inf
    fig = eviz.tiled_scores(
        scores, list("abcdef"), block_size=2, row=3, tile=1, key_ranges=[(0, 2), (2, 4)]
    )
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    thick = [s for s in rects if s.line.width == 4]
    assert len(thick) == 1 and (thick[0].x0, thick[0].x1) == (1.5, 3.5)
    assert (thick[0].y0, thick[0].y1) == (1.5, 3.5)  # query block 1 holds row 3
    assert np.isnan(np.asarray(fig.data[0].z, dtype=float)[0, 5])
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(lines) == 4  # the block grid: 2 inner lines each way


def test_partial_outputs_stack_the_final_row_last_and_check_labels():
    p, f = np.ones((2, 3)), np.zeros(3)
    fig = eviz.partial_outputs(p, f, row_labels=["a", "b"], final_label="plain")
    z = np.asarray(fig.data[0].z)
    assert z.shape == (3, 3) and (z[-1] == 0).all()
    with pytest.raises(ValueError):
        eviz.partial_outputs(p, f, row_labels=["a"])


def test_cache_step_refuses_labels_that_do_not_fit():
    with pytest.raises(ValueError):
        eviz.cache_step(np.ones((2, 3)), ["a", "b"])


def test_grouped_heads_joins_query_heads_to_their_kv_head_above_the_grid():
    w = np.random.default_rng(1).dirichlet(np.ones(5), size=(6, 5)).astype(np.float32)
    fig = eviz.grouped_heads(w, list("abcde"), [0, 0, 0, 1, 1, 1], titles=list("uvwxyz"))
    spec = fig.to_dict()
    (links,) = [d for d in spec["data"] if d.get("mode") == "lines"]  # one trace, None breaks
    assert (links["xaxis"], links["yaxis"]) == ("x30", "y30")
    ends = [links["x"][3 * h + 1] for h in range(6)]  # query head h -> its key/value head's x
    assert ends[3] == ends[4] != ends[0]  # 3 and 4 share K/V head 1
    assert links["x"][2::3] == [None] * 6 and links["x"][0::3] == list(range(6))
    np.testing.assert_array_equal(grid_heads(spec), w)  # every head, exact, in one chart
    lay = spec["layout"]
    grid_top = lay["yaxis"]["domain"][1]
    assert grid_top < lay["yaxis30"]["domain"][0]  # the diagram above the heads, apart
    rows = [a["position"] for k, a in lay.items() if k.startswith("xaxis") and "position" in a]
    assert rows and all(0 <= p < grid_top for p in rows)  # each row's key labels in the grid
    assert spec["data"][0]["colorbar"]["orientation"] == "h"  # the colour bar under the grid
    # the grid keeps its own height: the diagram adds its px to the chart
    plain = heatmap.head_grid(w, list("abcde"), titles=list("uvwxyz"))
    plot_px = lay["height"] - lay["margin"]["t"] - lay["margin"]["b"]
    plain_px = plain.layout.height - plain.layout.margin.t - plain.layout.margin.b
    assert plot_px * grid_top == pytest.approx(plain_px, abs=1)


def test_the_strip_draws_its_nodes_without_text_and_names_them_on_hover():
    """No numbers on the nodes (plotly measures every text it draws: a heads step took longer,
    and 16 numbers ran together on a phone); the hover names each node."""
    w = np.full((16, 3, 3), 1 / 3, dtype=np.float32)
    kv = [h // 4 for h in range(16)]
    fig = eviz.grouped_heads(
        w, list("abc"), kv, titles=list("abcdefghijklmnop"), query_label="Q <b>",
        kv_label="KV",
    )  # fmt: skip
    links, q_nodes, kv_nodes = [tr for tr in fig.data if tr.xaxis == "x30"]
    assert links.mode == "lines" and q_nodes.mode == kv_nodes.mode == "markers"
    assert list(q_nodes.text) == [str(h) for h in range(16)]
    assert list(kv_nodes.text) == [str(g) for g in range(4)]
    assert q_nodes.hovertemplate.startswith("Q &lt;b&gt; %{text}")  # the label escaped
    assert kv_nodes.hovertemplate.startswith("KV %{text}")
    # each query node has its key/value head's colour
    assert list(q_nodes.marker.color) == [kv_nodes.marker.color[g] for g in kv]
    assert fig.layout.meta is None or "phone_strip_steps" not in fig.layout.meta


def test_integer_axes_tick_whole_steps_only():
    """Issue #42: the running max/sum chart over 2 tiles printed "0 0 0 1 1 1" (ticks at 0.2,
    0.4, ... formatted as integers). Whole steps now: linear ticks from 0, every 1 (or more)."""
    for n in (2, 3, 12, 64):
        fig = eviz.curves(np.arange(n), [np.ones(n)], names=["m"], x_title="tile", integer_x=True)
        x = fig.layout.xaxis
        assert x.tickmode == "linear" and x.tick0 == 0 and x.dtick >= 1
        assert float(x.dtick).is_integer() and (n - 1) / x.dtick <= 10


def _sidebar_head_counts() -> list[int]:
    """Every number of heads the sidebar offers (the core's limits)."""
    from mha_core.layer import valid_head_counts
    from mha_core.layer.limits import D_MODELS, MAX_HEADS

    return sorted({h for d in D_MODELS for h in valid_head_counts(d, MAX_HEADS)})


def _marks(trace) -> list[tuple[str, str]]:
    """(colour, fill) of each node: its symbol without the row's shape ("", "-open", ...)."""
    n = len(trace.x)
    symbols = trace.marker.symbol
    symbols = [symbols] * n if isinstance(symbols, str) else list(symbols)
    fills = [s.split("-", 1)[1] if "-" in s else "" for s in symbols]
    return list(zip(trace.marker.color, fills))


def test_every_key_value_group_is_told_apart_at_every_allowed_count():
    """Issue #42: past the palette's 9 colours (up to 16 key/value heads) a group had another's
    colour again (KV head 9 = KV head 0). Every count of heads the sidebar offers, every count of
    key/value heads the page's slider offers: each group's (colour, fill) is its own, and each
    query head wears its group's."""
    from mha_core.layer import valid_kv_head_counts

    counts = _sidebar_head_counts()
    assert max(counts) == 16
    for nh in counts:
        w = np.full((nh, 2, 2), 0.5, dtype=np.float32)
        for n_kv in valid_kv_head_counts(nh):
            kv = [h // (nh // n_kv) for h in range(nh)]
            fig = eviz.grouped_heads(w, ["a", "b"], kv, titles=[f"h{h}" for h in range(nh)])
            _, q_nodes, kv_nodes = [tr for tr in fig.data if tr.xaxis == "x30"]
            groups = _marks(kv_nodes)
            assert len(set(groups)) == n_kv, (nh, n_kv, groups)
            assert _marks(q_nodes) == [groups[g] for g in kv], (nh, n_kv)
            widths = kv_nodes.marker.line.width
            assert [w > 0 for w in widths] == [f != "" for _, f in groups]  # hollow: an outline
    with pytest.raises(ValueError, match="told apart"):
        eviz.group_marks([len(eviz.DISTINCT) * len(eviz.GROUP_FILLS)], "square")
