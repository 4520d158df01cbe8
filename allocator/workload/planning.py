"""How many copies of a workload fit: place them one after another, as the scheduler would, until one does not.

A copy is every Pod of the input (without pods: every pending claim), renamed ``<name>-<n>`` for copy
``n``. Each copy gets its own claims from its templates, named as the resource-claim controller names them
after the copy's pod; a claim a pod names directly (``resourceClaimName``) is shared by all copies, as
upstream shares it: it is allocated once and every later copy must run where that allocation can be used,
with at most 256 consumers (``status.reservedFor``'s limit). Every earlier copy's allocation is held as
allocated state (devices, counters, consumable capacity and share IDs), exactly as claims with
``status.allocation`` in the input are.

Which node a copy goes to is a parameter. kube-scheduler scores feasible nodes with its plugins and
breaks ties at random, so no fixed rule is what it does; these bracket it:

* ``first``: the first node that fits in node name order (the rule ``allocate`` uses);
* ``spread``: among the nodes that fit, the one with the fewest of its own devices in use;
* ``pack``: the one with the most in use (ties by name in both).

Placing stops at the first copy that fits on no node (``next`` says why, per node, as ``allocate``
would) or at ``max_copies``.

With ``workloads`` (``controllers.PodSet``: Deployments, ReplicaSets, StatefulSets and Jobs with their
counts, and Pods counting 1) each workload's copies are its own pods, named as its controller names
them, and placing stops too when every workload has the copies it asks for. The copies are placed in
the order the workloads are written, all of one before the next: the scheduler's queue takes pods of
equal priority in the order they were created, and ``kubectl apply`` creates objects in file order
(pod priorities are not read). The 256 consumers of a shared claim count those already in its
``status.reservedFor``.
"""

from __future__ import annotations

import bisect
import copy as copying
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from allocator.allocation.allocator import Allocator, AllocatorError, node_error
from allocator.allocation.inputs import SlicesByNode
from allocator.allocation.nodes import node_matches
from allocator.allocation.nodes import search_nodes as nodes_to_search
from allocator.allocation.state import add_allocated
from allocator.kube import model
from allocator.kube.objects import Document, ReadResult, read_documents
from allocator.reading.deadline import located
from allocator.reading.diagnostics import INVALID, Diagnostic, DiagnosticError
from allocator.reading.limits import DEFAULT, Limits
from allocator.reading.records import field, record, replace
from allocator.releases.gates import FeatureGates, stored_object_gates
from allocator.releases.serving import read_errors
from allocator.validation import validate_documents
from allocator.validation.documents import as_the_scheduler_sees
from allocator.workload import extended
from allocator.workload.claims import Workload, build_workload
from allocator.workload.cluster import Cluster
from allocator.workload.controllers import PodSet, pod_sets, template_errors
from allocator.workload.pods import PodClaimError
from allocator.workload.scheduling import first_fit

STRATEGIES = ("first", "spread", "pack")
MAX_CONSUMERS = 256  # ResourceClaimReservedForMaxSize


@record
class Step:
    copy: int
    node: str | None  # None: the inventory has no nodes
    pods: list[str]
    claims: list[dict]  # {"name", "devices": ["driver/pool/device", ...]}
    workload: str = ""  # "<kind>/<name>" of the workload the copy is of

    def to_dict(self) -> dict:
        return {"copy": self.copy, "workload": self.workload, "node": self.node, "pods": self.pods,
                "claims": self.claims}


@record
class CapacityReport:
    strategy: str
    placed: int = 0
    steps: list[Step] = field(default_factory=list)
    by_node: list[dict] = field(default_factory=list)
    by_pool: list[dict] = field(default_factory=list)
    stopped_by: str = ""  # "max", "all placed", "no node fits", "error"
    # why copy placed+1 fits nowhere: {"reason", "workload", "pods", "nodes": [{"name", "reason"}]}
    next: dict | None = None
    workloads: list[dict] = field(default_factory=list)  # {"kind", "name", "asked", "placed"}
    error: str = ""
    # Each copy's node and the claims allocated for it (with status.allocation), for checking a plan.
    placements: list[tuple[model.Node, list[model.ResourceClaim]]] = field(default_factory=list, repr=False)
    unplaced: list[model.ResourceClaim] = field(default_factory=list, repr=False)  # the copy that fit nowhere

    def to_dict(self) -> dict:
        return {"strategy": self.strategy, "placed": self.placed, "stoppedBy": self.stopped_by,
                "workloads": self.workloads, "byNode": self.by_node, "byPool": self.by_pool, "next": self.next,
                "error": self.error, "steps": [s.to_dict() for s in self.steps]}


