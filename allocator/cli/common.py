"""What every command shares: exit statuses, flags, reading the input files and printing the answer.

Heavy modules load only when a command runs.
"""

from __future__ import annotations

import json
import sys

from allocator.reading import TYPE_CHECKING
from allocator.releases.table import CURRENT_RELEASE, RELEASES

if TYPE_CHECKING:  # imported where used (start-up; argparse: allocator.cli.quick)
    import argparse
    from types import SimpleNamespace
    from typing import Any, TypeAlias

    from allocator.kube.objects import Document
    from allocator.reading.limits import Limits
    from allocator.releases.gates import FeatureGates
    from allocator.validation.documents import StoredObject
    from allocator.workload.controllers import PodSet

EXIT_OK, EXIT_UNSATISFIABLE, EXIT_ERROR = 0, 1, 2

# What each command's ``add`` gets: the top-level parser's subcommands, to add its own parser to.
# (argparse names the class with an underscore; typeshed makes it generic in the parser's class.)
if TYPE_CHECKING:
    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

GATES_HELP = ("Kubernetes feature gates, e.g. DRAPrioritizedList=false,DRAListTypeAttributes=true "
              "(defaults: those of --kubernetes-version). Gates locked in that release cannot be changed; "
              "without --kubernetes-version they are the allocator library's switches, as in upstream's tests")
VERSION_HELP = ("the Kubernetes release to simulate: its default feature gates, the resource.k8s.io "
                f"versions it serves and the fields each has ({RELEASES[0]} ... {RELEASES[-1]}, "
                f"default {CURRENT_RELEASE})")


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per engine limit (``allocator.limits``), defaults sized for real clusters' dumps."""
    from allocator.reading.limits import DEFAULT

    group = parser.add_argument_group("input limits (each input file is read within them)")
    group.add_argument("--max-input-bytes", type=positive, metavar="N", default=DEFAULT.max_input_bytes,
                       help="largest file, in bytes (default: %(default)s)")
    group.add_argument("--max-values", type=positive, metavar="N", default=DEFAULT.max_values,
                       help="most YAML values (scalars, mappings, sequences) in one file (default: %(default)s)")
    group.add_argument("--max-depth", type=positive, metavar="N", default=DEFAULT.max_depth,
                       help="deepest nesting of mappings and sequences (default: %(default)s)")
    group.add_argument("--max-alias-values", type=positive, metavar="N", default=DEFAULT.max_alias_values,
                       help="most values that YAML aliases may add by expanding (default: %(default)s)")
    parser.add_argument("--time-budget", type=positive, metavar="SECONDS", default=None,
                        help="stop after this many seconds and say where the analysis was (exit 2); "
                             "default: no budget")


def exit_status(stop: SystemExit) -> int:
    """The status ``gates_and_documents`` and ``read_inputs`` stopped with (always a number)."""
    return stop.code if isinstance(stop.code, int) else EXIT_ERROR


def positive(text: str) -> int:
    import argparse  # only to refuse (allocator.cli.quick reads a plain command line without it)

    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def gates_and_documents(args: argparse.Namespace | SimpleNamespace,
                        workloads: list[PodSet] | None = None) -> tuple[FeatureGates, list[Document]]:
    """The gates of ``--kubernetes-version``/``--feature-gates`` and every document of the input files, or
    raise SystemExit(2) after printing what is wrong. ``workloads``, when given, receives the files'
    workloads with a count (``allocator.workload.controllers.pod_sets``)."""
    from allocator.reading.limits import from_flags
    from allocator.releases.gates import FeatureGateError, make_gates, parse_gate_list

    try:
        gates = make_gates(parse_gate_list(args.feature_gates or ""), args.kubernetes_version or CURRENT_RELEASE,
                           locks=args.kubernetes_version is not None)
    except FeatureGateError as err:
        print(f"error: {err.with_hint()}", file=sys.stderr)
        raise SystemExit(EXIT_ERROR) from None
    return gates, read_inputs(args.files, from_flags(args), gates, workloads)


