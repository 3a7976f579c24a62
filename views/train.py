"""Train: a tiny encoder-decoder trained live on a toy task; its heads scrubbed and tried."""

from ui.page import open_page
from ui.sections import train as sections

# the sidebar's sentence and model are not used on this page
settings = open_page("train", sections.PARAMS)
sections.settle()  # a run that Stop was pressed for ends here, before its sections are drawn
sections.intro()
sections.controls()
sections.live_training()  # trains the run in progress, if any; reruns the page when it ends
run = sections.finished_run()
if run is None:
    sections.before_training(sections.current_choice())  # the untrained heads: a "before"
else:
    sections.summary(run)
    sections.curves(run)
    sections.snapshots(run)
    sections.try_it(run)
