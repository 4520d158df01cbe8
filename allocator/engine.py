"""One call that answers everything the page, the API and the CLI show.

``analyze(documents, inventory, node, feature_gates, kubernetes_version, limits)``
reads the user's documents and the inventory (each text within the caller's
``limits``: see ``limits``), validates both like the
apiserver, warns about selectors that would abort allocation, allocates the
pending claims like the scheduler (on the given node, or on the node that fits
with the best DRA score, the first in name order among equals), explains per
request which devices match and why the others do not, and maps the grant to
containers. Bad input never raises: it
becomes diagnostics. Only an unknown feature gate or release raises
``FeatureGateError``, since that is a mistake in the call, not in the YAML.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeAlias

from allocator.allocation.allocator import Allocator, AllocatorError
from allocator.allocation.alternatives import DEFAULT_TIMEOUT as DEFAULT_ALTERNATIVES_TIMEOUT
from allocator.allocation.alternatives import MAX_LIMIT as MAX_ALTERNATIVES
from allocator.allocation.counters import CounterShortfall, Shortage
from allocator.allocation.encode import claim_to_json
from allocator.allocation.explain import Explanation
from allocator.allocation.proofs import Proof
from allocator.authoring.inventory import Inventory
from allocator.cel.fixes import ExprFix
from allocator.kube import model
from allocator.kube.convert import V1
from allocator.kube.objects import ReadResult, read_documents
from allocator.reading.deadline import located
from allocator.reading.diagnostics import NOT_FOUND, Diagnostic, DiagnosticError
from allocator.reading.limits import DEFAULT, Limits
from allocator.releases.gates import CURRENT_RELEASE, FeatureGates, make_gates, stored_object_gates
from allocator.releases.serving import dra_off_message
from allocator.validation import classic, inventory_warnings, validate_documents
from allocator.validation.cel import ExpressionLocator
from allocator.validation.documents import (
    StoredObject,
    as_the_scheduler_sees,
    read_as_stored,
    read_from_cluster,
)
from allocator.validation.not_simulated import not_simulated
from allocator.validation.warnings import selector_expressions
from allocator.workload import extended
from allocator.workload.analysed import AnalysedWorkload, read_workloads, still_ignored
from allocator.workload.binding import BindingNote, binding_note
from allocator.workload.claims import Workload, build_workload
from allocator.workload.pinning import pinned_claims
from allocator.workload.pods import PodClaimError, container_devices
from allocator.workload.scheduling import Attempt, schedule
from allocator.workload.scoring import Scoring

DOCUMENTS = "documents"
INVENTORY = "inventory"
# Where the API answers how many replicas of a workload fit (a workload's note points there).
PLANNER = "capacity planning (POST /api/v1/capacity)"


@dataclass(frozen=True)
class DeviceResult:
    """One device of a claim's allocation (``status.allocation.devices.results[]``), as the page reads it."""

    request: str
    driver: str
    pool: str
    device: str
    admin_access: bool | None = None
    binding_conditions: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.driver}/{self.pool}/{self.device}"

    def to_dict(self) -> dict[str, str]:
        return {"request": self.request, "driver": self.driver, "pool": self.pool, "device": self.device}


@dataclass
class ClaimGrant:
    """A claim and the devices it was granted; ``written``: the claim with ``status.allocation``, in the
    version it was written in (what the JSON carries)."""

    name: str
    namespace: str
    results: list[DeviceResult]
    written: dict | None = field(default=None, repr=False)

    @classmethod
    def of(cls, claim: model.ResourceClaim, results: Iterable, written: dict | None = None) -> ClaimGrant:
        """From the claim and its results (``AllocationResult`` device results or the search's devices)."""
        return cls(name=claim.metadata.name or claim.metadata.generate_name, namespace=claim.metadata.namespace,
                   results=list(results), written=written)

    @property
    def ref(self) -> str:
        """namespace/name, in ``default`` when the claim names no namespace."""
        return f"{self.namespace or 'default'}/{self.name}"

    def summary(self) -> dict:
        return {"name": self.name, "namespace": self.namespace, "results": [r.to_dict() for r in self.results]}


