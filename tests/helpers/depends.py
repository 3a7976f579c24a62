"""Which settings may change when another one changes, shared by the sequence tests
(tests/helpers/sequences.py, over AppTest) and the browser walk (tests/browser/walk.py).

Each page's row comes from its controls' declarations (`PARAMS` in ui/sections/<page>.py,
`Param.depends_on`); the sidebar's own row ("*") is here."""

from __future__ import annotations

import importlib

from ui.pages import IDS
from ui.params import HEADS, TOKENS, Param, depends

__all__ = ["DEPENDS", "HEADS", "TOKENS", "page_params"]


def page_params(page: str) -> tuple[Param, ...]:
    """The controls page `page` declares (its section module's `PARAMS`)."""
    return importlib.import_module(f"ui.sections.{page}").PARAMS


# URL parameters whose value may be clamped when another one changes: {page: {param: causes}}.
# "*" holds for every page. A parameter not listed here may change only by an action on its own
# control (or a button in `BUTTONS` that sets it); anything else is a lost setting.
DEPENDS: dict[str, dict[str, frozenset]] = {
    "*": {"n_heads": frozenset({"d_model"})},
    **{page: depends(page_params(page)) for page in IDS},
}
