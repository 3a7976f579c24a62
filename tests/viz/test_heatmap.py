import numpy as np
import plotly.graph_objects as go
import pytest

from tests.helpers.grid import grid_heads, grid_tokens
from tests.helpers.numeric import attention_weights
from viz import DEFAULT_PALETTE, attention_heatmap, escape_label, head_grid

MARKUP = [
    "<b>x</b>",
    '<a href="https://example.com">x</a>',
    "<img src=x onerror=alert(1)>",
    '<span style="font-size:400px">W</span>',
    "a & b",
    '"quoted"',
]


def test_escape_label():
    assert escape_label("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"
    assert escape_label("a & b") == "a &amp; b"
    assert escape_label('"q"') == '"q"'  # Plotly shows &quot; literally: quotes stay as they are
    assert escape_label("plain") == "plain"


def test_repeated_tokens_keep_their_own_rows():
    tokens = ["the", "cat", "saw", "the", "dog"]
    fig = head_grid(attention_weights(2, 5, 5), tokens)
    assert [d.type for d in fig.data].count("heatmap") == 1
    xa, ya = fig.layout.xaxis, fig.layout.yaxis
    assert list(xa.ticktext) == tokens * 2 and list(ya.ticktext) == tokens  # two heads, one row
    assert len(set(xa.tickvals)) == 10 and list(ya.tickvals) == list(range(5))  # a column each
    assert grid_tokens(fig.to_plotly_json()) == tokens


@pytest.mark.parametrize("nh", [1, 3, 4, 8, 16])
def test_every_head_with_exact_values(nh):
    w = attention_weights(nh, 6, 6, seed=nh)
    fig = head_grid(w, [f"t{i}" for i in range(6)])
    np.testing.assert_array_equal(grid_heads(fig.to_plotly_json()), w)
    tr = fig.data[0]
    assert "%{z:.8g}" in tr.hovertemplate  # exact to float32 precision
    assert "%{y}" in tr.hovertemplate and "%{x}" in tr.hovertemplate  # tokens via ticktext
    xs, ys = list(fig.layout.xaxis.tickvals), list(fig.layout.yaxis.tickvals)
    for h in range(nh):  # positions: repeated tokens stay apart
        r, c = divmod(h, min(nh, 2))
        assert list(np.asarray(tr.customdata)[ys[6 * r + 2], xs[6 * c + 4]]) == [2, 4]
    assert [a.text for a in fig.layout.annotations] == [f"head {h}" for h in range(nh)]


def test_shared_and_per_head_scale():
    w = attention_weights(3, 4, 4)
    w[1] *= 0.1
    shared = head_grid(w, list("abcd"), shared_scale=True)
    per = head_grid(w, list("abcd"), shared_scale=False)
    assert shared.data[0].zmax == pytest.approx(float(w.max())) and shared.data[0].showscale
    assert per.data[0].zmax == 1.0  # each head stretched to [0, 1]
    assert list(per.data[0].colorbar.ticktext) == ["0", "50%", "100%"]  # a share of its max
    stretched = grid_heads({"data": [{**per.to_plotly_json()["data"][0], "customdata": None}]})
    for h in range(3):
        assert stretched[h].max() == pytest.approx(1.0)
    np.testing.assert_array_equal(grid_heads(per.to_plotly_json()), w)  # exact in the hover
    assert shared.data[0].colorscale == go.Heatmap(colorscale=DEFAULT_PALETTE).colorscale


def test_markup_is_escaped_everywhere():
    tokens = MARKUP
    n = len(tokens)
    titles = ["<b>head</b>", "h1"]
    fig = head_grid(attention_weights(2, n, n), tokens, titles=titles)
    xa = fig.layout.xaxis
    assert list(xa.ticktext) == [escape_label(t) for t in tokens] * 2
    assert fig.layout.annotations[0].text == "&lt;b&gt;head&lt;/b&gt;"
    assert np.asarray(fig.data[0].customdata).dtype.kind == "i"  # hover carries no user string
    assert "&quot;" not in fig.to_json()  # no entity that Plotly would show literally
    single = attention_heatmap(attention_weights(1, n, n)[0], tokens, title="<i>t</i>")
    assert single.layout.title.text == "&lt;i&gt;t&lt;/i&gt;"
    assert list(single.layout.yaxis.ticktext) == [escape_label(t) for t in tokens]


def test_rectangular_cross_attention_labels():
    w = attention_weights(2, 3, 5)
    fig = head_grid(w, ["a", "b", "c"], ["v", "w", "x", "y", "z"])
    assert list(fig.layout.xaxis.ticktext) == ["v", "w", "x", "y", "z"] * 2
    assert list(fig.layout.yaxis.ticktext) == ["a", "b", "c"]


def test_label_count_mismatch_is_refused():
    with pytest.raises(ValueError, match="labels"):
        head_grid(attention_weights(2, 3, 3), ["a", "b"])
    with pytest.raises(ValueError, match="heads"):
        head_grid(attention_weights(2, 3, 3)[0], ["a", "b", "c"])


def test_payload_stays_small_at_the_page_limit():
    n = 64  # the most tokens the pages draw cell by cell in a grid, at the most heads
    fig = head_grid(attention_weights(16, n, n), [f"word{i}" for i in range(n)])
    # over LABEL_ALL tokens the labels carry the positions: no per-cell customdata
    assert fig.data[0].customdata is None and fig.data[0].hovertemplate.startswith("query %{y}")
    assert fig.layout.yaxis.ticktext[8 * 64 - 1] == "63: word63"  # the last head's last query
    assert len(fig.to_json()) < 600_000  # typed arrays, not per-cell strings


def test_transparent_background_for_both_themes():
    fig = attention_heatmap(attention_weights(1, 2, 2)[0], ["a", "b"])
    assert fig.layout.paper_bgcolor == "rgba(0,0,0,0)"
    assert fig.layout.plot_bgcolor == "rgba(0,0,0,0)"


def _hover(tr) -> str:
    return tr.hovertemplate.split("<br>")[0] + " | " + tr.hovertemplate.split("<br>")[1]


def test_the_hover_names_a_position_once():
    """Up to 40 tokens the labels are the tokens and the hover adds their positions (from
    customdata); past 40 the labels start with it ("12: w12") and the hover does not repeat
    it; block labels ("32–39", numbered=False) say where they are at any length."""
    short = head_grid(attention_weights(2, 10), [f"w{i}" for i in range(10)])
    tr = short.data[0]
    assert _hover(tr) == "query %{customdata[0]}: %{y} | key %{customdata[1]}: %{x}"
    assert np.asarray(tr.customdata).shape[-1] == 2

    long = head_grid(attention_weights(2, 50), [f"w{i}" for i in range(50)])
    tr = long.data[0]
    assert long.layout.yaxis.ticktext[12] == "12: w12"
    assert _hover(tr) == "query %{y} | key %{x}"
    assert tr.customdata is None  # nothing else to read there: not sent

    blocks = [f"{8 * i}–{8 * i + 7}" for i in range(10)]
    binned = head_grid(attention_weights(2, 10), blocks, numbered=False)
    tr = binned.data[0]
    assert binned.layout.yaxis.ticktext[4] == "32–39"
    assert _hover(tr) == "query %{y} | key %{x}" and tr.customdata is None


def test_stretched_colours_keep_the_exact_weight_in_the_hover_of_labelled_blocks():
    w = attention_weights(2, 10)
    blocks = [str(i) for i in range(10)]
    fig = head_grid(w, blocks, shared_scale=False, numbered=False)
    tr = fig.data[0]
    assert _hover(tr) == "query %{y} | key %{x}" and "customdata[2]" in tr.hovertemplate
    assert np.asarray(tr.customdata)[0, :10, 2] == pytest.approx(w[0, 0])


def test_a_grid_says_how_many_key_labels_a_phone_can_draw():
    """Upright key labels past what a head holds on a phone (~6 at two heads a row): layout.meta
    asks for every k-th there (ui/widgets.plot); labels that lie flat, or few, ask nothing."""
    from viz.heatmap import PHONE_X_STEP

    long_words = [f"token{i}" for i in range(19)]
    fig = head_grid(attention_weights(4, 19), long_words)
    assert fig.layout.xaxis2.tickangle == -90  # upright
    assert fig.layout.meta[PHONE_X_STEP] == 4  # 19 labels, 6 to a head: every 4th
    one_col = head_grid(attention_weights(1, 19), long_words)
    assert one_col.layout.meta[PHONE_X_STEP] == 2  # a whole row: 12 fit
    flat = head_grid(attention_weights(4, 3), ["a", "b", "c"])
    assert not flat.layout.meta


@pytest.mark.parametrize("nh, t", [(4, 7), (3, 7), (8, 19), (2, 12)])
def test_a_phone_shows_the_same_key_labels_under_every_head_of_a_row(nh, t):
    """The phone style draws every k-th tick of a row's axis, counted across its heads; with 7
    labels a head and k = 2 the second head showed the other half ("want, live, Europe" beside
    "I, to, in, ."). Invisible ticks in the gaps start every head at a k-th tick (plotly.js
    draws no tick for an empty text)."""
    from tests.helpers.grid import blocks, gap_ticks
    from viz.heatmap import PHONE_X_STEP

    words = [f"word{i}" for i in range(t)]
    fig = head_grid(attention_weights(nh, t), words).to_plotly_json()
    lay = fig["layout"]
    k = lay["meta"][PHONE_X_STEP]
    assert k > 1
    columns = sorted({(c.start, c.stop) for _, _, c in blocks(fig)})  # heads side by side
    assert len(columns) == 2
    rows = [a for n, a in lay.items() if n.startswith("xaxis") and a.get("overlaying") == "x"]
    if lay["xaxis"].get("showticklabels"):
        rows.append(lay["xaxis"])
    for axis in rows:
        ticks = list(zip(axis["tickvals"], axis["ticktext"]))
        on_phone = [ticks[i] for i in range(0, len(ticks), k)]
        per_head = [[x for v, x in on_phone if c0 - 0.5 < v < c1 - 0.5] for c0, c1 in columns]
        heads = [labels for labels in per_head if labels]  # a last row may hold one head
        assert heads and all(labels == heads[0] for labels in heads), (per_head, k)
        assert heads[0][0] == "word0"  # each head from its first key
        assert "" not in axis["ticktext"]  # plotly.js would not draw it: the count shifts
        for v in gap_ticks(axis):  # the invisible ticks lie between the heads
            assert columns[0][1] - 0.5 < v < columns[1][0] - 0.5


def test_square_heatmap_keeps_square_cells():
    """Issue #42: the head-similarity matrix was stretched across the page."""
    import viz

    fig = viz.attention_heatmap(np.eye(4), ["a", "b", "c", "d"], square=True)
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.xaxis.constrain == "domain"
    assert viz.attention_heatmap(np.eye(4), ["a", "b", "c", "d"]).layout.yaxis.scaleanchor is None


def test_a_square_matrix_keeps_its_colour_bar_under_it_not_across_the_page():
    """Issue #42, the head-similarity matrix (built as the home page builds it): equal aspect
    (square cells), and its colour bar under it at the left, no longer than the matrix is tall
    (at the chart's far right, ~450 px off on a wide page, the chart read as stretched across
    it); empty axis titles take no room."""
    import viz

    heads = [f"head {h}" for h in range(12)]
    fig = viz.attention_heatmap(
        np.eye(12), heads, zmin=0.0, zmax=1.0, x_title="", y_title="", height=60 + 40 * 12,
        fmt=".4f", square=True,
    )  # fmt: skip
    lay = fig.layout
    assert lay.yaxis.scaleanchor == "x" and lay.xaxis.constrain == lay.yaxis.constrain == "domain"
    bar = fig.data[0].colorbar
    assert bar.orientation == "h" and bar.xanchor == "left" and bar.x == 0
    plot_px = lay.height - lay.margin.t - lay.margin.b
    assert bar.lenmode == "pixels" and bar.len <= min(plot_px, 260)
    assert lay.margin.r <= 30  # no colour bar beside it
    assert lay.xaxis.title.text is None and lay.yaxis.title.text is None
    assert plot_px >= 60 + 40 * 12 - 60 - 50  # the matrix keeps the height it was given