def _allocated_results(allocation: model.AllocationResult) -> list[DeviceResult]:
    return [DeviceResult(request=r.request, driver=r.driver, pool=r.pool, device=r.device,
                         admin_access=r.admin_access, binding_conditions=tuple(r.binding_conditions or ()))
            for r in allocation.devices.results]


@dataclass(frozen=True)
class ObjectRow:
    """One object read from the documents or the inventory (``objects[]`` in the JSON): what and where it is."""

    kind: str
    name: str
    namespace: str
    api_version: str
    source: str  # DOCUMENTS or INVENTORY
    line: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "namespace": self.namespace, "apiVersion": self.api_version,
                "source": self.source, "line": self.line}


@dataclass
class ContainerDevices:
    """The devices one container gets from one request of a claim (``containers[]`` in the JSON);
    ``extended_resource``: the extended resource it asked for, when the claim is the generated one."""

    pod: str
    container: str
    init: bool
    pod_claim: str
    claim: str
    request: str
    devices: list[DeviceResult]
    extended_resource: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pod": self.pod, "container": self.container, "init": self.init,
                               "podClaim": self.pod_claim, "claim": self.claim, "request": self.request}
        if self.extended_resource is not None:
            out["extendedResource"] = self.extended_resource
        out["devices"] = [d.to_dict() for d in self.devices]
        return out


@dataclass
class NodeRow:
    """One node the scheduler tried (``nodes[]`` in the JSON): whether the pod fits there, and why not."""

    name: str
    fits: bool
    reason: str | None
    error: bool  # upstream's Allocate failed with an error on this node (invalid pools)
    pinned_by: list[str] | None = None  # the pod's allocated claims that do not reach the node
    proof: Proof | None = None  # what decided "does not fit" without searching (allocation.proofs)
    score: int | None = None  # the scheduler's normalised DRA score, where the node was scored
    raw_score: int | None = None  # the score before normalising (set with ``score``)
    extended_resources: list[extended.PodResources] | None = None  # per pod, what DRA and the device plugin serve
    # kube-scheduler's own status for the node ("cannot allocate all claims", "Insufficient NAME"), None
    # where the pod fits; ``reason`` is the engine's detailed explanation (workload.scheduler_words)
    scheduler_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "fits": self.fits, "reason": self.reason, "error": self.error,
                               "schedulerReason": self.scheduler_reason}
        if self.pinned_by is not None:
            out["pinnedBy"] = self.pinned_by
        if self.proof is not None:
            out["proof"] = self.proof.to_dict()
        if self.score is not None:
            out["score"], out["rawScore"] = self.score, self.raw_score
        if self.extended_resources is not None:
            out["extendedResources"] = [r.to_dict() for r in self.extended_resources]
        return out


@dataclass
class FailedAttempt:
    """A scheduling attempt that found no node, after which PostFilter freed a claim (``allocation.attempts[]``)."""

    number: int
    status: str
    reasons: list[str]
    nodes: list[NodeRow]
    deallocated: str  # the claim PostFilter freed
    deallocatable: list[str]  # the claims it could have freed

    def to_dict(self) -> dict[str, Any]:
        return {"attempt": self.number, "status": self.status, "reasons": self.reasons,
                "nodes": [n.to_dict() for n in self.nodes], "deallocated": self.deallocated,
                "deallocatable": self.deallocatable}


@dataclass
class AlternativesSearch:
    """How the listing of other grants went (``allocation.alternativesSearch``): whether it saw every grant
    (``exhausted``), or why it stopped."""

    limit: int
    found: int = 0
    exhausted: bool = False
    stopped: str | None = None
    steps: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"limit": self.limit, "found": self.found, "exhausted": self.exhausted, "stopped": self.stopped,
                "steps": self.steps}


if TYPE_CHECKING:  # the explanations load with the first device explained (start-up)
    from allocator.cel.explain import Part

# One part of a device's ``why``: a part of a selector, or a counter of the pool that is short.
WhyPart: TypeAlias = "Part | Shortage"


