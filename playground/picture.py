"""A picture of the inventory for the page: nodes, pools and device tiles.

Presentation only. The devices come from the engine's own reader
(``allocator.kube.objects.read_documents``); which device went to which request
and container comes from the engine's report. Nothing here decides anything
about allocation.

Partitionable devices are drawn under the counter sets they consume
(``CounterGroup``): the whole device and its partitions under one heading, a
bar per counter (total; taken by already-allocated claims; taken by this
grant; free), and for each device the counters it needs and the devices of
the group it excludes (two placements that together need more of a counter
than the set has). Counter sets linked by a device that consumes from
several are one group. The counter sets may sit in the devices' own slice
(the 1.33 form) or in a separate slice of the pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from allocator.allocation.taint_rules import rule_taints_by_device
from allocator.engine import ClaimGrant, ContainerDevices, Report
from allocator.kube import model
from allocator.kube.objects import read_documents
from allocator.kube.quantity import Quantity
from allocator.reading.diagnostics import DiagnosticError
from playground.limits import engine_limits

# How many distinct request colours the stylesheet defines (.grant-0 ...).
PALETTE = 8
ALL_NODES = "Available on all nodes"
SELECTED_NODES = "Available on selected nodes"
SHARED = (ALL_NODES, SELECTED_NODES)


@dataclass
class Grant:
    claim: str
    request: str
    color: int

    @property
    def label(self) -> str:
        return f"{self.claim} / {self.request}"


@dataclass
class Tile:
    driver: str
    pool: str
    name: str
    details: list[str] = field(default_factory=list)
    tainted: bool = False
    grants: list[Grant] = field(default_factory=list)
    containers: list[str] = field(default_factory=list)
    held_by: list[str] = field(default_factory=list)  # already-allocated claims holding the device
    consumes: list[str] = field(default_factory=list)  # "counter-set/counter" it needs (non-zero)
    excludes: list[str] = field(default_factory=list)  # devices of its counter group it cannot be allocated beside
    taint_rules: list[str] = field(default_factory=list)  # DeviceTaintRules that taint it, as the scheduler sees it

    @property
    def title(self) -> str:
        lines = [f"{self.pool}/{self.name} ({self.driver})", *self.details]
        if self.held_by:
            lines.append(f"allocated to {', '.join(self.held_by)}")
        if self.excludes:
            lines.append(f"excludes {len(self.excludes)}: {', '.join(self.excludes)}")
        return "\n".join(lines)

    @property
    def key(self) -> str:
        return f"{self.driver}/{self.pool}/{self.name}"

    @property
    def color(self) -> int | None:
        return self.grants[0].color if self.grants else None


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
    name: str
    bars: list[CounterBar] = field(default_factory=list)


@dataclass
class CounterGroup:
    """Devices that consume the same counter sets (linked through devices consuming from several)."""

    sets: list[CounterSetView] = field(default_factory=list)
    devices: list[Tile] = field(default_factory=list)

    @property
    def title(self) -> str:
        return " + ".join(s.name for s in self.sets)


@dataclass
class PoolView:
    driver: str
    name: str
    devices: list[Tile] = field(default_factory=list)  # those that consume no counters when ``groups`` is set
    groups: list[CounterGroup] = field(default_factory=list)


@dataclass
class NodeView:
    name: str
    pools: list[PoolView] = field(default_factory=list)
    chosen: bool = False
    shared: bool = False  # a group of network-attached devices, not a node

    @property
    def device_count(self) -> int:
        return sum(len(p.devices) + sum(len(g.devices) for g in p.groups) for p in self.pools)


@dataclass
class Picture:
    nodes: list[NodeView] = field(default_factory=list)
    legend: list[Grant] = field(default_factory=list)
    node_names: list[str] = field(default_factory=list)
    # Nodes left out of the drawing by ``condense``: how many, their devices, how many of them fit.
    hidden_nodes: int = 0
    hidden_devices: int = 0
    hidden_fitting: int = 0

    @property
    def device_count(self) -> int:
        return sum(n.device_count for n in self.nodes) + self.hidden_devices

    @property
    def has_counters(self) -> bool:
        return any(p.groups for n in self.nodes for p in n.pools)


def condense(pic: Picture, fitting: set[str], limit: int) -> Picture:
    """At most ``limit`` nodes drawn: the chosen one, then nodes that fit, then others, in name order;
    network-attached groups always. The rest are counted (``hidden_*``) for a one-line summary."""
    nodes = [n for n in pic.nodes if not n.shared]
    if len(nodes) <= limit:
        return pic
    ranked = sorted(nodes, key=lambda n: (not n.chosen, n.name not in fitting, n.name))
    keep = {id(n) for n in ranked[:limit]}
    hidden = [n for n in nodes if id(n) not in keep]
    pic.nodes = [n for n in pic.nodes if n.shared or id(n) in keep]
    pic.hidden_nodes = len(hidden)
    pic.hidden_devices = sum(n.device_count for n in hidden)
    pic.hidden_fitting = sum(1 for n in hidden if n.name in fitting)
    return pic


def _attribute(value: model.DeviceAttribute) -> str:
    for kind in ("string", "int", "bool", "version", "strings", "ints", "bools", "versions"):
        v = getattr(value, kind)
        if v is not None:
            return str(v).lower() if isinstance(v, bool) else str(v)
    return ""


def _details(device: model.Device) -> list[str]:
    lines = [f"{name}: {_attribute(v)}" for name, v in sorted(device.attributes.items())]
    lines += [f"capacity {name}: {c.value}" for name, c in sorted(device.capacity.items())]
    lines += [f"consumes {c.counter_set}: " + ", ".join(f"{name} {v.value}" for name, v in c.counters.items())
              for c in device.consumes_counters if c.counters]
    lines += [f"taint {t.key}={t.value or ''}:{t.effect}" for t in device.taints]
    return lines


def _read(text: str, limits) -> list:
    try:
        return read_documents(text, limits=limits).documents
    except (DiagnosticError, ValueError):
        return []


def _location(s: model.ResourceSlice, device: model.Device) -> str:
    """The node a device is on, or a group for network-attached devices."""
    if s.spec.node_name or device.node_name:
        return s.spec.node_name or device.node_name
    return ALL_NODES if (s.spec.all_nodes or device.all_nodes) else SELECTED_NODES


def grants_by_device(claims: Sequence[ClaimGrant]) -> tuple[dict[tuple[str, str, str], list[Grant]], list[Grant]]:
    """(driver, pool, device) -> the requests it was granted to, and the legend in allocation order."""
    by_device: dict[tuple[str, str, str], list[Grant]] = {}
    legend: dict[tuple[str, str], Grant] = {}
    for claim in claims:
        for result in claim.results:
            key = (claim.name or "?", result.request)
            if key not in legend:
                legend[key] = Grant(claim=key[0], request=key[1], color=len(legend) % PALETTE)
            by_device.setdefault((result.driver, result.pool, result.device), []).append(legend[key])
    return by_device, list(legend.values())


def containers_by_device(entries: Sequence[ContainerDevices]) -> dict[tuple[str, str, str], list[str]]:
    out: dict[tuple[str, str, str], list[str]] = {}
    for entry in entries:
        who = f"{entry.pod}/{entry.container}"
        for d in entry.devices:
            names = out.setdefault((d.driver, d.pool, d.device), [])
            if who not in names:
                names.append(who)
    return out


def build(inventory: str, documents: str, report: Report | None, limits=None, fitting: set[str] | None = None,
          limit: int | None = None) -> Picture:
    """Tiles for every device of the ResourceSlices in the inventory (and the documents).

    With ``limit``, at most that many nodes are drawn (``condense``, with the nodes
    in ``fitting``); the tiles of the others are counted, not detailed.
    """
    grants, legend = grants_by_device(report.allocation.claims if report is not None else [])
    containers = containers_by_device(report.containers if report is not None else [])
    allocated = report is not None and report.allocation.status == "allocated"
    chosen = report.allocation.node if allocated else None
    limits = limits or engine_limits()
    docs = _read(inventory, limits) + _read(documents, limits)
    node_names = sorted({d.obj.metadata.name for d in docs if d.kind == "Node"})
    nodes: dict[str, NodeView] = {name: NodeView(name=name) for name in node_names}
    pools: dict[tuple[str, str, str], PoolView] = {}
    # Pools hold (slice, device) pairs until the nodes to draw are known: only their tiles are made.
    for doc in docs:
        if doc.kind != "ResourceSlice":
            continue
        s: model.ResourceSlice = doc.obj
        if s.spec.node_name:  # the slice's node is every device's (``_location``)
            _pool_view(nodes, pools, s.spec.node_name, s).devices.extend((s, device) for device in s.spec.devices)
            continue
        for device in s.spec.devices:
            _pool_view(nodes, pools, _location(s, device), s).devices.append((s, device))
    for name, node in nodes.items():
        node.chosen = name == chosen
    for name in SHARED:
        if name in nodes:
            nodes[name].shared = True
    ordered = sorted(nodes.values(), key=lambda n: (n.shared, n.name))
    listed = set(node_names)
    slice_nodes = sorted(n for n in nodes if n not in SHARED and n not in listed)
    pic = Picture(nodes=ordered, legend=legend, node_names=node_names + slice_nodes)
    if limit is not None:
        pic = condense(pic, fitting or set(), limit)
    counters = _Counters(docs, set(grants))
    ruled = _rule_taints(docs, report)
    for node in pic.nodes:
        for pool in node.pools:
            pairs = pool.devices
            pool.devices = [_tile(s, device, grants, containers, counters.holders, ruled) for s, device in pairs]
            if counters.sets:
                counters.group(pool, pairs)
    return pic


def _quantity(text: str) -> Quantity | None:
    try:
        return Quantity.parse(str(text))
    except (ValueError, TypeError):
        return None


def _percent(part: Quantity, total: Quantity) -> float:
    whole = total.as_approximate_float()
    if whole <= 0:
        return 100.0 if part.sign() > 0 else 0.0
    return max(0.0, min(100.0, part.as_approximate_float() * 100.0 / whole))


# Joins a slice's name to its counter sets' names where sets belong to their slice (the 1.33 form).
SCOPE = "\x00"


def _scope(s: model.ResourceSlice) -> str:
    """How the sets of slice ``s`` are told apart: a slice holding sets and devices keeps its own (1.33-1.34)."""
    return f"{s.metadata.name}{SCOPE}" if s.spec.shared_counters and s.spec.devices else ""


def _shown(counter_set: str) -> str:
    return counter_set.rsplit(SCOPE, 1)[-1]


def _needs(device: model.Device, scope: str = "") -> dict[tuple[str, str], Quantity]:
    out: dict[tuple[str, str], Quantity] = {}
    for entry in device.consumes_counters:
        for name, counter in entry.counters.items():
            q = _quantity(counter.value)
            if q is not None and not q.is_zero:
                key = (scope + entry.counter_set, name)
                out[key] = out[key] + q if key in out else q
    return out


# Pairs of devices compared for overlap per counter group at most (a group is one GPU and its placements).
MAX_OVERLAP_DEVICES = 300


class _Counters:
    """The pools' counter sets (newest generation), the devices of each pool, and which are taken by whom."""

    def __init__(self, docs: list, granted: set[tuple[str, str, str]]):
        slices = [d.obj for d in docs if d.kind == "ResourceSlice"]
        newest: dict[tuple[str, str], int] = {}
        for s in slices:
            key = (s.spec.driver, s.spec.pool.name)
            newest[key] = max(newest.get(key, s.spec.pool.generation), s.spec.pool.generation)
        self.sets: dict[tuple[str, str], dict[str, model.CounterSet]] = {}
        self.devices: dict[tuple[str, str], list[tuple[model.ResourceSlice, model.Device]]] = {}
        for s in slices:
            key = (s.spec.driver, s.spec.pool.name)
            if s.spec.pool.generation != newest[key]:
                continue
            for cs in s.spec.shared_counters:
                self.sets.setdefault(key, {}).setdefault(_scope(s) + cs.name, cs)
            self.devices.setdefault(key, []).extend((s, d) for d in s.spec.devices)
        self.granted = granted
        self.holders: dict[tuple[str, str, str], list[str]] = {}
        for d in docs:
            if d.kind != "ResourceClaim" or d.obj.status.allocation is None:
                continue
            name = d.obj.metadata.name or d.obj.metadata.generate_name or "?"
            for r in d.obj.status.allocation.devices.results:
                if not r.admin_access:
                    held = self.holders.setdefault((r.driver, r.pool, r.device), [])
                    if name not in held:
                        held.append(name)

    def group(self, pool: PoolView, pairs: list) -> None:
        """Move the tiles that consume counters of the pool's counter sets into ``pool.groups``."""
        key = (pool.driver, pool.name)
        sets = self.sets.get(key)
        if not sets:
            return
        tiles = pool.devices
        needs = [_needs(device, _scope(s)) for s, device in pairs]
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
        used = self._used(key)
        groups: dict[str, CounterGroup] = {}
        for name in sets:  # in the order the pool publishes them
            root = find(name)
            group = groups.setdefault(root, CounterGroup())
            group.sets.append(self._set_view(sets[name], used, name))
        rest = []
        members: dict[str, list[tuple[Tile, dict]]] = {}
        for tile, need in zip(tiles, needs, strict=True):
            names = [cs for cs, _ in need if cs in sets]
            if not names:
                rest.append(tile)
                continue
            tile.consumes = [f"{_shown(cs)}/{c}" for cs, c in need]
            members.setdefault(find(names[0]), []).append((tile, need))
        totals = {(name, c): q for name, cs in sets.items() for c, v in cs.counters.items()
                  if (q := _quantity(v.value)) is not None}
        for root, found in members.items():
            groups[root].devices = [t for t, _ in found]
            if len(found) <= MAX_OVERLAP_DEVICES:
                _overlaps(found, totals)
        pool.devices = rest
        pool.groups = [g for g in groups.values() if g.devices]

    def _used(self, key: tuple[str, str]) -> dict[tuple[str, str], tuple[Quantity, Quantity]]:
        """(counter set, counter) -> (taken by allocated claims, taken by this grant)."""
        zero = Quantity.parse("0")
        out: dict[tuple[str, str], tuple[Quantity, Quantity]] = {}
        for s, device in self.devices.get(key, ()):
            device_key = (key[0], key[1], device.name)
            held, granted = device_key in self.holders, device_key in self.granted
            if not (held or granted):
                continue
            for counter, q in _needs(device, _scope(s)).items():
                a, g = out.get(counter, (zero, zero))
                out[counter] = (a + q, g) if held else (a, g + q)
        return out

    @staticmethod
    def _set_view(cs: model.CounterSet, used: dict, key: str) -> CounterSetView:
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


