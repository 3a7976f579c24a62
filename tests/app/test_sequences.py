"""Property-based sequence tests: every page under random sequences of actions (Hypothesis
stateful testing over AppTest; the machine and what it checks: tests/helpers/sequences.py).

CI runs a few short sequences per page with a fixed seed; a longer local run:
    SEQUENCE_EXAMPLES=50 SEQUENCE_STEPS=30 python -m pytest tests/app/test_sequences.py
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers.sequences import PageSequence
from ui.pages import IDS

EXAMPLES = int(os.environ.get("SEQUENCE_EXAMPLES", "2"))
STEPS = int(os.environ.get("SEQUENCE_STEPS", "6"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    derandomize=not os.environ.get("SEQUENCE_RANDOM"),
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)


def _case(page: str):
    machine = type(f"{page.title()}Sequence", (PageSequence,), {"page": page})
    machine.TestCase.settings = SETTINGS
    return machine.TestCase


@pytest.mark.slow
@pytest.mark.parametrize("page", IDS)
def test_any_sequence_of_actions_keeps_the_page_whole(page):
    _case(page)().runTest()
