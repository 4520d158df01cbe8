"""Nodes that look the same to the allocation, so that one search answers for all of them.

A real cluster is a few kinds of machines, many of each: a node's devices
sit in a pool named after the node, with the same attributes as on the
next node of its kind but for serial numbers and PCI addresses. A search
over every node then tries, proves and explains the same failure hundreds
of times. ``NodeViews.view`` says what the allocation can see from a node,
leaving out what it cannot tell apart:

* the names of the node and of the pools and slices that are the node's
  alone (every slice of the pool names the node, no other pool has that
  name, no allocated claim holds a device of it), kept only as their
  order, which is what sorting by them decides;
* device attributes that no selector of the claims' requests and classes
  reads (``selectors.DeviceKeys``) and no constraint names.

Everything else is kept whole: the other fields of the devices and slices
(generic, so a new field of the model is kept too), each pool as gathered
for the node (flags, slices in order, counters), the slices the
explanation lists and whether they offer devices to the node, and the
per-device node selection as the node's answers. Shared pools and slices
(for all nodes or by labels) are kept as themselves.

Two nodes with equal views go through the same steps of search, proofs and
explanation, with the left-out names in the same places. So where the
first node's answer (reason and proof) does not contain any of its own
names, except the node's name where a proof says "on <node>"
(``proofs.NODE_MARK``), it is the second node's answer with that name
changed. ``Allocator.allocate_every`` reuses answers only under that
condition, and only for nodes where the claims do not fit and no error
happened. (A node answered that way cannot run into the scheduler's filter
timeout on its own, which depends on the clock, not on the input.)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from allocator.allocation.nodes import NodeSelectorError, node_matches
from allocator.allocation.pools import Pool, PoolError, slice_is_relevant
from allocator.cel.selectors import SHARED_MAX_DEVICES, _attribute_fields
from allocator.kube import model
from allocator.kube.quantity import Quantity
from allocator.reading import records

_LEFT_OUT = object()  # a field the view stands for otherwise (the device's attributes, the pool's name...)


class NodeViews:
    """What the allocation of ``claims`` sees from each node, for one ``Allocator`` (see the module docstring)."""

    def __init__(self, allocator, claims: Sequence[model.ResourceClaim]):
        self.allocator = allocator
        self.keys = allocator.selectors.device_keys()
        self.multi_ok = not allocator.variant.is_stable
        self.reads = self._reads(claims)
        self.constraint_names = tuple(dict.fromkeys(
            name for claim in claims for c in claim.spec.devices.constraints
            for name in (c.match_attribute, c.distinct_attribute) if name))
        self.nodes_of_pool: dict[tuple[str, str], set] = {}
        self.ids_of_name: dict[str, set] = {}
        for s in allocator.slices:
            pool_id = (s.spec.driver, s.spec.pool.name)
            self.nodes_of_pool.setdefault(pool_id, set()).add(s.spec.node_name)
            self.ids_of_name.setdefault(s.spec.pool.name, set()).add(pool_id)
        state = allocator.state
        self.held_pools = ({d.pool for d in state.devices} | {d.pool for d, _ in state.shares}
                           | {d.pool for d in state.capacity})
        self._local_slices: dict[int, tuple] = {}  # id(slice) -> its part of a view
        self._lookups: dict[str, tuple] = {}  # driver -> per constraint name, _lookup
        global _attribute_views
        if _attribute_views[0] is not self.keys.memory:  # the keys are numbers of one selector memory
            _attribute_views = (self.keys.memory, {})
        self.attribute_views = _attribute_views[1]

    def _reads(self, claims) -> frozenset | None:
        """What all selectors of all requests and their classes read together (None: maybe anything)."""
        selectors, classes = self.allocator.selectors, self.allocator.classes
        reads: set = set()
        for claim in claims:
            for view, subs in self.allocator.views(claim):
                for request in subs or [view]:
                    found = selectors.joint_reads(classes.get(request.class_name), request.expressions)
                    if found is None:
                        return None
                    reads |= found
        return frozenset(reads)

    def view(self, node: model.Node, pools: list[Pool]) -> tuple[tuple, tuple[str, ...]] | None:
        """(the view, the left-out names it stands for) of ``pools`` gathered for ``node``; None when a
        node selector cannot be evaluated (the search then fails in its own words)."""
        name = node.metadata.name
        local: dict[tuple[str, str], int] = {}
        names = [name] if name else []
        try:
            def pool_part(driver: str, pool_name: str) -> tuple:
                pool_id = (driver, pool_name)
                if pool_id in local:
                    return "own", local[pool_id]
                if (self.nodes_of_pool.get(pool_id) == {name} and len(self.ids_of_name[pool_name]) == 1
                        and pool_name not in self.held_pools and name):
                    local[pool_id] = len(local)
                    names.append(pool_name)
                    return "own", local[pool_id]
                return "shared", driver, pool_name

            def slice_part(s: model.ResourceSlice) -> tuple:
                own = pool_part(s.spec.driver, s.spec.pool.name)[0] == "own"
                if own:
                    names.append(s.metadata.name)
                    found = self._local_slices.get(id(s))
                    if found is None:
                        found = self._local_slices[id(s)] = self._slice_content(s)
                else:
                    found = ("shared", id(s))
                if s.spec.per_device_node_selection:
                    found += (tuple(node_matches(node, d.node_name or "", bool(d.all_nodes), d.node_selector)
                                    for d in s.spec.devices),)
                return found

            gathered = {(p.driver, p.name): i for i, p in enumerate(pools)}
            view = (  # (list comprehensions: cheaper than generators, in the same order)
                tuple([(p.driver, pool_part(p.driver, p.name), p.incomplete, p.invalid, p.invalid_reason,
                        tuple([slice_part(s) for s in p.slices]), tuple([slice_part(s) for s in p.other_slices]),
                        FROZEN_SLICES.frozen(p.counter_sets)) for p in pools]),
                tuple([(slice_part(s), relevant, pool_part(s.spec.driver, s.spec.pool.name),
                        self._gathered_as(pools, gathered, s)) for s, relevant in slices_in_reach(self.allocator, node)]),
            )
        except NodeSelectorError:
            return None
        return view, tuple(names)

    @staticmethod
    def _gathered_as(pools: list[Pool], gathered: dict, s: model.ResourceSlice) -> tuple:
        """Which gathered pool the slice is of (-1: none), and whether it is among the pool's slices."""
        index = gathered.get((s.spec.driver, s.spec.pool.name), -1)
        return index, index >= 0 and any(x is s for x in pools[index].slices)

    def _slice_content(self, s: model.ResourceSlice) -> tuple:
        """A slice of the node's own pool: everything but its name, its node and its pool's name, and its
        devices' attributes as the claims see them (remembered across calls for the same reads: editing a
        selector's value, the usual edit, reads the same attributes)."""
        key = (id(s), self.reads, self.constraint_names, self.multi_ok)
        found = self.attribute_views.get(key)
        if found is None or found[0] is not s:
            if len(self.attribute_views) >= MAX_ATTRIBUTE_VIEWS:
                self.attribute_views.clear()
            driver = s.spec.driver
            found = self.attribute_views[key] = (s, number(tuple([self._attributes(driver, d)
                                                                  for d in s.spec.devices]), len(s.spec.devices)))
        return "own", FROZEN_SLICES.of(s), found[1]

    def _attributes(self, driver: str, device: model.Device) -> tuple:
        multi = self.multi_ok and bool(device.allow_multiple_allocations)
        key = self.keys.key(self.reads, driver, device, multi)
        if not self.constraint_names:
            return key, ()
        lookups = self._lookups.get(driver)
        if lookups is None:
            lookups = self._lookups[driver] = tuple(_lookup(name, driver) for name in self.constraint_names)
        attributes = device.attributes
        fields = []
        for name, short in lookups:  # what lookup_attribute finds, without a call per device and name
            a = attributes.get(name)
            if a is None and short is not None:
                a = attributes.get(short)
            fields.append(_attribute_fields(a) if a is not None else None)
        return key, tuple(fields)


