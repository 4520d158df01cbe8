"""Resource pools as the allocator sees them from one node.

A pool is all ResourceSlices of one driver with one pool name. Only the
newest generation counts; a pool is complete when as many slices of that
generation exist as ``resourceSliceCount`` says; it is invalid when device
names repeat or counters are inconsistent. ``gather_pools`` follows the
upstream ``GatherPools`` of the chosen implementation: which slices are
relevant for the node, how incomplete pools are detected, and the order:
from 1.36 the incubating and experimental implementations sort pools by
driver and name (pools with binding conditions last) and slices by name;
the others walk a Go map, taken here in the order of the pools' first
slices by name (``ReleaseRules.sorts_slices``).
"""

from __future__ import annotations

from collections.abc import Iterable

from allocator.allocation.nodes import NodeSelectorError, node_matches
from allocator.allocation.switches import Switches, Variant
from allocator.kube import model
from allocator.reading.records import NamedTuple, field, record
from allocator.releases.rules import ReleaseRules


class DeviceID(NamedTuple):
    driver: str
    pool: str
    device: str

    def __str__(self) -> str:
        return f"{self.driver}/{self.pool}/{self.device}"


class PoolError(Exception):
    """Pools could not be gathered (a node selector the scheduler cannot parse)."""


@record
class Pool:
    driver: str
    name: str
    incomplete: bool = False
    invalid: bool = False
    invalid_reason: str = ""
    # Slices with devices that the node can reach, in allocation order.
    slices: list[model.ResourceSlice] = field(default_factory=list)
    # Slices of the same generation that the node cannot reach: their
    # allocated devices still consume the pool's shared counters.
    other_slices: list[model.ResourceSlice] = field(default_factory=list)
    counter_sets: dict[str, model.CounterSet] = field(default_factory=dict)
    # Set on the one-slice view of a pool that ``own_slice_counters`` gives (1.33-1.34): what counters are kept by.
    counter_key: str = ""

    @property
    def id(self) -> str:
        return f"{self.driver}/{self.name}"

    @property
    def counters_key(self) -> str:
        """What the allocator keeps counters by: the pool's name, or (1.33-1.34) one slice of it."""
        return self.counter_key or self.name


def own_slice_counters(pool: Pool, s: model.ResourceSlice) -> Pool:
    """1.33-1.34: the counters a device of slice ``s`` draws on, as a pool of that one slice.

    The allocators of v0.33 and v0.34 read a device's counter sets from the device's own slice and count
    what the allocated devices of that slice consume; other slices of the pool play no part.
    """
    return Pool(pool.driver, pool.name, slices=[s], counter_sets={cs.name: cs for cs in s.spec.shared_counters},
                counter_key=f"{pool.name}/{s.metadata.name}")


def _matches(node: model.Node, name: str | None, all_nodes: bool | None, selector, what: str) -> bool:
    try:
        return node_matches(node, name or "", bool(all_nodes), selector)
    except NodeSelectorError as err:
        raise PoolError(f"failed to perform node selection for {what}: {err}") from err


def slice_is_relevant(s: model.ResourceSlice, node: model.Node) -> bool | None:
    """Whether the slice offers devices to the node; None when it uses no known node selection."""
    spec = s.spec
    if spec.node_name or spec.all_nodes or spec.node_selector is not None:
        return _matches(node, spec.node_name, spec.all_nodes, spec.node_selector, f"slice {s.metadata.name}")
    if spec.per_device_node_selection:
        return any(
            _matches(node, d.node_name, d.all_nodes, d.node_selector,
                     f"device {d.name} in slice {s.metadata.name}")
            for d in spec.devices
        )
    return None


