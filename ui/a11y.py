"""WCAG 2.1 AA where Streamlit's theme (.streamlit/config.toml) cannot reach: the page's style and
its document language, drawn once per run by the router. tests/browser/test_a11y.py checks every
page with axe-core.

The style follows the theme by CSS `light-dark()`: Streamlit sets `color-scheme` light or dark on
its app element, so one rule serves both themes, also when a student picks one in the settings.
"""

from __future__ import annotations

import json

import streamlit as st

from ui.i18n import current_lang
from viz import theme


def _rgb(colour: str) -> str:
    """A colour "#RRGGBB" as plotly.js writes it into a `fill` style ("rgb(r, g, b)")."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


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
</style>"""

# The document's language, for screen readers; and every display formula focusable, so that a
# keyboard can scroll one wider than the screen (axe: scrollable-region-focusable). The observer
# is set once per page load (the flag on window); after each batch of changes it looks for a new
# formula with one selector query (no style or layout read). Looking only at the added nodes
# missed a formula once on a page's first load (cause not found).
_SCRIPT = """<script>
document.documentElement.lang = LANG;
if (!window.__lensKatexFocus) {
  window.__lensKatexFocus = true;
  const focusable = () => document.querySelectorAll('.katex-display:not([tabindex])')
    .forEach(e => e.tabIndex = 0);
  focusable();
  new MutationObserver(focusable)
    .observe(document.body, {childList: true, subtree: true});
}
</script>"""


def page_style() -> None:
    """The style (sent with Streamlit's events: it takes no room on the page)."""
    st.html(STYLE)


def document_language() -> None:
    """Set the document's `lang` to the app's language (an empty element at the sidebar's foot;
    its script runs again when the language changes)."""
    script = _SCRIPT.replace("LANG", json.dumps(current_lang()))
    st.sidebar.html(script, unsafe_allow_javascript=True)
