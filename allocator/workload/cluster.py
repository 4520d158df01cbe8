"""What the scheduler sees of a cluster, travelling together through a scheduling cycle."""

from __future__ import annotations

from collections.abc import Iterable

from allocator.allocation import search as search_limits
from allocator.allocation.allocator import Allocator
from allocator.allocation.inputs import SearchInputs, SearchOptions, SlicesByNode
from allocator.allocation.nodes import make_node
from allocator.allocation.nodes import search_nodes as nodes_to_search
from allocator.allocation.state import AllocatedState
from allocator.kube import model
from allocator.kube.objects import Document
from allocator.reading import TYPE_CHECKING
from allocator.reading.records import field, record
from allocator.releases.gates import FeatureGates

if TYPE_CHECKING:
    from typing import Any


@record(frozen=True)
class Cluster:
    """DeviceClasses, ResourceSlices, Nodes, DeviceTaintRules and the claims already allocated."""

    classes: list[model.DeviceClass]
    slices: list[model.ResourceSlice]
    nodes: list[model.Node]
    taint_rules: list[model.DeviceTaintRule] = field(default_factory=list)
    allocated: list[model.ResourceClaim] = field(default_factory=list)
    # What ``allocated`` holds, when the caller keeps it up to date (capacity planning); None: gathered anew.
    state: AllocatedState | None = None
    # ``slices`` grouped by node, when the caller prepares many allocators over them (capacity planning).
    by_node: SlicesByNode | None = None

    @classmethod
    def of(cls, documents: Iterable[Document], allocated: Iterable[model.ResourceClaim] = ()) -> Cluster:
        """The cluster the ``documents`` describe, with ``allocated`` (the workload's claims with an allocation)."""
        by_kind: dict[str, list[Any]] = {"DeviceClass": [], "ResourceSlice": [], "Node": [], "DeviceTaintRule": []}
        for doc in documents:
            if doc.kind in by_kind:
                by_kind[doc.kind].append(doc.obj)
        return cls(classes=by_kind["DeviceClass"], slices=by_kind["ResourceSlice"], nodes=by_kind["Node"],
                   taint_rules=by_kind["DeviceTaintRule"], allocated=list(allocated))

    def allocator(self, gates: FeatureGates) -> Allocator:
        """The inventory prepared for allocation under ``gates``; raises AllocatorError where the scheduler gives up."""
        inputs = SearchInputs(self.classes, self.slices, self.allocated, self.taint_rules, self.state, self.by_node)
        return Allocator(inputs, gates, options=SearchOptions(prove=search_limits.PROVE))

    def candidates(self, node: str | None) -> list[model.Node]:
        """The node called ``node``, or every node (else the nodes the slices name; else one nameless node)."""
        if node is not None:
            return [make_node(node, self.nodes)]
        return nodes_to_search(self.nodes, self.slices) or [make_node("")]
