"""``python -m allocator convert``: objects rewritten in another resource.k8s.io version."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from allocator.cli.common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_UNSATISFIABLE,
    GATES_HELP,
    VERSION_HELP,
    add_limit_flags,
    print_output,
)
from allocator.releases.table import CURRENT_RELEASE

if TYPE_CHECKING:
    from allocator.cli.common import Commands

HELP = """\
Rewrite every resource.k8s.io object of the input (DeviceClasses,
ResourceSlices, ResourceClaims, ResourceClaimTemplates, ...) in the version
--to, as the apiserver converts between versions; other objects (Pods,
Nodes) are kept as they are. The input may be in any version, also one the
release no longer serves. Prints
  {"apiVersion": "resource.k8s.io/VERSION", "items": [objects],
   "dropped": [{"kind", "name", "field", "detail"}, ...]}
(-o yaml: the objects as multi-document YAML, ready to apply, and the dropped
fields on stderr). Exit 0 when nothing was lost; 1 when the target version
has no place for some field the input sets (named in "dropped"; the output
is printed without it); 2 when the input cannot be read, the version is
unknown, or the release (--kubernetes-version) does not serve the result.
"""


def add(commands: Commands) -> None:
    parser = commands.add_parser("convert", help="rewrite objects in another resource.k8s.io version",
                                 description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--to", required=True, metavar="VERSION",
                        help="the target version: v1, v1beta2, v1beta1 or v1alpha3 (or resource.k8s.io/VERSION)")
    parser.add_argument("--kubernetes-version", metavar="V", help=VERSION_HELP)
    parser.add_argument("--feature-gates", metavar="K=V,...", default="", help=GATES_HELP)
    parser.add_argument("-o", "--output", choices=("json", "yaml"), default="json", help="output format")
    add_limit_flags(parser)
    parser.add_argument("files", nargs="+", metavar="FILE", help="input file, or - for stdin")


def run(args: argparse.Namespace) -> int:
    from allocator.authoring.conversion import convert_text, target_version
    from allocator.reading.diagnostics import DiagnosticError
    from allocator.reading.inputfiles import InputError, read_input
    from allocator.reading.limits import from_flags
    from allocator.releases.gates import FeatureGateError, make_gates, parse_gate_list

    try:
        target_version(args.to)
        gates = make_gates(parse_gate_list(args.feature_gates or ""), args.kubernetes_version or CURRENT_RELEASE,
                           locks=args.kubernetes_version is not None)
    except (ValueError, FeatureGateError) as err:
        print(f"error: {err.with_hint() if isinstance(err, FeatureGateError) else err}", file=sys.stderr)
        return EXIT_ERROR
    limits = from_flags(args)
    items: list[Any] = []
    dropped: list[dict[str, Any]] = []
    problems: list[str] = []
    api_version = ""
    for path in args.files:
        source = "<stdin>" if path == "-" else path
        try:
            result = convert_text(read_input(path, limits), args.to, gates, limits)
        except InputError as err:
            problems.append(str(err))
            continue
        except DiagnosticError as err:
            problems.extend(f"{source}:{d}" for d in err.diagnostics)
            continue
        api_version = result.api_version
        problems.extend(f"{source}:{d}" for d in result.errors)
        items.extend(result.objects)
        dropped.extend(d.as_dict() for d in result.dropped)
    if problems:
        for line in problems:
            print(f"error: {line}", file=sys.stderr)
        return EXIT_ERROR
    if args.output == "yaml":
        import yaml

        # width: a long string (a CEL expression) stays on its line rather than folding onto a continuation
        sys.stdout.write(yaml.safe_dump_all(items, sort_keys=False, default_flow_style=False, width=1_000_000))
        for d in dropped:
            print(f"warning: {d['kind']} {d['name']!r}: {d['field']}: {d['detail']}", file=sys.stderr)
    else:
        print_output({"apiVersion": api_version, "items": items, "dropped": dropped}, "json")
    return EXIT_UNSATISFIABLE if dropped else EXIT_OK
