"""Every chart the app draws says what it shows, in words (its accessible name, from the figure
itself: viz/a11y.py, ui/widgets.plot) and, with "Show charts as tables" on (`table=1`), in
numbers: on every page of the registry, in every view, in English and 中文.

The name is a visually hidden paragraph before the chart (ui/a11y.chart_name) that the page's
script ties to the chart (aria-labelledby; tests/browser/test_keyboard.py reads it from the
accessibility tree)."""

from __future__ import annotations

import re

import pytest

from tests.helpers.app import run_app
from tests.helpers.sequences import CONTROLS
from ui.a11y import class_key
from ui.pages import PAGES

NAME = re.compile(r'<p class="lens-chart-name" data-chart="([^"]+)">(.*?)</p>', re.S)


def views(page) -> list:
    """(page, view) for every view of every page: its view control's values from the table of
    controls (tests/helpers/sequences.py), or the page as it opens."""
    for key in (f"{page.id}.view", f"{page.id}.stage"):
        if key in CONTROLS[page.id]:
            return [(page, key, v) for v in CONTROLS[page.id][key]]
    return [(page, None, None)]


CASES = [case for page in PAGES for case in views(page)]


def chart_names(at) -> dict[str, str]:
    """{chart key as in its class: name} of every chart name on the page."""
    names = {}
    for el in at.get("html"):
        for key, text in NAME.findall(el.proto.body):
            names[key] = text
    return names


TABLE = {"en": "Table: ", "zh": "表格:"}
ZH_CASES = [views(page)[0] for page in PAGES]  # 中文: each page as it opens


def _id(case) -> str:
    page, _, view = case
    return page.id if view is None else f"{page.id}-{view}"


@pytest.mark.parametrize(
    "case, lang",
    [(c, "en") for c in CASES] + [(c, "zh") for c in ZH_CASES],
    ids=[f"{_id(c)}-en" for c in CASES] + [f"{_id(c)}-zh" for c in ZH_CASES],
)
def test_every_chart_is_named_and_has_its_table(case, lang):
    page, key, view = case
    state = {"shared.table": True, "shared.lang": lang, **({key: view} if key else {})}
    at = run_app(page.path, **state)
    charts = at.get("plotly_chart")
    names = chart_names(at)
    numbers = 0
    for chart in charts:
        name = names.get(class_key(chart.key))
        assert name, f"{chart.key}: no accessible name"
        assert name not in ("Chart", "图表"), chart.key
        diagram = re.search(r"(^|\. )diagram: |示意图:", name) is not None
        # specific: the chart's rows and columns or its series counted, or what a diagram says
        assert diagram or re.search(r"\d", name), (chart.key, name)
        if lang == "zh":  # the words of the name are in 中文 (titles may hold tokens)
            assert re.search(r"[\u4e00-\u9fff]", name), (chart.key, name)
        numbers += not diagram
    tables = [c for c in at.caption if c.value.startswith(TABLE[lang])]
    assert len(tables) >= numbers, "table=1: every chart with numbers gives them as a table"
    assert len(at.dataframe) >= len(tables)
