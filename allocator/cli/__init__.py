"""``python -m allocator``: the command line of DESIGN.md ("The engine's contract").

Scripts depend on it; keep the options, output shapes and exit statuses stable.
One module per command, each with its ``add`` (its options) and ``run`` (the
engine's answer printed); nothing here imports Django, and heavy modules load
only when a command runs.
"""

from __future__ import annotations

import importlib
import sys

from allocator.cli.common import EXIT_ERROR, EXIT_OK, EXIT_UNSATISFIABLE
from allocator.reading import TYPE_CHECKING
from allocator.reading.deadline import BudgetExceeded, time_budget

if TYPE_CHECKING:  # imported where used: a plain command line is read without argparse (allocator.cli.quick)
    import argparse
    from types import ModuleType, SimpleNamespace

__all__ = ["EXIT_ERROR", "EXIT_OK", "EXIT_UNSATISFIABLE", "build_parser", "main"]

# Each command and its module (allocator.cli.NAME), in the order the help lists them. A command's module is
# imported when that command runs, or when the help lists them all (start-up: `sample` alone imports pathlib).
COMMANDS = {"allocate": "allocate", "validate": "validate", "convert": "convert", "eval": "evaluate",
            "capacity": "capacity", "sample": "sample"}


def command_module(command: str) -> ModuleType:
    return importlib.import_module(f"allocator.cli.{COMMANDS[command]}")

DESCRIPTION = """\
DRA Playground engine: what the Kubernetes scheduler and apiserver (releases
1.31 to 1.37) do with DRA objects (resource.k8s.io), without a cluster.
Allocate claims, validate objects, convert them between versions, evaluate a
CEL expression on a device, and count how many copies of a workload fit.

Input files hold Kubernetes objects (YAML or JSON, as `kubectl get -o yaml`
prints them). To start from the playground's samples:

  python -m allocator sample                       # list them
  python -m allocator sample gpu-node > inventory.yaml
  python -m allocator sample count-two-gpus > claim.yaml
  python -m allocator allocate inventory.yaml claim.yaml

or dump a cluster: kubectl get nodes,resourceslices,deviceclasses -o yaml.
`python -m allocator COMMAND --help` says more about each command."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only``, the parser of that one command alone (what a run of
    it parses is the same: the top level has no option of its own and names no command in its usage)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m allocator", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in [only] if only else COMMANDS:
        command_module(command).add(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    args: argparse.Namespace | SimpleNamespace | None = _plain(given)
    if args is None:
        # `python -m allocator COMMAND ...`: only that command's options are built (start-up).
        parser = build_parser(given[0] if given and given[0] in COMMANDS else None)
        args = parser.parse_args(given)
        if args.command is None:  # no command: the whole help, not only "COMMAND is required"
            parser.print_help(sys.stderr)
            return EXIT_ERROR
    try:
        with time_budget(getattr(args, "time_budget", None)):
            status: int = command_module(args.command).run(args)
            return status
    except BudgetExceeded as err:  # --time-budget ran out: where it stopped, as an error
        print(f"error: the {err.message}", file=sys.stderr)
        return EXIT_ERROR


def _plain(given: list[str]) -> SimpleNamespace | None:
    """The namespace of a plain command line of a command that has ``QUICK`` options, read without argparse
    (allocator.cli.quick); None for any other (argparse reads it)."""
    if not given or given[0] not in COMMANDS:
        return None
    module = command_module(given[0])
    if not hasattr(module, "QUICK"):
        return None
    from allocator.cli.quick import parse

    options, defaults = module.QUICK()
    found: SimpleNamespace | None = parse(given[0], given[1:], options, defaults)
    return found
