"""What several test modules share: where things are, and running the command line.

Topic by topic beside this module: ``allocate_table`` (the shorthand of upstream's allocator
test table), ``proofs`` (node-0 GPUs, NICs and claims as YAML text), ``strategies``
(Hypothesis settings and random devices and requests) and ``validation`` (the validation
tests' objects and checks).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from allocator.kube import objects

# The checkout (or clone): the folder holding allocator/, playground/ and pyproject.toml.
ROOT = Path(__file__).resolve().parents[3]
# Test input shared by the test folders.
DATA = Path(__file__).resolve().parents[1] / "data"
# Real driver examples copied into the project, with their provenance (data/examples/README.md).
EXAMPLES = DATA / "examples"
# The sample inventories and the example gallery.
SAMPLES = ROOT / "playground" / "samples"

# The claim of the cluster benchmark (bench/cluster_bench.py): one GPU of the synthetic cluster.
BENCH_CLAIM = (ROOT / "bench" / "cluster_bench.py").read_text().split('CLAIM = """\\\n', 1)[1].split('"""', 1)[0]


def example_files() -> list[Path]:
    """Every driver example, sorted by path."""
    return sorted(EXAMPLES.rglob("*.yaml"))


def cli(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m allocator ARGS`` run from the checkout as a user runs it, output captured as text."""
    return subprocess.run([sys.executable, "-m", "allocator", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def write_files(folder: Path, **contents: str) -> list[str]:
    """Each text in ``folder/NAME.yaml``; their paths, in the order given."""
    paths = []
    for name, text in contents.items():
        path = folder / f"{name}.yaml"
        path.write_text(text)
        paths.append(str(path))
    return paths


def read_uncached(text: str, fast: bool = True) -> objects.ReadResult:
    """``read_documents(text)`` read afresh (not from the read cache), by the fast reader or, with
    ``fast=False``, by the positioned reader alone; raises what it raises."""
    objects._cache.clear()
    objects.FAST_READER = fast
    try:
        return objects.read_documents(text)
    finally:
        objects.FAST_READER = True
        objects._cache.clear()


def at(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the nth occurrence of needle in the dedented text."""
    text = textwrap.dedent(text)
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    return text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index)