def _lookup(name: str, driver: str) -> tuple[str, str | None]:
    """(the name, the short name ``constraints.lookup_attribute`` also tries for it on a device of ``driver``,
    or None)."""
    domain, slash, ident = name.partition("/")
    return name, ident if slash and domain == driver else None


class FrozenSlices:
    """Slices as hashable values without their names, their node, their pool's name and their devices'
    attributes, remembered per slice object (a stored cluster's objects serve many calls).

    Forgets everything past ``max_devices`` devices (it keeps their slices alive), as the selectors'
    memory does."""

    def __init__(self, max_devices: int):
        self.max_devices = max_devices
        self._devices = 0
        self._slices: dict[int, tuple[model.ResourceSlice, tuple]] = {}
        self._values: dict[int, tuple[object, tuple]] = {}  # id(model object) -> (object, frozen)

    def frozen(self, value) -> tuple:
        return self._freeze(value)

    def of(self, s: model.ResourceSlice) -> int:
        """The number of the slice's frozen value (``number``)."""
        found = self._slices.get(id(s))
        if found is None or found[0] is not s:
            spec = s.spec
            if self._devices + len(spec.devices) > self.max_devices:
                self._slices, self._values, self._devices = {}, {}, 0
            self._devices += len(spec.devices)
            found = self._slices[id(s)] = (s, number((
                self._freeze(spec, skip=("devices", "node_name", "pool")), self._freeze(spec.pool, skip=("name",)),
                tuple([self._freeze(d, skip=("attributes",)) for d in spec.devices])), len(spec.devices)))
        return found[1]

    def _freeze(self, value, skip: tuple[str, ...] = ()):
        """A hashable value equal for equal model values (types kept apart: 1, 1.0 and True differ)."""
        kind = type(value)
        if value is None or kind is str:
            return value
        if kind is bool or kind is int or kind is float:
            return kind, value
        if kind is list or kind is tuple:
            return (list, *map(self._freeze, value)) if value else _NOTHING
        if kind is dict:
            return (dict, *[(k, self._freeze(v)) for k, v in value.items()]) if value else _NO_ENTRIES
        if kind is Quantity:
            return Quantity, str(value), value.format
        names = _FIELD_NAMES.get(kind)
        if names is None:
            names = _FIELD_NAMES[kind] = (tuple(f.name for f in records.fields(kind))
                                          if records.is_dataclass(kind) else ())
        if not names:
            return "object", id(value)  # unknown: equal only to itself (kept alive by the slice remembered)
        if not skip:
            found = self._values.get(id(value))  # decoding shares equal values: freeze each once
            if found is not None and found[0] is value:
                return found[1]
        frozen = [kind]
        for name in names:
            if name in skip:
                frozen.append(_LEFT_OUT)
                continue
            field = getattr(value, name)
            # Most fields are unset or text: no call for them (a cluster has thousands of devices).
            frozen.append(field if field is None or type(field) is str else
                          _NOTHING if type(field) is list and not field else self._freeze(field))
        frozen = tuple(frozen)
        if not skip:
            self._values[id(value)] = (value, frozen)
        return frozen


