"""A real language model: SmolLM2-135M-Instruct answers a question (or continues the sidebar's
sentence) through our own core, and its 270 heads can be opened, down to one head's arithmetic."""

from ui import controls
from ui.page import open_page
from ui.sections import llm as sections

# the sidebar's model settings are not used on this page; its sentence when the source says so
open_page("llm", sections.DEFAULTS, sections.URL_PARSERS)
m = sections.load()  # here, not at import: the app starts without the model
sections.intro(m)
source = sections.source()
text = sections.text(source)
temp, top_k, max_new = sections.settings()
tabs = sections.views()


def ask() -> None:
    sections.ask(source, text, temp, top_k, max_new)


def the_text():
    return sections.heads_text(source, text, temp, top_k, max_new)


def heads() -> None:
    ids, tokens = the_text()
    sections.memory(m, len(ids))  # the text's KV cache, under the text
    sections.picked_heads(m, ids, tokens)  # a picker step reruns this fragment alone
    sections.scores(ids)


def arithmetic() -> None:
    ids, tokens = the_text()
    sections.picked_head_steps(m, ids, tokens)


def lens() -> None:
    ids, tokens = the_text()
    _, _, query = sections.head_controls(tokens, pick_head=False)
    sections.lens(m, ids, tokens, query)


def distance() -> None:
    ids, _ = the_text()
    sections.distance(ids)


controls.draw_open(
    tabs,
    {"ask": ask, "heads": heads, "arithmetic": arithmetic, "lens": lens, "distance": distance},
)
