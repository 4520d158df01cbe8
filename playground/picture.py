"""A picture of the inventory for the page: nodes, pools and device tiles.

Presentation only. The devices, where they are, and for partitionable devices
the counter sets, what each device needs and excludes and the counters' bars
come from the engine's read of the inventory (``allocator.authoring.inventory``,
``Report.inventory``); which device went to which request and container comes
from the engine's report. Nothing here reads the inventory or decides anything
about allocation.

Partitionable devices are drawn under the counter sets they consume
(``CounterGroup``): the whole device and its partitions under one heading, a
bar per counter, and for each device the counters it needs and the devices of
the group it excludes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from allocator.authoring.inventory import (
    ALL_NODES,
    SELECTED_NODES,
    SHARED,
    CounterBar,
    CounterSetView,
    Inventory,
    Placed,
)
from allocator.engine import ClaimGrant, ContainerDevices, Report, RequestView
from allocator.kube import model

__all__ = ["ALL_NODES", "SELECTED_NODES", "SHARED", "CounterBar", "CounterSetView", "Picture", "build", "condense",
           "outline"]

# How many distinct request colours the stylesheet defines (.grant-0 ...).
PALETTE = 8


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
    matches: list[str] = field(default_factory=list)  # the ``RequestMark`` tokens of the requests it matches
    filtered: list[str] = field(default_factory=list)  # those of the requests whose selectors are false on it

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
    # Tiles: those that consume no counters when ``groups`` is set (``build`` first gathers ``Placed`` devices).
    devices: list = field(default_factory=list)
    groups: list[CounterGroup] = field(default_factory=list)


@dataclass
class NodeView:
    name: str
    pools: list[PoolView] = field(default_factory=list)
    chosen: bool = False
    shared: bool = False  # a group of network-attached devices, not a node
    explained: bool = False  # the node the per-request explanation (and the request marks) looks from

    @property
    def device_count(self) -> int:
        return sum(len(p.devices) + sum(len(g.devices) for g in p.groups) for p in self.pools)


# The explanation's reason codes for a device a selector (of the request's class, or its own) is false on.
SELECTOR_FALSE = ("class-selector", "request-selector")


@dataclass
class RequestMark:
    """A request as the picture marks it: the devices in reach of the explained node that match it (every
    check passed), and those its selectors filter out; ``token`` names it in the tiles' ``matches`` and
    ``filtered``. ``color``: its colour when it was granted."""

    token: str
    claim: str
    request: str
    color: int | None
    total: int
    matching: int
    filtered: int

    @property
    def label(self) -> str:
        return f"{self.claim} / {self.request}"


@dataclass
class Picture:
    nodes: list[NodeView] = field(default_factory=list)
    legend: list[Grant] = field(default_factory=list)
    # Per request, which devices match it and which its selectors filter out (seen from ``explained_node``).
    requests: list[RequestMark] = field(default_factory=list)
    explained_node: str | None = None
    node_names: list[str] = field(default_factory=list)
    # Nodes left out of the drawing by ``condense``: how many, their devices, how many of them fit.
    hidden_nodes: int = 0
    hidden_devices: int = 0
    hidden_fitting: int = 0
    # An outline only (``outline``): the names and the legend, no nodes; the page fetches the drawing when shown.
    deferred: bool = False

    @property
    def device_count(self) -> int:
        return sum(n.device_count for n in self.nodes) + self.hidden_devices

    @property
    def has_counters(self) -> bool:
        return any(p.groups for n in self.nodes for p in n.pools)


def condense(pic: Picture, fitting: set[str], limit: int) -> Picture:
    """At most ``limit`` nodes drawn: the chosen one (and the one the explanation looks from), then nodes
    that fit, then others, in name order; network-attached groups always. The rest are counted
    (``hidden_*``) for a one-line summary."""
    nodes = [n for n in pic.nodes if not n.shared]
    if len(nodes) <= limit:
        return pic
    ranked = sorted(nodes, key=lambda n: (not (n.chosen or n.explained), n.name not in fitting, n.name))
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


def request_marks(requests: Sequence[RequestView], legend: Sequence[Grant],
                  ) -> tuple[list[RequestMark], dict[tuple[str, str, str], list[str]], dict[tuple[str, str, str], list[str]]]:
    """Per request of the explanation, its mark; and (driver, pool, device) -> the tokens of the requests it
    matches, and of those whose selectors are false on it."""
    colors = {(g.claim, g.request): g.color for g in legend}
    marks: list[RequestMark] = []
    matches: dict[tuple[str, str, str], list[str]] = {}
    filtered: dict[tuple[str, str, str], list[str]] = {}
    for index, req in enumerate(requests):
        token = f"r{index}"
        claim = req.claim.split("/", 1)[-1]  # "namespace/name": the grants carry the name alone
        matching = filtering = 0
        for d in req.devices:
            key = (d.driver, d.pool, d.device)
            if d.matches:
                matching += 1
                matches.setdefault(key, []).append(token)
            elif d.reason_code in SELECTOR_FALSE:
                filtering += 1
                filtered.setdefault(key, []).append(token)
        marks.append(RequestMark(token=token, claim=claim, request=req.request, color=colors.get((claim, req.request)),
                                 total=len(req.devices), matching=matching, filtered=filtering))
    return marks, matches, filtered


def containers_by_device(entries: Sequence[ContainerDevices]) -> dict[tuple[str, str, str], list[str]]:
    out: dict[tuple[str, str, str], list[str]] = {}
    for entry in entries:
        who = f"{entry.pod}/{entry.container}"
        for d in entry.devices:
            names = out.setdefault((d.driver, d.pool, d.device), [])
            if who not in names:
                names.append(who)
    return out


def build(inventory: Inventory, report: Report | None = None, fitting: set[str] | None = None,
          limit: int | None = None) -> Picture:
    """Tiles for every device of the ResourceSlices of ``inventory`` (the engine's read: ``Report.inventory``).

    With ``limit``, at most that many nodes are drawn (``condense``, with the nodes
    in ``fitting``); the tiles of the others are counted, not detailed.
    """
    grants, legend = grants_by_device(report.allocation.claims if report is not None else [])
    containers = containers_by_device(report.containers if report is not None else [])
    allocated = report is not None and report.allocation.status == "allocated"
    chosen = report.allocation.node if allocated else None
    node_names = inventory.node_names
    nodes: dict[str, NodeView] = {name: NodeView(name=name) for name in node_names}
    pools: dict[tuple[str, str, str], PoolView] = {}
    # Pools hold the devices (``Placed``) until the nodes to draw are known: only their tiles are made.
    for device in inventory.devices():
        _pool_view(nodes, pools, device).devices.append(device)
    explained = report.explained_node if report is not None else None
    for name, node in nodes.items():
        node.chosen = name == chosen
        node.explained = name == explained
    for name in SHARED:
        if name in nodes:
            nodes[name].shared = True
    ordered = sorted(nodes.values(), key=lambda n: (n.shared, n.name))
    listed = set(node_names)
    slice_nodes = sorted(n for n in nodes if n not in SHARED and n not in listed)
    marks, matches, filtered = request_marks(report.requests if report is not None else [], legend)
    pic = Picture(nodes=ordered, legend=legend, node_names=node_names + slice_nodes, requests=marks,
                  explained_node=explained)
    if limit is not None:
        pic = condense(pic, fitting or set(), limit)
    # The engine decides which DeviceTaintRules apply where, under the report's release and gates.
    ruled = inventory.rule_taints(report.gates) if report is not None else {}
    granted = set(grants)
    for node in pic.nodes:
        for pool in node.pools:
            devices: list[Placed] = pool.devices
            tiles = [_tile(d, grants, containers, inventory.holders, ruled) for d in devices]
            for tile, device in zip(tiles, devices, strict=True):
                tile.matches, tile.filtered = matches.get(device.id, []), filtered.get(device.id, [])
            pool.devices = tiles
            if inventory.has_counter_sets:
                _group(pool, inventory, devices, tiles, granted)
    return pic


def node_names(inventory: Inventory) -> list[str]:
    """The nodes a state can name: the Node objects, then the nodes only ResourceSlices name, in name order."""
    listed = set(inventory.node_names)
    places = {d.place for d in inventory.devices()}
    return inventory.node_names + sorted(p for p in places if p not in SHARED and p not in listed)


def outline(inventory: Inventory, report: Report | None = None) -> Picture:
    """What the page needs of the picture beside the drawing (the node names, the legend's colours), for a
    live update that leaves the drawing to a request of its own, made when it is in view (``deferred``)."""
    _, legend = grants_by_device(report.allocation.claims if report is not None else [])
    return Picture(legend=legend, node_names=node_names(inventory), deferred=True)


def _group(pool: PoolView, inventory: Inventory, devices: list[Placed], tiles: list[Tile],
           granted: set[tuple[str, str, str]]) -> None:
    """Move the tiles that consume counters of the pool's counter sets into ``pool.groups``."""
    groups, counters = inventory.counter_groups(pool.driver, pool.name, devices, granted)
    if not groups:
        return
    for index, facts in counters.items():
        tiles[index].consumes, tiles[index].excludes = facts.consumes, facts.excludes
    pool.groups = [CounterGroup(sets=g.sets, devices=[tiles[i] for i in g.members]) for g in groups]
    pool.devices = [t for i, t in enumerate(tiles) if i not in counters]


def _pool_view(nodes: dict[str, NodeView], pools: dict[tuple[str, str, str], PoolView], device: Placed) -> PoolView:
    """The view of the device's pool where it is, made when new (a cluster has thousands of devices)."""
    pool_key = (device.place, device.driver, device.pool)
    pool = pools.get(pool_key)
    if pool is None:
        node = nodes.get(device.place)
        if node is None:
            node = nodes[device.place] = NodeView(name=device.place)
        pool = pools[pool_key] = PoolView(driver=device.driver, name=device.pool)
        node.pools.append(pool)
    return pool


def _tile(placed: Placed, grants: dict, containers: dict, holders: dict, ruled: dict) -> Tile:
    key, device = placed.id, placed.device
    added = ruled.get(key, [])
    details = _details(device) + [f"taint {t.key}={t.value or ''}:{t.effect} from DeviceTaintRule {t.rule}"
                                  for t in added]
    return Tile(driver=placed.driver, pool=placed.pool, name=device.name, details=details,
                tainted=bool(device.taints or added), grants=grants.get(key, []), containers=containers.get(key, []),
                held_by=list(holders.get(key, ())), taint_rules=list(dict.fromkeys(t.rule for t in added)))
