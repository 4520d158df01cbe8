"""One scheduling cycle for a pod's claims: what the engine, the command line and capacity planning share.

``schedule(documents, node, gates)`` runs the scheduler's attempts for the
workload of ``documents``: per attempt, the DRA Filter on every candidate node
(or on the node given), the pod's allocated claims keeping it to the nodes
their allocations reach (``workload.pinning``), the extended resources backed
by DRA (``workload.extended``: per node, the pod's generated claim after the
pending ones), and the DRA Score among the nodes that fit
(``workload.scoring``). When no node fits only because an allocated claim does
not reach it, PostFilter frees one such claim no other pod uses and the next
attempt starts over with it pending. The answer is a typed ``Schedule``; how
it is shown (the engine's report, the command line's JSON) is the caller's.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

from allocator.allocation.allocator import AllocationOutcome, Allocator, AllocatorError, node_error
from allocator.kube import model
from allocator.kube.objects import Document
from allocator.reading import TYPE_CHECKING
from allocator.reading.records import field, record
from allocator.releases.gates import FeatureGates
from allocator.workload import scheduler_words
from allocator.workload.claims import Workload, build_workload, claim_api_versions
from allocator.workload.cluster import Cluster
from allocator.workload.pinning import deallocated, freeable, pin_reason, pinned_claims, unavailable_on
from allocator.workload.scoring import Scoring, pod_allocated_claims, score_nodes

if TYPE_CHECKING:
    from typing import Any

    # Imported where used: a command whose claims fit never explains, and extended resources need pods
    # (start-up, docs/performance.md).
    from allocator.allocation.explain import Explanation
    from allocator.workload import extended


def workload_of(documents: list[Document]) -> Workload:
    """The pods and claims of ``documents`` (raises pods.PodClaimError when a pod names a missing claim)."""
    def of_kind(kind: str) -> list[Any]:
        return [d.obj for d in documents if d.kind == kind]

    return build_workload(of_kind("ResourceClaim"), of_kind("ResourceClaimTemplate"), of_kind("Pod"))


@record
class Attempt:
    """One scheduling attempt: Filter on each candidate node, then Score among those that fit.

    ``error`` is set when the scheduler gives up: ``given_up`` when an
    AllocatorError stopped the attempt (a CEL error, an unknown class...),
    else the error upstream's Allocate returned on the nodes where nothing
    fits (``node_error``). ``chosen`` is the outcome of the node the pod
    goes to, ``results`` its claims' allocations (``granted`` in order).
    """

    cluster: Cluster
    work: Workload
    documents: list[Document]
    node: str | None  # the node given, or None: every candidate
    allocator: Allocator | None = None
    candidates: list[model.Node] = field(default_factory=list)
    choices: list[extended.NodeChoice] = field(default_factory=list)  # per node, with extended resources
    outcomes: list[AllocationOutcome] = field(default_factory=list)
    # id(outcome) -> the pod's allocated claims whose allocations do not reach that node
    refused: dict[int, list[model.ResourceClaim]] = field(default_factory=dict)
    reasons: dict[int, str] = field(default_factory=dict)  # id(outcome) -> why its node does not fit
    # id(outcome) -> the scheduler's own status for its node, None where it fits (workload.scheduler_words)
    scheduler_reasons: dict[int, str | None] = field(default_factory=dict)
    # The pod's PodScheduled message as the scheduler writes it when no node fits (None otherwise)
    scheduler_message: str | None = None
    scoring: Scoring | None = None
    chosen: AllocationOutcome | None = None
    choice: extended.NodeChoice | None = None  # with extended resources: the chosen node's claims and plans
    results: list[model.AllocationResult] | None = None
    error: str = ""
    given_up: bool = False
    # The pinned claims some node refused the pod for where its pending claims fit (for PostFilter).
    unavailable: list[model.ResourceClaim] = field(default_factory=list)
    # Freed by PostFilter after this attempt, and the claims it could have freed.
    freed: model.ResourceClaim | None = None
    freeable: list[model.ResourceClaim] = field(default_factory=list)

    def fits(self, outcome: AllocationOutcome) -> bool:
        return outcome.allocated and not self.refused.get(id(outcome))

    @property
    def granted(self) -> list[model.ResourceClaim]:
        """The claims allocated together: the pending ones, and with extended resources the generated claim last."""
        if self.chosen is not None and self.choices:
            return self.chosen.claims
        return self.work.pending

    def by_claim(self) -> dict[str, model.AllocationResult]:
        return dict(zip((c.metadata.name for c in self.granted), self.results or [], strict=True))

    def claim_versions(self) -> dict[int, str]:
        """id(claim) -> the version it was written in (claims are shown in it)."""
        return claim_api_versions(self.documents, self.work)

    def explanation(self) -> Explanation | None:
        """Per request, the devices in reach of the node the scheduler looked from (None: no allocator)."""
        if self.allocator is None:
            return None
        pending = self.work.pending
        if self.given_up:
            # Still show which devices match, seen from the node where the scheduler gave up.
            failed_on = self.candidates[min(len(self.outcomes), len(self.candidates) - 1)]
            return self.allocator.explain(failed_on, pending)
        if self.error:
            failed = next(o for o in self.outcomes if o.error)
            return self.allocator.explain(failed.node, failed.claims if self.choices else pending)
        if self.chosen is None:
            first = next((o for o in self.outcomes if not self.refused.get(id(o))), self.outcomes[0])
            return first.explanation or self.allocator.explain(first.node, first.claims if self.choices else pending)
        from allocator.allocation.explain import explain

        return explain(self.allocator, self.chosen.node, self.granted, self.chosen.search)


@record
class Schedule:
    """Every attempt, the last one deciding; ``not_freed``: the pinned claims PostFilter could not free."""

    attempts: list[Attempt]
    not_freed: list[model.ResourceClaim] = field(default_factory=list)

    @property
    def last(self) -> Attempt:
        return self.attempts[-1]

    @property
    def retried(self) -> list[Attempt]:
        """The attempts that failed and after which PostFilter freed a claim."""
        return self.attempts[:-1]


def schedule(documents: list[Document], node: str | None, gates: FeatureGates) -> Schedule:
    """Scheduling attempts until one places the pod or PostFilter can free nothing (``workload.pinning``).

    ``node`` (None: every node) is where the pod must go. Raises pods.PodClaimError as ``workload_of`` does.
    """
    done: list[Attempt] = []
    while True:
        work = workload_of(documents)
        attempt = _attempt(Cluster.of(documents, work.allocated), work, documents, node, gates)
        done.append(attempt)
        free = [c for c in attempt.unavailable if freeable(c, work)]
        if not free:
            return Schedule(done, not_freed=attempt.unavailable)
        attempt.freed, attempt.freeable = free[0], free
        documents = deallocated(documents, free[0])


def _attempt(cluster: Cluster, work: Workload, documents: list[Document], node: str | None,
             gates: FeatureGates) -> Attempt:
    """Filter on ``node`` or every candidate, then Score among the nodes that fit.

    A node that the pod's allocated claims do not reach does not fit; when no
    node fits (and no error decided), ``unavailable`` holds the pinned claims
    some node refused the pod for where the pending claims could be allocated
    (what the scheduler's Filter notes for PostFilter).
    """
    attempt = Attempt(cluster=cluster, work=work, documents=documents, node=node)
    pinned = pinned_claims(work)
    try:
        attempt.allocator = cluster.allocator(gates)
    except AllocatorError as err:
        attempt.error, attempt.given_up = str(err), True
        return attempt
    attempt.candidates = cluster.candidates(node)
    # Only a pod goes through PreFilter; claims alone are the allocator's (its own errors then).
    of_pods = {id(pc.claim) for claims in work.pod_claims.values() for pc in claims}
    refusal = prefilter_refusal([c for c in work.pending if id(c) in of_pods], cluster.classes, gates)
    if refusal:
        # PreFilter refuses the pod before any node is filtered: every node gets its words.
        attempt.outcomes = [AllocationOutcome(node=n, claims=work.pending, allocated=False, reason=refusal)
                            for n in attempt.candidates]
        attempt.scoring = score_nodes([], gates, pod_allocated_claims(work), node_given=node is not None)
        attempt.reasons = {id(o): refusal for o in attempt.outcomes}
        _scheduler_words(attempt, False, gates, prefilter=refusal)
        return attempt
    attempt.choices = _extended_choices(cluster, work, gates, attempt.candidates)
    # Python's cyclic GC paused, as in Allocator.allocate_each: the search makes many short-lived objects
    # while a big inventory stays alive, and each collection would walk the inventory again.
    paused = gc.isenabled()
    gc.disable()
    try:
        # Every candidate is tried, for the node table; the best-scoring node that fits is chosen.
        if attempt.choices:  # pods asked for extended resources: _extended_choices imported the module
            from allocator.workload import extended
        for outcome in (extended.allocate_choices(attempt.allocator, attempt.choices) if attempt.choices
                        else attempt.allocator.allocate_every(attempt.candidates, work.pending)):
            attempt.outcomes.append(outcome)
        # Filter: a node the pod's allocated claims do not reach does not fit, even where the pending ones would.
        if pinned:
            attempt.refused = {id(o): unavailable_on(pinned, o.node) for o in attempt.outcomes if o.allocated}
        # Score: among the nodes that fit, the best DRA score (workload.scoring); ties by name order.
        attempt.scoring = score_nodes([o for o in attempt.outcomes if attempt.fits(o)], gates,
                                      pod_allocated_claims(work), node_given=node is not None)
        attempt.chosen = attempt.scoring.chosen
        if attempt.chosen is not None and attempt.choices:
            attempt.choice = next(c for c, o in zip(attempt.choices, attempt.outcomes, strict=True)
                                  if o is attempt.chosen)
        # built lazily; may raise like upstream's Allocate
        attempt.results = attempt.chosen.results if attempt.chosen else None
    except AllocatorError as err:
        attempt.error, attempt.given_up = str(err), True
        attempt.chosen, attempt.choice, attempt.results = None, None, None
        return attempt
    finally:
        if paused:
            gc.enable()
    refused = attempt.refused
    attempt.reasons = {id(o): pin_reason(refused[id(o)]) if refused.get(id(o)) else o.reason
                       for o in attempt.outcomes}
    attempt.error = node_error(attempt.outcomes)
    _scheduler_words(attempt, bool(work.pending or pinned), gates)
    if attempt.chosen is None and not attempt.error:
        noted = {id(c) for claims in refused.values() for c in claims}
        attempt.unavailable = [c for c in pinned if id(c) in noted]
    return attempt



def prefilter_refusal(pending: list[model.ResourceClaim], classes: list[model.DeviceClass],
                      gates: FeatureGates) -> str:
    """What the DynamicResources PreFilter refuses the pod for before any node is tried ("" when nothing).

    For each claim still to allocate, in order, each request: a ``firstAvailable`` list while
    DRAPrioritizedList is off (a claim stored while it was on), or a DeviceClass that does not exist
    (for a subrequest, named REQUEST/SUBREQUEST). The pod is then unschedulable, not in error; the
    allocator alone, which the plugin never reaches then, would answer with an error of its own.
    Read in the plugin's ``PreFilter`` and ``validateDeviceClass`` (v1.34.4 to v1.37.2).
    """
    known = {c.metadata.name for c in classes}
    for claim in pending:
        for request in claim.spec.devices.requests:
            if request.first_available:
                if not gates.enabled("DRAPrioritizedList"):
                    return (f"resource claim {claim.metadata.namespace}/{claim.metadata.name}, request "
                            f"{request.name}: has subrequests, but the DRAPrioritizedList feature is disabled")
                wanted = [(f"{request.name}/{sub.name}", sub.device_class_name) for sub in request.first_available]
            else:
                wanted = [(request.name, request.exactly.device_class_name if request.exactly else "")]
            for name, class_name in wanted:
                if class_name and class_name not in known:
                    return f"request {name}: device class {class_name} does not exist"
    return ""


def _scheduler_words(attempt: Attempt, has_claims: bool, gates: FeatureGates, prefilter: str = "") -> None:
    """Each node's status and the pod's message in the scheduler's own words (``workload.scheduler_words``);
    ``prefilter``: what PreFilter refused the pod for, which is then every node's status."""
    if not attempt.cluster.nodes:
        # The nodes tried are named only by the slices: the scheduler knows no node at all.
        attempt.scheduler_reasons = dict.fromkeys(map(id, attempt.outcomes))
        attempt.scheduler_message = None if attempt.chosen else scheduler_words.NO_NODES
        return
    choices: list[extended.NodeChoice | None] = list(attempt.choices) or [None] * len(attempt.outcomes)
    for outcome, choice in zip(attempt.outcomes, choices, strict=True):
        attempt.scheduler_reasons[id(outcome)] = prefilter or scheduler_words.node_status(
            insufficient=choice.insufficient if choice is not None else [], error=outcome.error,
            allocated=outcome.allocated, pinned=bool(attempt.refused.get(id(outcome))))
    if attempt.chosen is None and attempt.outcomes:
        # The DRA plugin holds a claim for the pod's extended resources a DeviceClass maps (PreFilter).
        extended_claim = any(plan.mapping.classes for plan in (attempt.choices[0].pod_plans if attempt.choices else []))
        statuses = [attempt.scheduler_reasons[id(o)] or "" for o in attempt.outcomes]
        attempt.scheduler_message = scheduler_words.pod_message(
            statuses, gates.release_rules, has_claims or extended_claim, prefilter=prefilter)


def first_fit(cluster: Cluster, work: Workload, gates: FeatureGates, nodes: list[model.Node],
              plugin_used: dict[str, dict[str, int]] | None = None) -> Attempt:
    """The cycle as capacity planning runs it for each copy: Filter on ``nodes`` in their order, and the
    first that fits takes the pod (the planning strategy ordered them; no Score). Nodes that do not fit
    are not explained, and ``outcomes`` stop at the one chosen. ``plugin_used``: node -> extended
    resource -> what the device plugin already gave out there. Raises AllocatorError where the
    scheduler gives up."""
    allocator = cluster.allocator(gates)
    attempt = Attempt(cluster=cluster, work=work, documents=[], node=None, allocator=allocator,
                      candidates=list(nodes))
    attempt.choices = _extended_choices(cluster, work, gates, attempt.candidates, plugin_used)
    tries: Iterator[tuple[extended.NodeChoice | None, model.Node, list[model.ResourceClaim]]]
    if attempt.choices:
        tries = ((choice, choice.node, choice.claims) for choice in attempt.choices if not choice.unfit)
    else:
        tries = ((None, node, work.pending) for node in nodes)
    for choice, node, claims in tries:
        outcome = allocator.allocate(node, claims, explain_failure=False)
        attempt.outcomes.append(outcome)
        if outcome.allocated:
            attempt.chosen, attempt.choice, attempt.results = outcome, choice, outcome.results
            break
    return attempt


def _extended_choices(cluster: Cluster, work: Workload, gates: FeatureGates, nodes: list[model.Node],
                      plugin_used: dict[str, dict[str, int]] | None = None) -> list[extended.NodeChoice]:
    """Extended resources backed by DRA: per node, the pending claims and the pod's generated claims last
    (none when no pod asks for an extended resource a DeviceClass serves)."""
    if not work.pods:  # claims alone ask for no extended resource: the module is not even imported (start-up)
        return []
    from allocator.workload import extended

    plans = extended.plans_for(work.pods, cluster.classes, gates)
    if not plans:
        return []
    user_claims = {pod: bool(claims) for pod, claims in work.pod_claims.items()}
    return extended.node_choices(plans, nodes, work.pending, gates, user_claims, plugin_used)
