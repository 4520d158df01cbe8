"""``python -m allocator``: the command line of DESIGN.md ("The engine's contract").

Scripts depend on it; keep the options, output shapes and exit statuses stable.
Nothing here imports Django, and heavy modules load only when a command runs.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys

from allocator.releases.table import CURRENT_RELEASE, RELEASES

EXIT_OK, EXIT_UNSATISFIABLE, EXIT_ERROR = 0, 1, 2

ALLOCATE_HELP = """\
Allocate the ResourceClaims of the input the way the Kubernetes scheduler would.

Input: DeviceClasses, ResourceSlices, Nodes, ResourceClaims, and optionally
ResourceClaimTemplates and Pods, as multi-document YAML, JSON or List objects
(as `kubectl get -o yaml` prints them), from files or `-` (stdin). Claims
without status.allocation are allocated together (as for one pod); claims
with status.allocation hold their devices. A Pod's claims come first, in the
order of its spec.resourceClaims; claims from templates are generated as the
resource-claim controller does (<pod>-<claim>-<5 characters derived from a
hash, so the same input gives the same name>). A namespaced object without
namespace is in `default`. Objects the apiserver would reject are refused.

With --node NAME, prints
  {"node": NAME, "claims": [ResourceClaim with status.allocation, ...]}
and exits 0; exits 1 when the claims cannot be allocated on that node (the
reason on stderr). The node's labels come from its Node object, if given.

Without --node, every node is tried: the Node objects of the input (else the
node names the slices use), in name order. Prints
  {"node": CHOSEN_NODE or null,
   "claims": [the claims allocated on that node],
   "nodes": [{"name": NODE, "fits": true|false, "reason": WHY_NOT,
              "score": 0-100, "rawScore": N}, ...],
   "scoring": {"scored": true|false, "note": WHY, "tied": [NODE, ...]}}
and exits 0 when some node fits, 1 when none does. The chosen node is the
first in name order that fits, or, from 1.35 when several fit, the one with
the best DRA score (the scheduler's DynamicResources Score: firstAvailable
subrequests ranked higher score more; "score" is normalised as the scheduler
does, given only on the nodes scored); among equal scores the scheduler
picks at random, we take the first by name. When the granted devices have
binding conditions, "binding" says that the allocation is not final until
the driver reports them, and what the scheduler does meanwhile (also with
--node). A node where the scheduler's Allocate failed with an error
(invalid resource pools) has "error": true; when no node fits and some
failed so, the exit status is 2.

Exit 2: unreadable or invalid input, an object in a version the release
does not serve (none at all while DynamicResourceAllocation is off), an
unknown release or feature gate, a locked gate set away from its value, or an
error that makes the scheduler give up (a CEL error, an unknown DeviceClass,
"invalid resource pools were encountered", ...); the message is on stderr.
"""

VALIDATE_HELP = """\
Validate the input objects as the apiserver would (create), with CEL
compilation and cost checks, for the release --kubernetes-version. Exit 0
when valid, 1 when not, 2 when the input cannot be read, an object is in a
version the release does not serve, or a release or gate is refused.
"""

CONVERT_HELP = """\
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

