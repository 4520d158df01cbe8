"""``python -m allocator eval``: a CEL expression evaluated on one device."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, cast

from allocator.cli.common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_UNSATISFIABLE,
    GATES_HELP,
    VERSION_HELP,
    add_limit_flags,
    exit_status,
    gates_and_documents,
    print_output,
)

if TYPE_CHECKING:  # imported where used (start-up)
    from allocator.cli.common import Commands
    from allocator.kube import model

HELP = """\
Evaluate a CEL expression (of any result type) on one device of the input's
ResourceSlices, in the DRA CEL environment of --kubernetes-version and its
gates: `device.driver`, `device.attributes`, `device.capacity`,
`device.allowMultipleAllocations`. Prints
  {"expression", "device", "value", "type", "parts": [tree], "truncated",
   "cost": {"estimated", "limit"}, "diagnostics": [{"phase", "message", "hint"}]}
where "value" is written as CEL writes it and "type" is cel-go's type name;
each part of the tree is a sub-expression {"start", "end", "text",
"staticType", "value", "type", "error", "perElement", "children"}. Exit 0
when the expression has a value, 1 when it does not compile or fails on the
device (diagnostics say why, compile errors with cel-go's caret diagram), 2
when the input cannot be read, has no such device, or a release or gate is
refused.
"""


def add(commands: Commands) -> None:
    parser = commands.add_parser("eval", help="evaluate a CEL expression on one device",
                                 description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", required=True, metavar="DRIVER/POOL/DEVICE", help="the device to evaluate on")
    parser.add_argument("--kubernetes-version", metavar="V", help=VERSION_HELP)
    parser.add_argument("--feature-gates", metavar="K=V,...", default="", help=GATES_HELP)
    add_limit_flags(parser)
    parser.add_argument("expression", metavar="EXPR", help="a CEL expression, of any result type")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="input file with the device's ResourceSlice, or - for stdin")


def run(args: argparse.Namespace) -> int:
    from allocator.authoring.console import DeviceNotFound, DeviceRef, evaluate, find_device

    try:
        ref = DeviceRef.parse(args.device)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    try:
        gates, documents = gates_and_documents(args)
    except SystemExit as stop:
        return exit_status(stop)
    try:
        device = find_device(cast("list[model.ResourceSlice]", [d.obj for d in documents if d.kind == "ResourceSlice"]), ref)
    except DeviceNotFound as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    answer = evaluate(args.expression, device, ref.driver, gates)
    print_output({"expression": args.expression, "device": {"driver": ref.driver, "pool": ref.pool,
                                                      "device": ref.device}, **answer}, "json")
    return EXIT_UNSATISFIABLE if answer["diagnostics"] else EXIT_OK
