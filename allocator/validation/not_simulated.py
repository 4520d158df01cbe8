"""DRA features the engine knows but does not simulate: their fields are accepted where the release has
them, and named in a warning instead of being refused as unknown fields.

What they change happens outside the structured-parameters allocator we model, or is alpha and out of
reach (``releases.table.NOT_SIMULATED``):

- ``DRANodeAllocatableResources`` (1.36 alpha): a device's ``nodeAllocatableResourceMappings`` (1.36),
  renamed ``nodeAllocatableResources`` in 1.37; the scheduler also counts node cpu and memory for them;
- ``DRAOptionalNodeOperations`` (1.37 alpha): a slice's ``skipNodeOperations`` and its copy in an
  allocation result, read by the kubelet only;
- ``DRAPartitionableDevicesType`` (1.37, kubernetes/api's gate of ``partitionTypeAttribute``);
- ``DRAWorkloadResourceClaims`` (1.36 alpha, 1.37 beta, off): claims of a PodGroup (scheduling.k8s.io),
  reserved for the whole group, and a Pod's ``spec.schedulingGroup`` (1.36 on) naming its PodGroup.

Sources (read, not copied): kubernetes/api ``resource/v1/types.go`` and ``core/v1/types.go`` at
v0.35.0, v0.36.0 and master of 2026-07-24; ``scheduling/v1alpha2``, ``v1alpha3`` and ``v1beta1``.
"""

from __future__ import annotations

from allocator.kube.objects import ReadResult
from allocator.reading.diagnostics import PARSE, Diagnostic
from allocator.releases import fields
from allocator.releases.gates import FeatureGates
from allocator.releases.rules import first_release
from allocator.releases.table import NOT_SIMULATED

NOT_SIMULATED_TYPE = "Not simulated"

# (model type, JSON field) -> the gate that guards it in kubernetes/api
FIELD_GATES = {
    ("Device", "nodeAllocatableResourceMappings"): "DRANodeAllocatableResources",
    ("Device", "nodeAllocatableResources"): "DRANodeAllocatableResources",
    ("BasicDevice", "nodeAllocatableResourceMappings"): "DRANodeAllocatableResources",
    ("BasicDevice", "nodeAllocatableResources"): "DRANodeAllocatableResources",
    ("ResourceSliceSpec", "skipNodeOperations"): "DRAOptionalNodeOperations",
    ("DeviceRequestAllocationResult", "skipNodeOperations"): "DRAOptionalNodeOperations",
    ("ResourceSliceSpec", "partitionTypeAttribute"): "DRAPartitionableDevicesType",
}
_WHAT = NOT_SIMULATED

_GROUP_KINDS = ("PodGroup", "Workload")


def _gate_state(gate: str, gates: FeatureGates) -> str:
    value = gates.values.get(gate)
    if value is None:
        return f"{gate} is not a gate the playground sets"
    return f"{gate} is {'on' if value else 'off'} in Kubernetes {gates.release}"


def _detail(gate: str, gates: FeatureGates, effect: str) -> str:
    return f"{gate} ({_WHAT[gate]}) is not simulated: {effect} ({_gate_state(gate, gates)})"


def not_simulated(result: ReadResult, gates: FeatureGates) -> list[Diagnostic]:
    """Warnings for the fields and objects of features the engine does not simulate; an error for a Pod's
    ``spec.schedulingGroup`` in a release without it (the strict decoder's words)."""
    out: list[Diagnostic] = []
    for doc in result.documents:
        version = doc.api_version.rpartition("/")[2]
        for path, (type_name, field_name, _) in doc.versioned.items():
            gate = FIELD_GATES.get((type_name, field_name))
            if gate is None or fields.missing(version, type_name, field_name, gates.release) is not None:
                continue  # an unknown field of this release: refused elsewhere
            line, column = doc.versioned_pos(path) or (doc.line, doc.column)
            out.append(Diagnostic(field=path, type=NOT_SIMULATED_TYPE, severity="warning",
                                  detail=_detail(gate, gates, "the allocation is computed as if it were not set"),
                                  kind=doc.kind, name=doc.name, line=line, column=column))
        if doc.kind == "Pod" and doc.obj.spec.scheduling_group is not None:
            line, column = doc.position("spec.schedulingGroup") or (doc.line, doc.column)
            if not gates.release_rules.pod_scheduling_group:
                added = first_release("pod_scheduling_group")
                out.append(Diagnostic(field="spec.schedulingGroup", type=PARSE, kind=doc.kind, name=doc.name,
                                      line=line, column=column, detail=(
                                          'unknown field "spec.schedulingGroup": v1 Pod in Kubernetes '
                                          f"{gates.release} has no such field (added in {added})")))
                continue
            out.append(Diagnostic(field="spec.schedulingGroup", type=NOT_SIMULATED_TYPE, severity="warning",
                                  kind=doc.kind, name=doc.name, line=line, column=column,
                                  detail=_detail("DRAWorkloadResourceClaims", gates,
                                                 "the pod is placed alone, with its own claims only")))
    for ignored in result.ignored:
        kind, _, name = ignored.partition(" ")
        if kind in _GROUP_KINDS and gates.release_rules.pod_scheduling_group:
            out.append(Diagnostic(field="", type=NOT_SIMULATED_TYPE, severity="warning", kind=kind, name=name,
                                  detail=_detail("DRAWorkloadResourceClaims", gates,
                                                 f"the {kind}'s resourceClaims are not allocated")))
    return out
