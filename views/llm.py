"""A real language model: SmolLM2-135M-Instruct answers a question through our own core, and its
270 heads can be opened."""

from ui import controls
from ui.page import open_page
from ui.sections import llm as sections

# the sidebar's sentence and model are not used on this page
open_page("llm", sections.PARAMS)
m = sections.load()  # here, not at import: the app starts without the model
sections.intro(m)
question = sections.question()
temp, top_k, max_new = sections.settings()
views = sections.views()


def ask() -> None:
    sections.ask(question, temp, top_k, max_new)


def heads() -> None:
    ids, tokens = sections.heads_text(m, question, temp, top_k, max_new)
    sections.memory(m, len(ids))  # the text's KV cache, under the text
    layer, head, query = sections.head_controls(tokens)
    sections.every_head(m, ids, tokens, layer, head, query)
    sections.scores(ids)


controls.draw_open(views, {"ask": ask, "heads": heads})
