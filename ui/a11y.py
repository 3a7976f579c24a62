"""WCAG 2.1 AA where Streamlit's theme (.streamlit/config.toml) cannot reach: the page's style and
its document language, drawn once per run by the router. tests/browser/test_a11y.py checks every
page with axe-core.

The style follows the theme by CSS `light-dark()`: Streamlit sets `color-scheme` light or dark on
its app element, so one rule serves both themes, also when a student picks one in the settings.
"""

from __future__ import annotations

import html
import json
import re

import streamlit as st

from ui.i18n import current_lang
from ui.url import TABLE_KEY  # "Show charts as tables" (the URL's table=1)
from viz import theme


def _rgb(colour: str) -> str:
    """A colour "#RRGGBB" as plotly.js writes it into a `fill` style ("rgb(r, g, b)")."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


# The theme's primary colours (.streamlit/config.toml): a focus ring in them reads at 3:1 and more
FOCUS, FOCUS_DARK = "#B02E3C", "#EC7580"

STYLE = f"""<style>
/* Chart text: the figures carry the light theme's grey (viz/theme.py: they are drawn without
   Streamlit's theme); on the dark page the text in that grey takes the dark theme's. No grey
   reads at 4.5:1 on both backgrounds. */
.js-plotly-plot text[style*="fill: {_rgb(theme.TEXT)}"] {{
  fill: light-dark({theme.TEXT}, {theme.TEXT_DARK}) !important;
}}
/* Text on the primary colour (a primary button, a multiselect's chips): Streamlit writes it in
   white, which reads on the light theme's dark red but not on the dark theme's light red (the
   one that reads as text on the dark page: the open view's label, a slider's value). */
[data-testid="stBaseButton-primary"], [data-testid="stBaseButton-primary"] *,
[data-tag], [data-tag] * {{
  color: light-dark(#FFFFFF, #171614) !important;
}}
/* A display formula wider than the screen scrolls sideways: it takes the keyboard's focus
   (the script below) and shows it. */
.katex-display:focus-visible {{ outline: 2px solid currentColor; outline-offset: 2px; }}
/* A multiselect's chips wrap onto more lines: Streamlit keeps them on one line that scrolls
   sideways, and the last chips were cut (Reading's lines view: 8 heads, "7" hidden). */
.stMultiSelect div:has(> span > [data-tag]) {{ flex-wrap: wrap; overflow: visible; height: auto; }}
.stMultiSelect div:has(> div > span > [data-tag]) {{ height: auto; max-height: none; }}
/* On a phone a display formula wider than the column scrolls inside its box (it was cut at
   the right edge: "α_h V" on the step page), a little smaller. */
@media (max-width: 480px) {{
  .katex-display {{ overflow-x: auto; overflow-y: hidden; padding: 2px 0; font-size: 0.9em; }}
}}
/* Focus visible on every control (WCAG 2.4.7), in the theme's primary colour (3:1 and more on
   both backgrounds): the controls where Streamlit draws no ring of its own (the page links, a
   table's toolbar and cells, a number box) and the label of a radio or a switch, whose input
   is invisible. */
[data-testid="stSidebarNavLink"]:focus-visible,
[data-testid="stBaseButton-elementToolbar"]:focus-visible,
[data-testid="stDataFrameResizable"] :focus-visible,
[data-baseweb="input"]:has(input:focus-visible),
[data-baseweb="select"]:has(input:focus-visible),
label:has(input:focus-visible) {{
  outline: 2px solid light-dark({FOCUS}, {FOCUS_DARK}) !important;
  outline-offset: 2px;
}}
/* A chart's name (`chart_name`): read by a screen reader, not shown; its element takes no room
   (taken out of the column's flow, so no gap either). */
.lens-chart-name {{
  position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0;
}}
[data-testid="stElementContainer"]:has(> * .lens-chart-name),
[data-testid="stElementContainer"]:has(> .lens-chart-name) {{
  position: absolute !important; width: 1px; height: 1px; overflow: hidden;
}}
/* Reduced motion (WCAG 2.3.3): no fades, slides or spinners for a reader whose system asks for
   less motion; a live training run or an answer coming in still shows each new state. */
@media (prefers-reduced-motion: reduce) {{
  *, *::before, *::after {{
    animation-duration: 0.001ms !important; animation-iteration-count: 1 !important;
    animation-delay: 0s !important; transition-duration: 0.001ms !important;
    transition-delay: 0s !important; scroll-behavior: auto !important;
  }}
}}
</style>"""

# The document's language, for screen readers; and every display formula focusable, so that a
# keyboard can scroll one wider than the screen (axe: scrollable-region-focusable). The observer
# is set once per page load (the flag on window); after each batch of changes it looks for a new
# formula with one selector query (no style or layout read). Looking only at the added nodes
# missed a formula once on a page's first load (cause not found).
# The same observer names every chart: the chart drawn with key K gets role "figure" and is
# labelled by the name `chart_name` wrote before it (data-chart: K as Streamlit writes it into
# the chart's class, "st-key-K"), so a screen reader announces the name on reaching the chart.
_SCRIPT = """<script>
document.documentElement.lang = LANG;
if (!window.__lensKatexFocus) {
  window.__lensKatexFocus = true;
  const name = n => {
    n.id = n.id || 'lens-name-' + n.dataset.chart;
    const box = document.querySelector('.st-key-' + n.dataset.chart);
    const chart = box && box.querySelector('[data-testid="stPlotlyChart"]');  // once drawn
    if (chart && chart.getAttribute('aria-labelledby') !== n.id) {
      chart.setAttribute('role', 'figure');
      chart.setAttribute('aria-labelledby', n.id);
    }
  };
  const focusable = () => {
    document.querySelectorAll('.katex-display:not([tabindex])').forEach(e => e.tabIndex = 0);
    document.querySelectorAll('.lens-chart-name[data-chart]').forEach(name);
  };
  focusable();
  new MutationObserver(focusable)
    .observe(document.body, {childList: true, subtree: true});
}
</script>"""


def table_mode() -> bool:
    """Whether every chart shows its numbers as tables under it."""
    return bool(st.session_state.get(TABLE_KEY, False))


def class_key(key: str) -> str:
    """A widget key as Streamlit writes it into its element's class ("st-key-" + this)."""
    return re.sub(r"[^a-zA-Z0-9_-]", "-", key.strip())


def chart_name(name: str, key: str, where=None) -> None:
    """The accessible name of the chart about to be drawn with `key` in `where`: a visually
    hidden paragraph (read in its place without the script) that the script above ties to the
    chart (aria-labelledby)."""
    text = html.escape(name, quote=False)
    (where or st).html(f'<p class="lens-chart-name" data-chart="{class_key(key)}">{text}</p>')


def page_style() -> None:
    """The style (sent with Streamlit's events: it takes no room on the page)."""
    st.html(STYLE)


def document_language() -> None:
    """Set the document's `lang` to the app's language (an empty element at the sidebar's foot;
    its script runs again when the language changes)."""
    script = _SCRIPT.replace("LANG", json.dumps(current_lang()))
    st.sidebar.html(script, unsafe_allow_javascript=True)
