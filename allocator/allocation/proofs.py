"""Exact proofs that claims cannot be allocated, and memoised failure.

The search (``search.Search``) walks upstream's tree step by step. With
``prove`` on, this module lets it skip parts of the tree whose outcome is
already known, without changing any answer. The search walks plainly for
its first ``search.PROVE_AFTER`` steps (most searches end sooner and pay
nothing); then, or after a search that found no allocation (to say why):

* ``Prover.before_search`` looks for a proof that no
  allocation exists: a request with fewer usable devices than its count
  (after class and request selectors, devices already allocated, taints,
  counters and capacity a device cannot give even alone, and the attribute
  each of its constraints needs), a request whose subrequests all fail that
  way, an ``All`` request with a device it can never get, requests that
  together need more devices than can serve them (a matching), requests of
  one pool that together need more of a shared counter than is left, and a
  ``matchAttribute`` for which no value is held by enough devices.
* From then on, ``Prover.enter_claim`` remembers the states (devices
  taken, counters and capacity consumed, as far as the remaining claims can
  see them) from which the remaining claims failed, and does not search
  them again (a state from which solutions were reached and passed over,
  when alternatives are listed, did not fail and is not remembered); it
  also stops early when a remaining request has fewer free devices than
  its count.

Every proof is a relaxation of the search (it only ever answers "no" where
the full search answers "no"), and each is used only where upstream could
not have stopped with an error instead: no selector may fail at runtime on
a device the search could look at, claim 0 can never exceed the 32 results
(the one ``allocation max size exceeded`` that escapes), and no ``All``
request under a constraint (which aborts when a device breaks it), before
the search or from the claim where an early stop would happen on. A
skipped subtree must also leave no trace: subtrees that leak consumed
counters, constraint state or share ids (as upstream's do in corner cases)
are never memoised, and early stops happen only where no remaining device
consumes counters or is shared.

What decided is a ``Proof``: a code, a message and the numbers and names
behind it, shown by the explanation, the page, the API and the CLI.
"""

from __future__ import annotations

from allocator.allocation import capacity as cap
from allocator.allocation.candidates import Candidate, taint_prevents
from allocator.allocation.constraints import MatchAttribute, as_value_set, lookup_attribute, scalar_kind
from allocator.allocation.errors import ANY_NODE, NODE_MARK, AllocatorError
from allocator.allocation.pools import DeviceID
from allocator.allocation.requests import ALL, EXACT_COUNT, claim_ref
from allocator.reading.records import fields, record

MAX_RESULTS = 32




@record(frozen=True)
class Proof:
    """Why the claims cannot be allocated on the node, found without searching.

    ``code`` is one of ``too-few-devices``, ``missing-attribute``,
    ``no-subrequest-fits``, ``all-devices-unusable``, ``requests-exceed-devices``,
    ``counters-exceeded`` and ``no-shared-value``; ``needed``/``available``
    count devices (``amount_*`` hold quantities of a counter). ``text`` is
    the message with ``NODE_MARK`` where the node's name goes.
    """

    code: str
    text: str
    node: str
    claim: str | None = None
    request: str | None = None
    needed: int | None = None
    available: int | None = None
    attribute: str | None = None
    constraint: int | None = None
    requests: tuple[str, ...] = ()
    pool: str | None = None
    counter: str | None = None
    amount_needed: str | None = None
    amount_available: str | None = None

    @property
    def message(self) -> str:
        return self.text.replace(NODE_MARK, self.node)

    def on_node(self, name: str) -> Proof:
        """The same proof for another node whose devices the search sees the same way."""
        # A copy with one field changed, without dataclasses.replace's __init__ (a cluster has thousands of nodes).
        other = object.__new__(Proof)
        other.__dict__.update(self.__dict__)
        object.__setattr__(other, "node", name or ANY_NODE)
        return other

    def to_dict(self) -> dict:
        """As JSON for the engine's report (camelCase, as the rest of it)."""
        # Every field is a scalar or a tuple of strings: no need for asdict's deep copy (1,000 nodes, 1,000 proofs).
        out = {name: getattr(self, name) for name in _PROOF_NAMES}
        out["requests"] = list(self.requests)
        out["amountNeeded"] = out.pop("amount_needed")
        out["amountAvailable"] = out.pop("amount_available")
        return out


