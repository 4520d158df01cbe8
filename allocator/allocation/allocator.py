"""Allocate ResourceClaims the way the Kubernetes scheduler's DRA allocator does.

Entry points:

* ``allocate_claims(claims, classes, slices, nodes, node_name, gates, allocated_claims)``:
  allocate claims together (as for one pod) on one node; returns an
  ``AllocationOutcome`` with one ``model.AllocationResult`` per claim, or
  unsatisfiable with reasons; raises ``AllocatorError`` where the scheduler
  would abort (CEL errors, unknown classes, ...).
* ``search_nodes(...)``: the same on every node of the inventory, in name order.
* ``Allocator``: the inventory prepared once (like upstream's NewAllocator)
  for many ``allocate(node, claims)`` calls, made from small values
  (``allocation.inputs``): ``SearchInputs``, ``SearchLimits``, ``SearchOptions``
  and, as upstream's tests do, ``Forced``.
* ``explain_claims(...)`` / ``Allocator.explain``: why each device does or does
  not match each request, as data (``allocation.explain`` documents it).
* ``Allocator.alternatives``: the other grants the search would reach after
  the scheduler's, in its order (``allocation.alternatives``).

Searches for users (``allocate_claims``, ``search_nodes``, ``explain_claims``
and the engine) use exact proofs of impossibility and memoised failure
(``allocation.proofs``): upstream's answers without walking every combination.
``Allocator`` alone walks upstream's tree step for step unless ``SearchOptions.prove`` is set.

Every search is bounded (``SearchLimits``): at most ``max_steps`` steps (default
``DEFAULT_MAX_STEPS``) and, like the scheduler's DynamicResources Filter when
the DRASchedulerFilterTimeout gate is on, ``filter_timeout`` seconds per node
(default 10). Past either it raises ``SearchLimitError``, an AllocatorError.

The implementation (stable, incubating, experimental) is chosen from the
feature gates as upstream's ``NewAllocator`` does; see ``allocation.features``.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Iterable, Iterator, Sequence

from allocator.allocation import search as search_limits
from allocator.allocation.errors import (
    ANY_NODE,
    NODE_MARK,
    AllocatorError,
    NodeAllocationError,
    SearchLimitError,
)
from allocator.allocation.inputs import (
    DEFAULT,
    DEFAULT_LIMITS,
    DEFAULT_OPTIONS,
    NOT_FORCED,
    Forced,
    SearchInputs,
    SearchLimits,
    SearchOptions,
    SlicesByNode,
)
from allocator.allocation.node_views import NodeViews
from allocator.allocation.nodes import make_node
from allocator.allocation.nodes import search_nodes as nodes_to_search
from allocator.allocation.pools import Pool, PoolError, gather_pools
from allocator.allocation.requests import ViewCache
from allocator.allocation.results import build_results
from allocator.allocation.search import Search
from allocator.allocation.state import gather_allocated_state
from allocator.allocation.switches import choose_variant, from_gates
from allocator.cel.selectors import shared_evaluator
from allocator.kube import model
from allocator.reading import TYPE_CHECKING, deadline
from allocator.reading.records import field, record
from allocator.releases import table as release_table
from allocator.releases.gates import FeatureGates, make_gates
from allocator.releases.rules import ReleaseRules, as_rules

if TYPE_CHECKING:
    from typing import Any

    # Imported where used: explanations and other grants are for what does not fit or is asked for,
    # and a command whose claims fit never loads them (start-up, docs/performance.md).
    from allocator.allocation.alternatives import Alternatives
    from allocator.allocation.explain import Explanation
    from allocator.allocation.proofs import Proof

__all__ = [
    "AllocationOutcome",
    "Allocator",
    "AllocatorError",
    "NodeAllocationError",
    "NodeSearch",
    "Forced",
    "SearchInputs",
    "SearchLimitError",
    "SearchLimits",
    "SearchOptions",
    "SlicesByNode",
    "allocate_claims",
    "explain_claims",
    "node_error",
    "search_nodes",
]


# Whether node searches reuse the answer of a node that looks the same (``Allocator.allocate_every``);
# off only to compare both ways in tests.
SHARE_OUTCOMES = True


@record
class AllocationOutcome:
    """The answer for one node.

    ``results`` holds one AllocationResult per claim (same order) when
    ``allocated``; otherwise ``reason`` says why not, in one line. ``error``
    is set when upstream's Allocate returned an error for this node only
    (``NodeAllocationError``, upstream's ErrFailedAllocationOnNode, e.g.
    "invalid resource pools were encountered"): other nodes may still be
    tried, and when none fits the error is the answer, not "does not fit". Results
    are built when first read (a node search needs them for one node only);
    building them can raise AllocatorError like upstream's Allocate would.
    """

    node: model.Node
    claims: list[model.ResourceClaim]
    allocated: bool
    reason: str = ""
    variant: str = ""
    # How often the search stepped (upstream's NumAllocateOneInvocations).
    steps: int = 0
    explanation: Explanation | None = None
    # What decided "no" without searching (``allocation.proofs.Proof``), when a proof did.
    proof: Proof | None = None
    error: str = ""
    search: Search | None = field(default=None, repr=False, compare=False)
    _results: list[model.AllocationResult] | None = field(default=None, repr=False, compare=False)

    @property
    def node_name(self) -> str:
        return self.node.metadata.name

    @property
    def results(self) -> list[model.AllocationResult] | None:
        if self._results is None and self.allocated and self.search is not None:
            self._results = build_results(self.search)
        return self._results


def scheduler_cel_gates(release: ReleaseRules | str, consumable_capacity: bool,
                        list_type_attributes: bool) -> frozenset[str]:
    """The CEL features the scheduler compiles class and request selectors with (``release``: its rules, or
    its name).

    Its CEL cache knows only these two features. From 1.37 on it compiles in the "stored expressions"
    environment, which declares the newest device type (dyn attributes, allowMultipleAllocations,
    includes()) whatever the gates say (``ReleaseRules.cel_stored_environment``).
    """
    if as_rules(release).cel_stored_environment:
        return frozenset({"DRAConsumableCapacity", "DRAListTypeAttributes"})
    return frozenset(name for name, on in (("DRAConsumableCapacity", consumable_capacity),
                                           ("DRAListTypeAttributes", list_type_attributes)) if on)


def default_filter_timeout(gates: FeatureGates) -> float | None:
    """The scheduler's per-node filter timeout for these gates: 10 s with DRASchedulerFilterTimeout, else none.

    The gate (beta, on by default since 1.34) is not one the playground lets
    users switch; when the gates do not list it, its default in the release does.
    """
    on = gates.values.get("DRASchedulerFilterTimeout")
    if on is None:
        on = release_table.release(gates.release).default("DRASchedulerFilterTimeout")
    return search_limits.FILTER_TIMEOUT if on else None


def newest_generation(slices: Iterable[model.ResourceSlice]) -> dict[tuple[str, str], int]:
    """(driver, pool) -> the highest generation any of ``slices`` of the pool has: only slices of that
    generation make up the pool (upstream's GatherPools drops the older ones)."""
    newest: dict[tuple[str, str], int] = {}
    for s in slices:
        key = (s.spec.driver, s.spec.pool.name)
        newest[key] = max(newest.get(key, s.spec.pool.generation), s.spec.pool.generation)
    return newest


class Allocator:
    """An inventory prepared for allocation (upstream: NewAllocator).

    Reusable for many nodes; caches CEL results and per-pool counters the
    way upstream shares them between Allocate calls.
    """

    def __init__(self, inputs: SearchInputs, gates: FeatureGates | None = None, *,
                 limits: SearchLimits = DEFAULT_LIMITS, options: SearchOptions = DEFAULT_OPTIONS,
                 forced: Forced = NOT_FORCED):
        """The ``inputs`` prepared under ``gates`` (default: Kubernetes 1.37), each search within ``limits``
        (``filter_timeout``'s default: see ``default_filter_timeout``), run as ``options`` say; ``forced``
        switches and implementation replace those the gates choose.

        DeviceTaintRules of the inputs add their taints to the slices as the scheduler's ResourceSlice
        tracker does (``allocation.taint_rules``), when the release's gate is on."""
        gates = gates or make_gates()
        self.prove = options.prove
        self.share_outcomes = SHARE_OUTCOMES if options.share_outcomes is None else options.share_outcomes
        self.max_steps = search_limits.DEFAULT_MAX_STEPS if limits.max_steps is DEFAULT else limits.max_steps
        self.filter_timeout = (default_filter_timeout(gates) if limits.filter_timeout is DEFAULT
                               else limits.filter_timeout)
        self.clock = limits.clock
        # The last search stopped by a limit, so that explaining that node does not search again.
        self._stopped: tuple[model.Node, list[model.ResourceClaim], Search, SearchLimitError] | None = None
        self.features = forced.features if forced.features is not None else from_gates(gates)
        self.variant = forced.variant or choose_variant(self.features)
        self.rules = gates.release_rules
        if not self.features.enabled() <= self.variant.supported.enabled():
            raise AllocatorError(f"internal error: no allocator available for feature set {self.features}")
        self.classes: dict[str, model.DeviceClass] = {}
        for c in inputs.classes:
            self.classes.setdefault(c.metadata.name, c)
        slices = inputs.slices
        self.slices = list(slices)
        # Slices a DeviceTaintRule's CEL compile error kept from the scheduler's view (1.33-1.34), with why.
        self.taint_rule_errors: list[str] = []
        by_node = inputs.by_node
        if by_node is None or by_node.slices is not slices:
            by_node = SlicesByNode.of(self.slices)
        # Read only: slices_near makes a new list for each node.
        self._on_node: dict[str, list[model.ResourceSlice]] = by_node.on_node
        self._shared: list[model.ResourceSlice] = by_node.shared
        state = inputs.state
        if state is None:
            state = gather_allocated_state(inputs.allocated, self.features.consumable_capacity)
        self.state = state
        # The CEL cache gets DRAListTypeAttributes from the gate even where the allocator does not (1.36).
        list_cel = self.features.list_type_attributes or gates.enabled("DRAListTypeAttributes")
        self.selectors = shared_evaluator(scheduler_cel_gates(self.rules, self.features.consumable_capacity,
                                                              list_cel))
        taint_rules = list(inputs.taint_rules)
        if taint_rules and self.features.device_taints and _gate_on(gates, self.rules.taint_rules_gate):
            # only with DeviceTaintRules: most inputs have none (start-up, docs/performance.md)
            from allocator.allocation.taint_rules import apply_taint_rules

            patched = apply_taint_rules(self.slices, taint_rules, self.classes, self.selectors, self.rules)
            self.slices, self.taint_rule_errors = patched.slices, patched.errors
            patched_by_node = SlicesByNode.of(self.slices)
            self._on_node, self._shared = patched_by_node.on_node, patched_by_node.shared
        # Available counters per pool NAME (not driver), shared by all calls, as upstream keeps them.
        self.available_counters: dict[str, dict[Any, Any]] = {}
        self.views = ViewCache()  # claims' requests with API defaults, computed once per claim

    def slices_near(self, node: model.Node) -> list[model.ResourceSlice]:
        """The slices of this node and those not tied to one node (whatever the implementation)."""
        return self._on_node.get(node.metadata.name, []) + self._shared

    @functools.cached_property
    def newest_generation(self) -> dict[tuple[str, str], int]:
        """(driver, pool) -> the highest generation any slice of the pool has."""
        return newest_generation(self.slices)

    def slices_for(self, node: model.Node) -> list[model.ResourceSlice]:
        """The slices GatherPools looks at for a node."""
        if self.variant.is_stable:
            return self.slices
        near = self.slices_near(node)
        if self.rules.node_filters_counter_slices or self.rules.slice_counters:
            return near
        # 1.35-1.36: slices of shared counters reach every node (``ReleaseRules.node_filters_counter_slices``).
        name = node.metadata.name
        return near + [s for s in self.slices if s.spec.shared_counters and s.spec.node_name
                       and s.spec.node_name != name]

    def gather(self, node: model.Node) -> list[Pool]:
        """The pools as this node sees them (upstream: GatherPools); raises AllocatorError."""
        try:
            return gather_pools(self.slices_for(node), node, self.features, self.slices, self.variant, self.rules)
        except PoolError as err:
            raise AllocatorError(f"gather pool information: {err}") from err

    def search(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Search:
        """Run the search and return it (for callers that want its inner state, like explanations)."""
        search = Search(self, node, list(claims))
        search.run()
        return search

    def allocate(self, node: model.Node, claims: Sequence[model.ResourceClaim],
                 explain_failure: bool = True) -> AllocationOutcome:
        """Allocate all claims on ``node``. Raises AllocatorError (not NodeAllocationError, which is an outcome).

        When the claims do not fit, ``reason`` summarises the explanation
        (unless ``explain_failure`` is off) and ``explanation`` holds it.
        """
        claims = list(claims)
        return self._outcome(Search(self, node, claims), explain_failure)

    def _outcome(self, search: Search, explain_failure: bool = True) -> AllocationOutcome:
        with deadline.located(node=search.node.metadata.name or None):
            return self._located_outcome(search, explain_failure)

    def _located_outcome(self, search: Search, explain_failure: bool) -> AllocationOutcome:
        node, claims = search.node, search.claims
        try:
            search.run()
        except NodeAllocationError as err:
            return AllocationOutcome(node=node, claims=claims, allocated=False, reason=str(err), error=str(err),
                                     variant=self.variant.name, steps=search.calls)
        except SearchLimitError as err:
            self._stopped = (node, claims, search, err)
            raise
        if search.found:
            return AllocationOutcome(node=node, claims=claims, allocated=True, search=search,
                                     variant=self.variant.name, steps=search.calls)
        outcome = AllocationOutcome(node=node, claims=claims, allocated=False, reason="cannot allocate all claims",
                                    variant=self.variant.name, steps=search.calls, proof=search.proof)
        if explain_failure:
            from allocator.allocation.explain import explain

            outcome.explanation = explain(self, node, claims, search)
            outcome.reason = "; ".join(outcome.explanation.summary()) or outcome.reason
        return outcome

    def alternatives(self, node: model.Node, claims: Sequence[model.ResourceClaim], limit: int,
                     timeout: float | None) -> Alternatives:
        """Up to ``limit`` distinct grants of the claims on ``node`` in search order (``allocation.alternatives``)."""
        from allocator.allocation.alternatives import list_grants

        return list_grants(self, node, claims, limit, timeout)

    def allocate_each(self, nodes: Iterable[model.Node],
                      claims: Sequence[model.ResourceClaim]) -> list[AllocationOutcome]:
        """All outcomes of ``allocate_every``, as a node search wants them, with Python's cyclic GC paused.

        A search over many nodes creates many short-lived objects while the
        inventory's objects stay alive; without the pause the collector
        rescans the inventory again and again, which made searches over
        thousands of nodes grow faster than linearly.
        """
        paused = gc.isenabled()
        gc.disable()
        try:
            return list(self.allocate_every(nodes, claims))
        finally:
            if paused:
                gc.enable()

    def allocate_every(self, nodes: Iterable[model.Node],
                       claims: Sequence[model.ResourceClaim]) -> Iterator[AllocationOutcome]:
        """``allocate`` on each node in turn, the outcomes as they come (an AllocatorError stops the walk).

        With ``share_outcomes``, a node that looks to the allocation like one
        already tried where the claims did not fit (``allocation.node_views``)
        gets that node's answer for its own name instead of a search of its own.
        Such outcomes carry no ``explanation`` (``explain`` gives it).
        """
        claims, nodes = list(claims), list(nodes)
        # (one node, as on the node a person chose, has nothing to share with)
        views = NodeViews(self, claims) if self.share_outcomes and len(nodes) > 1 else None
        answers: dict[tuple[Any, ...], _SharedAnswer] = {}
        for node in nodes:
            seen = pools = None
            if views is not None:
                try:
                    pools = self.gather(node)
                except AllocatorError:
                    pass  # the search below fails the same way
                else:
                    seen = views.view(node, pools)
                    answer = answers.get(seen[0]) if seen is not None else None
                    if answer is not None:
                        yield answer.for_node(node, claims, self.variant.name)
                        continue
            outcome = self._outcome(Search(self, node, claims, pools))
            if seen is not None:
                answer = _SharedAnswer.of(outcome, seen[1])
                if answer is not None:
                    answers[seen[0]] = answer
            yield outcome

    def explain(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Explanation:
        """Per request and device in reach: matches or the first reason why not (see ``allocation.explain``).

        Right after ``allocate`` hit a search limit for this node and these
        claims, the stopped search is explained instead of running it again.
        """
        from allocator.allocation.explain import explain

        claims = list(claims)
        stopped = self._stopped
        if (stopped is not None and stopped[0] is node and len(stopped[1]) == len(claims)
                and all(a is b for a, b in zip(stopped[1], claims, strict=True))):
            out = explain(self, node, claims, stopped[2])
            out.error = str(stopped[3])
            return out
        return explain(self, node, claims)


@record(frozen=True)
class _SharedAnswer:
    """A node's "does not fit" that other nodes with its view share: reason and proof with NODE_MARK."""

    reason: str
    proof: Proof | None
    steps: int

    @staticmethod
    def of(outcome: AllocationOutcome, names: tuple[str, ...]) -> _SharedAnswer | None:
        """The answer to share, or None when it is not one: the claims fit, an error, or a text that
        names the node, its own pools or slices other than where a proof names the node."""
        explanation, proof = outcome.explanation, outcome.proof
        if outcome.allocated or outcome.error or explanation is None:
            return None
        reason = "; ".join(explanation.summary(proof.text if proof is not None else None)) or outcome.reason
        display = outcome.node_name or ANY_NODE
        if "\x00" in outcome.reason or (proof is not None and "\x00" in proof.message) \
                or reason.replace(NODE_MARK, display) != outcome.reason:
            return None  # the mark would not stand for the node's name alone
        texts = [reason] + ([] if proof is None else [proof.text, *proof.requests, *(
            value for value in (proof.claim, proof.request, proof.attribute, proof.pool, proof.counter,
                                proof.amount_needed, proof.amount_available) if value)])
        if any(name in text for name in names for text in texts):
            return None
        return _SharedAnswer(reason=reason, proof=proof, steps=outcome.steps)

    def for_node(self, node: model.Node, claims: list[model.ResourceClaim], variant: str) -> AllocationOutcome:
        name = node.metadata.name
        return AllocationOutcome(node=node, claims=claims, allocated=False,
                                 reason=self.reason.replace(NODE_MARK, name or ANY_NODE), variant=variant,
                                 steps=self.steps, proof=None if self.proof is None else self.proof.on_node(name))


def _gate_on(gates: FeatureGates, gate: str) -> bool:
    return gate in gates.values and gates.values[gate]


def allocate_claims(claims: Sequence[model.ResourceClaim], inputs: SearchInputs, gates: FeatureGates | None = None,
                    *, nodes: Iterable[model.Node] = (), node_name: str = "") -> AllocationOutcome:
    """Allocate ``claims`` together from ``inputs`` on the node called ``node_name``.

    The node's labels come from ``nodes`` (a bare node when it is not there).
    Raises AllocatorError where the scheduler would give up.
    """
    return _entry_allocator(inputs, gates).allocate(make_node(node_name, nodes), claims)


def explain_claims(claims: Sequence[model.ResourceClaim], inputs: SearchInputs, gates: FeatureGates | None = None,
                   *, nodes: Iterable[model.Node] = (), node_name: str = "") -> Explanation:
    """Why each device in reach of the node does or does not match each request (``allocation.explain``).

    Never raises for allocator errors: those land in ``Explanation.error``
    and, for failing selectors, as ``cel-error`` reasons on the devices.
    """
    return _entry_allocator(inputs, gates).explain(make_node(node_name, nodes), claims)


def _entry_allocator(inputs: SearchInputs, gates: FeatureGates | None) -> Allocator:
    """The allocator of the entry points for users: exact proofs as ``search.PROVE`` says, default limits."""
    return Allocator(inputs, gates, options=SearchOptions(prove=search_limits.PROVE))


@record
class NodeSearch:
    """``outcomes`` per node tried, in order; ``first_fit`` the first that fits, if any."""

    outcomes: list[AllocationOutcome] = field(default_factory=list)

    @property
    def first_fit(self) -> AllocationOutcome | None:
        return next((o for o in self.outcomes if o.allocated), None)

    @property
    def error(self) -> str:
        """When no node fits: the error upstream's Allocate returned on some node, if any (see ``node_error``)."""
        return node_error(self.outcomes)


def node_error(outcomes: Sequence[AllocationOutcome]) -> str:
    """The scheduler's answer when no node fits and Allocate failed with an error on some of them.

    Upstream's Allocate returns "invalid resource pools were encountered" as
    an error that is not fatal for the other nodes: it surfaces only when
    allocation fails on every node. Then it is an error, not "cannot
    allocate": the message, with the nodes where it happened. Empty when a
    node fits or no node failed with an error.
    """
    if any(o.allocated for o in outcomes):
        return ""
    failed = [o for o in outcomes if o.error]
    if not failed:
        return ""
    where = ", ".join(o.node_name or "(no node)" for o in failed)
    messages = list(dict.fromkeys(o.error for o in failed))
    return f"{'; '.join(messages)} (node{'s' if len(failed) > 1 else ''} {where})"


def search_nodes(claims: Sequence[model.ResourceClaim], inputs: SearchInputs, gates: FeatureGates | None = None,
                 *, nodes: Sequence[model.Node] = ()) -> NodeSearch:
    """Try every node of the inventory (see ``nodes.search_nodes``) and report each.

    Without any node in the inventory, one nameless node without labels is
    tried (it reaches only slices for all nodes or matching empty labels).
    Raises AllocatorError on the first node where the scheduler would give up.
    """
    allocator = _entry_allocator(inputs, gates)
    candidates = nodes_to_search(list(nodes), inputs.slices) or [make_node("")]
    return NodeSearch(allocator.allocate_each(candidates, claims))
