"""Counter failures that depend on a choice between devices, with the numbers of every choice.

``explain.combination`` names the counters a request runs out of beside the
devices other requests *must* take. When a request can choose (partition A
or B) and every choice leaves too few counters for another request, nothing
is forced and that explanation has nothing to say. This module handles the
choice: it walks every combination of the requests' matching devices, within
``MAX_STEPS`` device placements, and, only when

* without shared counters the requests fit (an assignment of distinct
  matching devices exists, shown as ``withoutCounters``), and
* with them no combination fits (the walk finishes and finds none),

says, for each choice of the first request that has one, which request then
runs short, which counter set and counter stop each of its devices, what is
left of what total, what each device needs, and which devices took it (of
the grant, or of already-allocated claims). Anything it does not model
(constraints, subrequests, ``All`` requests, admin access, devices shared
under consumable capacity, claims over 32 devices) or a walk over the bound
gives ``None``: the generic line stays.

Nothing here decides an allocation: the matching devices and the counters
left after allocated claims are the search's own.
"""

from __future__ import annotations

from math import comb

from allocator.allocation.candidates import Candidate
from allocator.allocation.capacity import quantity
from allocator.allocation.counters import (
    ChoiceBranch,
    ChoicesShortfall,
    HeldDevice,
    RequestDevices,
    Shortage,
    ShortDevice,
    Taker,
    consumption,
    shortages,
)
from allocator.allocation.requests import RequestView
from allocator.reading.records import field, record

MAX_STEPS = 10_000  # device placements tried before giving up (the generic line stays)
MAX_LISTED = 3  # choices spelled out in the message
MAX_KEPT = 20  # choices given as data (``branches``); ``choice.choices`` counts them all
MAX_DEVICES_PER_CLAIM = 32


@record
class Wanted:
    """One request of the claims: what it needs and the devices that match it."""

    ci: int
    ref: str
    view: RequestView
    matching: list[Candidate]

    @property
    def name(self) -> str:
        return self.view.full_name


@record
class _Blocked:
    """Where one walk got stuck: request ``index`` after the devices of ``path`` were taken."""

    index: int
    path: list[tuple[int, tuple[Candidate, ...]]]
    consumed: dict[str, dict]


@record
class _Walk:
    wanted: list[Wanted]
    available: object  # pool -> counter set -> counter -> what is left after allocated claims
    steps: int = 0
    over: bool = False
    found: bool = False
    memo: dict = field(default_factory=dict)
    _use: dict = field(default_factory=dict)

    def use(self, c: Candidate) -> dict:
        found = self._use.get(c.id)
        if found is None:
            found = self._use[c.id] = consumption(c.device) if c.device.consumes_counters else {}
        return found

    def fits(self, c: Candidate, consumed: dict[str, dict]) -> bool:
        """The search's counter check: every counter of the pool covers what the device consumes."""
        if not c.device.consumes_counters:
            return True
        if c.pool is None:
            return False
        taken = consumed.get(c.pool.name, {})
        use = self.use(c)
        for set_name, counters in self.available(c.pool).items():
            for name, have in counters.items():
                key = (set_name, name)
                if key in taken:
                    have = have - taken[key]
                want = use.get(key)
                if (want is not None and have.cmp(want) < 0) or (want is None and have.sign() < 0):
                    return False
        return True

    def take(self, c: Candidate, consumed: dict[str, dict]) -> dict[str, dict]:
        use = self.use(c)
        if not use:
            return consumed
        out = dict(consumed)
        pool = dict(out.get(c.pool.name, {}))
        for key, q in use.items():
            pool[key] = pool[key] + q if key in pool else q
        out[c.pool.name] = pool
        return out

    def combos(self, index: int, taken: set, consumed: dict[str, dict]):
        """The device combinations request ``index`` can take (in the order of its devices), with what they leave."""
        w = self.wanted[index]
        need = w.view.count
        free = [c for c in w.matching if c.id not in taken]

        def pick(start: int, chosen: tuple, used: dict):
            if len(chosen) == need:
                yield chosen, used
                return
            for k in range(start, len(free) - (need - len(chosen)) + 1):
                if self.over:
                    return
                self.steps += 1
                if self.steps > MAX_STEPS:
                    self.over = True
                    return
                c = free[k]
                if self.fits(c, used):
                    yield from pick(k + 1, (*chosen, c), self.take(c, used))

        yield from pick(0, (), consumed)

    def run(self, index: int, path: list, taken: set, consumed: dict[str, dict]) -> _Blocked | None:
        """Walk requests ``index``.. from this state; sets ``found`` or returns the deepest place it got stuck.

        States already walked in this choice (the same devices taken, the same counters consumed) are not
        walked again: ``memo`` keeps where they got stuck.
        """
        if self.found or self.over:
            return None
        if index == len(self.wanted):
            self.found = True
            return None
        key = (index, frozenset(taken),
               frozenset((p, k, str(q)) for p, used in consumed.items() for k, q in used.items()))
        if key in self.memo:
            return self.memo[key]
        deepest = None
        for chosen, used in self.combos(index, taken, consumed):
            found = self.run(index + 1, [*path, (index, chosen)], taken | {c.id for c in chosen}, used)
            if self.found or self.over:
                return None
            if found is not None and (deepest is None or found.index > deepest.index):
                deepest = found
        if deepest is None:
            deepest = _Blocked(index, path, consumed)
        self.memo[key] = deepest
        return deepest


