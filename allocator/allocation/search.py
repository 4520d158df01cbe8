"""The search: pick devices for every request of every claim, backtracking like upstream.

Claims are taken in order, requests in order, and for each needed device
the pools, slices and devices in the order ``gather_pools`` gives. A
device is tried if it is not in use, matches the class and request
selectors, fits capacity and counters, is not tainted, and keeps every
constraint satisfiable; then the search moves on to the next device and
takes it back when that fails. The first complete solution wins. Requests
with ``firstAvailable`` try their subrequests in order.

``Search.on_solution`` lets a caller see every complete solution in the
search's own order (``allocation.alternatives`` lists the other grants the
scheduler could have made): it is called with all claims allocated, and
answering False makes the search backtrack as if that solution had failed.

This follows ``allocator_{stable,incubating,experimental}.go`` step by step,
including what affects the choice of devices in corner cases (counters a
rejected device keeps consuming, combinations vs permutations within a
request, the 32-results limit).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from allocator.allocation import capacity as cap
from allocator.allocation.candidates import Candidate, taint_prevents
from allocator.allocation.constraints import Constraint, make_constraint
from allocator.allocation.errors import AllocatorError, NodeAllocationError, SearchLimitError
from allocator.allocation.nodes import NodeSelectorError, node_matches
from allocator.allocation.pools import DeviceID, Pool, own_slice_counters
from allocator.allocation.requests import ALL, EXACT_COUNT, RequestView, claim_ref
from allocator.cel.selectors import SelectorRuntimeError
from allocator.kube import model
from allocator.reading import deadline
from allocator.reading.records import field, record

MAX_RESULTS = 32  # resourceapi.AllocationResultsMaxSize

# Bounds on one search (one node, one set of claims); see SearchLimitError.
# Steps are allocateOne invocations; a million take seconds in this port.
DEFAULT_MAX_STEPS = 1_000_000
# The DynamicResources plugin's default filterTimeout, in seconds
# (pkg/scheduler/apis/config: DynamicResourcesFilterTimeoutDefault).
FILTER_TIMEOUT = 10.0
# The clock is read on the first step and then once every so many steps.
CLOCK_EVERY = 1000
# Whether the entry points for users (the engine, the command line, ``allocate_claims``, ``search_nodes``,
# ``explain_claims``) search with exact proofs and memoised failure (``proofs``). ``Allocator`` itself
# defaults to the plain walk, whose steps are upstream's.
PROVE = True
# With proofs, the search first walks plainly; at this step it tries the proofs and starts
# remembering failures (so small searches, most of them, pay nothing for them).
PROVE_AFTER = 256
_SHARE_ID_NAMESPACE = "6f1d2a52-4b8e-4c3a-9a43-0c7b5f3e2d10"  # the uuid5 namespace of derived share ids


class _MaxSizeExceeded(Exception):
    """A claim would get more than MAX_RESULTS devices: backtrack further up."""


class _Stopped(Exception):  # noqa: N818 (a signal, like _MaxSizeExceeded)
    """Up to 1.32: a device of an All request was in use, which ends the whole search with no allocation."""


def _keep() -> None:
    """The undo of a device an All request went on without (1.31): nothing was taken."""


class _Proved(Exception):  # noqa: N818 (a signal, like _MaxSizeExceeded)
    """A proof showed that the search cannot succeed: stop it (every level undoes its devices)."""


@record
class RequestData:
    request: RequestView
    parent: RequestView | None
    device_class: model.DeviceClass | None = None
    num_devices: int = 0
    all_devices: list[Candidate] | None = None  # for allocationMode All
    selected_sub: int = 0  # on the entry of subrequest 0: which subrequest won


@record
class PickedDevice:
    """One device in a claim's (partial) result."""

    request: RequestView
    candidate: Candidate
    admin_access: bool = False
    share_id: str | None = None
    consumed: dict = field(default_factory=dict)