@dataclass
class RequestDevice:
    """A device in reach of the explained node, for one request: whether it matches, and the reason if not."""

    driver: str
    pool: str
    device: str
    slice: str
    node: str | None
    matches: bool
    chosen: bool
    taken_by: str | None
    reason: str | None
    reason_code: str | None
    # The parts that decided: of a selector (span, verdict, values read, hint, fixes), or the counters short
    why: list[WhyPart] | None
    reason_short: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"driver": self.driver, "pool": self.pool, "device": self.device, "slice": self.slice,
                "node": self.node, "matches": self.matches, "chosen": self.chosen, "takenBy": self.taken_by,
                "reason": self.reason, "reasonCode": self.reason_code,
                "why": None if self.why is None else [part.to_dict() for part in self.why],
                "reasonShort": self.reason_short}


def _why_parts(parts: list[dict] | None) -> list[WhyPart] | None:
    """The explanation's parts (as ``allocation.explain`` carries them, JSON-shaped), typed."""
    if not parts:
        return None
    from allocator.cel.explain import Part

    return [Shortage.from_dict(part) if part.get("kind") == Shortage.kind else Part.from_dict(part) for part in parts]


@dataclass
class RequestView:
    """One request of a pending claim and every device in reach (``requests[]`` in the JSON)."""

    claim: str
    request: str
    device_class: str
    mode: str
    count: int
    selected: bool | None
    error: str | None
    devices: list[RequestDevice]

    def to_dict(self) -> dict[str, Any]:
        return {"claim": self.claim, "request": self.request, "deviceClass": self.device_class, "mode": self.mode,
                "count": self.count, "selected": self.selected, "error": self.error,
                "devices": [d.to_dict() for d in self.devices]}


@dataclass
class Allocation:
    """What the scheduler did with the pending claims (``allocation`` in the JSON).

    ``status``: "skipped" (nothing to do, or the input is refused: ``reasons`` say why), "controller"
    (classic DRA's controllers allocate), "allocated", "unsatisfiable" or "error". The fields after
    ``error`` are left out of the JSON while None.
    """

    status: str = "skipped"
    node: str | None = None
    claims: list[ClaimGrant] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    error: str | None = None
    scoring: Scoring | None = None  # the DRA Score among the nodes that fit (workload.scoring)
    counters: list[CounterShortfall] | None = None  # requests out of shared counters, with the numbers (explain.py)
    binding: BindingNote | None = None  # the grant waits for its drivers' binding conditions (workload.binding)
    extended_resources: list[extended.ExtendedSummary] | None = None  # per pod, its generated claim (workload.extended)
    not_freed: list[str] | None = None  # pinned claims PostFilter could not free
    attempts: list[FailedAttempt] | None = None  # the failed attempts after which PostFilter freed a claim
    deallocated: list[str] | None = None  # the claims it freed
    alternatives: list[list[ClaimGrant]] | None = None  # the other grants on the chosen node
    alternatives_search: AlternativesSearch | None = None  # whether that listing saw every grant, or why it stopped
    # The pod's PodScheduled message as kube-scheduler writes it when no node fits ("0/2 nodes are available: ...")
    scheduler_message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "node": self.node,
                               "claims": [c.written for c in self.claims], "reasons": self.reasons,
                               "error": self.error}
        optional = {"scoring": None if self.scoring is None else self.scoring.to_dict(),
                    "counters": None if self.counters is None else [c.to_dict() for c in self.counters],
                    "binding": None if self.binding is None else self.binding.to_dict(),
                    "extendedResources": None if self.extended_resources is None else
                    [s.to_dict() for s in self.extended_resources], "notFreed": self.not_freed,
                    "attempts": None if self.attempts is None else [a.to_dict() for a in self.attempts],
                    "deallocated": self.deallocated,
                    "alternatives": None if self.alternatives is None else
                    [{"claims": [c.summary() for c in grant]} for grant in self.alternatives],
                    "alternativesSearch": None if self.alternatives_search is None else
                    self.alternatives_search.to_dict(),
                    "schedulerMessage": self.scheduler_message}
        out.update((key, value) for key, value in optional.items() if value is not None)
        return out


@dataclass(frozen=True)
class Granted:
    """The allocation made, for listing the other grants: the prepared inventory, the node and the claims."""

    allocator: Allocator
    node: model.Node
    claims: list[model.ResourceClaim]