def without_counters(wanted: list[Wanted]) -> list[list[Candidate]] | None:
    """Distinct matching devices for every request, counters aside (a bipartite matching); None if there are none."""
    owner: dict = {}
    slots = [(r, k) for r, w in enumerate(wanted) for k in range(w.view.count)]

    def augment(slot: int, seen: set) -> bool:
        r = slots[slot][0]
        for c in wanted[r].matching:
            if c.id in seen:
                continue
            seen.add(c.id)
            holder = owner.get(c.id)
            if holder is None or augment(holder[0], seen):
                owner[c.id] = (slot, c)
                return True
        return False

    try:
        for slot in range(len(slots)):
            if not augment(slot, set()):
                return None
    except RecursionError:
        return None
    out: list[list[Candidate]] = [[] for _ in wanted]
    for slot, c in owner.values():
        out[slots[slot][0]].append(c)
    for r, devices in enumerate(out):
        order = {c.id: k for k, c in enumerate(wanted[r].matching)}
        devices.sort(key=lambda c: order[c.id])
    return out


def explain_choices(wanted: list[Wanted], available, allocated_takers) -> ChoicesShortfall | None:
    """The explanation of a counter failure that depends on choices (module docstring), or None.

    ``available(pool)`` is what the search sees left of the pool's counters after allocated claims;
    ``allocated_takers(pool)`` the allocated devices holding them (``counters.allocated_takers``).
    """
    if not wanted or any(len(w.matching) < w.view.count for w in wanted):
        return None
    relaxed = without_counters(wanted)
    if relaxed is None:
        return None  # the devices themselves run out, not the counters
    branch = next((i for i, w in enumerate(wanted) if len(w.matching) > w.view.count), None)
    if branch is None:
        return None  # nothing to choose: explain.combination's forced case
    walk = _Walk(wanted, available)
    # The requests before the first choice have exactly their devices: one way to take them.
    prefix: list = []
    taken: set = set()
    consumed: dict[str, dict] = {}
    for index in range(branch):
        combos = list(walk.combos(index, taken, consumed))
        if len(combos) != 1:
            return None
        chosen, consumed = combos[0]
        prefix.append((index, chosen))
        taken |= {c.id for c in chosen}
    choices, refused = [], 0
    all_combos = list(walk.combos(branch, taken, consumed))
    if walk.over:
        return None
    total = _combinations(len([c for c in wanted[branch].matching if c.id not in taken]), wanted[branch].view.count)
    refused = total - len(all_combos)
    for chosen, used in all_combos:
        walk.memo = {}  # where a state got stuck names this choice's devices: kept per choice
        blocked = walk.run(branch + 1, [*prefix, (branch, chosen)], taken | {c.id for c in chosen}, used)
        if walk.found or walk.over or blocked is None:
            return None  # a combination fits (the search must have failed for another reason), or over the bound
        choices.append((chosen, blocked))
    if not choices:
        return None
    return _entry(wanted, branch, choices, refused, relaxed, walk, available, allocated_takers)


