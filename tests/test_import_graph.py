"""The project's imports form no cycle: every module stands above what it imports.

The graph is read from the source with `ast`, not by importing: every `import` and `from … import` counts,
at module level and inside functions alike (a function-local import is still a dependency, only a later
one), and so does one under `if TYPE_CHECKING:` (a type that two modules need of each other belongs in a
third). A module loaded by name through importlib is not an arrow: the registry's discovery of the type
modules is one, and it is how the registry stands above the types it reads. A cycle fails with the modules
around it, in order, so that the message says where to cut.
"""

from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from injectors.registry import TYPE_MODULE

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("parsers", "injectors", "validation", "evaluation", "release", "review", "flows", "corpus")
# bench/ is scripts, not a package: its modules are read as bench.<name>, like the project's own
SCRIPTS = ("bench",)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    folders = (*PACKAGES, *SCRIPTS)
    return {module_name(p): p for folder in folders for p in sorted((ROOT / folder).rglob("*.py"))}


def imported_names(tree: ast.Module, name: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """(dotted name, line) of everything a module imports: `from a import b` yields a.b, which lands in the
    module a.b where b is a submodule and in a where b is a name that a defines."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            for alias in node.names:
                yield f"{source}.{alias.name}", node.lineno


def resolve(dotted: str, modules: dict[str, Path]) -> str | None:
    """The project module a dotted name lands in: itself, or the nearest enclosing module."""
    while dotted:
        if dotted in modules:
            return dotted
        dotted = dotted.rpartition(".")[0]
    return None


@functools.cache
def import_graph() -> dict[str, dict[str, int]]:
    """Module → {module it imports: the line of the first such import}."""
    modules = project_modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: dict[str, int] = {}
        for dotted, line in imported_names(tree, name, path.name == "__init__.py"):
            target = resolve(dotted, modules)
            if target is not None and target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as one closed walk."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def loop_through(component: list[str], graph: dict[str, dict[str, int]]) -> list[str]:
    """One cycle through the component's first module, by breadth-first search back to it."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node]):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if nxt in members and nxt not in previous:
                    previous[nxt] = node
                    following.append(nxt)
        frontier = following
    return component


def describe(component: list[str], graph: dict[str, dict[str, int]]) -> str:
    loop = loop_through(component, graph)
    steps = [f"  {a} (line {graph[a][b]}) -> {b}" for a, b in itertools.pairwise(loop)]
    return f"{len(component)} modules: {', '.join(component)}\n  e.g.\n" + "\n".join(steps)


def test_the_graph_sees_imports_at_every_level() -> None:
    """The walk finds a function-local import and a TYPE_CHECKING one, and resolves relative imports."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "if TYPE_CHECKING:\n    from injectors.registry import TypeDefinition\n"
        "def f():\n    from parsers.model import Document\n"
    )
    tree = ast.parse(source)
    names = {dotted for dotted, _ in imported_names(tree, "injectors.llm.client", False)}
    assert {"injectors.llm.sibling", "injectors.registry.TypeDefinition", "parsers.model.Document"} <= names
    modules = project_modules()
    assert resolve("injectors.registry.TypeDefinition", modules) == "injectors.registry"
    assert resolve("injectors.types.nms", modules) == "injectors.types.nms"


def test_the_cycle_finder_reports_a_loop() -> None:
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert loop_through(["a", "b", "c"], graph) == ["a", "b", "c", "a"]
    assert cycles({"a": {"b": 1}, "b": {}}) == []


@pytest.mark.parametrize("package", (*PACKAGES, *SCRIPTS))
def test_no_import_cycle(package: str) -> None:
    graph = import_graph()
    inside = [c for c in cycles(graph) if any(m == package or m.startswith(package + ".") for m in c)]
    assert not inside, "import cycles:\n" + "\n".join(describe(c, graph) for c in inside)


# What a type module may import of the project besides `injectors.authoring`: the language tools, the helpers
# of the type packages, and the parsers' readers of entries and text (`parsers.model` comes with the surface)
TYPE_MODULE_MAY_IMPORT = ("injectors.authoring", "injectors.language", "injectors.types", "parsers")


def _may_import(module: str) -> bool:
    return module != "parsers.model" and any(
        module == allowed or module.startswith(allowed + ".") for allowed in TYPE_MODULE_MAY_IMPORT
    )


def core_imports_of_type_modules() -> dict[str, list[str]]:
    """Type module → the project modules it imports that it should take through `injectors.authoring`."""
    modules = project_modules()
    found: dict[str, list[str]] = {}
    for name, path in modules.items():
        if not (name.startswith("injectors.types.") and TYPE_MODULE.match(name.rsplit(".", 1)[-1])):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = {resolve(dotted, modules) for dotted, _ in imported_names(tree, name, False)}
        wrong = sorted(t for t in targets if t is not None and not _may_import(t))
        if wrong:
            found[name] = wrong
    return found


def test_type_modules_import_the_core_from_one_surface() -> None:
    """A type module takes the injector base class, the checkers' building blocks, its row, its definition
    and the LLM path's pieces from `injectors.authoring` alone (docs/adding-a-type.md)."""
    assert len([m for m in project_modules() if TYPE_MODULE.match(m.rsplit(".", 1)[-1])]) >= 25
    found = core_imports_of_type_modules()
    assert not found, "import these from injectors.authoring instead:\n" + "\n".join(
        f"  {m}: {', '.join(t)}" for m, t in sorted(found.items())
    )