@dataclass
class Report:
    kubernetes_version: str
    gates: FeatureGates
    objects: list[ObjectRow] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    diagnostics: list[tuple[str, Diagnostic]] = field(default_factory=list)  # (source, diagnostic)
    requests: list[RequestView] = field(default_factory=list)
    allocation: Allocation = field(default_factory=Allocation)
    nodes: list[NodeRow] = field(default_factory=list)
    containers: list[ContainerDevices] = field(default_factory=list)
    explained_node: str | None = None  # the node the per-request explanation looks from
    granted: Granted | None = field(default=None, repr=False, compare=False)
    dra_off: str | None = None  # why the release's apiserver and scheduler know no DRA, and the gate to turn on
    # the user's objects read as stored (metadata.uid or resourceVersion set)
    stored_objects: list[StoredObject] = field(default_factory=list)
    # The inventory's and the documents' objects as read here, for the page's picture and console
    # (``authoring.inventory``): they show this read rather than reading the texts again.
    inventory: Inventory = field(default_factory=Inventory, repr=False, compare=False)
    readings: list[Reading] = field(default_factory=list, repr=False, compare=False)  # the documents', the inventory's
    # the Deployments, ReplicaSets, StatefulSets and Jobs of the documents, each analysed as its first pod
    workloads: list[AnalysedWorkload] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not any(d.severity == "error" for _, d in self.diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for _, d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for _, d in self.diagnostics if d.severity == "warning"]

    def to_dict(self) -> dict[str, Any]:
        out = {
            "kubernetesVersion": self.kubernetes_version,
            "draOff": self.dra_off,
            "featureGates": self.gates.as_dict(),
            "gateOverrides": self.gates.overrides(),
            "objects": [o.to_dict() for o in self.objects],
            "ignored": self.ignored,
            "valid": self.valid,
            "diagnostics": [_diagnostic_dict(d, source) for source, d in self.diagnostics],
            "requests": [r.to_dict() for r in self.requests],
            "explainedNode": self.explained_node,
            "allocation": self.allocation.to_dict(),
            "nodes": [n.to_dict() for n in self.nodes],
            "containers": [c.to_dict() for c in self.containers],
        }
        if self.stored_objects:  # only then, so that other answers stay as they were
            out["storedObjects"] = [o.to_dict() for o in self.stored_objects]
        if self.workloads:  # likewise
            out["workloads"] = [w.to_dict(PLANNER) for w in self.workloads]
        return out


def _diagnostic_dict(diagnostic: Diagnostic, source: str) -> dict[str, Any]:
    out = diagnostic.to_dict()
    out["fixes"] = [{**fix, "document": source} for fix in out["fixes"]]
    out["source"] = source
    return out


@dataclass(frozen=True, eq=False)
class Reading:
    """A text read within ``limits``: its objects, or the diagnostics that kept it from being read at all
    (``refused``; then nothing is read). Another analysis of the same text (the compared column) reuses it."""

    text: str = field(repr=False)
    limits: Limits
    result: ReadResult
    refused: tuple[Diagnostic, ...] = ()


def _read_text(text: str, limits: Limits, earlier: Iterable[Reading] = ()) -> Reading:
    """The reading of ``text``: one of ``earlier`` when it read the same text within the same limits."""
    for reading in earlier:
        if reading.limits == limits and reading.text == text:
            return reading
    try:
        return Reading(text, limits, read_documents(text, limits=limits) if text.strip() else ReadResult())
    except DiagnosticError as err:
        return Reading(text, limits, ReadResult(), tuple(err.diagnostics))


def _first_error(result: ReadResult, refused: tuple[Diagnostic, ...]) -> str:
    """The first reading error of a text: why it could not be read, or the first of its objects' errors."""
    if refused:
        return refused[0].message()
    return result.errors[0].message() if result.errors else ""


def read_inventory(documents: str, inventory: str, limits: Limits = DEFAULT) -> Inventory:
    """The inventory and documents as ``analyze`` reads them, for a page that shows them without an analysis
    (the console's own answer)."""
    inv, docs = _read_text(inventory, limits), _read_text(documents, limits)
    return Inventory(inv.result.documents + docs.result.documents, error=_first_error(inv.result, inv.refused))


