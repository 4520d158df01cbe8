"""The site's modules import one another without cycles, and the API reaches the engine through services."""

import ast
from pathlib import Path
from unittest import TestCase

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("playground", "api")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "tests" in parts or "migrations" in parts:
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The site's modules ``name`` imports, wherever in the module the import is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[:len(package.split(".")) - node.level + 1], base]).strip(".")
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in out if module in known and module != name}


class LayoutTestCase(TestCase):
    def setUp(self):
        modules = _modules()
        self.graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}

    def test_no_module_imports_itself_through_others(self):
        cycles = []

        def visit(name: str, path: list[str], done: set[str]):
            for imported in sorted(self.graph[name]):
                if imported in path:
                    cycles.append(" -> ".join([*path[path.index(imported):], imported]))
                elif imported not in done:
                    done.add(imported)
                    visit(imported, [*path, imported], done)

        for name in sorted(self.graph):
            visit(name, [name], set())
        self.assertEqual(cycles, [])

    def test_the_services_import_neither_pages_nor_api(self):
        for name, imported in self.graph.items():
            if name.startswith("playground.services"):
                with self.subTest(name):
                    self.assertFalse({m for m in imported if m.startswith("api") or m in (
                        "playground.views", "playground.forms", "playground.results")})