def _overlaps(found: list[tuple[Tile, dict]], totals: dict) -> None:
    """Each device's ``excludes``: the others that need, together with it, more of a counter than its set has."""
    for i, (tile, need) in enumerate(found):
        for other, other_need in found[i + 1:]:
            for counter, q in need.items():
                total = totals.get(counter)
                more = other_need.get(counter)
                if total is not None and more is not None and total.cmp(q + more) < 0:
                    tile.excludes.append(other.name)
                    other.excludes.append(tile.name)
                    break


def _pool_view(nodes: dict[str, NodeView], pools: dict, where: str, s: model.ResourceSlice) -> PoolView:
    """The view of the slice's pool on node ``where``, made when new (a cluster has thousands of devices)."""
    pool_key = (where, s.spec.driver, s.spec.pool.name)
    pool = pools.get(pool_key)
    if pool is None:
        node = nodes.get(where)
        if node is None:
            node = nodes[where] = NodeView(name=where)
        pool = pools[pool_key] = PoolView(driver=s.spec.driver, name=s.spec.pool.name)
        node.pools.append(pool)
    return pool


def _rule_taints(docs: list, report: Report | None) -> dict:
    """(driver, pool, device) -> the taints DeviceTaintRules add, under the report's release and gates
    (the engine decides which rules apply where; nothing without a report)."""
    rules = [d.obj for d in docs if d.kind == "DeviceTaintRule"]
    if not rules or report is None:
        return {}
    gates = report.gates
    slices = [d.obj for d in docs if d.kind == "ResourceSlice"]
    classes = {d.obj.metadata.name: d.obj for d in docs if d.kind == "DeviceClass"}
    return rule_taints_by_device(slices, rules, classes, gates)


def _tile(s: model.ResourceSlice, device: model.Device, grants: dict, containers: dict,
          holders: dict | None = None, ruled: dict | None = None) -> Tile:
    key = (s.spec.driver, s.spec.pool.name, device.name)
    added = (ruled or {}).get(key, [])
    details = _details(device) + [f"taint {t.key}={t.value or ''}:{t.effect} from DeviceTaintRule {t.rule}"
                                  for t in added]
    return Tile(driver=s.spec.driver, pool=s.spec.pool.name, name=device.name, details=details,
                tainted=bool(device.taints or added), grants=grants.get(key, []), containers=containers.get(key, []),
                held_by=list((holders or {}).get(key, ())), taint_rules=list(dict.fromkeys(t.rule for t in added)))
