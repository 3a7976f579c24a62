"""The layering rules, checked on the source: no import cycle among the project's modules (lazy
and TYPE_CHECKING imports included), every module of mha_core imports, mha_core imports neither
streamlit nor plotly, viz neither torch nor streamlit."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

from tests.helpers.process import run_python

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("mha_core", "viz", "ui", "views", "bench")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """Modules (dotted) that one import statement names, relative imports resolved."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = module.split(".")
        base = base if is_package else base[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    # `from pkg import name`: the submodule pkg.name when there is one, else pkg itself
    return [target] + [f"{target}.{a.name}" for a in node.names]


def import_graph(root: Path, packages=PACKAGES) -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere in its source (function bodies and
    `if TYPE_CHECKING:` blocks included)."""
    files = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")) if (root / pkg).is_dir() else ():
            files[_module_name(path, root)] = path
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        targets = set()
        for node in ast.walk(tree):
            for t in _imported(node, name, is_package):
                if t in files and t != name:
                    targets.add(t)
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle_among_the_projects_modules():
    graph = import_graph(ROOT)
    assert "mha_core.pretrained.model" in graph and "viz" in graph  # the walk saw the tree
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_the_cycle_check_sees_lazy_and_type_checking_imports(tmp_path):
    pkg = tmp_path / "mha_core"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\n")
    (pkg / "a.py").write_text("def f():\n    from .sub.b import g\n    return g()\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import f\n"
    )
    cycle = find_cycle(import_graph(tmp_path, ("mha_core",)))
    assert cycle is not None and set(cycle) == {"mha_core.a", "mha_core.sub.b"}
    (pkg / "sub" / "b.py").write_text("import math\n")
    assert find_cycle(import_graph(tmp_path, ("mha_core",))) is None


def _modules(package: str) -> list[str]:
    pkg = importlib.import_module(package)
    return [package] + [
        m.name for m in pkgutil.walk_packages(pkg.__path__, prefix=package + ".")
    ]


def test_every_core_module_imports():
    names = _modules("mha_core")
    assert {"mha_core.layer.attention", "mha_core.interpret.rollout"} <= set(names)
    for name in names:
        importlib.import_module(name)


@pytest.mark.parametrize(
    "package, forbidden", [("mha_core", ("streamlit", "plotly")), ("viz", ("torch", "streamlit"))]
)
def test_layering_guard(package, forbidden):
    """Importing every module of the package (in a fresh interpreter) loads none of `forbidden`."""
    code = (
        "import importlib, pkgutil, sys\n"
        f"pkg = importlib.import_module({package!r})\n"
        f"for m in pkgutil.walk_packages(pkg.__path__, prefix={package!r} + '.'):\n"
        "    importlib.import_module(m.name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {set(forbidden)!r})\n"
        "assert not bad, bad\n"
        "print(len([m for m in sys.modules if m.startswith(pkg.__name__)]))\n"
    )
    result = run_python(code)
    assert int(result.stdout.split()[-1]) > 5  # it did import the package's modules
