"""A picture of the inventory for the page: nodes, pools and device tiles.

Presentation only. The devices come from the engine's own reader
(``allocator.kube.objects.read_documents``); which device went to which request
and container comes from the engine's report. Nothing here decides anything
about allocation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from allocator.kube import model
from allocator.kube.objects import read_documents
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

    @property
    def title(self) -> str:
        return "\n".join([f"{self.pool}/{self.name} ({self.driver})", *self.details])

    @property
    def color(self) -> int | None:
        return self.grants[0].color if self.grants else None


@dataclass
class PoolView:
    driver: str
    name: str
    devices: list[Tile] = field(default_factory=list)


@dataclass
class NodeView:
    name: str
    pools: list[PoolView] = field(default_factory=list)
    chosen: bool = False
    shared: bool = False  # a group of network-attached devices, not a node

    @property
    def device_count(self) -> int:
        return sum(len(p.devices) for p in self.pools)


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


def grants_by_device(report: dict) -> tuple[dict[tuple[str, str, str], list[Grant]], list[Grant]]:
    """(driver, pool, device) -> the requests it was granted to, and the legend in allocation order."""
    by_device: dict[tuple[str, str, str], list[Grant]] = {}
    legend: dict[tuple[str, str], Grant] = {}
    for claim in (report.get("allocation") or {}).get("claims") or []:
        meta = claim.get("metadata") or {}
        name = meta.get("name") or meta.get("generateName") or "?"
        results = (((claim.get("status") or {}).get("allocation") or {}).get("devices") or {}).get("results") or []
        for result in results:
            key = (name, result.get("request", ""))
            if key not in legend:
                legend[key] = Grant(claim=key[0], request=key[1], color=len(legend) % PALETTE)
            device = (result.get("driver", ""), result.get("pool", ""), result.get("device", ""))
            by_device.setdefault(device, []).append(legend[key])
    return by_device, list(legend.values())


def containers_by_device(report: dict) -> dict[tuple[str, str, str], list[str]]:
    out: dict[tuple[str, str, str], list[str]] = {}
    for entry in report.get("containers") or []:
        who = f"{entry.get('pod')}/{entry.get('container')}"
        for d in entry.get("devices") or []:
            names = out.setdefault((d.get("driver", ""), d.get("pool", ""), d.get("device", "")), [])
            if who not in names:
                names.append(who)
    return out


def build(inventory: str, documents: str, report: dict | None, limits=None, fitting: set[str] | None = None,
          limit: int | None = None) -> Picture:
    """Tiles for every device of the ResourceSlices in the inventory (and the documents).

    With ``limit``, at most that many nodes are drawn (``condense``, with the nodes
    in ``fitting``); the tiles of the others are counted, not detailed.
    """
    report = report or {}
    grants, legend = grants_by_device(report)
    containers = containers_by_device(report)
    allocation = report.get("allocation") or {}
    chosen = allocation.get("node") if allocation.get("status") == "allocated" else None
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
    for node in pic.nodes:
        for pool in node.pools:
            pool.devices = [_tile(s, device, grants, containers) for s, device in pool.devices]
    return pic


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


def _tile(s: model.ResourceSlice, device: model.Device, grants: dict, containers: dict) -> Tile:
    key = (s.spec.driver, s.spec.pool.name, device.name)
    return Tile(driver=s.spec.driver, pool=s.spec.pool.name, name=device.name, details=_details(device),
                tainted=bool(device.taints), grants=grants.get(key, []), containers=containers.get(key, []))
