"""What several test modules share: where things are, and running the command line.

Topic by topic beside this module: ``allocate_table`` (the shorthand of upstream's allocator
test table), ``proofs`` (node-0 GPUs, NICs and claims as YAML text), ``strategies``
(Hypothesis settings and random devices and requests) and ``validation`` (the validation
tests' objects and checks).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# The checkout (or clone): the folder holding allocator/, playground/ and pyproject.toml.
ROOT = Path(__file__).resolve().parents[3]
# Test input shared by the test folders.
DATA = Path(__file__).resolve().parents[1] / "data"
# Real driver examples copied into the project, with their provenance (data/examples/README.md).
EXAMPLES = DATA / "examples"

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
