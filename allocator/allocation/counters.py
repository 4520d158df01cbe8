"""Shared counters with their numbers, for explanations: what is short, by how much, and who took it.

Nothing here decides an allocation. ``allocation.search`` keeps the counters
the scheduler keeps; this module reads the same pools and the same allocated
state to say, for a device that does not fit the counters left, which counter
of which counter set is short, how much of it the set has and has left, how
much the device needs, and which devices hold the rest: devices of
already-allocated claims, or devices the claims being allocated must take.

A ``Shortage`` is one counter of one counter set::

    Shortage(pool, counter_set, counter, total, left, needs,
             taken_by=(Taker(device, holder, amount, allocated), ...))

``summary()`` says it in one line, e.g.
``gpu-0-counter-set/memory-slice-3: 0 of 1 left, needs 1; taken by gpu-0 of request full``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from allocator.allocation.capacity import quantity
from allocator.allocation.pools import DeviceID, Pool
from allocator.kube import model
from allocator.kube.quantity import Quantity
from allocator.reading.records import record


@record(frozen=True)
class Taker:
    """A device that holds part of a counter: ``holder`` says for whom ("request full", "claim default/x")."""

    device: str
    holder: str
    amount: str
    allocated: bool  # held by an already-allocated claim (else by the claims being allocated)

    def to_dict(self) -> dict[str, Any]:
        return {"device": self.device, "holder": self.holder, "amount": self.amount, "allocated": self.allocated}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Taker:
        return cls(device=data["device"], holder=data["holder"], amount=data["amount"], allocated=data["allocated"])


@record(frozen=True)
class Shortage:
    """One counter short for a device: one part of a device's ``why`` for a ``counters`` reason."""

    kind: ClassVar[str] = "counter"  # as the JSON's ``why[].kind`` names it
    pool: str  # driver/pool
    counter_set: str
    counter: str
    total: str  # what the counter set publishes
    left: str  # after the takers
    needs: str  # what the device consumes of it
    taken_by: tuple[Taker, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.counter_set}/{self.counter}"

    def summary(self, needs: bool = True) -> str:
        text = f"{self.name}: {self.left} of {self.total} left"
        if needs:
            text += f", needs {self.needs}"
        if self.taken_by:
            text += "; taken by " + ", ".join(f"{t.device} of {t.holder}" for t in self.taken_by)
        return text

    def to_dict(self) -> dict[str, Any]:
        """As JSON (camelCase), one entry of a device's ``why`` for a ``counters`` reason."""
        return {"kind": "counter", "pool": self.pool, "counterSet": self.counter_set, "counter": self.counter,
                "total": self.total, "left": self.left, "needs": self.needs,
                "takenBy": [t.to_dict() for t in self.taken_by], "summary": self.summary()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Shortage:
        """A shortage as ``to_dict`` wrote it (a device's ``why``, as the explanation carries it)."""
        return cls(pool=data["pool"], counter_set=data["counterSet"], counter=data["counter"], total=data["total"],
                   left=data["left"], needs=data["needs"], taken_by=tuple(Taker.from_dict(t) for t in data["takenBy"]))


@record(frozen=True)
class HeldDevice:
    """A device a request takes (or must take) while another request runs out of counters."""

    device: str
    claim: str  # namespace/name
    request: str

    def to_dict(self) -> dict[str, str]:
        return {"device": self.device, "claim": self.claim, "request": self.request}

    def take_dict(self) -> dict[str, str]:
        """As a branch's ``takes[]`` lists it (claim first)."""
        return {"claim": self.claim, "request": self.request, "device": self.device}


@record(frozen=True)
class ShortDevice:
    """A matching device that does not fit the counters left, with the counters that stop it."""

    driver: str
    pool: str
    device: str
    shortages: list[Shortage]

    def to_dict(self) -> dict[str, Any]:
        return {"driver": self.driver, "pool": self.pool, "device": self.device,
                "why": [x.to_dict() for x in self.shortages]}


@record(frozen=True)
class ForcedShortfall:
    """A request that runs out of shared counters beside the devices other requests must take
    (``allocation.counters[]`` of kind ``forced``)."""

    kind: ClassVar[str] = "forced"
    claim: str
    request: str
    needed: int
    matching: int
    fitting: int
    forced: list[HeldDevice]
    devices: list[ShortDevice]
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "claim": self.claim, "request": self.request, "needed": self.needed,
                "matching": self.matching, "fitting": self.fitting, "forced": [f.to_dict() for f in self.forced],
                "devices": [d.to_dict() for d in self.devices], "message": self.message}


