"""``python -m allocator allocate``: the claims allocated as the scheduler would, on a node or the best that fits."""

from __future__ import annotations

import sys

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
    note_stored,
    print_output,
    refused,
)
from allocator.reading import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used (start-up; argparse: allocator.cli.quick)
    import argparse
    from types import SimpleNamespace
    from typing import Any

    from allocator.cli.common import Commands
    from allocator.cli.quick import Options
    from allocator.kube.objects import Document
    from allocator.releases.gates import FeatureGates
    from allocator.validation.documents import StoredObject
    from allocator.workload.analysed import AnalysedWorkload
    from allocator.workload.controllers import PodSet
    from allocator.workload.scheduling import Attempt, Schedule

HELP = """\
Allocate the ResourceClaims of the input the way the Kubernetes scheduler would.

Input: DeviceClasses, ResourceSlices, Nodes, ResourceClaims, and optionally
ResourceClaimTemplates and Pods, as multi-document YAML, JSON or List objects
(as `kubectl get -o yaml` prints them), from files or `-` (stdin). Claims
without status.allocation are allocated together (as for one pod), or, with
a Pod in the input, only those it names; claims with status.allocation hold
their devices. A Pod's claims come first, in the order of its
spec.resourceClaims; claims from templates are generated as the
resource-claim controller does (<pod>-<claim>-<5 characters derived from a
hash, so the same input gives the same name>). A Deployment, ReplicaSet,
StatefulSet or Job is allocated for as the one pod it creates first, named
as its controller names it (db-0, web-<hash>-<5 characters>); the output
then gains "workloads" and stderr notes how many replicas it asks for (how
many fit: see `capacity`). A namespaced object without namespace is in
`default`. Objects the apiserver would reject are refused.

With --node NAME, prints
  {"node": NAME, "claims": [ResourceClaim with status.allocation, ...]}
and exits 0; exits 1 when the claims cannot be allocated on that node (the
reason on stderr, then the scheduler's own words: "kube-scheduler: STATUS"
and "PodScheduled: MESSAGE"). The node's labels come from its Node object, if given.

Without --node, every node is tried: the Node objects of the input (else the
node names the slices use), in name order. Prints
  {"node": CHOSEN_NODE or null,
   "claims": [the claims allocated on that node],
   "nodes": [{"name": NODE, "fits": true|false, "reason": WHY_NOT,
              "schedulerReason": THE_SCHEDULERS_WORDS, "score": 0-100, "rawScore": N}, ...],
   "scoring": {"scored": true|false, "note": WHY, "tied": [NODE, ...]},
   "schedulerMessage": "0/N nodes are available: ..."}   (only when no node fits)
and exits 0 when some node fits, 1 when none does. "reason" is our detailed
explanation; "schedulerReason" is what kube-scheduler itself says of the
node ("cannot allocate all claims", "Insufficient NAME"), and
"schedulerMessage" the pod's PodScheduled message it would write. The chosen node is the
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

With DynamicResourceAllocation off (a note on stderr says so), pods are
scheduled without their claims and no claim is allocated: the apiserver
drops a pod's claims when it creates the pod and the scheduler's
DynamicResources plugin is off. The apiserver still serves a stable version
(resource.k8s.io/v1 in 1.34); before 1.34 it serves none of resource.k8s.io.

Exit 2: unreadable or invalid input, an object in a version the release
does not serve (before 1.34 none while DynamicResourceAllocation is off), an
unknown release or feature gate, a locked gate set away from its value, or an
error that makes the scheduler give up (a CEL error, an unknown DeviceClass,
"invalid resource pools were encountered", ...); the message is on stderr.
"""


