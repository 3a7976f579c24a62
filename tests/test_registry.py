"""The page registry (ui/pages.py) is the one list of pages: every view is registered, every
registered page has its files, the README's table follows it, and no other file lists the pages
by hand (a page left out of such a list would go silently untested)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ui.pages import HOME, IDS, MINILM, OWN, PAGES, SIDEBAR
from ui.strings import STRINGS

ROOT = Path(__file__).resolve().parents[1]
# the only files that may name three or more pages in one literal
ALLOWED = {"ui/pages.py", "tests/test_registry.py"}
SKIP_DIRS = {".git", ".venv", "venv", "__pycache__", "node_modules"}


def test_every_view_is_a_registered_page():
    views = sorted(p.stem for p in (ROOT / "views").glob("*.py"))
    assert views == sorted(IDS)
    assert len(set(IDS)) == len(IDS)
    # "/" opens the home page (st.navigation's default); the lesson is listed before it
    assert [p for p in PAGES if p.home] == [HOME] and HOME in PAGES[:2]
    assert len({p.icon for p in PAGES}) == len(PAGES) and all(p.icon for p in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_every_page_has_its_files(page):
    for path in (page.path, page.strings_module, page.app_tests, page.browser_tests):
        assert (ROOT / path).is_file(), f"{page.id}: {path} is missing"
    assert page.model in (SIDEBAR, MINILM, OWN)
    for lang in ("en", "zh"):
        assert STRINGS[lang][page.title_key], f"{page.id}: no {lang} title"
    strings = (ROOT / page.strings_module).read_text(encoding="utf-8")
    assert f'"{page.id}.' in strings, f"{page.strings_module} holds none of {page.id}'s texts"
    if page.browser_module:  # a shared module opens this page too
        browser = (ROOT / page.browser_tests).read_text(encoding="utf-8")
        assert f"/{page.url_path}" in browser, f"{page.browser_tests} never opens /{page.id}"
    if page.sentence_view:
        code = "".join(p.read_text(encoding="utf-8") for p in _page_code(page.id))
        assert f'"{page.sentence_view}"' in code, f"{page.id} has no view {page.sentence_view!r}"


def _page_code(page_id: str) -> list[Path]:
    """The view and the sections of a page (a module or a package)."""
    sections = ROOT / "ui" / "sections"
    return [ROOT / "views" / f"{page_id}.py", *sections.glob(f"{page_id}.py"),
            *sections.glob(f"{page_id}/*.py")]  # fmt: skip


# --- the README's table of pages ----------------------------------------------------------------
def _readme_rows() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("| page | view |", 1)[1].split("\n\n", 1)[0]
    lines = [line for line in table.splitlines()[2:] if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_the_readme_table_follows_the_registry():
    rows = _readme_rows()
    assert len(rows) == len(PAGES), "one row per page"
    for page, row in zip(PAGES, rows, strict=True):
        title = STRINGS["en"][page.title_key] + (" (home)" if page.home else "")
        assert row[0] == title, (page.id, row[0])
        named = set(re.findall(r"`([^`]+)`", " ".join(row)))
        for path in (page.path, page.strings_module, page.app_tests, page.browser_tests):
            assert path in named, f"the README's row for {page.id} does not name {path}"
        for path in named:
            assert (ROOT / path).exists(), f"the README's row for {page.id} names {path}: gone"


# --- no page list kept by hand ------------------------------------------------------------------
def _page_of(node: ast.AST) -> str | None:
    """The page a literal names: its id, its view's path or its URL path."""
    if isinstance(node, (ast.Tuple, ast.List)) and node.elts:  # a case: (page, ...)
        node = node.elts[0]
    elif isinstance(node, ast.Call) and node.args:  # st.Page("views/step.py", ...)
        node = node.args[0]
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    value = node.value.removeprefix("views/").removesuffix(".py").strip("/")
    return value if value in IDS else None


def hand_lists(source: str) -> list[tuple[int, list[str]]]:
    """(line, pages) of each literal in `source` that names three or more pages: a list, tuple or
    set of them (or of cases or calls that start with one), or a dict keyed by them that leaves
    a page out. A dict with a row for every page (extra "*" aside) is a table, not a list: a page
    added to the registry without its row fails here."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            pages = {_page_of(e) for e in node.elts} - {None}
        elif isinstance(node, ast.Dict):
            pages = {_page_of(k) for k in node.keys if k is not None} - {None}
            if pages == set(IDS):
                continue
        else:
            continue
        if len(pages) >= 3:
            found.append((node.lineno, sorted(pages)))
    return found


def test_the_scan_finds_a_hand_kept_list():
    a, b, c = IDS[:3]
    assert hand_lists(f"PAGES = ({a!r}, {b!r}, {c!r})")
    assert hand_lists(f"P = [f for f in ('views/{a}.py', 'views/{b}.py', '/{c}')]")
    assert hand_lists(f"CASES = [({a!r}, {{}}), ({b!r}, {{'x': 1}}), ({c!r}, {{}})]")
    assert hand_lists(f"NAV = [Page('views/{a}.py', t=1), Page('views/{b}.py'), Page({c!r})]")
    assert hand_lists(f"T = {{{a!r}: 1, {b!r}: 2, {c!r}: 3}}")  # a table missing pages
    assert not hand_lists("T = {" + ", ".join(f"{p!r}: 0" for p in ("*", *IDS)) + "}")
    assert not hand_lists(f"TWO = ({a!r}, {b!r})")


def test_no_other_file_lists_the_pages():
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if SKIP_DIRS & set(path.relative_to(ROOT).parts) or rel in ALLOWED:
            continue
        hits = hand_lists(path.read_text(encoding="utf-8"))
        if hits:
            found[rel] = hits
    assert not found, f"read ui/pages.py instead of listing the pages: {found}"
