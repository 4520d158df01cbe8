"""Why each device does or does not match each request, as data.

``explain(allocator, node, claims)`` answers, for every request (and every
subrequest of a ``firstAvailable`` list) of the claims being allocated, and
for every device in reach of the node, whether the device could serve the
request and, if not, the FIRST reason, checked in the order upstream's
allocator checks them:

=====================  ====================================================================
``code``               meaning (extra fields of ``Reason``)
=====================  ====================================================================
wrong-node             the slice, or the device's own node selection, does not offer the
                       device to this node (``node``)
pool-outdated          a newer generation of the pool is being published (``pool``)
pool-incomplete        not all slices of the pool's newest generation exist (``pool``)
pool-invalid           the pool is inconsistent, e.g. a device name repeats (``pool``)
allocated              an already allocated claim holds the device
binding-conditions     the device has binding conditions, DRADeviceBindingConditions is off
cel-error              a selector fails at runtime, which aborts allocation (``error``,
                       ``selector``, ``device_class`` when it is a class selector)
class-selector         class selector #``selector`` of ``device_class`` is false
request-selector       request selector #``selector`` is false
capacity               the request's capacity does not fit what the device has left
partitionable-disabled the device consumes counters or uses per-device node selection, and
                       DRAPartitionableDevices is off
counters               the pool's shared counters left are not enough for this device
tainted                a NoSchedule/NoExecute taint is not tolerated (``taint``, with the
                       ``rule`` that added it when a DeviceTaintRule did)
constraint             constraint #``constraint`` (``attribute``) cannot hold: the device
                       lacks the attribute, or no matching device of ``other_request``
                       agrees with it (matchAttribute) or differs from it (distinctAttribute)
=====================  ====================================================================

A device "in reach" is one of the newest generation of its pool whose slice
is either for this node or not tied to a single node; devices of slices
pinned to other nodes are left out. When the claims were allocated,
``chosen`` marks the devices picked for a request and ``taken_by`` names
the request that got a device instead.

Data shape (``to_dict`` gives the same as JSON)::

    Explanation(node, allocated, error, proof, requests=[
        RequestExplanation(claim, request, device_class, mode, count, selected, error, devices=[
            DeviceVerdict(driver, pool, device, slice, matches, chosen, taken_by,
                          reason=Reason(code, message, selector, device_class, constraint,
                                        attribute, other_request, taint, pool, node, error))])])

``proof`` is set when an exact proof (``allocation.proofs``) decided that the
claims cannot fit before searching; ``summary()`` then starts with its message.
"""

from __future__ import annotations

import functools
import re
from collections import Counter

from allocator.allocation.candidates import Candidate, taint_prevents
from allocator.allocation.constraints import (
    MatchAttribute,
    as_value_set,
    lookup_attribute,
    make_constraint,
    scalar_kind,
    values_intersect,
)
from allocator.allocation.counter_choices import (
    MAX_DEVICES_PER_CLAIM,
    Wanted,
    explain_choices,
    shortage_lines,
    without_counters,
)
from allocator.allocation.counters import (
    CounterShortfall,
    ForcedShortfall,
    HeldDevice,
    Shortage,
    ShortDevice,
    Taker,
    allocated_takers,
    consumption,
    shortages,
)
from allocator.allocation.errors import AllocatorError
from allocator.allocation.node_views import slices_in_reach
from allocator.allocation.nodes import NodeSelectorError
from allocator.allocation.pools import DeviceID
from allocator.allocation.requests import ALL, EXACT_COUNT, RequestView, claim_ref, exact_view, sub_view
from allocator.allocation.search import RequestData, Search
from allocator.allocation.taint_rules import taint_source
from allocator.cel.hints import fitted_parts
from allocator.kube import model
from allocator.reading.records import asdict, field, record


@record(frozen=True)
class Reason:
    code: str
    message: str
    selector: int | None = None
    device_class: str | None = None
    constraint: int | None = None
    attribute: str | None = None
    other_request: str | None = None
    taint: dict | None = None
    pool: str | None = None
    node: str | None = None
    error: str | None = None
    # For a false selector: the parts of its expression that decided, with the values they read
    # (``allocator.cel.explain.Part.to_dict``); the message ends with their summaries.
    parts: list | None = None
    short: str | None = None  # the message without the parts' summaries