def _read(text: str, source: str, report: Report, limits: Limits,
          earlier: Iterable[Reading]) -> tuple[ReadResult, tuple[Diagnostic, ...]]:
    """The objects of a text listed in the report (or why it cannot be read, among its diagnostics)."""
    reading = _read_text(text, limits, earlier)
    report.readings.append(reading)
    result, refused = reading.result, reading.refused
    if refused:
        report.diagnostics.extend((source, d) for d in refused)
        return result, refused
    for doc in result.documents:
        report.objects.append(ObjectRow(kind=doc.kind, name=doc.name, namespace=doc.namespace,
                                        api_version=doc.api_version, source=source, line=doc.line))
    report.ignored.extend(result.ignored)
    return result, ()


# The inventory's validation, kept for the last few (inventory, release, overrides, limits).
_VALIDATED: OrderedDict[tuple[str, str, tuple[tuple[str, bool], ...], Limits], tuple[Diagnostic, ...]] = OrderedDict()
_VALIDATED_MAX = 8
_validated_lock = threading.Lock()


def _inventory_diagnostics(inv: ReadResult, inventory: str, kubernetes_version: str,
                           overrides: tuple[tuple[str, bool], ...], limits: Limits) -> tuple[Diagnostic, ...]:
    """The inventory's decoding and validation diagnostics (syntax errors are ``_read``'s), on its read ``inv``.

    The inventory stands for stored objects, so fields of disabled gates stay;
    the gate overrides only decide which versions are served. Depending on
    the text, the release and the overrides alone, it is computed once per
    inventory: the live editor sends the same one with every keystroke.
    """
    key = (inventory, kubernetes_version, overrides, limits)
    with _validated_lock:
        found = _VALIDATED.get(key)
        if found is not None:
            _VALIDATED.move_to_end(key)
            return found
    found = tuple(validate_documents(inv, stored_object_gates(kubernetes_version), inventory,
                                     serving=make_gates(dict(overrides), kubernetes_version)))
    with _validated_lock:
        _VALIDATED[key] = found
        while len(_VALIDATED) > _VALIDATED_MAX:
            _VALIDATED.popitem(last=False)
    return found


def analyze(documents: str, inventory: str = "", node: str | None = None,
            feature_gates: dict[str, bool] | None = None,
            kubernetes_version: str = CURRENT_RELEASE, limits: Limits = DEFAULT, alternatives: int = 0,
            alternatives_timeout: float | None = DEFAULT_ALTERNATIVES_TIMEOUT,
            readings: Iterable[Reading] = ()) -> Report:
    """The report for these inputs; ``alternatives`` > 0 also lists up to that many grants on the chosen node.

    The listing (``allocation.alternatives``, at most ``MAX_ALTERNATIVES``) is
    bounded by the search step limit and ``alternatives_timeout`` seconds;
    ``allocation.alternativesSearch`` says whether it saw every grant or why it stopped.

    ``readings``: another analysis's (``Report.readings``), whose texts are not read again when they are
    the same within the same limits (the other column of a comparison: reading does not depend on the
    release or the gates).
    """
    if not 0 <= alternatives <= MAX_ALTERNATIVES:
        raise ValueError(f"alternatives must be between 0 and {MAX_ALTERNATIVES}, not {alternatives}")
    gates = make_gates(feature_gates, kubernetes_version)
    report = Report(kubernetes_version=kubernetes_version, gates=gates, dra_off=dra_off_message(gates))
    earlier = list(readings)
    with located(phase="reading"):
        docs, _ = _read(documents, DOCUMENTS, report, limits, earlier)
        inv, refused = _read(inventory, INVENTORY, report, limits, earlier)
        report.inventory = Inventory(inv.documents + docs.documents, error=_first_error(inv, refused))
        # A Deployment, ReplicaSet, StatefulSet or Job of the documents is analysed as its first pod.
        report.workloads, unreadable_workloads = read_workloads(documents, docs, gates, limits=limits)
        report.diagnostics.extend((DOCUMENTS, d) for d in unreadable_workloads)
        report.ignored = still_ignored(docs.ignored) + inv.ignored
        first_pods = [w.pod for w in report.workloads if w.pod is not None]
    with located(phase="validating"):
        # Objects read from a cluster are stored: checked with the stored-object rules, not as created.
        report.diagnostics.extend((DOCUMENTS, d) for d in validate_documents(
            docs, gates, documents, stored_gates=stored_object_gates(kubernetes_version), stored=read_from_cluster))
        report.stored_objects = read_as_stored(docs.documents)
        if not refused:  # an unreadable inventory has its reading error only
            report.diagnostics.extend((INVENTORY, d) for d in _inventory_diagnostics(
                inv, inventory, kubernetes_version, tuple(sorted(gates.overrides().items())), limits))
        # The claims as the apiserver stores them: created ones without the fields of disabled features.
        combined = ReadResult(
            documents=inv.documents + as_the_scheduler_sees(docs.documents, gates) + first_pods)
        with located(phase="checking the selectors on the inventory"):
            report.diagnostics.extend((DOCUMENTS, d) for d in inventory_warnings(docs, combined, gates, documents))
        # Fields and objects of DRA features the engine does not simulate: accepted, and said so.
        report.diagnostics.extend((DOCUMENTS, d) for d in not_simulated(docs, gates))
        report.diagnostics.extend((INVENTORY, d) for d in not_simulated(inv, gates))

    try:
        work = build_workload(combined.of_kind("ResourceClaim"), combined.of_kind("ResourceClaimTemplate"),
                              combined.of_kind("Pod"))
    except PodClaimError as err:
        report.diagnostics.append((DOCUMENTS, _missing_claim(str(err), report.workloads)))
        return report
    if report.dra_off:
        report.allocation.reasons = [report.dra_off]
        return report
    if not report.valid:
        report.allocation.reasons = ["the objects are not valid: the apiserver would reject them"]
        return report
    # With nothing pending, a pod's allocated claims still keep it to the nodes their allocations reach.
    if not work.pending and not pinned_claims(work) and not extended.plans_for(
            work.pods, combined.of_kind("DeviceClass"), gates):
        report.allocation.reasons = [_nothing_pending(work)]
        return report
    handed_over = classic.handed_to_controllers(work, combined.documents, gates)
    if handed_over:
        report.allocation.status, report.allocation.reasons = "controller", handed_over
        return report
    with located(phase="scheduling"):
        _schedule(report, combined, node, gates)
    with located(phase="finding fixes"):
        _why_fixes(report, [(DOCUMENTS, documents, docs.documents), (INVENTORY, inventory, inv.documents)])
    if alternatives:
        with located(phase="listing other grants"):
            _alternatives(report, alternatives, alternatives_timeout)
    return report


