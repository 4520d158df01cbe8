"""``python -m allocator``: the command line of DESIGN.md ("The engine's contract").

Scripts depend on it; keep the options, output shapes and exit statuses stable.
One module per command, each with its ``add`` (its options) and ``run`` (the
engine's answer printed); nothing here imports Django, and heavy modules load
only when a command runs.
"""

from __future__ import annotations

import argparse
import sys

from allocator.cli import allocate, capacity, convert, evaluate, validate
from allocator.cli.common import EXIT_ERROR, EXIT_OK, EXIT_UNSATISFIABLE
from allocator.deadline import BudgetExceeded, time_budget

__all__ = ["EXIT_ERROR", "EXIT_OK", "EXIT_UNSATISFIABLE", "build_parser", "main"]

# In the order the help lists them.
COMMANDS = {"allocate": allocate, "validate": validate, "convert": convert, "eval": evaluate, "capacity": capacity}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m allocator",
                                     description="DRA Playground engine: allocate and validate DRA objects.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for module in COMMANDS.values():
        module.add(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        with time_budget(getattr(args, "time_budget", None)):
            return COMMANDS[args.command].run(args)
    except BudgetExceeded as err:  # --time-budget ran out: where it stopped, as an error
        print(f"error: the {err.message}", file=sys.stderr)
        return EXIT_ERROR
