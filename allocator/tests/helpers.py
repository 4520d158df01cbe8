"""What several test modules share: where things are, and running the command line."""

from __future__ import annotations

from pathlib import Path

# The checkout (or clone): the folder holding allocator/, playground/ and pyproject.toml.
ROOT = Path(__file__).resolve().parents[2]
# Test input shared by the test folders.
DATA = Path(__file__).resolve().parent / "data"
# Real driver examples copied into the project, with their provenance (data/examples/README.md).
EXAMPLES = DATA / "examples"


def example_files() -> list[Path]:
    """Every driver example, sorted by path."""
    return sorted(EXAMPLES.rglob("*.yaml"))
