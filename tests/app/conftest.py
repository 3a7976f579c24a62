"""AppTest fixtures. The helpers are in tests/helpers/app.py (importing it installs the lookup of
a widget by its control key, `at.selectbox(key="step.head")`, used by every AppTest here)."""

import pytest

import tests.helpers.app  # noqa: F401
from ui.compute.train import LiveRun, TrainChoice


@pytest.fixture(scope="module")
def small_run():
    """A finished 40-step run of the Train page's defaults (about a second): the Train page's
    tests and the Encoder-decoder's trained model read it."""
    live = LiveRun.start(TrainChoice(steps=40))
    while not live.done:
        live.advance()
    return live.finish()
