"""``python -m allocator validate``: the objects checked as the apiserver checks them."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from allocator.cli.common import EXIT_ERROR, GATES_HELP, VERSION_HELP, add_limit_flags

if TYPE_CHECKING:  # imported where used (start-up)
    from allocator.cli.common import Commands
    from allocator.kube.objects import ReadResult
    from allocator.reading.diagnostics import Diagnostic
    from allocator.reading.limits import Limits
    from allocator.releases.gates import FeatureGates

HELP = """\
Validate the input objects as the apiserver would (create), with CEL
compilation and cost checks, for the release --kubernetes-version. Exit 0
when valid, 1 when not, 2 when the input cannot be read, an object is in a
version the release does not serve, or a release or gate is refused.
"""


def add(commands: Commands) -> None:
    parser = commands.add_parser("validate", help="validate objects like the apiserver",
                                 description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kubernetes-version", metavar="V", help=VERSION_HELP)
    parser.add_argument("--feature-gates", metavar="K=V,...", default="", help=GATES_HELP)
    parser.add_argument("-o", "--output", choices=("json", "text"), default="json", help="output format")
    add_limit_flags(parser)
    parser.add_argument("files", nargs="+", metavar="FILE", help="input file, or - for stdin")


def run(args: argparse.Namespace) -> int:
    try:
        from allocator.validation.cli import run as validate
    except ImportError as err:
        print(f"error: validation is not available in this build ({err})", file=sys.stderr)
        return EXIT_ERROR
    return validate(args, more=_workloads)


def _workloads(text: str, result: ReadResult, gates: FeatureGates, limits: Limits) -> list[Diagnostic]:
    """Deployments, StatefulSets, Jobs...: the controller and its pod template, as ``allocate`` reads them."""
    from allocator.workload.analysed import read_workloads

    return read_workloads(text, result, gates, limits=limits)[1]