def _nothing_pending(work: Workload) -> str:
    """Why nothing is allocated: no pending claim, or none that a pod names (kube-scheduler leaves those)."""
    if not work.unnamed:
        return "no pending ResourceClaim: nothing to allocate"
    names = ", ".join(f"{c.metadata.namespace}/{c.metadata.name}" for c in work.unnamed)
    return (f"no pending ResourceClaim that a pod names: nothing to allocate (kube-scheduler schedules a pod "
            f"by its own claims and leaves {names} pending)")


def _missing_claim(detail: str, workloads: list[AnalysedWorkload]) -> Diagnostic:
    """A pod names a claim or template that is not in the input: said of the workload whose pod it is."""
    for one in workloads:
        if one.pod is not None and detail.startswith(f'pod "{one.pod.name}":'):
            return Diagnostic(field="spec.template.spec.resourceClaims", type=NOT_FOUND, detail=detail,
                              kind=one.workload.kind, name=one.workload.name, line=one.workload.line)
    return Diagnostic(field="spec.resourceClaims", type=NOT_FOUND, detail=detail, kind="Pod")


def _schedule(report: Report, combined: ReadResult, node: str | None, gates: FeatureGates) -> None:
    """The scheduling cycle (``workload.scheduling``) shown in the report: the last attempt decides.

    Each failed attempt after which PostFilter freed a claim is kept in ``allocation.attempts``.
    """
    found = schedule(combined.documents, node or None, gates)
    attempts: list[FailedAttempt] = []
    for attempt in found.retried:
        _show(report, attempt, node, explained=False)
        assert attempt.freed is not None, "a retried attempt is one after which PostFilter freed a claim"
        attempts.append(FailedAttempt(
            number=len(attempts) + 1, status=report.allocation.status, reasons=report.allocation.reasons,
            nodes=report.nodes, deallocated=attempt.freed.metadata.name,
            deallocatable=[c.metadata.name for c in attempt.freeable]))
        report.requests, report.nodes, report.containers = [], [], []
        report.explained_node, report.granted = None, None
        report.allocation = Allocation()
    _show(report, found.last, node, explained=True)
    if found.not_freed:
        report.allocation.reasons.append(
            "PostFilter frees no claim (still not schedulable): " + "; ".join(
                f"claim {c.metadata.name} is reserved for another pod" for c in found.not_freed))
        report.allocation.not_freed = [c.metadata.name for c in found.not_freed]
    if attempts:
        report.allocation.attempts = attempts
        report.allocation.deallocated = [a.deallocated for a in attempts]