@record(frozen=True)
class ToPlace:
    """What copies are made of: the input's claims (pending ones, claims its pods name, and claims already
    allocated, held as they are), templates and pods; with ``workloads`` (``controllers.PodSet``) each
    workload's copies are its own pods, up to its count."""

    claims: list[model.ResourceClaim]
    templates: list[model.ResourceClaimTemplate]
    pods: list[model.Pod]
    workloads: list[PodSet] | None = None

    @classmethod
    def of(cls, documents: Iterable[Document], workloads: list[PodSet] | None = None) -> ToPlace:
        by_kind: dict[str, list[Any]] = {"ResourceClaim": [], "ResourceClaimTemplate": [], "Pod": []}
        for doc in documents:
            if doc.kind in by_kind:
                by_kind[doc.kind].append(doc.obj)
        return cls(by_kind["ResourceClaim"], by_kind["ResourceClaimTemplate"], by_kind["Pod"], workloads)


@record(frozen=True)
class PlanOptions:
    """How copies are placed: the ``strategy`` (one of ``STRATEGIES``), at most ``max_copies``; ``skip_full``
    False tries every node for every copy instead of skipping nodes known full (the tests compare both)."""

    strategy: str = "first"
    max_copies: int = 100
    skip_full: bool = True


def plan(to_place: ToPlace, cluster: Cluster, gates: FeatureGates,
         options: PlanOptions | None = None) -> CapacityReport:
    """Place copies until one fits nowhere, ``max_copies`` are placed or (with ``workloads``) every workload has
    its count. Raises pods.PodClaimError and AllocatorError (an error that makes the scheduler give up, e.g. an
    unknown class) as ``allocate`` does. The claims already allocated are those of ``to_place`` (a pod may
    name them); ``cluster.allocated`` is not read.

    Allocations only grow while copies are placed, so a copy of a workload cannot fit on a node where an
    earlier copy of the same workload did not: such nodes are not tried again. Only copies whose
    claims are all their own (no shared claim, pending or pinned) and that ask for no extended resource are
    skipped this way, unless ``options.skip_full`` is off."""
    options = options or PlanOptions()
    strategy, max_copies, skip_full = options.strategy, options.max_copies, options.skip_full
    claims, templates, pods, workloads = to_place.claims, to_place.templates, to_place.pods, to_place.workloads
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}: one of {', '.join(STRATEGIES)}")
    report = CapacityReport(strategy)
    claims = copying.deepcopy(claims)  # allocations are written into the claims placed: not the caller's
    allocated = [c for c in claims if c.status.allocation is not None]
    shared = {_key(c): c for c in claims}  # claims named by pods: one object for every copy
    reserved = Counter({_key(c): len(c.status.reserved_for) for c in claims})  # consumers before the first copy
    consumers: Counter = Counter(reserved)
    # The same lists for every copy, their slices grouped by node once (an allocator is prepared per copy).
    slices, nodes = list(cluster.slices), list(cluster.nodes)
    candidates = nodes_to_search(nodes, slices) or [model.Node(metadata=model.ObjectMeta(name=""))]
    local = _node_of_pool(slices)
    plugin_used: dict[str, dict[str, int]] = {}  # node -> extended resource -> what its device plugin gave out
    sets = list(workloads) if workloads else [_whole_input(claims, pods)]
    placed: Counter = Counter()
    used = _in_use(allocated, local)  # grown with each copy, as is ``state``
    state = None  # what the allocated claims hold, gathered by the first copy's allocator
    full_nodes: dict[int, set[str]] = {}  # id(workload) -> names of the nodes where one of its copies did not fit
    # id(workload) -> its candidates not found full, in the strategy's order, kept up to date copy by copy
    # instead of filtering and sorting every node for every copy; ``changed``: nodes whose ``used`` grew.
    orders: dict[int, _NodeOrder] = {}
    changed: list[str] = []
    fixed = Cluster(classes=list(cluster.classes), slices=slices, nodes=nodes, taint_rules=list(cluster.taint_rules),
                    by_node=SlicesByNode.of(slices))
    number = 0
    for pod_set, replica in _sequence(sets):
        if number == max_copies:
            report.stopped_by = "max"
            break
        number += 1
        if workloads:
            work = build_workload(list(shared.values()), templates, [pod_set.copy_pod(replica)])
        else:
            work = _copy(number, claims, templates, pods, shared)
        names = [p.metadata.name for p in work.pods]
        full = [c for c in _claims_of(work) if _key(c) in shared and consumers[_key(c)] >= MAX_CONSUMERS]
        if full:
            report.stopped_by = "no node fits"
            report.next = {"reason": _full_reason(full[0], reserved[_key(full[0])]), "workload": pod_set.label,
                           "pods": names, "nodes": []}
            break
        pinned = [c for c in _claims_of(work) if c.status.allocation is not None]
        reachable = [n for n in candidates if all(_usable_on(c, n) for c in pinned)] if pinned else candidates
        own = skip_full and not any(_key(c) in shared for c in _claims_of(work))
        skipped = full_nodes.setdefault(id(pod_set), set()) if own else set()
        if skip_full and reachable is candidates:  # (the one-by-one path sorts every node for every copy)
            kept = orders.get(id(pod_set))
            if kept is None or kept.skipped != len(skipped):  # full nodes are only ever added
                kept = orders[id(pod_set)] = _NodeOrder(candidates, skipped, strategy, used, len(changed))
            order = kept.order(changed)
        else:
            order = sorted([n for n in reachable if n.metadata.name not in skipped] if skipped else reachable,
                           key=_order(strategy, used))
        # Extended resources backed by DRA: each node gets the copy's generated claims after its own
        # (workload.extended); the device plugin's allocatable shrinks by what earlier copies took.
        with located(copy=number):
            attempt = first_fit(replace(fixed, allocated=list(allocated), state=state), work, gates, order,
                                plugin_used)
        allocator = attempt.allocator
        assert allocator is not None, "first_fit prepares an allocator"
        state = allocator.state
        if own and not attempt.choices:
            skipped.update(o.node.metadata.name for o in attempt.outcomes if not o.allocated and not o.error)
        choice, outcome = attempt.choice, attempt.chosen
        if outcome is None:
            report.stopped_by = "no node fits"
            report.unplaced = work.pending
            report.next = {**_why_not(allocator, candidates, reachable, pinned, work.pending,
                                      attempt.choices),
                           "workload": pod_set.label, "pods": names}
            report.error = report.next.pop("error", "")
            if report.error:
                report.stopped_by = "error"
            break
        granted = choice.claims if choice is not None else work.pending
        results = outcome.results
        assert results is not None, "the node that fits has its claims' allocations"
        for claim, result in zip(granted, results, strict=True):
            claim.status.allocation = result
            allocated.append(claim)
        add_allocated(state, granted, allocator.features.consumable_capacity)
        grown = _in_use(granted, local)
        used.update(grown)
        changed.extend(grown)
        if choice is not None:
            node_used = plugin_used.setdefault(outcome.node_name, {})
            for node_plan in choice.plans:
                for name, count in node_plan.device_plugin.items():
                    node_used[name] = node_used.get(name, 0) + count
        for claim in _claims_of(work):
            consumers[_key(claim)] += 1
        report.placed = number
        placed[id(pod_set)] += 1
        report.placements.append((outcome.node, list(granted)))
        report.steps.append(Step(number, outcome.node_name or None, names, [_granted(c) for c in granted],
                                 workload=pod_set.label))
    else:
        report.stopped_by = "all placed"
    report.workloads = [s.to_dict(placed[id(s)]) for s in sets]
    _tally(report, allocated, slices, local)
    return report