def _combinations(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


def _holder(w: Wanted, for_ci: int) -> str:
    return f"request {w.name}" if w.ci == for_ci else f"claim {w.ref}, request {w.name}"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _devices(n: int) -> str:
    return f"{n} device" if n == 1 else f"{n} devices"


def _blocked_entry(wanted: list[Wanted], branch: int, chosen: tuple, blocked: _Blocked, available,
                   allocated_takers) -> ChoiceBranch:
    """One choice of the branching request: the request that then runs short, its devices and their numbers."""
    w = wanted[blocked.index]
    by_device = {c.id: (wanted[i], c) for i, picked in blocked.path for c in picked}
    takes = [HeldDevice(device=c.id.device, claim=wanted[i].ref, request=wanted[i].name)
             for i, picked in blocked.path for c in picked]
    short, fitting, held = [], 0, []
    for c in w.matching:
        if c.id in by_device:
            held.append((c, by_device[c.id][0]))
            continue
        found: list[Shortage] = []
        if c.device.consumes_counters and c.pool is not None:
            takers = {key: list(found) for key, found in allocated_takers(c.pool).items()}
            for owner, d in by_device.values():
                if d.pool is not None and d.pool.name == c.pool.name:
                    for key, q in consumption(d.device).items():
                        if not q.is_zero:
                            takers.setdefault(key, []).append(Taker(d.id.device, _holder(owner, w.ci), str(q), False))
            found = shortages(c.device, c.pool, available(c.pool), takers, blocked.consumed.get(c.pool.name))
        if found:
            short.append((c, found))
        else:
            fitting += 1
    choice = wanted[branch]
    picked = _names([c.id.device for c in chosen])
    once: dict[int, list[str]] = {}
    for i, devices in blocked.path:
        once.setdefault(i, []).extend(c.id.device for c in devices)
    must = _names([f"{_holder(wanted[i], w.ci)} takes {_names(names)}" for i, names in once.items()])
    parts = shortage_lines(short)
    where = _holder(w, choice.ci)
    have = f"of the {_devices(len(w.matching))} that match it"
    if held:
        by_whom: dict[str, list[str]] = {}
        for c, owner in held:
            by_whom.setdefault(_holder(owner, w.ci), []).append(c.id.device)
        have += ", " + "; ".join(f"{_names(names)} {'is' if len(names) == 1 else 'are'} taken by {who}"
                                 for who, names in by_whom.items()) + ","
    if fitting >= w.view.count:
        fit = (("and " if held else "") + f"the {fitting} that fit the shared counters left do not fit them "
               "together")
    else:
        fit = ("and " if held else "") + ("none" if not fitting else f"only {fitting}") + (
            " of the rest" if held else "") + " fits"
        fit += " the shared counters left"
    text = f"if it takes {picked}: {where} needs {_devices(w.view.count)}, but {have} {fit} once {must}"
    if parts:
        text += ": " + "; ".join(parts)
    return ChoiceBranch(
        takes=takes, claim=w.ref, request=w.name, needed=w.view.count, matching=len(w.matching), fitting=fitting,
        taken_by=[HeldDevice(device=c.id.device, claim=o.ref, request=o.name) for c, o in held],
        devices=[ShortDevice(driver=c.id.driver, pool=c.id.pool, device=c.id.device, shortages=list(found))
                 for c, found in short],
        message=text)


def shortage_lines(short: list[tuple[Candidate, list[Shortage]]]) -> list[str]:
    """Per counter that stops a device first: what is left of what, who took it, and what the devices need."""
    groups: dict[tuple, list[tuple[str, Shortage]]] = {}
    for c, found in short:
        first = found[0]
        groups.setdefault((first.pool, first.counter_set, first.counter), []).append((c.id.device, first))
    parts = []
    for stopped in groups.values():
        first = stopped[0][1]
        needs = sorted({x.needs for _, x in stopped}, key=quantity)
        if len(stopped) == 1:
            who = f"{stopped[0][0]} needs {needs[0]}"
        else:
            amount = needs[0] if len(needs) == 1 else f"{needs[0]} to {needs[-1]}"
            who = f"{len(stopped)} devices need {amount} each"
        taken = f" (taken by {', '.join(f'{t.device} of {t.holder}' for t in first.taken_by)})" if first.taken_by else ""
        parts.append(f"{first.name}: {first.left} of {first.total} left{taken}, {who}")
    return parts


def _entry(wanted, branch, choices, refused, relaxed, walk, available, allocated_takers) -> ChoicesShortfall:
    choice = wanted[branch]
    kept = choices[:MAX_KEPT]
    branches = [_blocked_entry(wanted, branch, chosen, blocked, available, allocated_takers)
                for chosen, blocked in kept]
    fits = ", ".join(f"{_holder(w, choice.ci)} gets {_names([c.id.device for c in devices])}"
                     for w, devices in zip(wanted, relaxed, strict=True))
    n = len(choices)
    # Which request runs short, over every choice (not only the kept ones).
    short: dict[int, int] = {}
    for _, blocked in choices:
        short[blocked.index] = short.get(blocked.index, 0) + 1
    if len(short) == 1:
        who = _holder(wanted[next(iter(short))], choice.ci)
    else:
        who = " or ".join(f"{_holder(wanted[i], choice.ci)} (after {k} of them)" for i, k in short.items())
    which = "its only choice" if n == 1 else f"{n} choices"
    other = f"; {refused} more do not fit the counters left" if refused else ""
    lines = [b.message for b in branches[:MAX_LISTED]]
    if n > MAX_LISTED:
        lines.append(f"and {n - MAX_LISTED} more choices")
    claim = f"claim {choice.ref}" if all(w.ci == choice.ci for w in wanted) else "the claims"
    head = (f"{claim}: the requests fit without shared counters ({fits}), but not with them: whatever "
            f"{_holder(choice, choice.ci)} takes ({which}{other}), {who} runs out of shared counters "
            f"({walk.steps} device placements tried)")
    message = head + "; " + "; ".join(lines)
    return ChoicesShortfall(
        choice_claim=choice.ref, choice_request=choice.name, choices=n, refused=refused,
        without_counters=[RequestDevices(claim=w.ref, request=w.name, devices=[c.id.device for c in devices])
                          for w, devices in zip(wanted, relaxed, strict=True)],
        branches=branches, steps=walk.steps, headline=head, unlisted=n - len(kept), message=message)