_PROOF_NAMES = tuple("message" if f.name == "text" else f.name for f in fields(Proof))


def _devices(n: int) -> str:
    return f"{n} device" if n == 1 else f"{n} devices"


class Prover:
    """Proofs and memo for one ``Search`` (after ``prepare``)."""

    def __init__(self, search):
        self.s = search
        self.node = search.node.metadata.name or ANY_NODE
        self.n = len(search.claims)
        self.errors_possible = False
        # Per request key: devices usable at the start (every per-device check passes),
        # and the same before the attribute checks of the claim's constraints.
        self.usable: dict[tuple, list] = {}
        self.before_constraints: dict[tuple, list] = {}
        self.failed: set = set()  # memo: (claim index, state) from which the rest failed
        self.memo_hits = 0
        self.early_stops = 0
        self._scan()

    # ------------------------------------------------------------------ scan

    def _scan(self) -> None:
        s = self.s
        features = s.features
        state = s.allocator.state
        cands = []
        for pool in s.pools:
            if pool.invalid or (pool.incomplete and s.allocator.rules.skips_unusable_pools):
                continue
            for sl in pool.slices:
                for device in sl.spec.devices:
                    cands.append(Candidate(DeviceID(pool.driver, pool.name, device.name), device, sl, pool))
        seen = [set() for _ in range(self.n)]  # devices the search may look at, per claim
        for key, data in s.request_data.items():
            ci = key[0]
            request = data.request
            if request.mode == ALL:
                seen[ci].update(c.id for c in data.all_devices or ())
                continue
            pre = []
            seen_here = seen[ci]
            for cand in cands:
                if not request.admin_access and cand.id in state.devices:
                    continue  # always in use: the search never evaluates it
                try:
                    ok = s.selectable(key, data, cand)
                except AllocatorError:
                    self.errors_possible = True
                    seen_here.add(cand.id)
                    continue
                if not ok:
                    continue
                seen_here.add(cand.id)
                if self._usable_alone(data, cand):
                    pre.append(cand)
            self.before_constraints[key] = pre
            constraints = self._constraints_of(ci, data)  # the same for every device of the request
            self.usable[key] = [c for c in pre if _has_attributes(constraints, c)] if constraints else list(pre)
        self._seen = seen
        # Per k: a claim from k on has an All request under a constraint, which the search may reach and
        # abort on (a device breaking the constraint is an error for All), so no early stop from there.
        # Up to 1.32 any All request with devices may abort it too: one of them found in use stops the search.
        stops_in_use = not s.allocator.rules.all_in_use_backtracks
        aborting = [any(key[0] == ci and data.request.mode == ALL and data.all_devices
                        and (stops_in_use or self._constraints_of(ci, data)) for key, data in s.request_data.items())
                    for ci in range(self.n)]
        self.may_abort_from = [any(aborting[k:]) for k in range(self.n + 1)]
        multi = features.consumable_capacity
        self.relevant: list[frozenset] = []
        self.pools_from: list[frozenset] = []
        self.quiet_from: list[bool] = []  # no remaining device consumes counters or is shared
        ids = {c.id: c for c in cands}
        for k in range(self.n + 1):
            rel = frozenset().union(*seen[k:]) if k < self.n else frozenset()
            self.relevant.append(rel)
            devices = [ids[d] for d in rel if d in ids]
            self.pools_from.append(frozenset(s.counter_scope(c).counters_key for c in devices
                                             if c.device.consumes_counters))
            self.quiet_from.append(not any(c.device.consumes_counters or (multi and c.device.allow_multiple_allocations)
                                           for c in devices))

    def _usable_alone(self, data, cand) -> bool:
        """The checks of the search that no other allocation can make pass later."""
        s, device, request = self.s, cand.device, data.request
        features = s.features
        if features.consumable_capacity:
            try:  # against what allocated claims hold, not what the search holds right now
                if not cap.fits(device, request.capacity, s.allocator.state.capacity.get(cand.id), None):
                    return False
            except cap.UnknownCapacity:
                return False
        if not features.partitionable_devices and device.consumes_counters:
            return False
        multi = features.consumable_capacity and bool(device.allow_multiple_allocations)
        if device.consumes_counters and not (multi and s.shared_by_allocated(cand.id)) \
                and not self._counters_fit_alone(cand):
            return False
        if features.device_taints and device.taints and taint_prevents(device, request):
            return False
        return True

    def _counters_fit_alone(self, cand) -> bool:
        scope = self.s.counter_scope(cand)
        available = self.s.available_counters(scope)
        use = _consumption(cand.device)
        if self.s.allocator.rules.slice_counters == "device":
            # v0.33 looked only at the counters the device consumes, each of which its slice must have.
            return all(set_name in available and name in available[set_name]
                       and available[set_name][name].cmp(want) >= 0 for (set_name, name), want in use.items())
        for set_name, counters in available.items():
            for name, have in counters.items():
                want = use.get((set_name, name))
                if (want is not None and have.cmp(want) < 0) or (want is None and have.sign() < 0):
                    return False
        return True

    def _constraints_of(self, ci, data):
        base, sub = (data.parent.name, data.request.name) if data.parent is not None else (data.request.name, "")
        return [(i, c) for i, c in enumerate(self.s.constraints[ci]) if c.applies_to(base, sub)]

    # ------------------------------------------------------------------ before the search

    def safe(self) -> bool:
        """Whether "no" is the only answer the search could give instead of an allocation."""
        if self.errors_possible:
            return False
        s = self.s
        if s.claims and _max_devices(s, 0) > MAX_RESULTS:
            return False  # claim 0 might end in "allocation max size exceeded"
        return not self.may_abort_from[0]  # a device breaking a constraint of an All request aborts allocation

    def before_search(self) -> Proof | None:
        if not self.safe():
            return None
        for ci in range(self.n):
            found = self._claim_requests(ci)
            if found is not None:
                return found
        return self._matching() or self._counters() or self._match_values()

    def _simple(self, key, data) -> bool:
        """An ExactCount request without subrequests."""
        return data.parent is None and data.request.mode == EXACT_COUNT

    def _claim_requests(self, ci: int) -> Proof | None:
        s = self.s
        ref = s.refs[ci]
        claim = s.claims[ci]
        for ri, request in enumerate(claim.spec.devices.requests):
            data = s.request_data[(ci, ri, 0)]
            if data.parent is None:
                found = self._request((ci, ri, 0), data, ref)
                if found is not None:
                    return found
                continue
            subs, why = [], []
            si = 0
            while (ci, ri, si) in s.request_data:
                sub = self._request((ci, ri, si), s.request_data[(ci, ri, si)], ref)
                if sub is None:
                    break
                subs.append(sub)
                why.append(f"{sub.request} {sub.text.split(': ', 1)[1]}")
                si += 1
            else:
                return Proof("no-subrequest-fits", f"claim {ref}, request {request.name}: none of its "
                             f"{len(subs)} subrequests can be allocated on {NODE_MARK} ({'; '.join(why)})",
                             node=self.node, claim=ref, request=request.name,
                             requests=tuple(p.request for p in subs))
        return None

    def _request(self, key, data, ref) -> Proof | None:
        request = data.request
        name = request.full_name
        if request.mode == ALL:
            return self._all_devices(key, data, ref)
        if request.mode != EXACT_COUNT:
            return None
        need = request.count
        usable = self.usable[key]
        if len(usable) >= need:
            return None
        if not self.s.allocator.rules.combinations and self.s.features.consumable_capacity \
                and any(c.device.allow_multiple_allocations for c in usable):
            return None  # before 1.36 one request could take several shares of one device
        if request.admin_access and not self.s.allocator.rules.admin_devices_in_use:
            return None  # 1.33: an admin request could take one device again
        pre = self.before_constraints[key]
        if len(pre) >= need:
            for index, c in self._constraints_of(key[0], data):
                having = [d for d in pre if lookup_attribute(d.device, d.id.driver, c.attribute) is not None]
                if len(having) < need:
                    have = f"{len(having)} devices" if not having else f"only {_devices(len(having))}"
                    return Proof("missing-attribute", f"claim {ref}, request {name}: {have} on {NODE_MARK} have "
                                 f"{c.attribute}, which its {c.kind} needs" + (f" (it needs {need})" if having else ""),
                                 node=self.node, claim=ref, request=name, needed=need, available=len(having),
                                 attribute=c.attribute, constraint=index)
        return Proof("too-few-devices", f"claim {ref}, request {name}: needs {_devices(need)}, but only "
                     f"{len(usable)} on {NODE_MARK} match its class and selectors and are free, tolerated and "
                     "within counters, capacity and constraint attributes",
                     node=self.node, claim=ref, request=name, needed=need, available=len(usable))

    def _all_devices(self, key, data, ref) -> Proof | None:
        s, name = self.s, data.request.full_name
        devices = data.all_devices or []
        if not devices and not s.allocator.rules.all_needs_a_device:
            return None  # up to 1.32 an All request matching nothing is done with no device
        if not devices:
            return Proof("all-devices-unusable", f"claim {ref}, request {name}: asks for all matching devices, "
                         f"but none on {NODE_MARK} match", node=self.node, claim=ref, request=name, needed=1,
                         available=0)
        if s.features.consumable_capacity and any(c.device.allow_multiple_allocations for c in devices):
            return None
        state = s.allocator.state
        for cand in devices:
            if (not data.request.admin_access and cand.id in state.devices) or not self._usable_alone(data, cand):
                return Proof("all-devices-unusable", f"claim {ref}, request {name}: asks for all "
                             f"{_devices(len(devices))} that match on {NODE_MARK}, but {cand.id} can never be "
                             "given to it (already allocated, tainted, or over its counters or capacity)",
                             node=self.node, claim=ref, request=name, needed=len(devices),
                             available=len(devices) - 1)
        return None

    def _matching(self) -> Proof | None:
        """Requests (of all claims) that together need more distinct devices than can serve them."""
        s = self.s
        multi = s.features.consumable_capacity
        reqs = [(key, data) for key, data in s.request_data.items()
                if self._simple(key, data) and not data.request.admin_access]
        if not reqs:
            return None
        need = [d.request.count for _, d in reqs]
        adj = [[c.id for c in self.usable[k] if not (multi and c.device.allow_multiple_allocations)] for k, _ in reqs]
        unlimited = [any(multi and c.device.allow_multiple_allocations for c in self.usable[k]) for k, _ in reqs]
        owner: dict[DeviceID, int] = {}  # device -> request index it serves
        got = [0] * len(reqs)

        def augment(r: int, visited: set) -> bool:
            for d in adj[r]:
                if d in visited:
                    continue
                visited.add(d)
                holder = owner.get(d)
                if holder is None or augment(holder, visited):
                    if holder is not None:
                        got[holder] -= 1
                    owner[d] = r
                    got[r] += 1
                    return True
            return False

        try:
            for r in range(len(reqs)):
                if unlimited[r]:
                    continue
                while got[r] < need[r] and augment(r, set()):
                    pass
        except RecursionError:
            return None  # an inventory too large for this proof: the search decides
        short = [r for r in range(len(reqs)) if not unlimited[r] and got[r] < need[r]]
        if not short:
            return None
        # The requests reachable from a short one by alternating paths need more than their devices.
        group, devices, todo = set(short), set(), list(short)
        while todo:
            r = todo.pop()
            for d in adj[r]:
                if d not in devices:
                    devices.add(d)
                    holder = owner.get(d)
                    if holder is not None and holder not in group:
                        group.add(holder)
                        todo.append(holder)
        members = sorted(group)
        names = tuple(f"{s.refs[reqs[r][0][0]]}/{reqs[r][1].request.full_name}" for r in members)
        total = sum(need[r] for r in members)
        return Proof("requests-exceed-devices", f"requests {', '.join(names)} need {_devices(total)} together, "
                     f"but only {len(devices)} on {NODE_MARK} can serve any of them",
                     node=self.node, needed=total, available=len(devices), requests=names)

    def _counters(self) -> Proof | None:
        """Requests confined to one pool that together need more of one counter than the pool has left."""
        s = self.s
        if not s.features.partitionable_devices:
            return None
        names = [p.name for p in s.pools]
        if len(names) != len(set(names)):
            return None  # counters are kept per pool name: same-named pools share them
        multi = s.features.consumable_capacity
        by_pool: dict[str, list] = {}
        for key, data in s.request_data.items():
            usable = self.usable.get(key)
            if not self._simple(key, data) or not usable:
                continue
            pools = {s.counter_scope(c).counters_key for c in usable}
            if len(pools) != 1 or any(multi and c.device.allow_multiple_allocations for c in usable):
                continue
            by_pool.setdefault(pools.pop(), []).append((key, data, usable))
        for entries in by_pool.values():
            pool = s.counter_scope(entries[0][2][0])
            available = s.available_counters(pool)
            for set_name, counters in available.items():
                for counter, have in counters.items():
                    total = None
                    for _, data, usable in entries:
                        amounts = sorted((_consumption(c.device).get((set_name, counter)) for c in usable),
                                         key=_sort_key)
                        for q in amounts[:data.request.count]:
                            if q is not None:
                                total = q if total is None else total + q
                    if total is not None and have.cmp(total) < 0:
                        names = tuple(f"{s.refs[k[0]]}/{d.request.full_name}" for k, d, _ in entries)
                        return Proof("counters-exceeded", f"requests {', '.join(names)} need at least {total} of "
                                     f"counter {set_name}/{counter} in pool {pool.id}, but only {have} is left "
                                     f"on {NODE_MARK}", node=self.node, requests=names, pool=pool.id,
                                     counter=f"{set_name}/{counter}", amount_needed=str(total),
                                     amount_available=str(have))
        return None

    def _match_values(self) -> Proof | None:
        """A matchAttribute for which no value is held by enough devices of every request under it."""
        s = self.s
        multi = s.features.consumable_capacity
        # before 1.36 one request could take several shares of one device (as in ``_request``)
        reused = multi and not s.allocator.rules.combinations
        for ci in range(self.n):
            for index, c in enumerate(s.constraints[ci]):
                if not isinstance(c, MatchAttribute):
                    continue
                under = [(key, data) for key, data in s.request_data.items()
                         if key[0] == ci and self._simple(key, data) and (index, c) in self._constraints_of(ci, data)]
                if not under or sum(d.request.count for _, d in under) < 2:
                    continue
                groups: dict = {}
                for r, (key, _) in enumerate(under):
                    for cand in self.usable[key]:
                        for g in _match_keys(cand, c):
                            groups.setdefault(g, [set() for _ in under])[r].add(cand)
                total = sum(d.request.count for _, d in under)
                best = 0
                for members in groups.values():
                    union = set().union(*members)
                    best = max(best, len(union))
                    if all(len(m) >= d.request.count or (reused and any(x.device.allow_multiple_allocations for x in m))
                           for m, (_, d) in zip(members, under, strict=True)) and (
                            len(union) >= total or any(multi and x.device.allow_multiple_allocations for x in union)):
                        break
                else:
                    ref = s.refs[ci]
                    names = tuple(d.request.full_name for _, d in under)
                    return Proof("no-shared-value", f"claim {ref}: constraint #{index} (matchAttribute "
                                 f"{c.attribute}): requests {', '.join(names)} need {_devices(total)} with one "
                                 f"value of it, but no value is held by enough of their devices on {NODE_MARK} "
                                 f"(at most {best})", node=self.node, claim=ref, needed=total, available=best,
                                 attribute=c.attribute, constraint=index, requests=names)
        return None

    # ------------------------------------------------------------------ during the search

    def enter_claim(self, k: int) -> bool:
        """``allocate_one`` for claim ``k`` onwards, skipping states known to fail."""
        s = self.s
        if k >= self.n:
            return s.allocate_one(k, 0, 0, 0, False, (0, 0, 0))
        key = self._state(k)
        if key is not None:
            if key in self.failed:
                self.memo_hits += 1
                return False
            if (self.quiet_from[k] and not self.errors_possible and not self.may_abort_from[k]
                    and self._too_few_free(k)):
                self.early_stops += 1
                self.failed.add(key)
                return False
            before = self._traces(k)
        solutions = s.solutions
        done = s.allocate_one(k, 0, 0, 0, False, (0, 0, 0))
        # A subtree that reached solutions the caller passed over (``Search.on_solution``) did not fail:
        # remembering it would hide those solutions when the same state comes again after other choices.
        if not done and key is not None and s.solutions == solutions and self._traces(k) == before:
            self.failed.add(key)
        return done

    def _pristine(self, k: int) -> bool:
        return all(c.count == 0 and not getattr(c, "seen", None) for cs in self.s.constraints[k:] for c in cs)

    def _state(self, k: int):
        """What the search of claims k.. can observe of the claims before it; None if it cannot be told."""
        s = self.s
        if not self._pristine(k):
            return None
        relevant = self.relevant[k]
        taken = frozenset(d for d, holders in s.allocating.items() if holders and d in relevant)
        pools = self.pools_from[k]
        counters = frozenset((p, cs, name, q) for p, sets in s.consumed_counters.items() if p in pools
                             for cs, values in sets.items() for name, q in values.items() if not q.is_zero)
        capacity = frozenset((d, name, q) for d, used in s.allocating_capacity.items() if d in relevant
                             for name, q in used.items() if not q.is_zero)
        # A shared device's entry, even with nothing consumed, means its counters are taken already.
        shared = frozenset(d for d in s.allocating_capacity if d in relevant)
        return k, taken, counters, capacity, shared

    def _traces(self, k: int):
        """What a failed subtree may leave behind (upstream leaks counters and constraint state in corner cases)."""
        s = self.s
        counters = frozenset((p, cs, name, q) for p, sets in s.consumed_counters.items()
                             for cs, values in sets.items() for name, q in values.items() if not q.is_zero)
        taken = frozenset(d for d, holders in s.allocating.items() if holders)
        return s._share_ids, counters, taken, self._pristine(k)

    def _too_few_free(self, k: int) -> bool:
        s = self.s
        for key, data in s.request_data.items():
            if key[0] < k or not self._simple(key, data) or data.request.admin_access:
                continue
            free = sum(1 for c in self.usable[key] if not s.allocating.get(c.id))
            if free < data.request.count:
                return True
        return False