def _whole_input(claims: list[model.ResourceClaim], pods: list[model.Pod]) -> PodSet:
    """The input as one workload repeated as long as copies fit (no count): its pods, or its pending claims."""
    if pods:
        return PodSet("Pod", ", ".join(p.metadata.name for p in pods), pods[0].metadata.namespace, None, pods[0])
    pending = [c for c in claims if c.status.allocation is None]
    return PodSet("ResourceClaim", ", ".join(c.metadata.name for c in pending),
                  pending[0].metadata.namespace if pending else "", None, model.Pod())


def _sequence(sets: list[PodSet]) -> Iterator[tuple[PodSet, int]]:
    """(workload, 0-based replica) for every copy, in placing order: a workload without a count never ends."""
    for pod_set in sets:
        replica = 0
        while pod_set.asked is None or replica < pod_set.asked:
            yield pod_set, replica
            replica += 1


def _full_reason(claim: model.ResourceClaim, before: int) -> str:
    held = f" ({before} of them in its status.reservedFor before the first copy)" if before else ""
    return (f"claim {claim.metadata.name!r} has {MAX_CONSUMERS} consumers{held}, the most status.reservedFor "
            f"may list: the scheduler reports it as in use")


def plan_texts(documents: str, inventory: str, gates: FeatureGates, strategy: str = "first",
               max_copies: int = 100, limits: Limits = DEFAULT) -> tuple[CapacityReport | None, list[Diagnostic]]:
    """``plan`` for the workload in ``documents`` on ``inventory`` (texts), or the errors that stop it.

    Both are read and checked as ``allocate`` checks its input: pending claims, templates and pods as
    created under ``gates``, the inventory and allocated claims as stored; versions the release does not
    serve refused.
    """
    with located(phase="reading"):
        return _plan_texts(documents, inventory, gates, strategy, max_copies, limits)


