"""The charts' own style, the same in the light and the dark theme: the one Streamlit's theme
gave them, with colours that read on both backgrounds.

Why not Streamlit's theme (`st.plotly_chart(theme="streamlit")`): the browser draws every chart
twice when it arrives. Streamlit's chart component builds the themed figure when it mounts, and
builds it again in an effect right after (a deep copy, with a new `layout.template`); plotly.js
counts a new template (or a new `layout.meta`) as a new layout and redraws the whole chart, where
an unchanged copy of every other layout key costs it a few milliseconds (same data revision:
viz/revision.py). A chart is mounted afresh on every rerun that changes it, so each slider step
drew each changed chart twice (README, "Where a rerun's time goes"). So the app sends its
charts with `theme=None`, no template and no `meta` (ui/widgets.plot), and every figure carries
this style in its own layout (viz.figure).

Colours: Streamlit's theme follows the browser (light or dark) and the server cannot know which,
and no grey reads at 4.5:1 (WCAG 2.1 AA) on both backgrounds (white and #171614: a grey of 4.5:1
on one has at most 4.35:1 on the other). So text is TEXT, 5.2:1 on white (also in an exported
PNG), and the page's style turns it into TEXT_DARK, 6.1:1 on the dark page, when the dark theme is
on (ui/a11y.py: CSS light-dark() on the text plotly fills with TEXT). Lines are TEXT,
translucent. Sizes, fonts, paddings and title placement are those of Streamlit's theme
(Streamlit 1.67's PlotlyChart), so the layout and viz/margins.py's estimates stay as they were.
"""

from __future__ import annotations

TEXT = "#696C78"  # tick labels, titles, colour-bar numbers, legends: 5.23:1 on white
TEXT_DARK = "#9396A2"  # the same on the dark page (ui/a11y.py): 6.14:1 on #171614
LINES = "rgba(105,108,120,0.3)"  # grid and zero lines
FONT = '"Source Sans", sans-serif'  # Streamlit's body font
HOVER_BG = "#262730"  # the hover box: light text on a dark box, in both themes
HOVER_TEXT = "#FAFAFA"
# Okabe & Ito (2008), distinguishable with every common colour-vision deficiency; their black
# as grey (it would vanish on the dark page). Also the curves' and strips' colours (viz.positional)
COLORWAY = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#999999")
# One colour per head or group where up to 9 must be told apart (the lines view's 8 heads, the
# efficient page's key/value groups): Paul Tol's "muted" set, colour-blind safe, 9 colours (the
# 7 above repeated at the 8th: KV head 7 had KV head 0's colour)
DISTINCT = ("#CC6677", "#332288", "#DDCC77", "#117733", "#88CCEE", "#882255", "#44AA99",
            "#999933", "#AA4499")  # fmt: skip
# Heatmap palettes: perceptually uniform and colour-blind safe; readable on light and dark
PALETTES = ("Viridis", "Cividis", "Magma", "Blues")
DEFAULT_PALETTE = "Viridis"
DIVERGING = "RdBu_r"  # for signed values (scores, encodings); blue/red is colour-blind safe

LAYOUT = {
    "font": {"color": TEXT, "family": FONT, "size": 12, "weight": 400},
    "legend": {"title": {"font": {"size": 12, "color": TEXT}, "side": "top"}, "valign": "top",
               "bordercolor": "rgba(0,0,0,0)", "borderwidth": 0,
               "font": {"size": 12, "color": TEXT}},
    "margin": {"pad": 8},
    "hoverlabel": {"bgcolor": HOVER_BG, "bordercolor": HOVER_BG,
                   "font": {"color": HOVER_TEXT, "family": FONT, "size": 12}},
    "modebar": {"bgcolor": "rgba(0,0,0,0)", "color": "rgba(105,108,120,0.6)",
                "activecolor": TEXT},
    "colorway": list(COLORWAY),
}  # fmt: skip
TITLE = {"font": {"family": FONT, "size": 16, "color": TEXT, "weight": 600}, "pad": {"l": 4},
         "xanchor": "left", "x": 0}  # fmt: skip
# No tick or minor-grid colour: given in the layout rather than in a template, plotly.js takes
# them as asking for tick marks and minor grid lines (it drew both where there were none)
_AXIS = {"zerolinecolor": LINES, "gridcolor": LINES, "tickfont": {"color": TEXT, "size": 12},
         "automargin": True}  # fmt: skip
X_AXIS = {**_AXIS, "showgrid": False, "zeroline": False,
          "title": {"font": {"color": TEXT, "size": 14}, "standoff": 20}}  # fmt: skip
Y_AXIS = {**_AXIS, "ticklabelposition": "outside",
          "title": {"font": {"color": TEXT, "size": 14}, "standoff": 24}}  # fmt: skip
COLORBAR = {  # a shared colour axis's bar (a trace's own bar keeps plotly's defaults)
    "thickness": 16, "xpad": 24, "ticklabelposition": "outside", "outlinecolor": "rgba(0,0,0,0)",
    "outlinewidth": 8, "len": 0.75, "y": 0.5745,
    "title": {"font": {"color": TEXT, "size": 14}}, "tickfont": {"color": TEXT, "size": 12},
}  # fmt: skip
_CARTESIAN = {"heatmap", "scatter", "bar", "histogram", "contour", "box", "violin", "scattergl"}


def _fill(target: dict, defaults: dict) -> None:
    """Give `target` every value of `defaults` it does not set (nested dicts merged, copied)."""
    for key, value in defaults.items():
        mine = target.get(key)
        if isinstance(value, dict):
            if mine is None:
                target[key] = mine = {}
            if isinstance(mine, dict):
                _fill(mine, value)
        elif mine is None:
            target[key] = list(value) if isinstance(value, list) else value


def apply(data: list[dict], layout: dict) -> dict:
    """Style `layout` (changed and returned) as Streamlit's theme did: its own values win. Every
    x and y axis gets the axis style, those the traces use without a layout entry too."""
    _fill(layout, LAYOUT)
    if isinstance(layout.get("title"), dict):  # none added where there is none (viz.margins)
        _fill(layout["title"], TITLE)
    axes = {k for k in layout if k[1:5] == "axis" and k[0] in "xy"}
    for tr in data:
        if tr.get("type", "scatter") in _CARTESIAN:
            axes.add("xaxis" + str(tr.get("xaxis") or "x")[1:])
            axes.add("yaxis" + str(tr.get("yaxis") or "y")[1:])
    for key in axes:
        axis = layout.get(key)
        if axis is None:
            layout[key] = axis = {}
        if isinstance(axis, dict):
            if isinstance(axis.get("title"), str):
                axis["title"] = {"text": axis["title"]}
            _fill(axis, X_AXIS if key[0] == "x" else Y_AXIS)
    coloraxis = layout.get("coloraxis")
    if isinstance(coloraxis, dict):
        _fill(coloraxis.setdefault("colorbar", {}), COLORBAR)
    return layout
