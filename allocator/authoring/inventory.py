"""The inventory as the page's picture and expression console see it, from the engine's own read.

``engine.analyze`` reads the inventory and the documents once per request and keeps that read in its
report (``Report.inventory``); the picture and the console only present what this module works out from
it, so neither reads the texts again:

- where a device is (``location``: its node, or one of two groups of network-attached devices),
- the devices grouped by place and pool, for the console's picker (``Inventory.picker``),
- for partitionable devices (the counter sets of a pool's newest generation, the rule the allocator
  applies: ``allocation.allocator.newest_generation``): what each device needs, the devices it excludes
  (two placements that together need more of a counter than the set has), and a bar per counter (total;
  taken by already-allocated claims; taken by this grant; free) (``Inventory.counter_groups``),
- which already-allocated claims hold a device (``Inventory.holders``) and the taints DeviceTaintRules
  add under a release's gates (``Inventory.rule_taints``).

The counter sets may sit in the devices' own slice (the 1.33-1.34 form: the set belongs to its slice)
or in a separate slice of the pool; counter sets linked by a device that consumes from several are one
group.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

from allocator.allocation.allocator import newest_generation
from allocator.allocation.taint_rules import RuleTaint, rule_taints_by_device
from allocator.kube import model
from allocator.kube.objects import Document
from allocator.kube.quantity import Quantity
from allocator.releases.gates import FeatureGates

# Where network-attached devices are (a slice or device with ``allNodes``, or a node selector).
ALL_NODES = "Available on all nodes"
SELECTED_NODES = "Available on selected nodes"
SHARED = (ALL_NODES, SELECTED_NODES)
# Pairs of devices compared for overlap per counter group at most (a group is one GPU and its placements).
MAX_OVERLAP_DEVICES = 300
# Joins a slice's name to its counter sets' names where sets belong to their slice (the 1.33 form).
SCOPE = "\x00"

T = TypeVar("T")
DeviceKey = tuple[str, str, str]  # (driver, pool, device)
CounterKey = tuple[str, str]  # (counter set, as scoped by ``_scope``; counter)


def location(s: model.ResourceSlice, device: model.Device) -> str:
    """The node a device is on, or the group of network-attached devices it belongs to."""
    named = s.spec.node_name or device.node_name
    if named:
        return named
    return ALL_NODES if (s.spec.all_nodes or device.all_nodes) else SELECTED_NODES


class Placed(NamedTuple):
    """A device of a slice, and where it is (``location``). A tuple: a cluster has tens of thousands."""

    slice: model.ResourceSlice
    device: model.Device
    place: str

    @property
    def driver(self) -> str:
        return self.slice.spec.driver

    @property
    def pool(self) -> str:
        return self.slice.spec.pool.name

    @property
    def name(self) -> str:
        return self.device.name

    @property
    def id(self) -> DeviceKey:
        return (self.driver, self.pool, self.device.name)

    @property
    def key(self) -> str:
        """``DRIVER/POOL/DEVICE``, as the console names a device."""
        return f"{self.driver}/{self.pool}/{self.device.name}"


@dataclass
class CounterBar:
    """One counter of a counter set: what the set has, what allocated claims and this grant take, what is free."""

    counter_set: str
    counter: str
    total: str
    allocated: str
    granted: str
    free: str
    # Percentages of the total for drawing (clamped; an overdrawn counter fills the bar).
    allocated_pct: float = 0.0
    granted_pct: float = 0.0
    overdrawn: bool = False

    @property
    def key(self) -> str:
        return f"{self.counter_set}/{self.counter}"

    @property
    def label(self) -> str:
        return (f"{self.counter}: {self.total} in total, {self.allocated} taken by allocated claims, "
                f"{self.granted} by this grant, {self.free} free")


@dataclass
class CounterSetView:
    """A counter set of a pool and a bar per counter."""

    name: str
    bars: list[CounterBar] = field(default_factory=list)


@dataclass
class DeviceCounters:
    """What one device needs ("counter-set/counter", non-zero) and the devices of its group it excludes."""

    consumes: list[str]
    excludes: list[str] = field(default_factory=list)


@dataclass
class CounterGroupFacts:
    """Counter sets linked by the devices that consume from them; ``members``: those devices, as indexes
    into the list ``counter_groups`` was given, in its order."""

    sets: list[CounterSetView]
    members: list[int]


@dataclass
class PickerGroup:
    """The devices of one place, by (driver, pool) in name order."""

    place: str
    pools: list[tuple[tuple[str, str], list[Placed]]]


class Inventory:
    """The objects of an inventory and of the documents, as the engine read them (inventory first).

    ``error``: the inventory text's first reading error ("" when none), for those who show it beside an
    answer (the console).
    """

    def __init__(self, documents: Iterable[Document] = (), error: str = ""):
        self.documents = list(documents)
        self.error = error
        self.slices = self._of(model.ResourceSlice)

    def _of(self, kind: type[T]) -> list[T]:
        """The objects of one kind, in the order read."""
        return [d.obj for d in self.documents if isinstance(d.obj, kind)]

    @functools.cached_property
    def node_names(self) -> list[str]:
        """The names of the Node objects, in name order."""
        return sorted({node.metadata.name for node in self._of(model.Node)})

    def devices(self) -> list[Placed]:
        """Every device of every slice, in the order written, with where it is (a new list each time)."""
        return list(self._placed)

    @functools.cached_property
    def _placed(self) -> tuple[Placed, ...]:
        out: list[Placed] = []
        for s in self.slices:
            if s.spec.node_name:  # the slice's node is every device's (a cluster has thousands of devices)
                out.extend(Placed(s, device, s.spec.node_name) for device in s.spec.devices)
            else:
                out.extend(Placed(s, device, location(s, device)) for device in s.spec.devices)
        return tuple(out)

    def picker(self, most: int) -> tuple[list[PickerGroup], int]:
        """The first ``most`` devices by place (nodes in name order, network-attached ones last), driver,
        pool and name, grouped by place and pool; and how many were left out."""
        listed = sorted(self._placed, key=lambda d: (d.place in SHARED, d.place, d.driver, d.pool, d.name))
        groups: dict[str, dict[tuple[str, str], list[Placed]]] = {}
        for d in listed[:most]:
            groups.setdefault(d.place, {}).setdefault((d.driver, d.pool), []).append(d)
        return ([PickerGroup(place, list(pools.items())) for place, pools in groups.items()],
                max(0, len(listed) - most))

    @functools.cached_property
    def holders(self) -> dict[DeviceKey, list[str]]:
        """(driver, pool, device) -> the already-allocated claims holding it (admin access holds nothing)."""
        out: dict[DeviceKey, list[str]] = {}
        for claim in self._of(model.ResourceClaim):
            if claim.status.allocation is None:
                continue
            name = claim.metadata.name or claim.metadata.generate_name or "?"
            for r in claim.status.allocation.devices.results:
                if not r.admin_access:
                    held = out.setdefault((r.driver, r.pool, r.device), [])
                    if name not in held:
                        held.append(name)
        return out

    def rule_taints(self, gates: FeatureGates) -> dict[DeviceKey, list[RuleTaint]]:
        """(driver, pool, device) -> the taints DeviceTaintRules add, as the scheduler of ``gates`` sees them."""
        rules = self._of(model.DeviceTaintRule)
        if not rules:
            return {}
        classes = {c.metadata.name: c for c in self._of(model.DeviceClass)}
        return rule_taints_by_device(self.slices, rules, classes, gates)

    @functools.cached_property
    def _pools(self) -> tuple[dict[tuple[str, str], dict[str, model.CounterSet]],
                              dict[tuple[str, str], list[tuple[model.ResourceSlice, model.Device]]]]:
        """Per (driver, pool) of the newest generation: its counter sets (scoped, see ``_scope``) and devices."""
        newest = newest_generation(self.slices)
        sets: dict[tuple[str, str], dict[str, model.CounterSet]] = {}
        devices: dict[tuple[str, str], list[tuple[model.ResourceSlice, model.Device]]] = {}
        for s in self.slices:
            key = (s.spec.driver, s.spec.pool.name)
            if s.spec.pool.generation != newest[key]:
                continue
            for cs in s.spec.shared_counters:
                sets.setdefault(key, {}).setdefault(_scope(s) + cs.name, cs)
            devices.setdefault(key, []).extend((s, d) for d in s.spec.devices)
        return sets, devices

    @property
    def has_counter_sets(self) -> bool:
        return bool(self._pools[0])

    def counter_groups(self, driver: str, pool: str, placed: Sequence[Placed], granted: set[DeviceKey],
                       ) -> tuple[list[CounterGroupFacts], dict[int, DeviceCounters]]:
        """The counter groups of a pool among ``placed`` (its devices somewhere), with bars counting what
        the pool's allocated claims and ``granted`` devices take; and, by index into ``placed``, what each
        device that consumes counters of the pool's sets needs and excludes. Groups without such a device
        are left out."""
        key = (driver, pool)
        sets = self._pools[0].get(key)
        if not sets:
            return [], {}
        needs = [_needs(p.device, _scope(p.slice)) for p in placed]
        # Counter sets linked by a device that consumes from several are one group (union-find).
        parent = {name: name for name in sets}

        def find(x: str) -> str:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for need in needs:
            names = sorted({cs for cs, _ in need if cs in sets})
            for other in names[1:]:
                parent[find(other)] = find(names[0])
        used = self._used(key, granted)
        groups: dict[str, CounterGroupFacts] = {}
        for name in sets:  # in the order the pool publishes them
            group = groups.setdefault(find(name), CounterGroupFacts(sets=[], members=[]))
            group.sets.append(_set_view(sets[name], used, name))
        per_device: dict[int, DeviceCounters] = {}
        for index, need in enumerate(needs):
            names = [cs for cs, _ in need if cs in sets]
            if names:
                per_device[index] = DeviceCounters(consumes=[f"{_shown(cs)}/{c}" for cs, c in need])
                groups[find(names[0])].members.append(index)
        totals = {(name, c): q for name, cs in sets.items() for c, v in cs.counters.items()
                  if (q := _quantity(v.value)) is not None}
        for group in groups.values():
            if len(group.members) <= MAX_OVERLAP_DEVICES:
                _overlaps([(i, placed[i].name, needs[i]) for i in group.members], per_device, totals)
        return [g for g in groups.values() if g.members], per_device

    def _used(self, key: tuple[str, str], granted: set[DeviceKey]) -> dict[CounterKey, tuple[Quantity, Quantity]]:
        """(counter set, counter) -> (taken by allocated claims, taken by this grant)."""
        zero = Quantity.parse("0")
        out: dict[CounterKey, tuple[Quantity, Quantity]] = {}
        for s, device in self._pools[1].get(key, ()):
            device_key = (key[0], key[1], device.name)
            held, taken = device_key in self.holders, device_key in granted
            if not (held or taken):
                continue
            for counter, q in _needs(device, _scope(s)).items():
                a, g = out.get(counter, (zero, zero))
                out[counter] = (a + q, g) if held else (a, g + q)
        return out


def _quantity(text: object) -> Quantity | None:
    try:
        return Quantity.parse(str(text))
    except (ValueError, TypeError):
        return None


def _percent(part: Quantity, total: Quantity) -> float:
    whole = total.as_approximate_float()
    if whole <= 0:
        return 100.0 if part.sign() > 0 else 0.0
    return max(0.0, min(100.0, part.as_approximate_float() * 100.0 / whole))


def _scope(s: model.ResourceSlice) -> str:
    """How the sets of slice ``s`` are told apart: a slice holding sets and devices keeps its own (1.33-1.34)."""
    return f"{s.metadata.name}{SCOPE}" if s.spec.shared_counters and s.spec.devices else ""


def _shown(counter_set: str) -> str:
    return counter_set.rsplit(SCOPE, 1)[-1]


def _needs(device: model.Device, scope: str = "") -> dict[CounterKey, Quantity]:
    out: dict[CounterKey, Quantity] = {}
    for entry in device.consumes_counters:
        for name, counter in entry.counters.items():
            q = _quantity(counter.value)
            if q is not None and not q.is_zero:
                key = (scope + entry.counter_set, name)
                out[key] = out[key] + q if key in out else q
    return out


def _set_view(cs: model.CounterSet, used: dict[CounterKey, tuple[Quantity, Quantity]], key: str) -> CounterSetView:
    """``key``: the set as ``used`` names it (its name, or in the 1.33 form its slice's and its name)."""
    zero = Quantity.parse("0")
    view = CounterSetView(name=cs.name)
    for name, counter in cs.counters.items():
        total = _quantity(counter.value)
        if total is None:
            continue
        allocated, granted = used.get((key, name), (zero, zero))
        free = total - allocated - granted
        view.bars.append(CounterBar(
            counter_set=cs.name, counter=name, total=str(total), allocated=str(allocated), granted=str(granted),
            free=str(free), allocated_pct=round(_percent(allocated, total), 2),
            granted_pct=round(min(_percent(granted, total), 100.0 - _percent(allocated, total)), 2),
            overdrawn=free.sign() < 0))
    return view


def _overlaps(found: list[tuple[int, str, dict[CounterKey, Quantity]]], per_device: dict[int, DeviceCounters],
              totals: dict[CounterKey, Quantity]) -> None:
    """Each device's ``excludes``: the others that need, together with it, more of a counter than its set has."""
    for i, (index, name, need) in enumerate(found):
        for other_index, other_name, other_need in found[i + 1:]:
            for counter, q in need.items():
                total = totals.get(counter)
                more = other_need.get(counter)
                if total is not None and more is not None and total.cmp(q + more) < 0:
                    per_device[index].excludes.append(other_name)
                    per_device[other_index].excludes.append(name)
                    break