def gather_pools(slices_for_node: Iterable[model.ResourceSlice], node: model.Node, features: Switches,
                 all_slices: list[model.ResourceSlice], variant: Variant, rules: ReleaseRules) -> list[Pool]:
    """The pools with devices for ``node``, in the order the allocator walks them, by a release's ``rules``:

    ``rules.skips_unusable_pools`` (1.35 on) judges a pool's completeness by the slices of every node and leaves
    out a pool whose newer generation is published elsewhere; without it (before 1.35) a pool is incomplete when
    the slices the node reaches are fewer than its count, and keeps its devices.

    ``rules.slice_counters`` (1.33-1.34) keeps counters in the devices' own slices: every slice is a slice of
    devices, the pool has no counter sets of its own, and only 1.33 leaves out slices with counters while
    DRAPartitionableDevices is off (1.34 leaves out their devices that consume counters).
    ``rules.node_filters_counter_slices`` (1.37 on) lets the incubating and experimental implementations
    leave out a slice of shared counters that names another node; before, like stable always, they took it
    for every node (so its pool, when incomplete, stops an ``All`` request).
    ``rules.sorts_slices`` (1.36 on) lets the incubating and experimental implementations sort a pool's slices
    by name.
    """
    slice_counters = rules.slice_counters
    sorts = variant.sorted_order and rules.sorts_slices
    if not sorts:
        # Upstream walks its pools in Go map order, met in the order the slices are listed. The apiserver and
        # the informer list them by name (a small map comes back rotated), and Go iterates a map of up to
        # eight pools as a rotation of the order they were added in: name order here is the one rotation
        # that is always possible (and the most likely one); sorting by driver first may be none of them.
        slices_for_node = sorted(slices_for_node, key=lambda s: s.metadata.name)
    by_pool: dict[tuple[str, str], list[model.ResourceSlice]] = {}
    # 1.34-1.35's experimental implementation adds a node's slices with binding conditions after the others
    # (``rules.binding_slices_last``), so a pool's simpler devices are tried first.
    later: list[model.ResourceSlice] = []
    defer = variant.sorted_order and rules.binding_slices_last
    for s in slices_for_node:
        if not features.partitionable_devices and (
                s.spec.per_device_node_selection is not None
                or (s.spec.shared_counters and slice_counters != "slice")):
            continue
        if s.spec.shared_counters and not slice_counters and (
                not variant.sorted_order or not rules.node_filters_counter_slices):
            # The stable implementation, and before 1.37 the others too, take counter slices whatever node
            # they name.
            relevant = True
        else:
            relevant = bool(slice_is_relevant(s, node))
        if relevant and defer and not s.spec.shared_counters and _slice_has_binding_conditions(s):
            later.append(s)
        elif relevant:
            _add_slice(by_pool, s)
    for s in later:
        _add_slice(by_pool, s)

    pools, with_binding = [], []
    for (driver, name), found in by_pool.items():
        generation, count = found[0].spec.pool.generation, found[0].spec.pool.resource_slice_count
        every = None
        if len(found) != count and not rules.skips_unusable_pools:
            pool = _build_pool(driver, name, found, features, None, variant, rules)
            pool.incomplete = True
            (with_binding if variant.sorted_order and _has_binding_conditions(pool) else pools).append(pool)
            continue
        if len(found) != count:
            # Slices of this generation for other nodes may be missing from
            # ``found``; only the whole list tells complete from incomplete.
            obsolete, every = _slices_of_generation(all_slices, driver, name, generation)
            if obsolete:
                continue  # the driver is publishing a newer generation elsewhere
            if len(every) != count:
                pools.append(Pool(driver, name, incomplete=True))
                continue
        pool = _build_pool(driver, name, found, features, every, variant, rules)
        if variant.sorted_order and _has_binding_conditions(pool):
            with_binding.append(pool)
        else:
            pools.append(pool)
    if sorts:  # 1.36 on, incubating and experimental: by driver, then pool name
        pools.sort(key=lambda p: (p.driver, p.name))
        with_binding.sort(key=lambda p: (p.driver, p.name))
    return pools + with_binding


def _add_slice(by_pool: dict, s: model.ResourceSlice) -> None:
    key = (s.spec.driver, s.spec.pool.name)
    found = by_pool.get(key)
    if found is None or s.spec.pool.generation > found[0].spec.pool.generation:
        by_pool[key] = [s]
    elif s.spec.pool.generation == found[0].spec.pool.generation:
        found.append(s)


def _slices_of_generation(all_slices, driver, name, generation) -> tuple[bool, list[model.ResourceSlice]]:
    """(a newer generation exists, all slices of ``generation``) for one pool."""
    out = []
    for s in all_slices:
        if s.spec.driver != driver or s.spec.pool.name != name:
            continue
        if s.spec.pool.generation == generation:
            out.append(s)
        elif s.spec.pool.generation > generation:
            return True, []
    return False, out


def _build_pool(driver: str, name: str, found: list[model.ResourceSlice], features: Switches,
                every: list[model.ResourceSlice] | None, variant: Variant, rules: ReleaseRules) -> Pool:
    slice_counters = rules.slice_counters
    if variant.sorted_order and rules.sorts_slices:
        found = sorted(found, key=lambda s: s.metadata.name)  # (already by name otherwise: gather_pools)
    device_slices, counter_slices, other_slices = [], [], []
    for s in found:
        own = slice_counters or not (features.partitionable_devices and s.spec.shared_counters)
        (device_slices if own else counter_slices).append(s)
    if every is not None and len(found) < len(every) and not slice_counters:
        seen = {s.metadata.name for s in found}
        for s in every:
            if s.metadata.name in seen:
                continue
            if variant.sorted_order and features.partitionable_devices and s.spec.shared_counters:
                counter_slices.append(s)
            else:
                other_slices.append(s)

    def invalid(reason: str) -> Pool:
        return Pool(driver, name, invalid=True, invalid_reason=reason)

    names: set[str] = set()
    for s in device_slices:
        for d in s.spec.devices:
            if d.name in names:
                return invalid(f"duplicate device name {d.name}")
            names.add(d.name)
    if not features.partitionable_devices or slice_counters:
        return Pool(driver, name, slices=device_slices)

    counter_sets: dict[str, model.CounterSet] = {}
    for s in counter_slices:
        for cs in s.spec.shared_counters:
            if cs.name in counter_sets:
                return invalid(f"duplicate counter set name {cs.name}")
            counter_sets[cs.name] = cs
    # Stable checks the counter slices too (they have no devices, so it is the same).
    for group in (device_slices, other_slices):
        reason = _check_counter_consumption(counter_sets, group)
        if reason:
            return invalid(reason)
    return Pool(driver, name, slices=device_slices, other_slices=other_slices, counter_sets=counter_sets)


def _check_counter_consumption(counter_sets: dict[str, model.CounterSet], slices) -> str:
    for s in slices:
        for d in s.spec.devices:
            for consumption in d.consumes_counters:
                counter_set = counter_sets.get(consumption.counter_set)
                if counter_set is None:
                    return f"counter set {consumption.counter_set} not found"
                for counter in consumption.counters:
                    if counter not in counter_set.counters:
                        return f"counter {counter} not found in counter set {counter_set.name}"
    return ""


def _slice_has_binding_conditions(s: model.ResourceSlice) -> bool:
    return any(d.binding_conditions for d in s.spec.devices)


def _has_binding_conditions(pool: Pool) -> bool:
    return any(d.binding_conditions for s in pool.slices for d in s.spec.devices)
