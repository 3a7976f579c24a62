"""Induction: a GPT-style decoder trained live next to a 1-layer control; induction heads form."""

from ui.page import open_page
from ui.sections import induction as sections

# the sidebar's sentence and model are not used on this page
settings = open_page("induction", sections.PARAMS)
sections.settle()  # a pair that Stop was pressed for ends here, before its sections are drawn
sections.intro()
sections.controls()
sections.untrained()  # before any run: the untrained model's attention on the probe
sections.live_training()  # trains the pair in progress, if any; reruns the page when it ends
fin = sections.finished()
if fin is not None:
    sections.summary(fin)
    sections.scores(fin)
    sections.try_it(fin)
    sections.sink(fin)