def _show(report: Report, attempt: Attempt, node: str | None, explained: bool) -> None:
    """One attempt in the report: its outcome, the node table and, if ``explained``, the per-request explanation."""
    alloc = report.allocation
    slices = attempt.cluster.slices

    def show_explanation() -> Explanation | None:
        explanation = attempt.explanation() if explained else None
        if explanation is not None:
            _explain(report, explanation, slices)
        return explanation

    if attempt.given_up:
        alloc.status, alloc.error, alloc.reasons = "error", attempt.error, [attempt.error]
        show_explanation()
        return
    outcomes, reasons, refused = attempt.outcomes, attempt.reasons, attempt.refused
    scoring = attempt.scoring
    assert scoring is not None, "an attempt not given up has scored its nodes"
    # "proof": what decided "does not fit" without searching (allocation.proofs), on nodes where one did.
    report.nodes = [NodeRow(name=o.node_name, fits=attempt.fits(o), reason=reasons[id(o)] or None, error=bool(o.error),
                            pinned_by=[c.metadata.name for c in refused[id(o)]] if refused.get(id(o)) else None,
                            proof=o.proof,
                            score=scoring.normalized.get(id(o)), raw_score=scoring.raw.get(id(o)),
                            scheduler_reason=attempt.scheduler_reasons.get(id(o))) for o in outcomes]
    alloc.scheduler_message = attempt.scheduler_message
    alloc.scoring = scoring
    if attempt.error:
        # Allocate failed with an error (invalid pools) where nothing fits: the scheduler reports that error.
        show_explanation()
        alloc.status, alloc.node, alloc.error = "error", node, attempt.error
        alloc.reasons = [f"{o.node_name or '(any node)'}: {reasons[id(o)]}" for o in outcomes]
        return
    if attempt.chosen is None:
        explanation = show_explanation()
        alloc.status, alloc.node = "unsatisfiable", node
        alloc.reasons = [f"{o.node_name or '(any node)'}: {reasons[id(o)]}" for o in outcomes]
        if explanation is not None and explanation.counters:  # requests out of shared counters (explain.py)
            alloc.counters = explanation.counters
        return
    show_explanation()
    pending, results, chosen, allocator = attempt.granted, attempt.results, attempt.chosen, attempt.allocator
    assert results is not None and allocator is not None, "a chosen node has its claims' allocations"
    report.granted = Granted(allocator, chosen.node, pending)
    versions = attempt.claim_versions()
    alloc.status, alloc.node = "allocated", chosen.node_name
    alloc.claims = [ClaimGrant.of(c, _allocated_results(r), claim_to_json(c, r, versions.get(id(c), V1)))
                    for c, r in zip(pending, results, strict=True)]
    binding = binding_note(pending, results, report.gates)
    if binding is not None:  # the grant waits for its drivers' binding conditions (workload.binding)
        alloc.binding = binding
    by_claim = attempt.by_claim()
    for pod in attempt.work.pods:
        for view in container_devices(pod, attempt.work.pod_claims[pod.metadata.name], by_claim):
            report.containers.append(ContainerDevices(
                pod=view.pod, container=view.container, init=view.init, pod_claim=view.pod_claim,
                claim=view.claim, request=view.request,
                devices=[DeviceResult(request=d.request, driver=d.driver, pool=d.pool, device=d.device)
                         for d in view.devices]))
    if attempt.choices:
        assert attempt.choice is not None, "with extended resources the chosen node has its choice"
        _extended_report(report, attempt.choice, by_claim, attempt.choices)