def add(commands: Commands) -> None:
    import argparse

    parser = commands.add_parser("allocate", help="allocate claims on a node, or find the nodes that fit",
                                 description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--node", metavar="NAME", help="the node to allocate on (default: try every node)")
    parser.add_argument("--kubernetes-version", metavar="V", help=VERSION_HELP)
    parser.add_argument("--feature-gates", metavar="K=V,...", default="", help=GATES_HELP)
    parser.add_argument("-o", "--output", choices=("json", "yaml"), default="json", help="output format")
    add_limit_flags(parser)
    parser.add_argument("files", nargs="+", metavar="FILE", help="input file, or - for stdin")


def QUICK() -> tuple[Options, dict[str, Any]]:  # noqa: N802 (the name allocator.cli looks for)
    """``add``'s options and their defaults, for a plain command line read without argparse (allocator.cli.quick;
    ``test_cli_quick.py`` checks them against ``add``'s)."""
    from allocator.cli.common import positive
    from allocator.reading.limits import DEFAULT

    def output(text: str) -> str:
        if text not in ("json", "yaml"):
            raise ValueError(text)
        return text

    options: Options = {"--node": ("node", None), "--kubernetes-version": ("kubernetes_version", None),
                        "--feature-gates": ("feature_gates", None), "-o": ("output", output),
                        "--output": ("output", output), "--max-input-bytes": ("max_input_bytes", positive),
                        "--max-values": ("max_values", positive), "--max-depth": ("max_depth", positive),
                        "--max-alias-values": ("max_alias_values", positive),
                        "--time-budget": ("time_budget", positive)}
    defaults = {"node": None, "kubernetes_version": None, "feature_gates": "", "output": "json",
                "max_input_bytes": DEFAULT.max_input_bytes, "max_values": DEFAULT.max_values,
                "max_depth": DEFAULT.max_depth, "max_alias_values": DEFAULT.max_alias_values, "time_budget": None}
    return options, defaults


def run(args: argparse.Namespace | SimpleNamespace) -> int:
    from allocator.releases.serving import dra_off_message, without_dra
    from allocator.validation.classic import handed_to_controllers
    from allocator.workload.pods import PodClaimError
    from allocator.workload.scheduling import schedule, workload_of

    sets: list[PodSet] = []
    try:
        gates, documents = gates_and_documents(args, sets)
    except SystemExit as stop:
        return exit_status(stop)
    # What the user writes (pending claims, templates, pods) is checked as the apiserver checks a create
    # under these gates; the inventory and allocated claims are stored objects, kept with the fields of
    # gates that are off now. What the release does not serve is refused whatever the object holds.
    if refused(documents, gates):
        return EXIT_ERROR
    # A Deployment, ReplicaSet, StatefulSet or Job is allocated for as its first pod (workload.analysed).
    workloads, in_templates = _controllers(sets, documents, gates)
    for problem in in_templates:
        print(f"error: {problem}", file=sys.stderr)
    if in_templates:
        return EXIT_ERROR
    # The claims as the apiserver stored them: created ones without the fields of disabled features.
    documents, stored = as_stored(documents, gates)
    documents += [w.pod for w in workloads if w.pod is not None]
    # DynamicResourceAllocation off (1.34 can set it false): objects of a stable version are still served,
    # but a pod is created without its claims and the scheduler allocates none.
    dra_off = dra_off_message(gates)
    if dra_off is not None:
        print(f"note: {dra_off}", file=sys.stderr)
        documents = without_dra(documents)
    try:
        work = workload_of(documents)
    except PodClaimError as err:
        owner = next((w.workload for w in workloads if w.pod is not None and str(err).startswith(f'pod "{w.pod.name}":')),
                     None)
        where = f"{owner.source}:{owner.line}: {owner.kind} {owner.name!r}: " if owner is not None else ""
        print(f"error: {where}{err}", file=sys.stderr)
        return EXIT_ERROR
    noted = _workloads(workloads)
    # Classic DRA (1.31): a claim with spec.controller is its driver's controller's to allocate, not the scheduler's.
    handed_over = handed_to_controllers(work, documents, gates)
    if handed_over:
        for line in handed_over:
            print(f"cannot allocate the claims: {line}", file=sys.stderr)
        return EXIT_UNSATISFIABLE
    # A pod's allocated claims pin its node; when no node fits, PostFilter frees one and the scheduler
    # tries again (allocator.workload.pinning): each failed attempt is kept for the output.
    found = schedule(documents, args.node, gates)
    last = found.last
    if last.given_up:
        print(f"error: {last.error}", file=sys.stderr)
        note_stored(stored)
        return EXIT_ERROR
    retry = _retry(found, stored)
    not_freed = [f"claim {c.metadata.name} is reserved for another pod" for c in found.not_freed]
    if args.node is not None:
        return _on_node(args, last, {**retry, **noted}, not_freed, gates, stored)
    fit = last.chosen
    assert last.scoring is not None, "every attempt is scored"
    print_output({"node": (fit.node_name or None) if fit else None,
                  "claims": _claims_json(last) if fit else [],
                  "nodes": _node_table(last), "scoring": last.scoring.to_dict(), **retry,
                  **({"notFreed": [c.metadata.name for c in found.not_freed]} if found.not_freed else {}),
                  **({"schedulerMessage": last.scheduler_message} if last.scheduler_message else {}),
                  **_binding(last, gates), **noted},
                 args.output)
    if last.error:  # no node fits and Allocate failed with an error on some: the error is the answer
        print(f"error: {last.error}", file=sys.stderr)
        note_stored(stored)
        return EXIT_ERROR
    if fit is None:
        print("cannot allocate the claims on any node", file=sys.stderr)
        for o in last.outcomes:
            print(f"  {o.node_name or '(no node)'}: {last.reasons[id(o)]}", file=sys.stderr)
        if not_freed:
            print(f"  PostFilter frees no claim (still not schedulable): {'; '.join(not_freed)}", file=sys.stderr)
        return EXIT_UNSATISFIABLE
    return EXIT_OK


def _controllers(sets: list[PodSet], documents: list[Document], gates: FeatureGates
                 ) -> tuple[list[AnalysedWorkload], list[str]]:
    """The input's controllers, each with its first pod, and what the apiserver refuses in their templates.
    (Their modules load for inputs that have one.)"""
    if not sets:
        return [], []
    from allocator.releases.gates import stored_object_gates
    from allocator.workload.analysed import analysed
    from allocator.workload.controllers import template_errors

    workloads = analysed(sets)
    return workloads, [f"{w.workload.source}:{d}" for w in workloads
                       for d in template_errors([w.workload], documents, gates, stored_object_gates(gates.release))]


def _on_node(args: argparse.Namespace | SimpleNamespace, last: Attempt, retry: dict[str, Any], not_freed: list[str], gates: FeatureGates,
             stored: list[StoredObject]) -> int:
    """``--node``: the claims allocated there, or why not."""
    [outcome] = last.outcomes
    if outcome.error:  # upstream's Allocate failed on this node: an error, not "does not fit"
        print(f"error: {outcome.error} (node {args.node})", file=sys.stderr)
        note_stored(stored)
        return EXIT_ERROR
    if last.chosen is None:
        print(f"cannot allocate the claims on node {args.node}: {last.reasons[id(outcome)]}", file=sys.stderr)
        if not_freed:
            print(f"  PostFilter frees no claim (still not schedulable): {'; '.join(not_freed)}", file=sys.stderr)
        # kube-scheduler's own words for the node and in the pod's PodScheduled condition
        print(f"  {SCHEDULER_SAYS}{last.scheduler_reasons.get(id(outcome))}", file=sys.stderr)
        print(f"  {POD_SCHEDULED_SAYS}{last.scheduler_message}", file=sys.stderr)
        return EXIT_UNSATISFIABLE
    print_output({"node": args.node, "claims": _claims_json(last), **retry, **_binding(last, gates)}, args.output)
    return EXIT_OK


# How the lines with the scheduler's own words start on stderr (with --node, when the node does not fit).
SCHEDULER_SAYS = "kube-scheduler: "
POD_SCHEDULED_SAYS = "PodScheduled: "


def _workloads(workloads: list[AnalysedWorkload]) -> dict[str, Any]:
    """``workloads`` for the output, each one's note also on stderr: the replicas are capacity's to count."""
    if not workloads:
        return {}
    for one in workloads:
        print(f"note: {one.workload.label}: {one.note(CAPACITY)}", file=sys.stderr)
    return {"workloads": [one.to_dict(CAPACITY) for one in workloads]}


# Where the command line answers how many replicas fit.
CAPACITY = "python -m allocator capacity"


def _node_table(attempt: Attempt) -> list[dict[str, Any]]:
    """Each node tried; an inventory without nodes is tried on one nameless node: its name is null."""
    refused, reasons, scoring = attempt.refused, attempt.reasons, attempt.scoring
    assert scoring is not None, "every attempt is scored"
    return [{"name": o.node_name or None, "fits": attempt.fits(o),
             **({} if attempt.fits(o) else {"reason": reasons[id(o)],
                                            "schedulerReason": attempt.scheduler_reasons.get(id(o))}),
             **({"pinnedBy": [c.metadata.name for c in refused[id(o)]]} if refused.get(id(o)) else {}),
             **({"error": True} if o.error else {}), **scoring.node_fields(o)}
            for o in attempt.outcomes]


def _retry(found: Schedule, stored: list[StoredObject]) -> dict[str, Any]:
    """The attempts PostFilter retried after, the objects read as stored, and the generated claims of
    extended resources."""
    out: dict[str, Any] = {}
    if found.retried:
        out["attempts"] = [{"attempt": number, "nodes": _node_table(attempt), "deallocated": _freed(attempt),
                            "deallocatable": [c.metadata.name for c in attempt.freeable]}
                           for number, attempt in enumerate(found.retried, start=1)]
        out["deallocated"] = [a["deallocated"] for a in out["attempts"]]
    if stored:
        out["storedObjects"] = [obj.to_dict() for obj in stored]
    last = found.last
    if last.choice is not None:  # the generated claim is printed with the others, last
        from allocator.workload import extended

        out["extendedResources"] = [s.to_dict() for s in extended.summaries(last.choice, last.by_claim())]
    return out


def _freed(attempt: Attempt) -> str:
    """The claim PostFilter deallocated before trying again after ``attempt``."""
    assert attempt.freed is not None, "a retried attempt freed a claim"
    return attempt.freed.metadata.name


def _binding(attempt: Attempt, gates: FeatureGates) -> dict[str, Any]:
    if attempt.chosen is None or not any(r.binding_conditions for result in attempt.results or ()
                                         for r in result.devices.results):
        return {}  # no granted device waits for its driver: nothing to say (nor to import: start-up)
    from allocator.workload.binding import binding_note

    binding = binding_note(attempt.granted, attempt.results or [], gates)
    return {"binding": binding.to_dict()} if binding else {}


def _claims_json(attempt: Attempt) -> list[dict[str, Any]]:
    """The granted claims with status.allocation, each in the version it was written in."""
    from allocator.allocation.encode import claim_to_json
    from allocator.kube.convert import V1

    versions = attempt.claim_versions()
    assert attempt.results is not None, "granted claims have their results"
    return [claim_to_json(c, r, versions.get(id(c), V1)) for c, r in zip(attempt.granted, attempt.results, strict=True)]
