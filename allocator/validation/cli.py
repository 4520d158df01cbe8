"""``python -m allocator validate``: the command-line contract of DESIGN.md.

``-o json`` prints ``{"valid": bool, "errors": [...], "warnings": [...]}``,
each entry ``{"kind", "name", "field", "type", "detail", "line", "column"}``;
``-o text`` prints one apiserver-like line per problem, prefixed with
``file:line:col:`` (and the playground's hint, if any, on an indented line after it), and when all
is valid a last line saying so. Exit status: 0 valid, 1 invalid, 2 unreadable input
(unreadable file, YAML syntax error, unknown release or feature gate, a
locked gate set away from its value, an object in a version the release
``--kubernetes-version`` does not serve).
"""

from __future__ import annotations

import json
import sys

from allocator.kube.objects import read_documents
from allocator.reading.diagnostics import NOT_SERVED, PARSE, Diagnostic, DiagnosticError
from allocator.reading.inputfiles import InputError, read_input
from allocator.reading.limits import from_flags
from allocator.reading.samplefiles import sample_file_note
from allocator.releases.gates import (
    CURRENT_RELEASE,
    FeatureGateError,
    make_gates,
    parse_gate_list,
    stored_object_gates,
)
from allocator.validation.documents import STORED_NOTE, read_as_stored, read_from_cluster, validate_documents
from allocator.validation.not_simulated import not_simulated
from allocator.validation.warnings import inventory_warnings

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
_KEYS = ("kind", "name", "field", "type", "detail", "line", "column")


def _entry(diag: Diagnostic) -> dict:
    return {key: getattr(diag, key) for key in _KEYS}


def _text_line(source: str, diag: Diagnostic) -> str:
    where = f"{source}:{diag.line}:{diag.column}:" if diag.line else f"{source}:"
    obj = f' {diag.kind} "{diag.name}":' if diag.kind else ""
    if diag.severity == "warning":
        body = f"{diag.field}: {diag.detail}" if diag.field else diag.detail
        return f"{where} warning:{obj} {body}"
    return f"{where}{obj} {diag.message()}"


def run(args, stdout=None, stderr=None, more=None) -> int:
    """Validate ``args.files`` with ``args.feature_gates``; print as ``args.output``; return the exit status.

    ``more(text, result, gates, limits)``, if given, returns further diagnostics of one file."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    output = getattr(args, "output", None) or "json"
    try:
        version = getattr(args, "kubernetes_version", None)
        # Locked gates are refused only for a release named on purpose (see features.make_gates).
        gates = make_gates(parse_gate_list(getattr(args, "feature_gates", None) or ""), version or CURRENT_RELEASE,
                           locks=version is not None)
    except FeatureGateError as exc:
        print(f"error: {exc}", file=stderr)
        return EXIT_UNREADABLE

    limits = from_flags(args)
    found: list[tuple[str, Diagnostic]] = []
    loaded = []  # (source, text, ReadResult)
    unreadable = False
    for path in args.files:
        source = "<stdin>" if path == "-" else path
        try:
            text = read_input(path, limits)
        except InputError as exc:
            unreadable = True
            reason = exc.reason.removeprefix("cannot read: ")
            found.append((source, Diagnostic(field="", type=PARSE, detail=f"cannot read {source}: {reason}")))
            continue
        note = sample_file_note(text)
        if note is not None:
            unreadable = True
            found.append((source, Diagnostic(field="", type=PARSE, detail=note)))
            continue
        try:
            result = read_documents(text, limits=limits)
        except DiagnosticError as exc:
            unreadable = True
            found.extend((source, d) for d in exc.diagnostics)
            continue
        loaded.append((source, text, result))

    inventory = [doc for _, _, result in loaded for doc in result.documents]
    stored_gates = stored_object_gates(gates.release)
    for source, text, result in loaded:
        # Objects read from a cluster are stored: fields of a gate that is off now are kept.
        found.extend((source, d) for d in validate_documents(result, gates, text, stored_gates=stored_gates,
                                                             stored=read_from_cluster))
        found.extend((source, d) for d in inventory_warnings(result, inventory, gates, text))
        found.extend((source, d) for d in not_simulated(result, gates))
        if more is not None:  # what the caller checks beside (the command line: controllers' pod templates)
            found.extend((source, d) for d in more(text, result, gates, limits))

    errors = [(s, d) for s, d in found if d.severity != "warning"]
    warnings = [(s, d) for s, d in found if d.severity == "warning"]
    stored = [(source, obj) for source, _, result in loaded for obj in read_as_stored(result.documents)]
    if output == "text":
        for source, diag in errors + warnings:
            print(_text_line(source, diag), file=stdout)
            if diag.hint:  # the playground's advice, on a line of its own under the apiserver's words
                print(f"  hint: {diag.hint}", file=stdout)
        for source, obj in stored:
            print(f'{source}: note: {obj.kind} "{obj.namespace}/{obj.name}": {STORED_NOTE}', file=stdout)
        if not errors and not unreadable:
            counted = sum(len(result.documents) for _, _, result in loaded)
            print(f"valid: {counted} object{'' if counted == 1 else 's'} in {len(loaded)} "
                  f"file{'' if len(loaded) == 1 else 's'}, as Kubernetes {gates.release}'s apiserver checks them"
                  + (f" ({len(warnings)} warning{'' if len(warnings) == 1 else 's'})" if warnings else ""),
                  file=stdout)
    else:
        report = {"valid": not errors, "errors": [_entry(d) for _, d in errors],
                  "warnings": [_entry(d) for _, d in warnings]}
        if stored:  # only then, so that other answers stay as they were
            report["storedObjects"] = [obj.to_dict() for _, obj in stored]
        print(json.dumps(report, indent=2), file=stdout)
    # An object the release does not serve could not even be sent: like unreadable input.
    if unreadable or any(d.type == NOT_SERVED for _, d in errors):
        return EXIT_UNREADABLE
    return EXIT_INVALID if errors else EXIT_VALID