def _plan_texts(documents: str, inventory: str, gates: FeatureGates, strategy: str, max_copies: int,
                limits: Limits) -> tuple[CapacityReport | None, list[Diagnostic]]:
    read = ReadResult()
    sets: list[PodSet] = []
    for which, text in enumerate((inventory, documents)):
        try:
            result = read_documents(text, limits=limits)
        except DiagnosticError as err:
            return None, list(err.diagnostics)
        errors = read_errors(result, gates)
        if which == 1 and not errors:
            sets, errors = pod_sets(text, result, limits=limits)
        if errors:
            return None, errors
        read.documents.extend(result.documents)
    stored_gates = stored_object_gates(gates.release)
    with located(phase="validating"):
        invalid = [d for d in validate_documents(read, gates, serving=gates, stored_gates=stored_gates)
                   if d.severity == "error"] + template_errors(sets, read.documents, gates, stored_gates)
    if invalid:
        return None, invalid
    read = ReadResult(documents=as_the_scheduler_sees(read.documents, gates))  # created claims as stored
    try:
        with located(phase="placing copies"):
            return plan(ToPlace.of(read.documents, sets or None), Cluster.of(read.documents), gates,
                        PlanOptions(strategy, max_copies)), []
    except (AllocatorError, PodClaimError) as err:  # the scheduler gives up: an unknown class, a missing claim...
        return None, [Diagnostic(field="", type=INVALID, detail=str(err))]


def _key(claim: model.ResourceClaim) -> tuple[str, str]:
    return claim.metadata.namespace, claim.metadata.name


def _copy(number: int, claims: list[model.ResourceClaim], templates: list[model.ResourceClaimTemplate],
          pods: list[model.Pod], shared: dict[tuple[str, str], model.ResourceClaim]) -> Workload:
    """The claims of copy ``number``: its pods renamed, template claims made anew, named claims shared."""
    if pods:
        renamed = [replace(p, metadata=replace(p.metadata, name=f"{p.metadata.name}-{number}")) for p in pods]
        return build_workload(list(shared.values()), templates, renamed)
    own = [replace(copying.deepcopy(c), metadata=replace(c.metadata, name=f"{c.metadata.name}-{number}"))
           for c in claims if c.status.allocation is None]
    return Workload(pending=own)


def _claims_of(work: Workload) -> list[model.ResourceClaim]:
    if not work.pod_claims:
        return list(work.pending)
    seen: dict[int, model.ResourceClaim] = {}
    for pod_claims in work.pod_claims.values():
        for pc in pod_claims:
            seen.setdefault(id(pc.claim), pc.claim)
    return list(seen.values())


def _usable_on(claim: model.ResourceClaim, node: model.Node) -> bool:
    """Whether a pod using this allocated claim may run on ``node`` (the allocation's node selector)."""
    selector = _allocation(claim).node_selector
    return selector is None or node_matches(node, "", False, selector)


def _node_of_pool(slices: Iterable[model.ResourceSlice]) -> dict[tuple[str, str], str]:
    """(driver, pool) -> the node whose own devices they are; pools for several nodes are no node's."""
    return {(s.spec.driver, s.spec.pool.name): s.spec.node_name for s in slices if s.spec.node_name}


def _allocation(claim: model.ResourceClaim) -> model.AllocationResult:
    """The allocation of a claim placed or held (only such claims are asked)."""
    allocation = claim.status.allocation
    assert allocation is not None, "an allocated claim"
    return allocation


def _in_use(allocated: Iterable[model.ResourceClaim], local: dict[tuple[str, str], str]) -> Counter[str]:
    used: Counter[str] = Counter()
    for claim in allocated:
        for r in _allocation(claim).devices.results:
            node = local.get((r.driver, r.pool))
            if node:
                used[node] += 1
    return used


def _order(strategy: str, used: Counter[str]) -> Callable[[model.Node], Any]:
    if strategy == "spread":
        return lambda n: (used[n.metadata.name], n.metadata.name)
    if strategy == "pack":
        return lambda n: (-used[n.metadata.name], n.metadata.name)
    return lambda n: n.metadata.name