def _extended_report(report: Report, choice: extended.NodeChoice, by_claim: dict, choices: list) -> None:
    """``allocation.extendedResources``: per pod, the generated claim and its containers (``workload.extended``)."""
    rows = extended.node_rows(choices)
    for row in report.nodes:
        row.extended_resources = rows.get(row.name, [])
    out = extended.summaries(choice, by_claim)
    for entry in out:
        if entry.claim is None:
            continue
        report.containers.extend(ContainerDevices(
            pod=c.pod, container=c.container, init=c.init, pod_claim="", claim=c.claim, request=c.request,
            extended_resource=c.resource, devices=[DeviceResult(request=d.request, driver=d.driver, pool=d.pool,
                                                                device=d.device) for d in c.devices])
            for c in entry.claim.containers)
    report.allocation.extended_resources = out


def _alternatives(report: Report, limit: int, timeout: float | None) -> None:
    """``allocation.alternatives``: the grants the search reaches on the chosen node, the scheduler's first."""
    alloc = report.allocation
    alloc.alternatives = []
    summary = alloc.alternatives_search = AlternativesSearch(limit)
    if report.granted is None:
        summary.stopped = "nothing was allocated, so there are no grants to list"
        return
    granted = report.granted
    try:
        found = granted.allocator.alternatives(granted.node, granted.claims, limit, timeout)
    except AllocatorError as err:  # what the scheduler's own search would have met too (not expected: it granted)
        summary.stopped = f"no grant listed: {err}"
        return
    for grant in found.grants:
        alloc.alternatives.append([
            ClaimGrant.of(claim, [DeviceResult(request=d.request, driver=d.device.driver, pool=d.device.pool,
                                               device=d.device.device) for d in devices])
            for claim, devices in zip(granted.claims, grant.claims, strict=True)])
    summary.found, summary.exhausted, summary.stopped, summary.steps = (
        len(found.grants), found.exhausted, found.stopped, found.steps)


def _why_fixes(report: Report, sources: list[tuple[str, str, list]]) -> None:
    """Map the explanations' quick fixes (``why[].fixes``, in offsets of their ``expression``) into the YAML
    text of that selector, as the diagnostics' fixes are; a fix whose expression is written in more than
    one place is dropped. Every selector part of a ``why`` gets a ``fixes`` list."""
    places: dict[str, list] | None = None
    for req in report.requests:
        for device in req.devices:
            why = device.why
            if not why:
                continue
            if places is None and any(not isinstance(part, Shortage) and part.fixes for part in why):
                places = _selector_places(sources)
            device.why = [part if isinstance(part, Shortage) else replace(part, fixes=_mapped(part.fixes or [], places or {}))
                          for part in why]


def _selector_places(sources: list[tuple[str, str, list]]) -> dict[str, list]:
    """expression -> (source, locator, path) of every place a CEL selector is written."""
    places: dict[str, list] = {}
    for source, text, documents in sources:
        for doc in documents:
            for path, expression in selector_expressions(doc):
                places.setdefault(expression, []).append((source, ExpressionLocator(doc, text), path))
    return places


def _mapped(fixes: list[dict], places: dict[str, list]) -> list[dict]:
    out = []
    for fix in fixes:
        where = places.get(fix["expression"]) or []
        if len(where) != 1:
            continue
        (source, locator, path), = where
        edit = ExprFix(fix["title"], fix["start"], fix["end"], fix["replacement"])
        mapped = locator.fix(path, fix["expression"], edit)
        if mapped is not None:
            out.append({**asdict(mapped), "document": source})
    return out


def _explain(report: Report, explanation: Explanation, slices: list[model.ResourceSlice]) -> None:
    """Per request: every device in reach of the node, whether it matches and the first reason if not."""
    node_of_slice = {s.metadata.name: s.spec.node_name for s in slices}
    report.explained_node = explanation.node
    for req in explanation.requests:
        report.requests.append(RequestView(
            claim=req.claim, request=req.request, device_class=req.device_class, mode=req.mode,
            count=req.count, selected=req.selected, error=req.error,
            devices=[RequestDevice(
                driver=d.driver, pool=d.pool, device=d.device, slice=d.slice, node=node_of_slice.get(d.slice),
                matches=d.matches, chosen=d.chosen, taken_by=d.taken_by,
                reason=d.reason.message if d.reason else None, reason_code=d.reason.code if d.reason else None,
                why=_why_parts(d.reason.parts) if d.reason else None,
                reason_short=(d.reason.short or d.reason.message) if d.reason else None,
            ) for d in req.devices]))
