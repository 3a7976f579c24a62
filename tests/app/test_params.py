"""Each page control is declared once (`PARAMS` in ui/sections/<page>.py, `ui.params.Param`):
the declarations hold together, and what `open_page` derives from them (defaults, URL parsers,
clamps) follows them."""

from __future__ import annotations

import pytest

from tests.helpers.app import run_app
from tests.helpers.depends import page_params
from ui import params, state, url
from ui.pages import IDS
from ui.params import HEAD_INDEX, NO_DEFAULT, Distinct, OneOf, Param, Range, index
from ui.state import MAX_HEADS, Settings


def test_range_and_one_of_parse_as_the_url_writes():
    assert Range(1, 8)("8") == 8 and index(4)("3") == 3
    for bad in ("9", "0", "-1", "+3", " 3", "3.0", "", "1e3"):
        with pytest.raises(ValueError):
            Range(1, 8)(bad)
    assert (HEAD_INDEX.lo, HEAD_INDEX.hi) == (0, MAX_HEADS - 1)
    assert OneOf(("a", "b"))("b") == "b"
    assert OneOf((0.0, 0.7), float)("0.7") == 0.7
    with pytest.raises(ValueError):
        OneOf(("a", "b"))("c")
    assert Distinct(index(8), 3)("") == [] and Distinct(index(8), 3)("4,0") == [4, 0]
    for bad in ("1,1", "0,1,2,3", "8", "1,", ","):
        with pytest.raises(ValueError):
            Distinct(index(8), 3)(bad)


def test_derived_defaults_parsers_and_depends():
    ps = (
        Param("p.a", 1, Range(0, 3), depends_on=frozenset({"n_heads"})),
        Param("p.b", lambda s: s.n_heads, Range(1, 16)),
        Param("p.c", parse=Range(0, 9)),  # no default
        Param("p.d", "x", str, in_url=lambda v: len(v) < 3),
        Param("p.e", True),  # not in the URL
    )
    settings = Settings(**state.DEFAULTS)
    assert params.defaults(ps, settings) == {"p.a": 1, "p.b": 4, "p.d": "x", "p.e": True}
    assert list(params.parsers(ps, {"p.d": "x"})) == ["p.a", "p.b", "p.c", "p.d"]
    assert list(params.parsers(ps, {"p.d": "long"})) == ["p.a", "p.b", "p.c"]
    assert params.depends(ps) == {"a": frozenset({"n_heads"})}


@pytest.mark.parametrize("page", IDS)
def test_a_pages_declarations_hold_together(page):
    ps = page_params(page)
    keys = [p.key for p in ps]
    assert len(set(keys)) == len(keys), "a control declared twice"
    assert all(k.startswith(f"{page}.") for k in keys), keys
    names = {p.name for p in ps if p.parse is not None}
    assert not names & set(state.DEFAULTS), "a URL name of the sidebar's"
    settings = Settings(**state.DEFAULTS)
    defaults = params.defaults(ps, settings)
    for p in ps:
        if p.parse is None or p.key not in defaults or defaults[p.key] is None:
            continue
        text = url.text_of(defaults[p.key])  # the default as a link writes it reads back
        assert p.parse(text) == defaults[p.key], (p.key, text)  # an empty default too
        if p.within is not None and p.within(settings) is not None:
            assert defaults[p.key] in p.within(settings), p.key
    assert all(p.default is not NO_DEFAULT or p.parse is not None for p in ps)


def test_open_page_clamps_to_the_sidebars_heads():
    # a link's head of 9 is valid (at most MAX_HEADS - 1) and is clamped to the 2 heads: to the
    # nearest on the step page, to 0 where the page declares that fallback (scaling)
    at = run_app("views/step.py", query={"n_heads": "2", "head": "9"})
    assert at.session_state["step.head"] == 1 and at.query_params["head"] == "1"
    at = run_app("views/scaling.py", query={"n_heads": "2", "head": "9"})
    assert at.session_state["scaling.head"] == 0