class _NodeOrder:
    """The candidates not in ``skipped``, sorted as ``sorted(..., key=_order(strategy, used))`` sorts them,
    kept sorted as ``used`` grows (``order`` is told which nodes' counts changed) instead of sorted again."""

    def __init__(self, candidates: list[model.Node], skipped: set[str], strategy: str, used: Counter[str],
                 seen: int) -> None:
        self.skipped = len(skipped)
        self.key = _order(strategy, used)
        self.nodes = [n for n in candidates if n.metadata.name not in skipped]
        self.keys = [self.key(n) for n in self.nodes]
        self.at: dict[str, list[int]] = {}  # node name -> its indexes in ``nodes``
        for i, n in enumerate(self.nodes):
            self.at.setdefault(n.metadata.name, []).append(i)
        # (key, index): the index breaks ties as a stable sort keeps the candidates' order
        self.sorted = sorted(zip(self.keys, range(len(self.nodes)), strict=True))
        self.seen = seen  # how much of the list of changed nodes is already applied

    def order(self, changed: list[str]) -> list[model.Node]:
        for name in dict.fromkeys(changed[self.seen:]):
            for i in self.at.get(name, ()):
                new = self.key(self.nodes[i])
                if new != self.keys[i]:
                    del self.sorted[bisect.bisect_left(self.sorted, (self.keys[i], i))]
                    bisect.insort(self.sorted, (new, i))
                    self.keys[i] = new
        self.seen = len(changed)
        nodes = self.nodes
        return [nodes[i] for _, i in self.sorted]


def _why_not(allocator: Allocator, candidates: list[model.Node], reachable: list[model.Node],
             pinned: list[model.ResourceClaim], pending: list[model.ResourceClaim],
             choices: Sequence[extended.NodeChoice] = ()) -> dict[str, Any]:
    """Why the next copy fits on no node: each node's reason, as ``allocate`` without ``--node`` gives it."""
    if choices:
        outcomes = extended.allocate_choices(allocator, list(choices))
    else:
        outcomes = allocator.allocate_each(reachable, pending) if reachable else []
    rows = [{"name": o.node_name or None, "reason": o.reason, **({"error": True} if o.error else {})}
            for o in outcomes]
    unreachable = [n for n in candidates if n not in reachable]
    for node in unreachable:
        holder = next(c for c in pinned if not _usable_on(c, node))
        rows.append({"name": node.metadata.name or None,
                     "reason": f"claim {holder.metadata.name!r}, which every copy shares, is allocated on "
                               f"devices this node cannot reach"})
    reasons = Counter(r["reason"] for r in rows)
    summary = (f"no node fits the next copy; most often: {reasons.most_common(1)[0][0]}" if rows
               else "no node fits the next copy")
    return {"reason": summary, "nodes": sorted(rows, key=lambda r: r["name"] or ""),
            "error": node_error(outcomes)}


def _granted(claim: model.ResourceClaim) -> dict[str, Any]:
    results = _allocation(claim).devices.results
    return {"name": claim.metadata.name, "devices": [f"{r.driver}/{r.pool}/{r.device}" for r in results]}


def _tally(report: CapacityReport, allocated: list[model.ResourceClaim], slices: list[model.ResourceSlice],
           local: dict[tuple[str, str], str]) -> None:
    """Per node and per pool: copies placed, devices in use (by any allocated claim) and devices there."""
    totals: Counter = Counter()
    for s in slices:
        totals[(s.spec.driver, s.spec.pool.name)] += len(s.spec.devices)
    used: Counter = Counter()
    for claim in allocated:
        for r in _allocation(claim).devices.results:
            used[(r.driver, r.pool)] += 1  # a device shared by several claims counts once per claim
    report.by_pool = [{"driver": driver, "pool": pool, "node": local.get((driver, pool)),
                       "used": used[(driver, pool)], "total": total}
                      for (driver, pool), total in sorted(totals.items())]
    copies = Counter(s.node for s in report.steps)
    nodes: dict[str | None, dict[str, Any]] = {}  # None: the nameless node of an inventory without nodes
    for row in report.by_pool:
        if row["node"]:
            entry = nodes.setdefault(row["node"], {"name": row["node"], "copies": 0, "used": 0, "total": 0})
            entry["used"] += row["used"]
            entry["total"] += row["total"]
    for name, count in copies.items():
        nodes.setdefault(name, {"name": name, "copies": 0, "used": 0, "total": 0})["copies"] = count
    report.by_node = [nodes[name] for name in sorted(nodes, key=lambda name: name or "")]
