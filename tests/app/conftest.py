"""AppTest fixtures. The helpers are in tests/helpers/app.py (importing it installs the lookup of
a widget by its control key, `at.selectbox(key="step.head")`, used by every AppTest here)."""

import tests.helpers.app  # noqa: F401
