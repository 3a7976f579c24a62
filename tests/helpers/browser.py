"""What the browser tests read from a page (`from tests.helpers.browser import wait_for_app`)."""

from __future__ import annotations


def wait_for_app(pg, timeout: float = 60_000) -> None:
    """Wait until Streamlit has finished running the script (no running indicator)."""
    pg.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    pg.wait_for_function(
        """() => {
            const s = document.querySelector('[data-testid="stStatusWidget"]');
            return !s || !s.innerText.toLowerCase().includes('running');
        }""",
        timeout=timeout,
    )
    pg.wait_for_timeout(500)


def assert_markup_is_text(pg) -> None:
    """The hostile markup of `tests.helpers.inputs` typed into the page made no link, no image
    and no dialog in the page's main area (the `page` fixture records dialogs)."""
    assert pg.locator("[data-testid=stMain] a[href='https://example.com']").count() == 0
    assert pg.locator("[data-testid=stMain] img[src=x]").count() == 0
    assert pg.dialogs == []


def plot_data(pg, index: int = 0):
    """The `data` array of the index-th Plotly chart on the page (as the browser holds it)."""
    return pg.evaluate(
        "(i) => { const g = document.querySelectorAll('.js-plotly-plot')[i];"
        " return g.data.map(d => ({type: d.type, name: d.name})); }",
        index,
    )


def plot_layout_axis(pg, index: int, axis: str):
    return pg.evaluate(
        "([i, ax]) => { const g = document.querySelectorAll('.js-plotly-plot')[i];"
        " const a = g._fullLayout[ax]; return {ticktext: a.ticktext, tickvals: a.tickvals}; }",
        [index, axis],
    )