# Per selector memory (whose numbers the keys are): (id(slice), reads, constraint attributes,
# allowMultipleAllocations shown) -> (slice, its devices' attribute views). About 2.5 clusters of 1,000
# nodes with one slice each, read the same way; the slices are kept alive.
MAX_ATTRIBUTE_VIEWS = 2_500
_attribute_views: tuple[object, dict[tuple, tuple]] = (None, {})
def number(value: tuple, devices: int) -> int:
    """A number per distinct value of a slice (of ``devices`` devices), so that a node's view hashes a few
    numbers, not every device's fields.

    Numbers are never given twice, also after the table is emptied past ``MAX_NUMBERED_DEVICES`` devices
    (equal values then get a new number: fewer nodes share, none wrongly)."""
    global _numbered_devices
    found = _NUMBERS.get(value)
    if found is None:
        if _numbered_devices + devices > MAX_NUMBERED_DEVICES:
            _NUMBERS.clear()
            _numbered_devices = 0
        _numbered_devices += devices
        found = _NUMBERS[value] = next(_NEXT_NUMBER)
    return found


# Distinct slices' values (devices without names, attributes as read): as many devices as the frozen
# slices and their attribute views hold together. A cluster's nodes of one kind have one value.
MAX_NUMBERED_DEVICES = 2 * SHARED_MAX_DEVICES
_NUMBERS: dict[tuple, int] = {}
_numbered_devices = 0
_NEXT_NUMBER = itertools.count()
_NOTHING = (list,)
_NO_ENTRIES = (dict,)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # model class -> its fields' names
# As many devices as the selectors' shared memory keeps (two clusters of 1,000 nodes with 8 devices each).
FROZEN_SLICES = FrozenSlices(max_devices=SHARED_MAX_DEVICES)


def slices_in_reach(allocator, node: model.Node) -> list[tuple[model.ResourceSlice, bool]]:
    """(slice, whether it offers devices to the node) for the slices of the newest generation of every pool
    that are on the node or on no node in particular, in the order the explanation lists their devices.

    Here rather than in ``explain``, which uses it too: the views load on every search, explanations only
    for what does not fit."""
    newest = allocator.newest_generation
    out = []
    for s in sorted(allocator.slices_near(node), key=lambda s: (s.spec.driver, s.spec.pool.name, s.metadata.name)):
        if s.spec.pool.generation != newest[(s.spec.driver, s.spec.pool.name)]:
            continue
        try:
            relevant = bool(slice_is_relevant(s, node))
        except PoolError:
            relevant = False
        out.append((s, relevant))
    return out
