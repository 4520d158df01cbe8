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

from dataclasses import dataclass

from allocator.allocation.capacity import quantity
from allocator.allocation.pools import DeviceID, Pool
from allocator.kube import model
from allocator.kube.quantity import Quantity


@dataclass(frozen=True)
class Taker:
    """A device that holds part of a counter: ``holder`` says for whom ("request full", "claim default/x")."""

    device: str
    holder: str
    amount: str
    allocated: bool  # held by an already-allocated claim (else by the claims being allocated)

    def to_dict(self) -> dict:
        return {"device": self.device, "holder": self.holder, "amount": self.amount, "allocated": self.allocated}


@dataclass(frozen=True)
class Shortage:
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

    def to_dict(self) -> dict:
        """As JSON (camelCase), one entry of a device's ``why`` for a ``counters`` reason."""
        return {"kind": "counter", "pool": self.pool, "counterSet": self.counter_set, "counter": self.counter,
                "total": self.total, "left": self.left, "needs": self.needs,
                "takenBy": [t.to_dict() for t in self.taken_by], "summary": self.summary()}


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


def allocated_takers(pool: Pool, allocated: set[DeviceID], holders: dict[DeviceID, list[str]]) -> dict:
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


def shortages(device: model.Device, pool: Pool, available: dict[str, dict], takers: dict,
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