@record
class DeviceVerdict:
    driver: str
    pool: str
    device: str
    slice: str
    matches: bool
    chosen: bool = False
    taken_by: str | None = None
    reason: Reason | None = None


@record
class RequestExplanation:
    claim: str
    request: str  # "request" or "request/subrequest"
    device_class: str
    mode: str
    count: int
    selected: bool | None = None  # for subrequests: whether the allocation chose this one
    error: str | None = None  # the request cannot be considered at all (unknown class...)
    devices: list[DeviceVerdict] = field(default_factory=list)

    @property
    def matching(self) -> int:
        return sum(d.matches for d in self.devices)


@record
class Explanation:
    node: str
    allocated: bool
    error: str | None = None
    requests: list[RequestExplanation] = field(default_factory=list)
    # When a proof decided "no" without searching: ``proofs.Proof.to_dict()`` (code, message, numbers, names).
    proof: dict | None = None
    # When requests run out of shared counters beside the devices other requests must take
    # (``_Explainer.combination``): per such request, the numbers and a ``message`` (``counters.CounterShortfall``).
    counters: list[CounterShortfall] = field(default_factory=list)

    def to_dict(self) -> dict:
        out = asdict(self)
        out["counters"] = [c.to_dict() for c in self.counters]  # as the report's JSON has them
        return out

    def summary(self, proof_line: str | None = None) -> list[str]:
        """One line per request that cannot be satisfied on its own, or why the whole set fails.

        ``proof_line`` stands for the proof's message where it is shown (``Proof.text``, to render the
        summary for other nodes)."""
        if self.error:
            return [self.error]
        # A request with too few devices has its own line with the reasons per device; other proofs come first.
        proof = self.proof if self.proof and self.proof["code"] != "too-few-devices" else None
        lines = [proof["message"] if proof_line is None else proof_line] if proof else []
        for r in self.requests:
            if r.selected is False and self.allocated:
                continue
            line = _request_line(r)
            if line and not (proof and proof["request"] and line.startswith(
                    f"claim {proof['claim']}, request {proof['request']}:")):
                lines.append(line)
        if not lines and not self.allocated and self.counters:
            lines.extend(c.message for c in self.counters)
        if not lines and not self.allocated:  # a proof's own line already says why
            lines.append("every request has enough matching devices on its own, but no combination satisfies "
                         "all requests, claims and constraints together")
        return lines


_ON_DEVICE = re.compile(r" on device [^:\s]+")


def _with_parts(message: str, parts: list[dict]) -> str:
    """"request selector #0 is false: `memory >= ...` is false (memory = 80Gi)"."""
    if not parts:
        return message
    return message + ": " + "; ".join(p["summary"] for p in parts)


