"""Lesson: a path of stations in the course's order, each a question before its live answer."""

from ui import present, widgets
from ui.compute.lesson import fingerprint
from ui.i18n import t
from ui.page import open_page
from ui.sections import lesson as sections
from ui.sections.lesson import END, PARAMS

settings = open_page("lesson", PARAMS)
present.prose(t("lesson.intro"))
stop = sections.navigation()
tokens = widgets.sentence_tokens(settings)
widgets.token_chips(tokens)
ctx = sections.Context(settings, tuple(tokens))
fp = fingerprint(settings)
states = sections.progress(ctx, fp)
if stop == END:
    sections.summary(states)
else:
    sections.station(stop, ctx, fp)
sections.step_buttons(stop)
sections.teacher_link()