def _has_attributes(constraints, cand) -> bool:
    """Whether the device has the attribute of each of these (index, constraint) pairs, as a set if they want one."""
    for _, c in constraints:
        attr = lookup_attribute(cand.device, cand.id.driver, c.attribute)
        if attr is None or (c.list_values and as_value_set(attr) is None):
            return False
    return True


def _consumption(device) -> dict:
    from allocator.allocation.capacity import quantity
    use: dict = {}
    for consumption in device.consumes_counters:
        for name, counter in consumption.counters.items():
            k = (consumption.counter_set, name)
            q = quantity(counter.value)
            use[k] = use[k] + q if k in use else q
    return use


def _sort_key(q):
    """Smallest consumption first; a device that does not consume the counter takes none of it."""
    return (0, 0) if q is None else (1, q)


def _max_devices(search, ci: int) -> int:
    """The most devices claim ``ci`` could get (its largest subrequest of each request)."""
    total = 0
    for ri in range(len(search.claims[ci].spec.devices.requests)):
        most, si = 0, 0
        while (ci, ri, si) in search.request_data:
            most = max(most, search.request_data[(ci, ri, si)].num_devices)
            si += 1
        total += most
    return total


def _match_keys(cand, constraint: MatchAttribute) -> list:
    """The values a device could share under the constraint (one group per value)."""
    attr = lookup_attribute(cand.device, cand.id.driver, constraint.attribute)
    if attr is None:
        return []
    if constraint.list_values:
        values = as_value_set(attr)
        return [] if values is None else [(values[0], v) for v in values[1]]
    kind = scalar_kind(attr)
    if kind is None:
        return [("alone", cand.id)]  # only ever matches when it is the only device
    return [(kind, getattr(attr, kind))]


__all__ = ["Proof", "Prover", "claim_ref"]