def _request_line(r: RequestExplanation) -> str:
    where = f"claim {r.claim}, request {r.request}"
    if r.error:
        return f"{where}: {r.error}"
    needed = 1 if r.mode == ALL else r.count
    if r.matching >= needed:
        return ""
    counts: dict[str, int] = {}
    for d in r.devices:
        if d.reason:
            counts[d.reason.message] = counts.get(d.reason.message, 0) + 1
    why = "; ".join(f"{n} x {msg}" for msg, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    want = "at least one device (allocationMode All)" if r.mode == ALL else f"{r.count} device(s)"
    if not r.devices:
        return f"{where}: needs {want}, but no device is in reach of the node"
    return f"{where}: needs {want}, {r.matching} of {len(r.devices)} in reach match" + (f" ({why})" if why else "")


def explain(allocator, node: model.Node, claims: list[model.ResourceClaim], search: Search | None = None) -> Explanation:
    """Explain ``claims`` on ``node`` against the prepared ``allocator`` (see the module docstring).

    Pass the ``Search`` of an allocation that ran to mark the chosen devices;
    without it the allocation runs here first.
    """
    error = None
    if search is None:
        search = Search(allocator, node, list(claims))
        try:
            search.run()
        except AllocatorError as err:
            error = str(err)
    explainer = _Explainer(allocator, search, node)
    out = Explanation(node=node.metadata.name, allocated=search.found, error=error,
                      proof=search.proof.to_dict() if search.proof is not None and error is None else None)
    for ci, claim in enumerate(search.claims):
        out.requests.extend(explainer.claim(ci, claim))
    if not search.found and error is None and out.proof is None:
        out.counters = explainer.combination()
    return out


class _Explainer:
    def __init__(self, allocator, search: Search, node: model.Node):
        self.a = allocator
        self.search = search
        self.node = node
        if not search.pools:
            try:  # the search may have stopped before gathering pools
                search.gather()
            except AllocatorError:
                search.pools = []
        self.pools = {(p.driver, p.name): p for p in search.pools}
        self.reach = self._devices_in_reach()
        # Per device in reach, what does not depend on the request: the candidate, or why it is out.
        self.in_reach = [self._slot(s, device, relevant) for s, device, relevant in self.reach]
        self.chosen: dict[DeviceID, list[tuple[int, str]]] = {}
        self.seen: list[tuple[int, str, RequestView, list]] = []  # (claim index, claim, request, verdicts)
        self._takers: dict[tuple[str, str], dict] = {}  # (driver, pool) -> allocated devices per counter
        if search.found:
            for ci, picked in enumerate(search.results):
                for p in picked:
                    self.chosen.setdefault(p.candidate.id, []).append((ci, p.request.full_name))

    def _devices_in_reach(self) -> list[tuple[model.ResourceSlice, model.Device, bool]]:
        """(slice, device, slice offers devices to the node) for the newest generation of every pool."""
        return [(s, d, relevant) for s, relevant in slices_in_reach(self.a, self.node) for d in s.spec.devices]

    def _slot(self, s: model.ResourceSlice, device: model.Device, relevant: bool) -> tuple:
        """(device id, slice, candidate, reason it is out for every request or None)."""
        device_id = DeviceID(s.spec.driver, s.spec.pool.name, device.name)
        cand = Candidate(device_id, device, s, self.pools.get((s.spec.driver, s.spec.pool.name)))
        return device_id, s, cand, self._pool_reason(cand, relevant)

    def claim(self, ci: int, claim: model.ResourceClaim) -> list[RequestExplanation]:
        out = []
        ref = claim_ref(claim)
        # request full name -> (request, devices passing the per-device checks)
        usable: dict[str, tuple[RequestView, list[Candidate]]] = {}
        pending: list[tuple[RequestExplanation, RequestView, RequestData | None, list]] = []
        for ri, request in enumerate(claim.spec.devices.requests):
            if request.first_available:
                parent = exact_view(request)
                chosen_sub = None
                data0 = self.search.request_data.get((ci, ri, 0))
                if self.search.found and data0 is not None:
                    chosen_sub = data0.selected_sub
                views = [(si, sub_view(request, sub), parent) for si, sub in enumerate(request.first_available)]
            else:
                chosen_sub = None
                views = [(0, exact_view(request), None)]
            for si, view, parent in views:
                selected = None if parent is None else (chosen_sub == si if chosen_sub is not None else None)
                rex = RequestExplanation(claim=ref, request=view.full_name, device_class=view.class_name,
                                         mode=view.mode, count=view.count, selected=selected)
                out.append(rex)
                data = self._request_data(ci, ri, si, view, parent, rex)
                cands = []
                if data is not None:
                    for slot in self.in_reach:
                        verdict, cand = self._device(ci, (ci, ri, si), data, slot)
                        rex.devices.append(verdict)
                        if cand is not None:
                            cands.append((verdict, cand))
                usable[view.full_name] = (view, [c for _, c in cands])
                pending.append((rex, view, data, cands))
        self._constraints(ci, claim, usable, pending)
        self.seen.extend((ci, ref, view, cands) for _rex, view, _data, cands in pending)
        return out

    def _request_data(self, ci, ri, si, view: RequestView, parent, rex: RequestExplanation) -> RequestData | None:
        data = self.search.request_data.get((ci, ri, si))
        if data is not None:
            return data
        if not view.class_name:
            rex.error = "no device class name"
            return None
        device_class = self.a.classes.get(view.class_name)
        if device_class is None:
            rex.error = f"device class {view.class_name} does not exist"
            return None
        return RequestData(request=view, parent=parent, device_class=device_class)

    def _device(self, ci, key, data: RequestData, slot: tuple) -> tuple[DeviceVerdict, Candidate | None]:
        device_id, s, cand, out = slot
        reason = out if out is not None else self._first_reason(key, data, cand)
        verdict = DeviceVerdict(driver=device_id.driver, pool=device_id.pool, device=device_id.device,
                                slice=s.metadata.name, matches=reason is None, reason=reason)
        holders = self.chosen.get(device_id)
        if holders:
            for holder_ci, name in holders:
                if holder_ci == ci and name == data.request.full_name:
                    verdict.chosen = True
                elif verdict.taken_by is None:
                    verdict.taken_by = f"{claim_ref(self.search.claims[holder_ci])}/{name}"
        return verdict, (cand if reason is None else None)

    def _pool_reason(self, cand: Candidate, relevant: bool) -> Reason | None:
        """The first reason that does not depend on the request: the node, the pool, the slice."""
        features, pool = self.search.features, cand.pool
        node = self.node.metadata.name
        if not relevant:
            return Reason("wrong-node", f"not available on node {node}", node=node)
        if pool is None:
            if not features.partitionable_devices and (
                    cand.slice.spec.per_device_node_selection is not None or cand.slice.spec.shared_counters):
                what = "per-device node selection" if cand.slice.spec.per_device_node_selection is not None \
                    else "a slice with shared counters"
                return Reason("partitionable-disabled", f"{what} needs DRAPartitionableDevices")
            pool_id = f"{cand.id.driver}/{cand.id.pool}"
            return Reason("pool-outdated", f"pool {pool_id} is being replaced by a newer generation", pool=pool_id)
        if pool.incomplete and self.a.rules.skips_unusable_pools:
            return Reason("pool-incomplete", f"pool {pool.id} is incomplete (slices missing)", pool=pool.id)
        if pool.invalid:
            return Reason("pool-invalid", f"pool {pool.id} is invalid: {pool.invalid_reason}", pool=pool.id)
        if not any(s is cand.slice for s in pool.slices):
            return Reason("wrong-node", f"not available on node {node}", node=node)
        return None

    def _first_reason(self, key, data: RequestData, cand: Candidate) -> Reason | None:
        """The first reason that depends on the request (after ``_pool_reason`` found none)."""
        search, features, request = self.search, self.search.features, data.request
        pool, device = cand.pool, cand.device
        node = self.node.metadata.name
        if not request.admin_access and cand.id in self.a.state.devices:
            return Reason("allocated", "already allocated to another claim")
        if not features.device_binding_and_status and device.binding_conditions:
            return Reason("binding-conditions", "has binding conditions, but DRADeviceBindingConditions is off")
        try:
            what, index = search.selector_verdict(key, data, cand)
        except (AllocatorError, NodeSelectorError) as err:
            expression = getattr(err, "expression", None)
            parts = self._selector_parts(expression, cand, failed=True) if expression is not None else None
            # The device is named by the row already: without it, the same error groups across devices.
            return Reason("cel-error", _ON_DEVICE.sub("", str(err)), error=str(err), parts=parts)
        if what == "class":
            name = data.device_class.metadata.name
            selector = data.device_class.spec.selectors[index]
            parts = self._selector_parts(selector.cel.expression if selector.cel else "", cand)
            short = f"selector #{index} of class {name} is false"
            return Reason("class-selector", _with_parts(short, parts), selector=index, device_class=name,
                          parts=parts, short=short)
        if what == "request":
            parts = self._selector_parts(request.expressions[index], cand)
            short = f"request selector #{index} is false"
            return Reason("request-selector", _with_parts(short, parts), selector=index, parts=parts, short=short)
        if what == "node":
            return Reason("wrong-node", f"the device is not available on node {node}", node=node)
        if features.consumable_capacity and not search.capacity_fits(request, cand):
            return Reason("capacity", "not enough capacity left for the request")
        if not features.partitionable_devices and device.consumes_counters:
            return Reason("partitionable-disabled", "consumes counters, but DRAPartitionableDevices is off")
        short = self._counter_shortages(cand) if device.consumes_counters else None
        if short:
            more = f" (and {len(short) - 1} more counters)" if len(short) > 1 else ""
            message = f"not enough shared counters left in pool {pool.id}: {short[0].summary()}{more}"
            return Reason("counters", message, pool=pool.id, parts=[x.to_dict() for x in short],
                          short=f"not enough shared counters left in pool {pool.id}")
        if features.device_taints:
            taint = taint_prevents(device, request)
            if taint is not None:
                rule = taint_source(taint)
                source = f" from DeviceTaintRule {rule}" if rule else ""
                described = {"key": taint.key, "value": taint.value, "effect": taint.effect}
                if rule:
                    described["rule"] = rule
                return Reason("tainted", f"taint {taint.key}={taint.value}:{taint.effect}{source} is not tolerated",
                              taint=described)
        return None

    def _selector_parts(self, expression: str, cand: Candidate, failed: bool = False) -> list[dict]:
        """The parts that decided (``failed``: the selector failed, it was not just false), hints fitted."""
        multi = not self.search.variant.is_stable and bool(cand.device.allow_multiple_allocations)
        parts = self.a.selectors.explain(expression, cand.id.driver, cand.device, multi)
        if not parts:
            return parts
        return fitted_parts(expression, parts, self._published, _version_check(cand.id.driver, cand.device),
                            selector_failed=failed)

    @functools.cached_property
    def _published(self) -> dict[str, dict[str, set[str]]]:
        """"attributes"/"capacity" -> domain -> the names the devices in reach publish there (for hints)."""
        out: dict[str, dict[str, set[str]]] = {"attributes": {}, "capacity": {}}
        for s, device, _ in self.reach:
            for what, names in (("attributes", device.attributes), ("capacity", device.capacity)):
                for name in names:
                    domain, ident = _qualified(name, s.spec.driver)
                    out[what].setdefault(domain, set()).add(ident)
        return out

    def _counter_shortages(self, cand: Candidate) -> list[Shortage]:
        """The counters of the pool left after allocated claims that cannot cover the device, with the numbers."""
        search = self.search
        scope = search.counter_scope(cand)
        return shortages(cand.device, scope, search.available_counters(scope), self._allocated_takers(scope))

    def _allocated_takers(self, pool) -> dict:
        found = self._takers.get((pool.driver, pool.counters_key))
        if found is None:
            allocated = self.search.counted_allocated()
            found = self._takers[(pool.driver, pool.counters_key)] = allocated_takers(pool, allocated, self.a.state.holders)
        return found

    def combination(self) -> list[CounterShortfall]:
        """When the claims do not fit: requests that run out of shared counters, with the numbers; [] when
        counters are not shown to be the cause.

        Counters are blamed only when, without them, the requests would get distinct matching devices
        (``counter_choices.without_counters``), and only for claims whose every request that explanation
        models (``_wanted``). Then first the devices other requests must take (``_forced_combination``),
        else every choice the requests have (``counter_choices.explain_choices``).
        """
        wanted = self._wanted()
        if not wanted or not any(c.device.consumes_counters for w in wanted for c in w.matching):
            return []
        if without_counters(wanted) is None:
            return []  # the devices run out whatever the counters: not a matter of counters
        forced = self._forced_combination()
        if forced:
            return forced
        found = explain_choices(wanted, self.search.available_counters, self._allocated_takers)
        return [found] if found else []

    def _wanted(self) -> list[Wanted] | None:
        """Every request with its matching devices, or None when a request, claim or device is of a kind the
        counter explanations do not model (subrequests, All, admin access, constraints, shared devices,
        claims over 32 devices)."""
        search = self.search
        wanted = []
        per_claim: dict[int, int] = {}
        for ci, ref, view, cands in self.seen:
            if view.parent or view.mode != EXACT_COUNT or view.admin_access or view.count < 1:
                return None
            if search.claims[ci].spec.devices.constraints:
                return None
            matching = [c for v, c in cands if v.matches]
            if search.features.consumable_capacity and any(c.device.allow_multiple_allocations for c in matching):
                return None
            wanted.append(Wanted(ci, ref, view, matching))
            per_claim[ci] = per_claim.get(ci, 0) + view.count
        if any(n > MAX_DEVICES_PER_CLAIM for n in per_claim.values()):
            return None
        return wanted

    def _forced_combination(self) -> list[dict]:
        """When the claims do not fit: requests that run out of shared counters once the devices other requests
        must take (their only matching devices) are taken; [] when that is not what stops them.

        Sound whatever the search did: a request with exactly as many matching devices as it needs gets all of
        them in any allocation, so what they consume is gone for every other request.
        """
        multi = self.search.features.consumable_capacity
        simple = []
        for ci, ref, view, cands in self.seen:
            if view.parent or view.mode != EXACT_COUNT or view.admin_access or view.count < 1:
                continue
            matching = [c for v, c in cands if v.matches]
            if multi and any(c.device.allow_multiple_allocations for c in matching):
                return []
            simple.append((ci, ref, view, matching))
        if any(len(matching) < view.count for _, _, view, matching in simple):
            return []  # a request short of devices on its own: its own line says why
        forced: dict[DeviceID, tuple] = {}
        for ci, ref, view, matching in simple:
            if len(matching) == view.count:
                for c in matching:
                    if c.id in forced:
                        return []  # two requests need the same device: not a matter of counters
                    forced[c.id] = (ci, ref, view, c)
        taken: dict[str, dict] = {}  # pool name -> (counter set, counter) -> what forced devices consume
        grant: dict[str, dict] = {}  # pool name -> (counter set, counter) -> [(forced entry, amount)]
        for entry in forced.values():
            c = entry[3]
            if c.pool is None:
                continue
            where = self.search.counter_scope(c).counters_key
            for key, q in consumption(c.device).items():
                pool_taken = taken.setdefault(where, {})
                pool_taken[key] = pool_taken[key] + q if key in pool_taken else q
                if not q.is_zero:
                    grant.setdefault(where, {}).setdefault(key, []).append((entry, q))
        if not grant:
            return []
        out = []
        for ci, ref, view, matching in simple:
            if len(matching) == view.count:
                continue
            fitting, short = 0, []
            for c in matching:
                if c.id in forced:
                    continue
                found = []
                scope = self.search.counter_scope(c) if c.pool is not None else None
                if scope is not None and scope.counters_key in taken:
                    takers = self._with_grant(scope, grant.get(scope.counters_key, {}), ci)
                    found = shortages(c.device, scope, self.search.available_counters(scope), takers,
                                      taken[scope.counters_key])
                if found:
                    short.append((c, found))
                else:
                    fitting += 1
            if fitting >= view.count or not short:
                continue
            out.append(_combination_entry(ci, ref, view, len(matching), fitting, short, forced))
        return out

    def _with_grant(self, pool, grant: dict, ci: int) -> dict:
        """The pool's takers: allocated claims' devices, then the devices the claims must take (named for claim ci)."""
        takers = {key: list(found) for key, found in self._allocated_takers(pool).items()}
        for key, entries in grant.items():
            for (fci, fref, fview, c), q in entries:
                takers.setdefault(key, []).append(Taker(c.id.device, _holder(fci, fref, fview, ci), str(q), False))
        return takers

    def _constraints(self, ci, claim, usable: dict[str, tuple[RequestView, list[Candidate]]], pending) -> None:
        features = self.search.features
        constraints = [make_constraint(c, features.list_type_attributes, distinct=not self.search.variant.is_stable,
                                       per_device=self.search.allocator.rules.constraints_per_device,
                                       by_identity=self.search.allocator.rules.distinct_compares_pointers)
                       for c in claim.spec.devices.constraints]
        if not any(c is not None for c in constraints):
            return
        tallies: dict = {}  # the other requests' devices, counted once per attribute for every candidate
        for _rex, view, _data, cands in pending:
            if not cands:
                continue
            base, sub = (view.parent, view.name) if view.parent else (view.name, "")
            # What does not depend on the candidate is worked out once per request and constraint.
            checks = [_ConstraintCheck(index, constraint, view, usable, tallies)
                      for index, constraint in enumerate(constraints)
                      if constraint is not None and constraint.applies_to(base, sub)]
            if not checks:
                continue
            for verdict, cand in cands:
                for check in checks:
                    reason = check.reason(cand)
                    if reason is not None:
                        verdict.reason, verdict.matches = reason, False
                        break


def _holder(ci: int, ref: str, view: RequestView, for_ci: int) -> str:
    return f"request {view.full_name}" if ci == for_ci else f"claim {ref}, request {view.full_name}"


def _devices(n: int) -> str:
    return f"{n} device" if n == 1 else f"{n} devices"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _combination_entry(ci: int, ref: str, view: RequestView, matching: int, fitting: int,
                       short: list[tuple[Candidate, list[Shortage]]], forced: dict) -> ForcedShortfall:
    """One request that runs out of counters beside the devices others must take: numbers and one line."""
    takers: dict[tuple, list[str]] = {}  # (claim index, request) -> who, then the devices it must take
    for fci, fref, fview, c in forced.values():
        takers.setdefault((fci, fview.full_name), [_holder(fci, fref, fview, ci)]).append(c.id.device)
    must = "; ".join(f"{who} takes {_names(devices)}" for who, *devices in takers.values())
    parts = shortage_lines(short)  # per counter that stops a device first: what is left, who took it
    where = f"claim {ref}, request {view.full_name}"
    fit = "none fits" if not fitting else f"only {fitting} fit"
    whose = "its" if len(takers) == 1 else "each its"
    message = (f"{where}: needs {_devices(view.count)}, but of the {_devices(matching)} that match it {fit} the "
               f"shared counters left once {must} ({whose} only matching devices): " + "; ".join(parts))
    return ForcedShortfall(
        claim=ref, request=view.full_name, needed=view.count, matching=matching, fitting=fitting,
        forced=[HeldDevice(device=c.id.device, claim=fref, request=fview.full_name)
                for _fci, fref, fview, c in forced.values()],
        devices=[ShortDevice(driver=c.id.driver, pool=c.id.pool, device=c.id.device, shortages=list(found))
                 for c, found in short],
        message=message)


class _Tally:
    """The devices of one request under one attribute: their attributes, and how many have each scalar value."""

    __slots__ = ("attrs", "by_id", "values", "present")

    def __init__(self, others: list[Candidate], attribute: str):
        self.attrs = [(c.id, lookup_attribute(c.device, c.id.driver, attribute)) for c in others]
        self.by_id: dict = {}
        self.values: Counter = Counter()
        self.present = 0
        for cid, attr in self.attrs:
            self.by_id.setdefault(cid, []).append(attr)
            if attr is not None:
                self.present += 1
                for kind in _SCALAR_KINDS:
                    value = getattr(attr, kind)
                    if value is not None:
                        self.values[kind, value] += 1

    def agreeing(self, attr, own_id, match: bool, list_values: bool) -> int:
        """How many devices other than ``own_id`` agree with ``attr``: ``_agrees`` counted, without a pass per device."""
        if list_values:
            return sum(1 for cid, theirs in self.attrs if cid != own_id and _agrees(attr, theirs, match, True))
        kind = scalar_kind(attr)
        return self.agreeing_scalar(kind, None if kind is None else getattr(attr, kind), own_id, match)

    def agreeing_scalar(self, kind: str | None, mine, own_id, match: bool) -> int:
        """``agreeing`` for a scalar attribute whose value ``mine`` is of ``kind`` (None: it has none)."""
        own = self.by_id.get(own_id)
        if kind is None:
            same = own_same = 0
        else:
            same = self.values[kind, mine]
            own_same = 0 if own is None else sum(1 for a in own if a is not None and getattr(a, kind) is not None
                                                 and getattr(a, kind) == mine)
        if match:
            return same - own_same
        own_present = 0 if own is None else sum(1 for a in own if a is not None)
        return (self.present - own_present) - (same - own_same)


_SCALAR_KINDS = ("string", "int", "bool", "version")
_NO_VALUE = object()  # equal to no attribute value


class _ConstraintCheck:
    """Whether the other requests under one constraint can agree with a device of one request (first order only).

    For every other request (the alternatives of a ``firstAvailable`` request
    as one group), some device must share the device's value (matchAttribute)
    or differ from it (distinctAttribute) often enough. A group with an
    alternative that the constraint does not bind, or that can never lack
    devices, is always satisfied and is left out up front.
    """

    __slots__ = ("index", "constraint", "match", "groups")

    def __init__(self, index: int, constraint, view: RequestView, usable, tallies: dict):
        self.index = index
        self.constraint = constraint
        self.match = isinstance(constraint, MatchAttribute)
        own_base = view.parent or view.name
        by_base: dict[str, list[tuple[RequestView, list[Candidate]]]] = {}
        for other_view, others in usable.values():
            other_base = other_view.parent or other_view.name
            if other_base == own_base and other_view.full_name != view.full_name:
                continue  # alternatives of one request are never allocated together
            by_base.setdefault(other_base, []).append((other_view, others))
        self.groups = []
        for alternatives in by_base.values():
            group = self._group(alternatives, view, tallies)
            if group is not None:
                self.groups.append(group)

    def _group(self, alternatives, view: RequestView, tallies: dict) -> list | None:
        """(request, devices, tally, wanted or None when it depends on the device) per alternative;
        None when one alternative is always satisfied."""
        constraint = self.constraint
        group = []
        for other_view, others in alternatives:
            base, sub = (other_view.parent, other_view.name) if other_view.parent else (other_view.name, "")
            if not constraint.applies_to(base, sub) or not others:
                return None
            wanted = None
            if other_view.mode != ALL:
                wanted = other_view.count - (1 if other_view.full_name == view.full_name else 0)
                if wanted <= 0:
                    return None
            tally = tallies.get((id(others), constraint.attribute))
            if tally is None:
                tally = tallies[id(others), constraint.attribute] = _Tally(others, constraint.attribute)
            group.append((other_view.full_name, others, tally, wanted))
        return group

    def reason(self, cand: Candidate) -> Reason | None:
        constraint, index = self.constraint, self.index
        attr = lookup_attribute(cand.device, cand.id.driver, constraint.attribute)
        if attr is None:
            return Reason("constraint", f"{self._label()}: the device has no such attribute", constraint=index,
                          attribute=constraint.attribute)
        own_id, match, list_values = cand.id, self.match, constraint.list_values
        kind = None if list_values else scalar_kind(attr)
        mine = None if kind is None else getattr(attr, kind)
        if getattr(constraint, "by_identity", False):
            mine = _NO_VALUE  # 1.34 compared pointers: every other device with the attribute differs from it
        for group in self.groups:
            failed = None
            for name, others, tally, wanted in group:
                if wanted is None:  # allocationMode All: every device but this one
                    wanted = len(others) - len(tally.by_id.get(own_id, ()))
                    if wanted <= 0:
                        failed = None
                        break
                if list_values:
                    agreeing = tally.agreeing(attr, own_id, match, True)
                else:
                    agreeing = tally.agreeing_scalar(kind, mine, own_id, match)
                if agreeing >= wanted:
                    failed = None
                    break
                failed = (name, agreeing, wanted)
            if failed is not None:
                other, agreeing, wanted = failed
                how = "share" if match else "differ from"
                return Reason("constraint", f"{self._label()}: this device has {_attribute_text(attr)}; "
                              f"{agreeing} device(s) of request {other} {how} it, {wanted} needed",
                              constraint=index, attribute=constraint.attribute, other_request=other)
        return None

    def _label(self) -> str:
        return f"constraint #{self.index} ({self.constraint.kind} {self.constraint.attribute})"


def _attribute_text(attr: model.DeviceAttribute) -> str:
    """An attribute's value as the user wrote it in the ResourceSlice."""
    for kind in ("ints", "bools", "strings", "versions", "int", "bool", "string", "version"):
        value = getattr(attr, kind)
        if value is not None:
            if kind in ("string", "version"):
                return f'{kind} "{value}"'
            if kind == "bool":
                return f"bool {str(value).lower()}"
            return f"{kind} {value}"
    return "no value"  # pragma: no cover - validation requires one


def _agrees(mine, theirs, match: bool, list_values: bool) -> bool:
    if theirs is None:
        return False
    if list_values:
        common = values_intersect(as_value_set(mine), as_value_set(theirs))
        return common if match else not common
    kind = scalar_kind(mine)
    same = kind is not None and getattr(theirs, kind) is not None and getattr(theirs, kind) == getattr(mine, kind)
    return same if match else not same


def _qualified(name: str, driver: str) -> tuple[str, str]:
    """(domain, id) of an attribute or capacity name; a name without a domain is the driver's."""
    domain, sep, ident = name.partition("/")
    return (domain, ident) if sep else (driver, name)


def _version_check(driver: str, device: model.Device):
    """Whether a read (``guards.Read``) is a version attribute of ``device``."""
    def is_version(read) -> bool:
        where = read.domain
        if where is None or where[0] != "attributes":
            return False
        name = read.name if where[1] == driver else f"{where[1]}/{read.name}"
        attr = device.attributes.get(name) or device.attributes.get(f"{where[1]}/{read.name}")
        return attr is not None and attr.version is not None
    return is_version