def read_inputs(paths: list[str], limits: Limits, gates: FeatureGates,
                workloads: list[PodSet] | None = None) -> list[Document]:
    """All documents of all files, or raise SystemExit(2) after printing what is wrong.

    An object in a version the release (of ``gates``) does not serve is
    refused as such, whatever its fields hold.
    """
    from allocator.kube.objects import read_documents
    from allocator.reading.diagnostics import DiagnosticError
    from allocator.reading.inputfiles import InputError, read_input
    from allocator.reading.samplefiles import sample_file_note
    from allocator.releases.serving import read_errors

    documents: list[Document] = []
    problems: list[str] = []
    for number, path in enumerate(paths):
        source = "<stdin>" if path == "-" else path
        try:
            text = read_input(path, limits)
            note = sample_file_note(text)
            if note is not None:
                problems.append(f"{source}: {note}")
                continue
            result = read_documents(text, limits=limits)
        except InputError as err:
            problems.append(str(err))
            continue
        except DiagnosticError as err:
            problems.extend(f"{source}:{d}" for d in err.diagnostics)
            continue
        problems.extend(f"{source}:{d}" for d in read_errors(result, gates))
        if workloads is not None and result.ignored:  # (a controller is read as an ignored kind first)
            from allocator.workload.controllers import pod_sets

            found, errors = pod_sets(text, result, file=number, limits=limits)
            for workload in found:
                workload.source = source
            workloads.extend(found)
            problems.extend(f"{source}:{d}" for d in errors)
        documents.extend(result.documents)
    if problems:
        for line in problems:
            print(f"error: {line}", file=sys.stderr)
        raise SystemExit(EXIT_ERROR)
    return documents


def refused(documents: list[Document], gates: FeatureGates) -> bool:
    """Print what the apiserver would refuse (``validation_errors``); whether there was anything."""
    invalid = validation_errors(documents, gates)
    for line in invalid:
        print(f"error: {line}", file=sys.stderr)
    return bool(invalid)


def validation_errors(documents: list[Document], gates: FeatureGates) -> list[str]:
    """What the apiserver would refuse: pending claims, templates and pods as created under ``gates``, the
    inventory, allocated claims and objects read from a cluster as stored objects (fields of a gate that is
    off now kept)."""
    from allocator.kube.objects import ReadResult
    from allocator.releases.gates import stored_object_gates
    from allocator.validation import validate_documents

    found = validate_documents(ReadResult(documents=documents), gates, serving=gates,
                               stored_gates=stored_object_gates(gates.release))
    return [str(d) for d in found if d.severity == "error"]


def as_stored(documents: list[Document], gates: FeatureGates) -> tuple[list[Document], list[StoredObject]]:
    """(the documents as the apiserver stores them, the objects read as stored): created claims and every
    template's claims lose the fields of disabled features; objects read from a cluster keep theirs
    (``allocator.validation.documents``)."""
    from allocator.validation.documents import as_the_scheduler_sees, read_as_stored

    return as_the_scheduler_sees(documents, gates), read_as_stored(documents)


def note_stored(stored: list[StoredObject]) -> None:
    """On stderr, beside an error: the objects read as stored, whose fields of disabled features were kept."""
    from allocator.validation.documents import STORED_NOTE

    for obj in stored:
        print(f"note: {obj.kind} {obj.namespace}/{obj.name}: {STORED_NOTE}", file=sys.stderr)


def print_output(data: Any, output: str) -> None:
    if output == "yaml":
        import yaml

        # width: a long string (a CEL expression) stays on its line rather than folding onto a continuation
        sys.stdout.write(yaml.safe_dump(data, sort_keys=False, default_flow_style=False, width=1_000_000))
    else:
        # One write of the whole text: json.dump writes each of its pieces (tens of thousands for every node
        # of 1,000) to the stream one by one, which took longer than making them.
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
