"""``python -m allocator capacity``: how many copies of a workload fit, placed one after another."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from allocator.cli.common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_UNSATISFIABLE,
    GATES_HELP,
    VERSION_HELP,
    add_limit_flags,
    as_stored,
    exit_status,
    gates_and_documents,
    positive,
    print_output,
    refused,
)

if TYPE_CHECKING:  # imported where used (start-up)
    from allocator.cli.common import Commands
    from allocator.workload.controllers import PodSet

HELP = """\
Place copies of the input's workload one after another, as the scheduler
would, until one fits on no node: a copy is every Pod of the input (without
pods, every pending claim), renamed <name>-<n>; claims from templates are
made anew for each copy, claims named by resourceClaimName are shared (at
most 256 consumers, those already in status.reservedFor included), and every
earlier copy's allocation is held. With Deployments, ReplicaSets or
StatefulSets (spec.replicas) or Jobs (spec.parallelism, at most
spec.completions) in the input, each is a workload of that many copies of its
pod template, a bare Pod one; the copies are placed in the order written, all
of one workload before the next, named as the controllers name their pods,
and placing stops when each has its count. Node choice (--strategy): first
(name order), spread (fewest of the node's own devices in use), pack (most in
use); kube-scheduler scores nodes with its plugins and breaks ties at random,
so these bracket what it does. --max caps the copies placed in all. Prints
  {"strategy", "placed", "stoppedBy": "max"|"all placed"|"no node fits"|"error",
   "workloads": [{"kind", "name", "asked", "placed"}] (asked null: as many as fit),
   "byNode": [{"name", "copies", "used", "total"}],
   "byPool": [{"driver", "pool", "node", "used", "total"}],
   "next": {"reason", "workload", "pods", "nodes": [{"name", "reason"}]} or null,
   "error", "steps": [{"copy", "workload", "node", "pods", "claims": [{"name", "devices"}]}]}
Exit 0 when at least one copy fits (or every count is placed), 1 when none
does, 2 on invalid input or an error that makes the scheduler give up
(message on stderr).
"""


def add(commands: Commands) -> None:
    parser = commands.add_parser("capacity", help="how many copies of a workload fit, one after another",
                                 description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--strategy", choices=("first", "spread", "pack"), default="first",
                        help="which node each copy goes to (default: %(default)s)")
    parser.add_argument("--max", type=positive, default=100, metavar="N",
                        help="place at most N copies (default: %(default)s)")
    parser.add_argument("--kubernetes-version", metavar="V", help=VERSION_HELP)
    parser.add_argument("--feature-gates", metavar="K=V,...", default="", help=GATES_HELP)
    parser.add_argument("-o", "--output", choices=("json", "yaml"), default="json", help="output format")
    add_limit_flags(parser)
    parser.add_argument("files", nargs="+", metavar="FILE", help="input file, or - for stdin")


def run(args: argparse.Namespace) -> int:
    from allocator.allocation.allocator import AllocatorError
    from allocator.releases.gates import stored_object_gates
    from allocator.workload.cluster import Cluster
    from allocator.workload.controllers import template_errors
    from allocator.workload.planning import PlanOptions, ToPlace, plan
    from allocator.workload.pods import PodClaimError

    workloads: list[PodSet] = []
    try:
        gates, documents = gates_and_documents(args, workloads)
    except SystemExit as stop:
        return exit_status(stop)
    if any(w.kind != "Pod" for w in workloads):
        workloads.sort(key=lambda w: w.order)
    else:
        workloads = []  # no count anywhere: the whole input is one workload, repeated
    invalid = [f"{w.source}:{d}" for w in workloads
               for d in template_errors([w], documents, gates, stored_object_gates(gates.release))]
    for line in invalid:
        print(f"error: {line}", file=sys.stderr)
    if refused(documents, gates) or invalid:
        return EXIT_ERROR
    documents, _ = as_stored(documents, gates)

    try:
        report = plan(ToPlace.of(documents, workloads or None), Cluster.of(documents), gates,
                      PlanOptions(args.strategy, args.max))
    except (AllocatorError, PodClaimError) as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    print_output(report.to_dict(), args.output)
    if report.error:
        print(f"error: {report.error}", file=sys.stderr)
        return EXIT_ERROR
    if report.next is not None:
        print(f"copy {report.placed + 1} ({report.next['workload']}) does not fit: {report.next['reason']}",
              file=sys.stderr)
    return EXIT_OK if report.placed or report.stopped_by == "all placed" else EXIT_UNSATISFIABLE