@record(frozen=True)
class ChoiceBranch:
    """One choice of the branching request: what the requests take, and the request that then runs short."""

    takes: list[HeldDevice]
    claim: str
    request: str
    needed: int
    matching: int
    fitting: int
    taken_by: list[HeldDevice]
    devices: list[ShortDevice]
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"takes": [t.take_dict() for t in self.takes], "claim": self.claim, "request": self.request,
                "needed": self.needed, "matching": self.matching, "fitting": self.fitting,
                "takenBy": [t.to_dict() for t in self.taken_by], "devices": [d.to_dict() for d in self.devices],
                "message": self.message}


@record(frozen=True)
class RequestDevices:
    """The devices one request gets where shared counters are left out (the witness that they are the cause)."""

    claim: str
    request: str
    devices: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"claim": self.claim, "request": self.request, "devices": list(self.devices)}


@record(frozen=True)
class ChoicesShortfall:
    """Shared counters run out whatever a request chooses (``allocation.counters[]`` of kind ``choices``):
    ``branches`` (the first ones) say what happens after each choice; the request, its numbers and devices
    are the first branch's."""

    kind: ClassVar[str] = "choices"
    choice_claim: str  # the request that chooses
    choice_request: str
    choices: int
    refused: int
    without_counters: list[RequestDevices]
    branches: list[ChoiceBranch]
    steps: int
    headline: str
    unlisted: int
    message: str

    @property
    def claim(self) -> str:
        return self.branches[0].claim

    @property
    def request(self) -> str:
        return self.branches[0].request

    def to_dict(self) -> dict[str, Any]:
        first = self.branches[0]
        return {"kind": self.kind, "claim": first.claim, "request": first.request, "needed": first.needed,
                "matching": first.matching, "fitting": first.fitting, "forced": [],
                "devices": [d.to_dict() for d in first.devices],
                "choice": {"claim": self.choice_claim, "request": self.choice_request, "choices": self.choices,
                           "refused": self.refused},
                "withoutCounters": [w.to_dict() for w in self.without_counters],
                "branches": [b.to_dict() for b in self.branches], "steps": self.steps, "headline": self.headline,
                "unlisted": self.unlisted, "message": self.message}


# What ``allocation.counters`` lists: a request short of shared counters, with the numbers.
CounterShortfall = ForcedShortfall | ChoicesShortfall


def consumption(device: model.Device) -> dict[tuple[str, str], Quantity]:
    """(counter set, counter) -> what the device consumes of it, summed over its consumesCounters entries."""
    use: dict[tuple[str, str], Quantity] = {}
    for entry in device.consumes_counters:
        for name, counter in entry.counters.items():
            key = (entry.counter_set, name)
            q = quantity(counter.value)
            use[key] = use[key] + q if key in use else q
    return use


def totals(pool: Pool) -> dict[tuple[str, str], Quantity]:
    return {(cs.name, name): quantity(c.value) for cs in pool.counter_sets.values() for name, c in cs.counters.items()}


def allocated_takers(pool: Pool, allocated: set[DeviceID],
                     holders: dict[DeviceID, list[str]]) -> dict[tuple[str, str], list[Taker]]:
    """(counter set, counter) -> the allocated devices of the pool that consume it, as ``Taker``s."""
    out: dict[tuple[str, str], list[Taker]] = {}
    for slices in (pool.slices, pool.other_slices):
        for s in slices:
            for device in s.spec.devices:
                did = DeviceID(s.spec.driver, s.spec.pool.name, device.name)
                if did not in allocated or not device.consumes_counters:
                    continue
                holder = ", ".join(f"allocated claim {h}" for h in holders.get(did, ())) or "an allocated claim"
                for key, q in consumption(device).items():
                    if not q.is_zero:
                        out.setdefault(key, []).append(Taker(device.name, holder, str(q), True))
    return out


def shortages(device: model.Device, pool: Pool, available: dict[str, dict[Any, Any]],
              takers: dict[tuple[str, str], list[Taker]],
              taken: dict[tuple[str, str], Quantity] | None = None) -> list[Shortage]:
    """The counters of ``pool`` that cannot give ``device`` what it consumes (or are overdrawn already).

    ``available`` is what the search sees left after allocated claims (``Search.available_counters``);
    ``taken`` is what devices the claims must take consume on top, with their ``takers`` among the rest.
    In the order of the pool's counter sets and their counters, as the search checks them.
    """
    use = consumption(device)
    total = totals(pool)
    out = []
    for set_name, counters in available.items():
        for name, have in counters.items():
            key = (set_name, name)
            if taken and key in taken:
                have = have - taken[key]
            want = use.get(key)
            if (want is not None and have.cmp(want) < 0) or (want is None and have.sign() < 0):
                out.append(Shortage(pool.id, set_name, name, str(total.get(key, "?")), str(have),
                                    str(want) if want is not None else "0", tuple(takers.get(key, ()))))
    return out
