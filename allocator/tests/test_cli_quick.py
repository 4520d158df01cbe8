"""A plain ``allocate`` command line is read without argparse (allocator.cli.quick), to the very namespace
argparse reads from it; any other line is left to argparse (its help, its errors)."""

from __future__ import annotations

import contextlib
import io

import pytest

from allocator.cli import _plain, build_parser
from allocator.cli.allocate import QUICK

FILES = ["inventory.yaml", "claim.yaml"]

# Lines read without argparse: options in full, once each, with their values; the files in one run.
PLAIN = [
    ["allocate", *FILES],
    ["allocate", "--node", "n1", *FILES],
    ["allocate", *FILES, "--node", "n1"],
    ["allocate", "--node=n1", "-o", "yaml", "-"],
    ["allocate", "--output=json", "--kubernetes-version", "1.34", "--feature-gates", "A=true,B=false", *FILES],
    ["allocate", "--feature-gates=DRAPrioritizedList=false", "a.json"],
    ["allocate", "--max-input-bytes", "1_000", "--max-values", "7", "--max-depth", "3", "--max-alias-values", "2",
     "--time-budget", "5", *FILES],
    ["allocate", "--node", "", "x", ""],
    ["allocate", "--node=", "x"],
]

# Lines argparse reads, or refuses, itself.
NOT_PLAIN = [
    ["allocate"],
    ["allocate", "--help"],
    ["allocate", "-h", *FILES],
    ["allocate", "--no", "n1", *FILES],  # an abbreviation
    ["allocate", "--node", "n1", "--node", "n2", *FILES],  # twice
    ["allocate", "inventory.yaml", "--node", "n1", "claim.yaml"],  # files split by an option: argparse refuses
    ["allocate", "--node", *FILES[:1]],  # no file left after the option's value: argparse refuses
    ["allocate", "--node"],
    ["allocate", "--node", "-", *FILES],
    ["allocate", "--", *FILES],
    ["allocate", "-o", "xml", *FILES],
    ["allocate", "-oyaml", *FILES],
    ["allocate", "-o=yaml", *FILES],
    ["allocate", "--max-depth", "0", *FILES],
    ["allocate", "--max-depth", "-1", *FILES],
    ["allocate", "--max-depth", "many", *FILES],
    ["allocate", "--unknown", *FILES],
    ["allocate", "-1", *FILES],
    ["validate", *FILES],  # a command without QUICK
    ["--help"],
    [],
]


def _argparse(line: list[str]) -> dict | None:
    """What argparse reads from the line (its namespace's fields), or None when it stops (help, error)."""
    parser = build_parser(line[0] if line and line[0] in ("allocate", "validate") else None)
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return vars(parser.parse_args(line))
        except SystemExit:
            return None


@pytest.mark.parametrize("line", PLAIN, ids=" ".join)
def test_a_plain_line_reads_as_argparse_reads_it(line):
    read = _plain(line)
    assert read is not None
    assert vars(read) == _argparse(line)


@pytest.mark.parametrize("line", NOT_PLAIN, ids=" ".join)
def test_any_other_line_is_left_to_argparse(line):
    assert _plain(line) is None


def test_the_quick_options_are_those_of_the_command():
    """Every option of ``allocate``'s parser is in QUICK with its destination and default, and nothing else."""
    parser = build_parser("allocate")
    [sub] = [a for a in parser._actions if a.dest == "command"]
    allocate = sub.choices["allocate"]  # type: ignore[index]
    options, defaults = QUICK()
    declared = {flag: action.dest for action in allocate._actions for flag in action.option_strings
                if action.dest != "help"}
    assert declared == {flag: dest for flag, (dest, _) in options.items()}
    assert defaults == {action.dest: action.default for action in allocate._actions
                        if action.option_strings and action.dest != "help"}