EVAL_HELP = """\
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

CAPACITY_HELP = """\
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m allocator",
                                     description="DRA Playground engine: allocate and validate DRA objects.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    gates_help = ("Kubernetes feature gates, e.g. DRAPrioritizedList=false,DRAListTypeAttributes=true "
                  "(defaults: those of --kubernetes-version). Gates locked in that release cannot be changed; "
                  "without --kubernetes-version they are the allocator library's switches, as in upstream's tests")
    version_help = ("the Kubernetes release to simulate: its default feature gates, the resource.k8s.io "
                    f"versions it serves and the fields each has ({RELEASES[0]} ... {RELEASES[-1]}, "
                    f"default {CURRENT_RELEASE})")

    allocate = commands.add_parser("allocate", help="allocate claims on a node, or find the nodes that fit",
                                   description=ALLOCATE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    allocate.add_argument("--node", metavar="NAME", help="the node to allocate on (default: try every node)")
    allocate.add_argument("--kubernetes-version", metavar="V", help=version_help)
    allocate.add_argument("--feature-gates", metavar="K=V,...", default="", help=gates_help)
    allocate.add_argument("-o", "--output", choices=("json", "yaml"), default="json", help="output format")
    _add_limit_flags(allocate)
    allocate.add_argument("files", nargs="+", metavar="FILE", help="input file, or - for stdin")

    validate = commands.add_parser("validate", help="validate objects like the apiserver",
                                   description=VALIDATE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    validate.add_argument("--kubernetes-version", metavar="V", help=version_help)
    validate.add_argument("--feature-gates", metavar="K=V,...", default="", help=gates_help)
    validate.add_argument("-o", "--output", choices=("json", "text"), default="json", help="output format")
    _add_limit_flags(validate)
    validate.add_argument("files", nargs="+", metavar="FILE", help="input file, or - for stdin")

    convert = commands.add_parser("convert", help="rewrite objects in another resource.k8s.io version",
                                  description=CONVERT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    convert.add_argument("--to", required=True, metavar="VERSION",
                         help="the target version: v1, v1beta2, v1beta1 or v1alpha3 (or resource.k8s.io/VERSION)")
    convert.add_argument("--kubernetes-version", metavar="V", help=version_help)
    convert.add_argument("--feature-gates", metavar="K=V,...", default="", help=gates_help)
    convert.add_argument("-o", "--output", choices=("json", "yaml"), default="json", help="output format")
    _add_limit_flags(convert)
    convert.add_argument("files", nargs="+", metavar="FILE", help="input file, or - for stdin")

    evaluate = commands.add_parser("eval", help="evaluate a CEL expression on one device",
                                   description=EVAL_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    evaluate.add_argument("--device", required=True, metavar="DRIVER/POOL/DEVICE", help="the device to evaluate on")
    evaluate.add_argument("--kubernetes-version", metavar="V", help=version_help)
    evaluate.add_argument("--feature-gates", metavar="K=V,...", default="", help=gates_help)
    _add_limit_flags(evaluate)
    evaluate.add_argument("expression", metavar="EXPR", help="a CEL expression, of any result type")
    evaluate.add_argument("files", nargs="+", metavar="FILE",
                          help="input file with the device's ResourceSlice, or - for stdin")

    capacity = commands.add_parser("capacity", help="how many copies of a workload fit, one after another",
                                   description=CAPACITY_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    capacity.add_argument("--strategy", choices=("first", "spread", "pack"), default="first",
                          help="which node each copy goes to (default: %(default)s)")
    capacity.add_argument("--max", type=_positive, default=100, metavar="N",
                          help="place at most N copies (default: %(default)s)")
    capacity.add_argument("--kubernetes-version", metavar="V", help=version_help)
    capacity.add_argument("--feature-gates", metavar="K=V,...", default="", help=gates_help)
    capacity.add_argument("-o", "--output", choices=("json", "yaml"), default="json", help="output format")
    _add_limit_flags(capacity)
    capacity.add_argument("files", nargs="+", metavar="FILE", help="input file, or - for stdin")
    return parser


def _add_limit_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per engine limit (``allocator.limits``), defaults sized for real clusters' dumps."""
    from allocator.reading.limits import DEFAULT

    group = parser.add_argument_group("input limits (each input file is read within them)")
    group.add_argument("--max-input-bytes", type=_positive, metavar="N", default=DEFAULT.max_input_bytes,
                       help="largest file, in bytes (default: %(default)s)")
    group.add_argument("--max-values", type=_positive, metavar="N", default=DEFAULT.max_values,
                       help="most YAML values (scalars, mappings, sequences) in one file (default: %(default)s)")
    group.add_argument("--max-depth", type=_positive, metavar="N", default=DEFAULT.max_depth,
                       help="deepest nesting of mappings and sequences (default: %(default)s)")
    group.add_argument("--max-alias-values", type=_positive, metavar="N", default=DEFAULT.max_alias_values,
                       help="most values that YAML aliases may add by expanding (default: %(default)s)")


def _positive(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "validate":
        return _validate(args)
    if args.command == "eval":
        return _eval(args)
    if args.command == "capacity":
        return _capacity(args)
    if args.command == "convert":
        return _convert(args)
    return _allocate(args)


def _validate(args) -> int:
    try:
        from allocator.validation.cli import run
    except ImportError as err:
        print(f"error: validation is not available in this build ({err})", file=sys.stderr)
        return EXIT_ERROR
    return run(args)


def _gates_and_documents(args, workloads: list | None = None):
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
    return gates, _read_inputs(args.files, from_flags(args), gates, workloads)


def _read_inputs(paths: list[str], limits, gates, workloads: list | None = None):
    """All documents of all files, or raise SystemExit(2) after printing what is wrong.

    An object in a version the release (of ``gates``) does not serve is
    refused as such, whatever its fields hold.
    """
    from allocator.kube.objects import read_documents
    from allocator.reading.diagnostics import DiagnosticError
    from allocator.reading.inputfiles import InputError, read_input
    from allocator.releases.serving import read_errors

    documents, problems = [], []
    for number, path in enumerate(paths):
        source = "<stdin>" if path == "-" else path
        try:
            text = read_input(path, limits)
            result = read_documents(text, limits=limits)
        except InputError as err:
            problems.append(str(err))
            continue
        except DiagnosticError as err:
            problems.extend(f"{source}:{d}" for d in err.diagnostics)
            continue
        problems.extend(f"{source}:{d}" for d in read_errors(result, gates))
        if workloads is not None:
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


def _eval(args) -> int:
    from allocator.authoring.console import DeviceNotFound, DeviceRef, evaluate, find_device

    try:
        ref = DeviceRef.parse(args.device)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    try:
        gates, documents = _gates_and_documents(args)
    except SystemExit as stop:
        return int(stop.code)
    try:
        device = find_device([d.obj for d in documents if d.kind == "ResourceSlice"], ref)
    except DeviceNotFound as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    answer = evaluate(args.expression, device, ref.driver, gates)
    _print({"expression": args.expression, "device": {"driver": ref.driver, "pool": ref.pool,
                                                      "device": ref.device}, **answer}, "json")
    return EXIT_UNSATISFIABLE if answer["diagnostics"] else EXIT_OK


def _capacity(args) -> int:
    from allocator.allocation.allocator import AllocatorError
    from allocator.releases.gates import stored_object_gates
    from allocator.workload.controllers import template_errors
    from allocator.workload.planning import plan
    from allocator.workload.pods import PodClaimError

    workloads: list = []
    try:
        gates, documents = _gates_and_documents(args, workloads)
    except SystemExit as stop:
        return int(stop.code)
    if any(w.kind != "Pod" for w in workloads):
        workloads.sort(key=lambda w: w.order)
    else:
        workloads = []  # no count anywhere: the whole input is one workload, repeated
    invalid = [f"{w.source}:{d}" for w in workloads
               for d in template_errors([w], documents, gates, stored_object_gates(gates.release))]
    for line in invalid:
        print(f"error: {line}", file=sys.stderr)
    if _refused(documents, gates) or invalid:
        return EXIT_ERROR
    documents, _ = _as_stored(documents, gates)

    def of_kind(kind):
        return [d.obj for d in documents if d.kind == kind]

    try:
        report = plan(of_kind("ResourceClaim"), of_kind("ResourceClaimTemplate"), of_kind("Pod"),
                      of_kind("DeviceClass"), of_kind("ResourceSlice"), of_kind("Node"), gates,
                      strategy=args.strategy, max_copies=args.max, taint_rules=of_kind("DeviceTaintRule"),
                      workloads=workloads or None)
    except (AllocatorError, PodClaimError) as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    _print(report.to_dict(), args.output)
    if report.error:
        print(f"error: {report.error}", file=sys.stderr)
        return EXIT_ERROR
    if report.next is not None:
        print(f"copy {report.placed + 1} ({report.next['workload']}) does not fit: {report.next['reason']}",
              file=sys.stderr)
    return EXIT_OK if report.placed or report.stopped_by == "all placed" else EXIT_UNSATISFIABLE


def _allocate(args) -> int:
    from allocator.allocation.allocator import Allocator, AllocatorError, node_error, search_nodes
    from allocator.allocation.allocator import allocate_claims as allocate_on_node
    from allocator.allocation.nodes import make_node
    from allocator.allocation.nodes import search_nodes as nodes_to_search
    from allocator.validation.classic import handed_to_controllers
    from allocator.workload import extended
    from allocator.workload.binding import binding_note
    from allocator.workload.claims import build_workload, claim_api_versions
    from allocator.workload.pinning import deallocated, freeable, pin_reason, pinned_claims, unavailable_on
    from allocator.workload.pods import PodClaimError
    from allocator.workload.scoring import pod_allocated_claims, score_nodes

    try:
        gates, documents = _gates_and_documents(args)
    except SystemExit as stop:
        return int(stop.code)

    def of_kind(kind):
        return [d.obj for d in documents if d.kind == kind]

    # What the user writes (pending claims, templates, pods) is checked as the apiserver checks a create
    # under these gates; the inventory and allocated claims are stored objects, kept with the fields of
    # gates that are off now. What the release does not serve is refused whatever the object holds.
    if _refused(documents, gates):
        return EXIT_ERROR
    # The claims as the apiserver stored them: created ones without the fields of disabled features.
    documents, stored = _as_stored(documents, gates)
    try:
        work = build_workload(of_kind("ResourceClaim"), of_kind("ResourceClaimTemplate"), of_kind("Pod"))
    except PodClaimError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    # Classic DRA (1.31): a claim with spec.controller is its driver's controller's to allocate, not the scheduler's.
    handed_over = handed_to_controllers(work, documents, gates)
    if handed_over:
        for line in handed_over:
            print(f"cannot allocate the claims: {line}", file=sys.stderr)
        return EXIT_UNSATISFIABLE
    # A pod's allocated claims pin its node; when no node fits, PostFilter frees one and the scheduler
    # tries again (allocator.workload.pinning): each failed attempt is kept for the output.
    attempts: list[dict] = []
    while True:
        pending = work.pending
        pinned = pinned_claims(work)
        inputs = dict(classes=of_kind("DeviceClass"), slices=of_kind("ResourceSlice"), gates=gates,
                      allocated_claims=work.allocated, taint_rules=of_kind("DeviceTaintRule"))
        # Extended resources backed by DRA: per node, the pod's generated claim placed after the pending ones.
        plans = extended.plans_for(work.pods, of_kind("DeviceClass"), gates)
        choices = []
        try:
            if plans:
                candidates = ([make_node(args.node, of_kind("Node"))] if args.node is not None else
                              nodes_to_search(of_kind("Node"), of_kind("ResourceSlice")) or [make_node("")])
                choices = extended.node_choices(plans, candidates, pending, gates,
                                                {p: bool(c) for p, c in work.pod_claims.items()})
                allocator = Allocator(inputs["classes"], inputs["slices"], work.allocated, gates,
                                      taint_rules=inputs["taint_rules"])
                outcomes = extended.allocate_choices(allocator, choices)
            elif args.node is not None:
                outcomes = [allocate_on_node(pending, nodes=of_kind("Node"), node_name=args.node, **inputs)]
            else:
                outcomes = search_nodes(pending, nodes=of_kind("Node"), **inputs).outcomes
        except AllocatorError as err:
            print(f"error: {err}", file=sys.stderr)
            _note_stored(stored)
            return EXIT_ERROR
        refused = {id(o): unavailable_on(pinned, o.node) for o in outcomes if o.allocated} if pinned else {}
        # Among the nodes that fit, the best DRA score (allocator.workload.scoring); ties by name order.
        scoring = score_nodes([o for o in outcomes if o.allocated and not refused.get(id(o))], gates,
                              pod_allocated_claims(work), node_given=args.node is not None)
        fit = scoring.chosen
        reasons = {id(o): pin_reason(refused[id(o)]) if refused.get(id(o)) else o.reason for o in outcomes}
        # An inventory without nodes is tried on one nameless node: its name is null.
        table = [{"name": o.node_name or None, "fits": o is fit or (o.allocated and not refused.get(id(o))),
                  **({} if o.allocated and not refused.get(id(o)) else {"reason": reasons[id(o)]}),
                  **({"pinnedBy": [c.metadata.name for c in refused[id(o)]]} if refused.get(id(o)) else {}),
                  **({"error": True} if o.error else {}), **scoring.node_fields(o)}
                 for o in outcomes]
        error = node_error(outcomes)
        noted = {id(c) for claims in refused.values() for c in claims}
        unavailable = [c for c in pinned if id(c) in noted] if fit is None and not error else []
        free = [c for c in unavailable if freeable(c, work)]
        if not free:
            break
        attempts.append({"attempt": len(attempts) + 1, "nodes": table, "deallocated": free[0].metadata.name,
                         "deallocatable": [c.metadata.name for c in free]})
        documents = deallocated(documents, free[0])
        work = build_workload(of_kind("ResourceClaim"), of_kind("ResourceClaimTemplate"), of_kind("Pod"))
    retry = {"attempts": attempts, "deallocated": [a["deallocated"] for a in attempts]} if attempts else {}
    if stored:
        retry["storedObjects"] = stored
    if choices and fit is not None:  # the generated claim is printed with the others, last
        chosen = next(c for c, o in zip(choices, outcomes, strict=True) if o is fit)
        pending = chosen.claims
        retry["extendedResources"] = extended.summaries(
            chosen, dict(zip((c.metadata.name for c in pending), fit.results or [], strict=True)))
    versions = claim_api_versions(documents, work)  # claims are printed in the version they were written in
    not_freed = [f"claim {c.metadata.name} is reserved for another pod" for c in unavailable]
    if args.node is not None:
        [outcome] = outcomes
        if outcome.error:  # upstream's Allocate failed on this node: an error, not "does not fit"
            print(f"error: {outcome.error} (node {args.node})", file=sys.stderr)
            _note_stored(stored)
            return EXIT_ERROR
        if fit is None:
            print(f"cannot allocate the claims on node {args.node}: {reasons[id(outcome)]}", file=sys.stderr)
            if not_freed:
                print(f"  PostFilter frees no claim (still not schedulable): {'; '.join(not_freed)}", file=sys.stderr)
            return EXIT_UNSATISFIABLE
        binding = binding_note(pending, outcome.results, gates)
        _print({"node": args.node, "claims": _claims_json(pending, outcome.results, versions), **retry,
                **({"binding": binding} if binding else {})}, args.output)
        return EXIT_OK

    binding = binding_note(pending, fit.results, gates) if fit else None
    _print({"node": (fit.node_name or None) if fit else None,
            "claims": _claims_json(pending, fit.results, versions) if fit else [],
            "nodes": table, "scoring": scoring.to_dict(), **retry,
            **({"notFreed": [c.metadata.name for c in unavailable]} if unavailable else {}),
            **({"binding": binding} if binding else {})},
           args.output)
    if error:  # no node fits and Allocate failed with an error on some: the error is the answer
        print(f"error: {error}", file=sys.stderr)
        _note_stored(stored)
        return EXIT_ERROR
    if fit is None:
        print("cannot allocate the claims on any node", file=sys.stderr)
        for o in outcomes:
            print(f"  {o.node_name or '(no node)'}: {reasons[id(o)]}", file=sys.stderr)
        if not_freed:
            print(f"  PostFilter frees no claim (still not schedulable): {'; '.join(not_freed)}", file=sys.stderr)
        return EXIT_UNSATISFIABLE
    return EXIT_OK


def _convert(args) -> int:
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
    items, dropped, problems, api_version = [], [], [], ""
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

        sys.stdout.write(yaml.safe_dump_all(items, sort_keys=False, default_flow_style=False))
        for d in dropped:
            print(f"warning: {d['kind']} {d['name']!r}: {d['field']}: {d['detail']}", file=sys.stderr)
    else:
        _print({"apiVersion": api_version, "items": items, "dropped": dropped}, "json")
    return EXIT_UNSATISFIABLE if dropped else EXIT_OK


def _refused(documents, gates) -> bool:
    """Print what the apiserver would refuse (``_validation_errors``); whether there was anything."""
    invalid = _validation_errors(documents, gates)
    for line in invalid:
        print(f"error: {line}", file=sys.stderr)
    return bool(invalid)


def _validation_errors(documents, gates) -> list[str]:
    """What the apiserver would refuse: pending claims, templates and pods as created under ``gates``, the
    inventory, allocated claims and objects read from a cluster as stored objects (fields of a gate that is
    off now kept)."""
    from allocator.kube.objects import ReadResult
    from allocator.releases.gates import stored_object_gates
    from allocator.validation import validate_documents

    found = validate_documents(ReadResult(documents=documents), gates, serving=gates,
                               stored_gates=stored_object_gates(gates.release))
    return [str(d) for d in found if d.severity == "error"]


def _as_stored(documents, gates):
    """(the documents as the apiserver stores them, the objects read as stored): created claims and every
    template's claims lose the fields of disabled features; objects read from a cluster keep theirs
    (``allocator.validation.documents``)."""
    from allocator.validation.documents import as_the_scheduler_sees, read_as_stored

    return as_the_scheduler_sees(documents, gates), read_as_stored(documents)


def _note_stored(stored: list[dict]) -> None:
    """On stderr, beside an error: the objects read as stored, whose fields of disabled features were kept."""
    from allocator.validation.documents import STORED_NOTE

    for obj in stored:
        print(f"note: {obj['kind']} {obj['namespace']}/{obj['name']}: {STORED_NOTE}", file=sys.stderr)


def _claims_json(claims, results, versions: dict[int, str]) -> list[dict]:
    from allocator.allocation.encode import claim_to_json
    from allocator.kube.convert_back import V1

    return [claim_to_json(c, r, versions.get(id(c), V1)) for c, r in zip(claims, results, strict=True)]


def _print(data, output: str) -> None:
    if output == "yaml":
        import yaml

        sys.stdout.write(yaml.safe_dump(data, sort_keys=False, default_flow_style=False))
    else:
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")


if __name__ == "__main__":
    # One short run: Python's cyclic GC would only walk the millions of objects of a big dump again and again
    # (about a fifth of the time on 1,000 to 5,000 nodes) to free little; the process's end frees everything.
    gc.disable()
    try:
        sys.exit(main())
    except BrokenPipeError:  # output piped into head and the like
        sys.stderr.close()
        sys.exit(EXIT_OK)
