"""The one rule of imports (docs/architecture.md): they flow down the layers, never around in a circle, and a
module uses another's public names only.

Every import counts, wherever it stands: at the top of a module, inside a function or under `if
TYPE_CHECKING:`. A lazy import hides a dependency from the reader; it does not remove it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import dogcase

PACKAGE_DIR = Path(dogcase.__file__).parent
ROOT = PACKAGE_DIR.parent

# The layers, lowest first. A module may import from its own layer and the layers below it; within a layer,
# the circle test below keeps the imports one way.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("law",),
    ("cases",),
    ("accounts",),
    ("documents", "proofs", "messaging", "owners", "money", "imports", "exports", "reports"),
    ("staff", "api", "law_pages", "ops", "demo", "cli", "__main__", "i18n"),
)
LAYER_OF = {app: level for level, apps in enumerate(LAYERS) for app in apps}

# A product file that grows past this is split by what it does (docs/architecture.md).
MOST_LINES = 800


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    tree: ast.Module
    imports: set[str] = field(default_factory=set)
    private: list[str] = field(default_factory=list)

    @property
    def app(self) -> str:
        return self.name.split(".")[1] if "." in self.name else ""


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def _product_modules() -> dict[str, Module]:
    modules = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        name, is_package = _module_name(path)
        modules[name] = Module(name, path, is_package, ast.parse(path.read_text(encoding="utf-8")))
    return modules


def _imported(module: Module, node: ast.AST) -> list[tuple[str, list[str]]]:
    """(module imported from, names imported) for one import statement, relative imports resolved."""
    if isinstance(node, ast.Import):
        return [(alias.name, []) for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = module.name if module.is_package else module.name.rsplit(".", 1)[0]
            parts = package.split(".")
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join([*parts, base] if base else parts)
        return [(base, [alias.name for alias in node.names])]
    return []


def _graph() -> dict[str, Module]:
    modules = _product_modules()
    for module in modules.values():
        for node in ast.walk(module.tree):
            for base, names in _imported(module, node):
                if not base.startswith("dogcase"):
                    continue
                if not names:
                    if base in modules and base != module.name:
                        module.imports.add(base)
                    continue
                for name in names:
                    full = f"{base}.{name}"
                    target = full if full in modules else base if base in modules else None
                    if target is None or target == module.name:
                        continue
                    module.imports.add(target)
                    if name.startswith("_") and target == base:
                        module.private.append(f"{module.name} imports {base}.{name}")
    return modules


@pytest.fixture(scope="module")
def graph() -> dict[str, Module]:
    return _graph()


def _circles(modules: dict[str, Module]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    counter = 0
    for start in modules:
        if start in index:
            continue
        work = [(start, iter(sorted(modules[start].imports)))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(modules[child].imports))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def test_the_graph_sees_imports_in_functions_and_relative_ones(graph):
    # The checks below are only as good as the graph: it must see a lazy import and a relative one.
    cli = graph["dogcase.cli"]
    assert "dogcase.law" in cli.imports
    law = graph["dogcase.law"]
    assert any(target.startswith("dogcase.law.") for target in law.imports)
    assert len(graph) > 100


def test_circles_are_found_when_there_are_some():
    a = Module("dogcase.a", Path("a.py"), False, ast.Module(body=[], type_ignores=[]), {"dogcase.b"})
    b = Module("dogcase.b", Path("b.py"), False, ast.Module(body=[], type_ignores=[]), {"dogcase.c"})
    c = Module("dogcase.c", Path("c.py"), False, ast.Module(body=[], type_ignores=[]), {"dogcase.a"})
    d = Module("dogcase.d", Path("d.py"), False, ast.Module(body=[], type_ignores=[]), {"dogcase.a"})
    assert _circles({m.name: m for m in (a, b, c, d)}) == [["dogcase.a", "dogcase.b", "dogcase.c"]]


def test_no_circle_of_imports(graph):
    circles = _circles(graph)
    assert not circles, "\n".join(", ".join(c) for c in circles)


def test_no_private_name_is_imported_from_another_module(graph):
    private = [line for module in graph.values() for line in module.private]
    assert not private, "\n".join(private)


def test_every_part_of_dogcase_has_a_layer(graph):
    apps = {module.app for module in graph.values() if module.app}
    assert apps - set(LAYER_OF) == set()


def test_imports_flow_down_the_layers(graph):
    upward = []
    for module in graph.values():
        if not module.app:
            continue
        for target in sorted(module.imports):
            target_app = graph[target].app
            if target_app and LAYER_OF[target_app] > LAYER_OF[module.app]:
                upward.append(f"{module.name} ({module.app}) imports {target} ({target_app})")
    assert not upward, "\n".join(upward)


# What a migration may still import from the product, and why. Everything else it uses, it carries a copy of.
MIGRATIONS_MAY_IMPORT = {
    # The cut-over seal is hashed by the chain's one hash rule, the rule `audit verify` recomputes.
    "dogcase.cases.audit",
    # The append-only triggers: installed by the migration and checked by `audit verify` from one definition.
    "dogcase.cases.append_only",
}


def test_migrations_carry_their_own_copies_of_what_they_use():
    # A migration is history: a later change to a product module must not change what an old migration did.
    uses = []
    for path in sorted(PACKAGE_DIR.glob("*/migrations/*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dogcase"):
                names = (
                    [node.module]
                    if node.module != "dogcase.cases"
                    else [f"dogcase.cases.{a.name}" for a in node.names]
                )
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.startswith("dogcase")]
            uses += [f"{path.relative_to(ROOT)}: {n}" for n in names if n not in MIGRATIONS_MAY_IMPORT]
    assert not uses, "\n".join(uses)


def test_no_product_file_outgrows_one_concern(graph):
    long = {
        str(module.path.relative_to(ROOT)): lines
        for module in graph.values()
        if (lines := module.path.read_text(encoding="utf-8").count("\n")) > MOST_LINES
    }
    assert not long, "\n".join(f"{path}: {lines} lines" for path, lines in long.items())