class Search:
    """One Allocate call: the state of the search for one node and a set of claims."""

    def __init__(self, prepared, node: model.Node, claims: list[model.ResourceClaim],
                 pools: list[Pool] | None = None):
        """``pools``: the node's pools when the caller gathered them already (a node search compares
        nodes by them first); else ``prepare`` gathers them."""
        self.allocator = prepared  # allocator.allocation.allocator.Allocator
        self.features = prepared.features
        self.variant = prepared.variant
        self.node = node
        self.claims = claims
        self.refs = [claim_ref(c) for c in claims]  # namespace/name, for messages
        self.pools: list[Pool] = pools if pools is not None else []
        self.gathered = pools is not None
        self.request_data: dict[tuple[int, int, int], RequestData] = {}
        self.constraints: list[list[Constraint]] = []
        self.matches: dict[tuple, bool] = {}
        # Selector verdicts of All requests while the claims are prepared, by the key they were checked under
        # (``_selectable_when_prepared``; before 1.36 not always the request's own).
        self._prepared_matches: dict[tuple, bool] = {}
        self.verdicts: dict[tuple, tuple[str, int]] = {}  # (device id, request key) -> ``selector_verdict``
        self.allocating: dict[DeviceID, set[int]] = {}
        self.allocating_capacity: dict[DeviceID, dict] = {}
        self.consumed_counters: dict[str, dict[str, dict]] = {}
        self._scopes: dict[tuple[str, str, str], Pool] = {}  # counter_scope's one-slice pools (1.33-1.34)
        self.results: list[list[PickedDevice]] = [[] for _ in claims]
        self.calls = 0  # allocateOne invocations, as upstream counts them
        self.found = False
        # Called on every complete solution: True accepts it (the search ends), False backtracks for the next.
        # None accepts the first, as upstream does.
        self.on_solution: Callable[[], bool] | None = None
        self.solutions = 0  # complete solutions reached so far
        # With ``prove`` (see ``proofs``), exact proofs and memoised failure skip parts of the tree;
        # ``proof`` says what decided when a proof answered before the search.
        self.prove: bool = bool(getattr(prepared, "prove", False))
        self.prover = None
        self.proof = None
        self._share_ids = 0
        self._shared_devices: set[DeviceID] | None = None  # devices allocated claims hold shares of
        # Limits (upstream: the Filter's context). None means unbounded.
        self.max_steps: int | None = prepared.max_steps
        self.timeout: float | None = prepared.filter_timeout
        self.clock = prepared.clock
        self._deadline: float | None = None
        self.budget = deadline.current()  # the whole analysis's time budget (allocator.reading.deadline), if any
        self._check_at = 1  # the step at which limits are looked at next

    # ------------------------------------------------------------------ setup

    def gather(self) -> None:
        """The pools as this node sees them (upstream: GatherPools)."""
        self.pools = self.allocator.gather(self.node)
        self.gathered = True
        if not self.allocator.rules.skips_unusable_pools and any(p.invalid for p in self.pools):
            # Before 1.35 reaching an invalid pool is an error: only the search itself can tell whether it
            # gets there, so no proof may answer for it.
            self.prove = False

    def prepare(self) -> None:
        if not self.gathered:
            self.gather()
        for ci, claim in enumerate(self.claims):
            ref = self.refs[ci]
            min_devices = 0
            views = self.allocator.views(claim)
            for ri, request in enumerate(claim.spec.devices.requests):
                subs = request.first_available
                if subs and not self.features.prioritized_list:
                    raise AllocatorError(f"claim {ref}, request {request.name}: has subrequests, "
                                         "but the DRAPrioritizedList feature is disabled")
                if not self.features.consumable_capacity and not self.variant.is_stable:
                    if request.exactly is not None and request.exactly.capacity is not None:
                        raise AllocatorError(f"claim {ref}, request {request.name}: has capacity requests, "
                                             "but the DRAConsumableCapacity feature is disabled")
                    for sub in subs:
                        if sub.capacity is not None:
                            if self.allocator.rules.capacity_refusal_names_request:
                                raise AllocatorError(f"claim {ref}, request {request.name}: has capacity requests, "
                                                     "but the DRAConsumableCapacity feature is disabled")
                            raise AllocatorError(f"claim {ref}, subrequest {sub.name}: has capacity requests, "
                                                 "but the DRAConsumableCapacity feature is disabled")
                view, sub_views = views[ri]
                if subs:
                    fewest = None
                    for si, sub in enumerate(sub_views):
                        # Before 1.36 subrequest si was checked while the key still named subrequest si-1.
                        checked_as = si if self.allocator.rules.subrequest_checked_under_own_key else max(si - 1, 0)
                        data = self._request_data((ci, ri, si), sub, view, checked_as=(ci, ri, checked_as))
                        self.request_data[(ci, ri, si)] = data
                        fewest = data.num_devices if fewest is None else min(fewest, data.num_devices)
                    min_devices += fewest
                else:
                    data = self._request_data((ci, ri, 0), view, None)
                    self.request_data[(ci, ri, 0)] = data
                    min_devices += data.num_devices
            if min_devices > MAX_RESULTS:
                raise AllocatorError(f"claim {ref}: number of requested devices {min_devices} "
                                     f"exceeds the claim limit of {MAX_RESULTS}")
            constraints = []
            for i, c in enumerate(claim.spec.devices.constraints):
                made = make_constraint(c, self.features.list_type_attributes, distinct=not self.variant.is_stable,
                                       per_device=self.allocator.rules.constraints_per_device,
                                       by_identity=self.allocator.rules.distinct_compares_pointers)
                if made is None:
                    raise AllocatorError(f"claim {ref}, constraint #{i}: empty constraint (unsupported constraint type?)")
                constraints.append(made)
            self.constraints.append(constraints)
        rules = self.allocator.rules
        if not rules.subrequest_index_kept and any(
                key[2] > 0 and data.request.mode == ALL for key, data in self.request_data.items()):
            self.prove = False  # the proofs assume an All subrequest gets all its devices, which it may not
                                # before 1.36 (``ReleaseRules.subrequest_index_kept``)
        if rules.stop_is_an_error and any(data.request.mode == ALL for data in self.request_data.values()):
            self.prove = False  # a failure after an All request is 1.31's error, not a "does not fit" to prove
        if (rules.capacity_checked_at_request_index and self.features.consumable_capacity) or (
                rules.all_devices_lack_pool and self._all_devices_take_counters()):
            self.prove = False  # only the search itself can tell whether it reaches the point where 1.34 or
                                # 1.35 crashes (``_capacity_checked``, ``all_devices_lack_pool``)

    def _all_devices_take_counters(self) -> bool:
        """Whether an ``All`` request lists a device whose counters the allocator would check, the one step
        at which 1.35 crashes for such a request (``allocate_device``). Other ``All`` requests cannot crash
        it, so the proofs may answer for them."""
        if not self.features.partitionable_devices:
            return False  # a device that consumes counters is turned down before its counters are read
        return any(data.request.mode == ALL and any(c.device.consumes_counters for c in data.all_devices or ())
                   for data in self.request_data.values())

    def _request_data(self, key, request: RequestView, parent: RequestView | None,
                      checked_as: tuple[int, int, int] | None = None) -> RequestData:
        """``checked_as``: the request key an All request's devices are checked (and remembered) under."""
        ref = self.refs[key[0]]
        data = RequestData(request=request, parent=parent)
        for i, selector in enumerate(request.selectors):
            if selector.cel is None:
                raise AllocatorError(f"claim {ref}, request {request.name}, selector #{i}: "
                                     "CEL expression empty (unsupported selector type?)")
        if not self.features.admin_access and request.has_admin_access:
            raise AllocatorError(f"claim {ref}, request {request.name}: admin access is requested, "
                                 "but the feature is disabled")
        if not request.class_name:
            raise AllocatorError(f"claim {ref}, request {request.name}: missing device class name "
                                 "(unsupported request type?)")
        device_class = self.allocator.classes.get(request.class_name)
        if device_class is None:
            raise AllocatorError(f"claim {ref}, request {request.name}: could not retrieve device class "
                                 f'{request.class_name}: deviceclass.resource.k8s.io "{request.class_name}" not found')
        data.device_class = device_class
        if request.mode == EXACT_COUNT:
            data.num_devices = request.count
        elif request.mode == ALL:
            data.all_devices = []
            for pool in self.pools:
                if pool.incomplete:
                    raise AllocatorError(f"claim {ref}, request {request.name}: asks for all devices, "
                                         f"but resource pool {pool.id} is currently being updated")
                if pool.invalid:
                    raise AllocatorError(f"claim {ref}, request {request.name}: asks for all devices, "
                                         f"but resource pool {pool.id} is currently invalid")
                for s in pool.slices:
                    for device in s.spec.devices:
                        cand = Candidate(DeviceID(s.spec.driver, s.spec.pool.name, device.name), device, s, pool)
                        if not self._selectable_when_prepared(key, checked_as or key, data, cand):
                            continue
                        if self.features.consumable_capacity and not self.capacity_fits(request, cand):
                            continue
                        data.all_devices.append(cand)
            data.num_devices = len(data.all_devices)
        else:
            raise AllocatorError(f"claim {ref}, request {request.name}: unsupported count mode {request.mode}")
        return data

    def _selectable_when_prepared(self, key, checked_as, data: RequestData, cand: Candidate) -> bool:
        """Whether an All request lists ``cand``, remembered under ``checked_as`` while the claims are prepared.

        Upstream remembers selector verdicts per device and request key and forgets them all once the claims
        are prepared. Before 1.36 an All subrequest i>0 is checked under subrequest i-1's key, so where an All
        subrequest i-1 was checked just before, subrequest i takes its verdicts instead of its own selectors'.
        """
        if not self.allocator.rules.all_checks_class_selectors:
            # 1.31: the class is not known yet when an All request's devices are gathered.
            return self._selector_verdict(key, RequestData(request=data.request, parent=data.parent), cand)[0] == ""
        if self.allocator.rules.subrequest_checked_under_own_key:
            return self.selectable(key, data, cand)
        known = self._prepared_matches.get((cand.id, checked_as))
        if known is None:
            known = self._prepared_matches[(cand.id, checked_as)] = self.selectable(key, data, cand)
        return known

    # ------------------------------------------------------------------ checks

    def selectable(self, key, data: RequestData, cand: Candidate) -> bool:
        """Class and request selectors and per-device node selection (remembered per request)."""
        device = cand.device
        if not self.features.device_binding_and_status and device.binding_conditions:
            return False
        match_key = (cand.id, key)
        known = self.matches.get(match_key)
        if known is not None:
            return known
        ok = self.selector_verdict(key, data, cand)[0] == ""
        self.matches[match_key] = ok
        return ok

    def selector_verdict(self, key, data: RequestData, cand: Candidate) -> tuple[str, int]:
        """("", -1) when the device is selectable, else (what said no, selector index).

        What said no: "class" or "request" selector #i, or "node" (per-device node selection).
        """
        memo_key = (cand.id, key)
        found = self.verdicts.get(memo_key)
        if found is None:  # errors raise every time, as upstream's would on every call
            found = self.verdicts[memo_key] = self._selector_verdict(key, data, cand)
        return found

    def _selector_verdict(self, key, data: RequestData, cand: Candidate) -> tuple[str, int]:
        device = cand.device
        multi = not self.variant.is_stable and bool(device.allow_multiple_allocations)
        try:
            if self.budget is None:
                found = self.allocator.selectors.verdict(data.device_class, data.request.expressions, cand.id.driver,
                                                         device, multi, cand.id, self.refs[key[0]])
            else:  # where the search is, should the time budget run out in a selector
                with deadline.located(node=self.node.metadata.name or None, claim=self.refs[key[0]],
                                      request=data.request.full_name, device=str(cand.id)):
                    found = self.allocator.selectors.verdict(data.device_class, data.request.expressions,
                                                             cand.id.driver, device, multi, cand.id,
                                                             self.refs[key[0]])
        except SelectorRuntimeError as err:
            if self.allocator.rules.device_in_cel_errors:
                raise
            raise err.released_before_1_37() from err.__cause__
        if found[0]:
            return found
        if not self.per_device_node_ok(cand):
            return "node", -1
        return "", -1

    def per_device_node_ok(self, cand: Candidate) -> bool:
        if not cand.slice.spec.per_device_node_selection:
            return True
        d = cand.device
        try:
            return node_matches(self.node, d.node_name or "", bool(d.all_nodes), d.node_selector)
        except NodeSelectorError as err:
            raise AllocatorError(str(err)) from err

    def capacity_fits(self, request: RequestView, cand: Candidate) -> bool:
        """CmpRequestOverCapacity: False also when the request names an unknown capacity."""
        try:
            return cap.fits(cand.device, request.capacity, self.allocator.state.capacity.get(cand.id),
                            self.allocating_capacity.get(cand.id))
        except cap.UnknownCapacity:
            return False

    def shared_by_allocated(self, device_id: DeviceID) -> bool:
        """Whether allocated claims hold shares of the device, so that its counters are taken already:
        shares that consumed capacity, and from 1.37 any share (``ReleaseRules.any_share_takes_counters``)."""
        state = self.allocator.state
        if device_id in state.capacity:
            return True
        if not self.allocator.rules.any_share_takes_counters:
            return False
        if self._shared_devices is None:
            self._shared_devices = {device for device, _ in state.shares}
        return device_id in self._shared_devices

    def in_use(self, device_id: DeviceID) -> bool:
        return device_id in self.allocator.state.devices or bool(self.allocating.get(device_id))

    def in_use_by_claim(self, device_id: DeviceID, claim_index: int) -> bool:
        return claim_index in self.allocating.get(device_id, ())

    # ------------------------------------------------------------------ the search

    def allocate_one(self, ci: int, ri: int, si: int, di: int, in_sub: bool, start: tuple[int, int, int]) -> bool:
        """allocateOne: True when everything from here on got allocated.

        Raises _MaxSizeExceeded to make callers backtrack further.
        """
        self.calls += 1
        if self.calls >= self._check_at:
            self._check_limits()
        if ci >= len(self.claims):
            self.solutions += 1
            return True if self.on_solution is None else self.on_solution()
        claim = self.claims[ci]
        if ri >= len(claim.spec.devices.requests):
            try:
                if self.prover is not None:
                    return self.prover.enter_claim(ci + 1)
                return self.allocate_one(ci + 1, 0, 0, 0, False, (0, 0, 0))
            except _MaxSizeExceeded:
                # An earlier claim might choose a subrequest needing fewer devices.
                return False

        key = (ci, ri, si)
        data = self.request_data[key]
        if not in_sub and data.parent is not None:
            all_exceeded = True
            sub = 0
            while (ci, ri, sub) in self.request_data:
                try:
                    done = self.allocate_one(ci, ri, sub, di, True, (0, 0, 0))
                except _MaxSizeExceeded:
                    sub += 1
                    continue
                all_exceeded = False
                if done:
                    data.selected_sub = sub
                    return True
                sub += 1
            if all_exceeded:
                raise _MaxSizeExceeded()
            return False

        request = data.request
        do_all = request.mode == ALL
        if do_all and not data.all_devices and self.allocator.rules.all_needs_a_device:
            return False
        if di >= data.num_devices:
            return self.allocate_one(ci, ri + 1, 0, 0, False, (0, 0, 0))
        if len(self.results[ci]) + data.num_devices - di > MAX_RESULTS:
            raise _MaxSizeExceeded()

        if do_all:
            cand = data.all_devices[di]
            undo = self.allocate_device(ci, key, data, cand, must=True, di=di)
            if undo is None:
                if self.allocator.rules.all_skips_devices_in_use:
                    undo = _keep  # v0.31 goes on without the device in use (``all_skips_devices_in_use``)
                elif not self.allocator.rules.all_in_use_backtracks:
                    raise _Stopped()  # v0.32's errStop: every level undoes its devices on the way out
                else:
                    return False
            # Before 1.36 the next device of an All subrequest is looked for as subrequest 0's
            # (``ReleaseRules.subrequest_index_kept``).
            next_si = si if self.allocator.rules.subrequest_index_kept else 0
            try:
                done = self.allocate_one(ci, ri, next_si, di + 1, in_sub, (0, 0, 0))
            except BaseException:
                undo()
                raise
            if not done and self.allocator.rules.stop_is_an_error:
                undo()
                raise AllocatorError("stop allocation")  # v0.31 returns errStop as Allocate's error: Filter fails
            if not done and self.allocator.rules.all_mode_rolls_back:
                # 1.33 (v0.33) dropped this undo: a device of an "All" request that backtracks stays marked
                # in use and in the constraints until an earlier request's device is given back.
                undo()
            return done

        admin = request.admin_access
        pools = self.pools
        combinations = self.variant.combinations and self.allocator.rules.combinations
        p_start, s_start, d_start = start if combinations else (0, 0, 0)
        for pi in range(p_start, len(pools)):
            pool = pools[pi]
            if pool.invalid:
                if not self.allocator.rules.skips_unusable_pools:
                    raise AllocatorError(f"pool {pool.name} is invalid: {pool.invalid_reason}")
                continue
            if pool.incomplete and self.allocator.rules.skips_unusable_pools:
                continue
            slices = pool.slices
            for sj in range(s_start if pi == p_start else 0, len(slices)):
                s = slices[sj]
                devices = s.spec.devices
                for dj in range(d_start if (pi == p_start and sj == s_start) else 0, len(devices)):
                    device = devices[dj]
                    device_id = DeviceID(pool.driver, pool.name, device.name)
                    if admin:
                        if self.allocator.rules.admin_devices_in_use and self.in_use_by_claim(device_id, ci):
                            continue
                    elif self.in_use(device_id):
                        continue
                    cand = Candidate(device_id, device, s, pool)
                    if not self.selectable(key, data, cand):
                        continue
                    if self.features.consumable_capacity and not self.capacity_fits(request, cand):
                        continue
                    undo = self.allocate_device(ci, key, data, cand, must=False, di=di)
                    if undo is None:
                        continue
                    try:
                        done = self.allocate_one(ci, ri, si, di + 1, in_sub, (pi, sj, dj + 1))
                    except BaseException:
                        undo()
                        raise
                    if done:
                        return True
                    undo()
        return False

    def allocate_device(self, ci: int, key, data: RequestData, cand: Candidate, must: bool, di: int = 0):
        """allocateDevice: take the device if it is usable; returns the undo function or None.

        ``di``: which device of the request this is (0 for its first), which 1.34 used by mistake.
        """
        request = data.request
        features = self.features
        device = cand.device
        multi = features.consumable_capacity and bool(device.allow_multiple_allocations)
        if request.admin_access:
            if not multi and self.allocator.rules.admin_devices_in_use and self.in_use_by_claim(cand.id, ci):
                return None
        elif self.in_use(cand.id):
            return None
        if not features.partitionable_devices and device.consumes_counters:
            return None
        skip_counters = multi and self.allocator.rules.shares_skip_counters and (
            self.shared_by_allocated(cand.id) or cand.id in self.allocating_capacity)
        took = not skip_counters and bool(device.consumes_counters)
        # (1.35's stable implementation supports no feature, so any enabled feature picks one that panics.)
        if took and must and self.allocator.rules.all_devices_lack_pool and self.features.enabled():
            raise AllocatorError(
                f"claim {self.refs[ci]}, request {request.name}: kube-scheduler {self.allocator.rules.release} "
                f"crashes here: its allocator checks the counters of {cand.id}, a device of an allocationMode All "
                "request, without the device's pool, which panics: invalid memory address or nil pointer "
                "dereference (kubernetes/kubernetes#138882, fixed after 1.35.4)")
        if took and not self.take_counters(cand):
            return None
        # Note: counters taken above stay taken when a later check fails in 1.34-1.35; 1.33 counted the
        # devices being allocated instead, so nothing stays taken, and 1.36 gives them back.
        rolls_back = self.allocator.rules.rejected_device_rolls_back
        counted = True  # whether undo gives the counters back
        if took and self.allocator.rules.slice_counters != "device" and not rolls_back:
            took = False
        elif took and request.admin_access and not self.allocator.rules.admin_devices_in_use:
            # 1.33: a device given with admin access is not among the devices being allocated: its counters
            # are checked, not taken. From 1.34 on they are taken like any other device's.
            self.release_counters(cand)
            took = counted = False
        if data.parent is None:
            base, sub = request.name, ""
        else:
            base, sub = data.parent.name, request.name
        if features.device_taints and taint_prevents(device, request):
            if took:
                self.release_counters(cand)
            return None
        constraints = self.constraints[ci]
        for i, constraint in enumerate(constraints):
            if not constraint.add(base, sub, device, cand.id.driver):
                if must:
                    raise AllocatorError(f"claim {self.refs[ci]}, request {request.name}: cannot add "
                                         f"device {cand.id} because a claim constraint would not be satisfied")
                for earlier in constraints[:i]:
                    earlier.remove(base, sub)
                if took:
                    self.release_counters(cand)
                return None

        holders = self.allocating.setdefault(cand.id, set())
        if not multi:
            if self.allocator.rules.admin_devices_in_use or not request.admin_access:
                holders.add(ci)
        consumed: dict = {}
        share_id = None
        shared_before = False
        if features.consumable_capacity:
            if not self.capacity_fits(request, self._capacity_checked(ci, cand, di)):
                if rolls_back:
                    for constraint in constraints:
                        constraint.remove(base, sub)
                    if not multi and (self.allocator.rules.admin_devices_in_use or not request.admin_access):
                        holders.discard(ci)
                    if took:
                        self.release_counters(cand)
                # before 1.36 upstream returns here without undoing the constraints, the mark or the counters
                return None
            if multi:
                consumed = cap.consumption(device, request.capacity)
                share_id = self.new_share_id(ci, cand)
                # An entry, even an empty one, marks the device as shared already (its counters are taken).
                shared_before = cand.id in self.allocating_capacity
                cap.add_into(self.allocating_capacity, cand.id, consumed)
        picked = PickedDevice(request=request, candidate=cand, admin_access=request.admin_access,
                              share_id=share_id, consumed=consumed)
        results = self.results[ci]
        results.append(picked)
        before = len(results) - 1

        def undo():
            for constraint in constraints:
                constraint.remove(base, sub)
            if self.allocator.rules.admin_devices_in_use or not request.admin_access:
                holders.discard(ci)
            if multi and rolls_back:
                # 1.36 on (rollbackDevice): the share's capacity goes, the mark of an earlier share stays,
                # and the counters this share took come back.
                cap.remove_from(self.allocating_capacity, cand.id, consumed)
                if shared_before:
                    self.allocating_capacity.setdefault(cand.id, {})
                if took:
                    self.release_counters(cand)
            elif multi:
                # 1.35: only a share that consumed capacity gives it back; its counters stay taken.
                if consumed:
                    cap.remove_from(self.allocating_capacity, cand.id, consumed)
            elif features.partitionable_devices and device.consumes_counters and counted:
                self.release_counters(cand)
            del results[before:]
        return undo

    def _capacity_checked(self, ci: int, cand: Candidate, di: int) -> Candidate:
        """The device whose capacity allocateDevice checks: the candidate; in 1.34 the device at the request's
        device index in the candidate's slice (``ReleaseRules.capacity_checked_at_request_index``). Past the
        slice's end 1.34's allocator panics, which crashes kube-scheduler (its parallel Filter re-raises
        panics): an error that says so."""
        devices = cand.slice.spec.devices
        if not self.allocator.rules.capacity_checked_at_request_index or (di < len(devices) and devices[di] is cand.device):
            return cand
        if di >= len(devices):
            raise AllocatorError(
                f"claim {self.refs[ci]}: kube-scheduler {self.allocator.rules.release} crashes "
                f"here: with DRAConsumableCapacity its allocator checks the capacity of device {di} of slice "
                f"{cand.slice.metadata.name} for {cand.id}, which panics: index out of range [{di}] with length "
                f"{len(devices)} (kubernetes/kubernetes#133705, fixed in 1.35)")
        other = devices[di]
        return Candidate(DeviceID(cand.id.driver, cand.id.pool, other.name), other, cand.slice, cand.pool)

    def new_share_id(self, ci: int, cand: Candidate) -> str:
        """A share id for one allocation of a shared device.

        Upstream draws a random UID; ours is derived from what is allocated
        so that the same input always gives the same output.
        """
        self._share_ids += 1
        seed = f"{self.node.metadata.name}/{self.refs[ci]}/{cand.id}/{self._share_ids}"
        import uuid  # deferred: it loads platform; only shared devices need it (start-up)

        return str(uuid.uuid5(uuid.UUID(_SHARE_ID_NAMESPACE), seed))

    # ------------------------------------------------------------------ counters

    def counter_scope(self, cand: Candidate) -> Pool:
        """Where the device's counters are kept: its pool, or (1.33-1.34) its own slice, as a pool of one slice."""
        if not self.allocator.rules.slice_counters:
            return cand.pool
        key = (cand.pool.driver, cand.pool.name, cand.slice.metadata.name)
        scope = self._scopes.get(key)
        if scope is None:
            scope = self._scopes[key] = own_slice_counters(cand.pool, cand.slice)
        return scope

    def available_counters(self, pool: Pool) -> dict[str, dict]:
        """What the pool's counter sets offer minus what allocated devices use (cached by pool name)."""
        cache = self.allocator.available_counters
        found = cache.get(pool.counters_key)
        if found is not None:
            return found
        available = {name: {c: cap.quantity(v.value) for c, v in cs.counters.items()}
                     for name, cs in pool.counter_sets.items()}
        allocated = self.counted_allocated()
        for slices in (pool.slices, pool.other_slices):
            for s in slices:
                for device in s.spec.devices:
                    if DeviceID(s.spec.driver, s.spec.pool.name, device.name) not in allocated:
                        continue
                    for consumption in device.consumes_counters:
                        counters = available.get(consumption.counter_set)
                        for name, counter in consumption.counters.items():
                            if counters is not None and name in counters:
                                counters[name] = counters[name] - cap.quantity(counter.value)
        cache[pool.counters_key] = available
        return available

    def counted_allocated(self) -> set[DeviceID]:
        """The allocated devices whose counters count as taken: before 1.36 only those allocated whole (v0.33.x-v0.35.x
        ``AllocatedDevices``), from 1.36 also those allocated claims hold shares of (``ReleaseRules.shares_hold_counters``)."""
        state = self.allocator.state
        if not self.allocator.rules.shares_hold_counters:
            return state.devices
        return state.allocated_for_counters(self.variant)

    def take_counters(self, cand: Candidate) -> bool:
        scope = self.counter_scope(cand)
        available = self.available_counters(scope)
        consumed = self.consumed_counters.setdefault(scope.counters_key, {})
        for consumption in cand.device.consumes_counters:
            counters = consumed.setdefault(consumption.counter_set, {})
            for name, counter in consumption.counters.items():
                q = cap.quantity(counter.value)
                counters[name] = counters[name] + q if name in counters else q
        if self.allocator.rules.slice_counters == "device":
            # v0.33: only the counters the device consumes, each of which its slice must have.
            for consumption in cand.device.consumes_counters:
                have_set = available.get(consumption.counter_set)
                for name in consumption.counters:
                    if have_set is None or name not in have_set \
                            or have_set[name].cmp(consumed[consumption.counter_set][name]) < 0:
                        self.release_counters(cand)
                        return False
            return True
        for set_name, counters in available.items():
            used = consumed.get(set_name, {})
            for name, have in counters.items():
                if name in used and have.cmp(used[name]) < 0:
                    self.release_counters(cand)
                    return False
                if name not in used and have.sign() < 0:
                    self.release_counters(cand)
                    return False
        return True

    def release_counters(self, cand: Candidate) -> None:
        consumed = self.consumed_counters[self.counter_scope(cand).counters_key]
        for consumption in cand.device.consumes_counters:
            counters = consumed.setdefault(consumption.counter_set, {})
            for name, counter in consumption.counters.items():
                q = cap.quantity(counter.value)
                counters[name] = counters[name] - q if name in counters else q.neg()

    # ------------------------------------------------------------------ limits

    def _check_limits(self) -> None:
        """Raise SearchLimitError when the step budget or the deadline is used up; else plan the next check.

        Called on the first step and then only when ``calls`` reaches
        ``_check_at``, so a step costs one comparison; the clock is read on
        the first step and every CLOCK_EVERY steps after.
        """
        steps = self.calls - 1  # steps completed before this one
        name = self.node.metadata.name
        if self.max_steps is not None and steps >= self.max_steps:
            claims = ", ".join(self.refs)
            raise SearchLimitError(
                f"search limit reached after {steps} steps: gave up allocating claim(s) {claims} on node "
                f"{name or '(any)'}: the requests and constraints make the search backtrack through too many "
                "combinations of devices (fewer devices per request or fewer matchAttribute constraints help)",
                limit="steps", steps=steps, node=name)
        next_check = self.max_steps + 1 if self.max_steps is not None else None
        if self._deadline is not None:
            if self.clock() >= self._deadline:
                # The scheduler's words when the DynamicResources Filter times out on a node.
                raise SearchLimitError(f"node {name}: timed out trying to allocate devices",
                                       limit="timeout", steps=steps, node=name)
            clock_at = self.calls + CLOCK_EVERY
            next_check = clock_at if next_check is None else min(next_check, clock_at)
        if self.budget is not None:
            self.budget.check()
            clock_at = self.calls + CLOCK_EVERY
            next_check = clock_at if next_check is None else min(next_check, clock_at)
        if self.prove and self.prover is None:
            if self.calls >= PROVE_AFTER:
                self._engage_proofs()
            else:
                next_check = PROVE_AFTER if next_check is None else min(next_check, PROVE_AFTER)
        self._check_at = next_check if next_check is not None else sys.maxsize

    def _prover(self):
        if self.prover is None:
            # loaded here: a search that decides before it engages the proofs never needs them (start-up)
            from allocator.allocation.proofs import Prover

            self.prover = Prover(self)
        return self.prover

    def _engage_proofs(self) -> None:
        """The search is taking a while: try the proofs, and remember failing states from now on."""
        proof = self._prover().before_search()
        if proof is not None:
            self.proof = proof
            raise _Proved()

    # ------------------------------------------------------------------ entry

    def run(self) -> bool:
        """Prepare and search; True when a solution was found. Raises AllocatorError.

        Raises SearchLimitError when the search needs more than ``max_steps``
        steps or runs past ``timeout`` seconds (counted from here, as the
        scheduler's filter timeout counts from the start of Filter).
        """
        if self.timeout:
            self._deadline = self.clock() + self.timeout
        try:
            done = self._walk()
        finally:
            # The prover refers back to the search: let it go, so that each node's search is freed as soon
            # as it is dropped rather than by the cyclic GC, in one long pass after a search over every node.
            self.prover = None
        self.found = done
        if not done and not self.solutions and any(p.invalid for p in self.pools) and \
                self.allocator.rules.skips_unusable_pools:
            raise NodeAllocationError("invalid resource pools were encountered")
        return done

    def _walk(self) -> bool:
        self.prepare()
        try:
            done = self.allocate_one(0, 0, 0, 0, False, (0, 0, 0))
        except _MaxSizeExceeded as err:
            # Upstream lets its internal sentinel error escape here.
            raise AllocatorError("allocation max size exceeded") from err
        except (_Proved, _Stopped):
            done = False
        if self.prove and not done and self.proof is None and not self.solutions:
            # Decided by the search itself: a proof, if there is one, still says why (as data).
            self.proof = self._prover().before_search()
        return done
