"""The engine's folders show its pipeline (docs/layout.md): each imports only the folders before it, and no
module imports itself back through others. Imports inside functions count too."""

from __future__ import annotations

import ast

from allocator.tests.helpers import ROOT

# The pipeline's order: a folder may import the ones before it, never one after it.
FOLDERS = ("reading", "releases", "kube", "cel", "validation", "allocation", "workload", "authoring")
ENGINE = ROOT / "allocator"


def _modules() -> dict[str, object]:
    found = {}
    for path in ENGINE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if "tests" in parts:
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _imports(name: str) -> set[str]:
    """The engine modules ``name`` imports (a package's name where a name is not a module of it)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                full = f"{target}.{alias.name}"
                out.add(full if full in MODULES else target)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in MODULES and m != name}


GRAPH = {name: _imports(name) for name in MODULES}


def _rank(name: str) -> int:
    parts = name.split(".")
    return FOLDERS.index(parts[1]) if len(parts) > 1 and parts[1] in FOLDERS else len(FOLDERS)


def test_every_engine_module_is_in_a_folder_of_the_pipeline_or_on_top():
    on_top = {m for m in MODULES if _rank(m) == len(FOLDERS)}
    assert on_top == {"allocator", "allocator.__main__", "allocator.startup", "allocator.engine", "allocator.compare",
                      "allocator.synthetic", "allocator.cli", "allocator.cli.common", "allocator.cli.allocate",
                      "allocator.cli.validate", "allocator.cli.convert", "allocator.cli.evaluate",
                      "allocator.cli.capacity", "allocator.cli.sample", "allocator.cli.quick"}


def test_no_folder_imports_one_after_it():
    upward = sorted((m, d) for m, deps in GRAPH.items() for d in deps if _rank(d) > _rank(m))
    assert upward == []


def test_no_module_imports_itself_back():
    cycles, state = [], {}

    def visit(name, path):
        state[name] = "open"
        for dep in sorted(GRAPH[name]):
            if state.get(dep) == "open":
                cycles.append(path + [dep])
            elif dep not in state:
                visit(dep, path + [dep])
        state[name] = "done"

    for name in sorted(GRAPH):
        if name not in state:
            visit(name, [name])
    assert cycles == []
