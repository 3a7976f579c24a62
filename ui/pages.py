"""The app's pages, in navigation order: the one list of them.

The router, the sidebar, the benches and every test that loops over pages read it;
tests/test_registry.py checks that each page has its files and that no other file lists the
pages. Plain data only: tests and benches import it without starting Streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass

# Which model a page runs, and so which of the sidebar's settings apply to it:
SIDEBAR = "sidebar"  # built from the sidebar: its sentence and its model settings
MINILM = "minilm"  # the pretrained all-MiniLM-L6-v2: the sentence (the sidebar notes the rest)
OWN = "own"  # one the page trains from its own settings: neither


@dataclass(frozen=True)
class Page:
    """One page. Its id names everything of it: the view views/<id>.py, its strings
    ui/strings/<id>.py (keys "<id>.…", its navigation title "nav.<id>"), its widget keys
    ("<id>.head"), its URL (/<id>) and its tests tests/{app,browser}/test_<id>.py."""

    id: str
    icon: str
    model: str = SIDEBAR
    tokens: bool = False  # it lists the sentence's tokens, numbered, each in a bidi isolate
    sentence_view: str = ""  # the view ("<id>.view") that draws the sentence, if not the first
    browser_module: str = ""  # its browser tests' module when it shares another page's
    home: bool = False  # the default page, served at "/"
    # sidebar model settings a SIDEBAR page ignores (drawn disabled, with a note); on MINILM and
    # OWN pages every model setting is (ui/sidebar.py)
    unused: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        return f"views/{self.id}.py"

    @property
    def url_path(self) -> str:
        return "" if self.home else self.id

    @property
    def title_key(self) -> str:
        return f"nav.{self.id}"

    @property
    def strings_module(self) -> str:
        return f"ui/strings/{self.id}.py"

    @property
    def app_tests(self) -> str:
        return f"tests/app/test_{self.id}.py"

    @property
    def browser_tests(self) -> str:
        return f"tests/browser/{self.browser_module or f'test_{self.id}'}.py"

    @property
    def reads_sentence(self) -> bool:
        return self.model != OWN


PAGES: tuple[Page, ...] = (
    Page("lesson", "🎓", tokens=True),  # first in the navigation: where a learner starts
    Page("attention", "🔍", tokens=True, home=True),
    Page("step", "🧮", tokens=True),
    Page("scaling", "📏", sentence_view="sentence", browser_module="test_positional_and_scaling"),
    Page("positional", "〰️", tokens=True, sentence_view="sentence",
         browser_module="test_positional_and_scaling"),  # fmt: skip
    Page("pretrained", "🧠", model=MINILM, tokens=True),
    Page("encoder_decoder", "🔁", unused=("scale", "mask", "scoring")),
    Page("train", "🏋️", model=OWN),
    Page("reading", "🔬", model=MINILM, tokens=True),
    Page("efficient", "⚡", tokens=True),
    Page("induction", "🧲", model=OWN),
    Page("llm", "💬", model=OWN),
)
IDS: tuple[str, ...] = tuple(p.id for p in PAGES)
BY_ID: dict[str, Page] = {p.id: p for p in PAGES}
HOME: Page = next(p for p in PAGES if p.home)
