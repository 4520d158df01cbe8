"""What a cluster snapshot holds, and whether it can be stored.

``inspect_cluster(text)`` reads an inventory (what ``kubectl get
deviceclasses,resourceslices,nodes -o yaml`` prints, or any mix of the
objects the engine reads) as the engine will read it for every analysis,
validates it as stored objects of the release (fields of every gate kept,
like ``analyze`` does for its inventory) and counts what it holds: nodes,
devices, drivers, pools. The site stores a snapshot only when it has no
error, and shows the counts instead of megabytes of text.

``content_digest(text)`` is the address of a snapshot: the SHA-256 of the
text with line endings normalised and trailing blank space dropped, so the
same file saved on Windows or with a final newline more is stored once.
"""

from __future__ import annotations

import hashlib

from allocator.kube import model
from allocator.kube.objects import ReadResult, read_documents
from allocator.reading.diagnostics import Diagnostic, DiagnosticError
from allocator.reading.records import field, record
from allocator.releases.gates import CURRENT_RELEASE, stored_object_gates
from allocator.validation import validate_documents


@record(frozen=True)
class ClusterSummary:
    nodes: int = 0  # Node objects, and nodes that only ResourceSlices name
    devices: int = 0
    drivers: tuple[str, ...] = ()
    pools: int = 0  # distinct (driver, pool name)
    device_classes: int = 0
    resource_slices: int = 0
    claims: int = 0  # ResourceClaims in the snapshot (allocated ones hold their devices)

    def to_dict(self) -> dict:
        return {
            "nodes": self.nodes, "devices": self.devices, "drivers": list(self.drivers), "pools": self.pools,
            "deviceClasses": self.device_classes, "resourceSlices": self.resource_slices, "claims": self.claims,
        }


@record
class ClusterInspection:
    summary: ClusterSummary = field(default_factory=ClusterSummary)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def normalise(text: str) -> str:
    return text.replace("\r\n", "\n").rstrip()


def content_digest(text: str) -> bytes:
    return hashlib.sha256(normalise(text).encode("utf-8", "surrogatepass")).digest()


def inspect_cluster(text: str, kubernetes_version: str = CURRENT_RELEASE, **read_options) -> ClusterInspection:
    """Read, validate and count; unreadable text gives the reader's located diagnostics and empty counts.

    ``read_options`` go to the engine's reader (its limits).
    """
    try:
        read = read_documents(text, **read_options) if text.strip() else ReadResult()
    except DiagnosticError as err:
        return ClusterInspection(diagnostics=list(err.diagnostics))
    diagnostics = list(validate_documents(read, stored_object_gates(kubernetes_version), text))
    return ClusterInspection(summary=summarise(read), diagnostics=diagnostics)


def summarise(read: ReadResult) -> ClusterSummary:
    slices: list[model.ResourceSlice] = read.of_kind("ResourceSlice")
    nodes = {n.metadata.name for n in read.of_kind("Node")}
    drivers, pools, devices = set(), set(), 0
    for s in slices:
        drivers.add(s.spec.driver)
        pools.add((s.spec.driver, s.spec.pool.name))
        devices += len(s.spec.devices)
        if s.spec.node_name:
            nodes.add(s.spec.node_name)
        nodes.update(d.node_name for d in s.spec.devices if d.node_name)
    return ClusterSummary(
        nodes=len(nodes), devices=devices, drivers=tuple(sorted(drivers)), pools=len(pools),
        device_classes=len(read.of_kind("DeviceClass")), resource_slices=len(slices),
        claims=len(read.of_kind("ResourceClaim")),
    )
