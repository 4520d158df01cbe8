"""The internal typed model of DRA objects: resource.k8s.io/v1 shapes.

Every served API version is converted to these classes (see ``convert``), the
same way the apiserver converts to its internal version. Field names are the
v1 JSON names in snake_case; ``decode`` maps camelCase JSON onto them. Optional
pointer fields of the Go types are ``None`` when unset, lists and maps default
to empty.

Each object built by ``decode`` carries ``source``: the positions of its
fields in the YAML it came from, keyed by field path (see ``positions``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# --------------------------------------------------------------------------- meta


@dataclass
class ObjectMeta:
    name: str = ""
    generate_name: str = ""
    namespace: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    uid: str = ""
    # RFC 3339 as the apiserver writes it; read for DeviceClasses (which class serves an extended resource).
    creation_timestamp: str = ""


@dataclass
class NodeSelectorRequirement:
    key: str = ""
    operator: str = ""
    values: list[str] = field(default_factory=list)


@dataclass
class NodeSelectorTerm:
    match_expressions: list[NodeSelectorRequirement] = field(default_factory=list)
    match_fields: list[NodeSelectorRequirement] = field(default_factory=list)


@dataclass
class NodeSelector:
    node_selector_terms: list[NodeSelectorTerm] = field(default_factory=list)


# --------------------------------------------------------------------------- shared pieces


@dataclass
class CELDeviceSelector:
    expression: str = ""


@dataclass
class DeviceSelector:
    cel: CELDeviceSelector | None = None


@dataclass
class OpaqueDeviceConfiguration:
    driver: str = ""
    # Arbitrary JSON (runtime.RawExtension); kept as parsed Python data.
    parameters: Any = None


@dataclass
class DeviceTaint:
    key: str = ""
    value: str = ""
    effect: str = ""
    time_added: str | None = None


@dataclass
class DeviceToleration:
    key: str = ""
    operator: str = ""  # "Equal" (default) or "Exists"
    value: str = ""
    effect: str = ""
    toleration_seconds: int | None = None


# --------------------------------------------------------------------------- DeviceClass


@dataclass
class DeviceClassConfiguration:
    opaque: OpaqueDeviceConfiguration | None = None


@dataclass
class DeviceClassSpec:
    selectors: list[DeviceSelector] = field(default_factory=list)
    config: list[DeviceClassConfiguration] = field(default_factory=list)
    extended_resource_name: str | None = None


@dataclass
class DeviceClass:
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: DeviceClassSpec = field(default_factory=DeviceClassSpec)


# --------------------------------------------------------------------------- ResourceSlice


@dataclass
class DeviceAttribute:
    """Exactly one field is set. Quantities and versions stay strings here."""

    int: int | None = None
    bool: bool | None = None
    string: str | None = None
    version: str | None = None
    # DRAListTypeAttributes (alpha): non-empty lists.
    ints: list[int] | None = None
    bools: list[bool] | None = None
    strings: list[str] | None = None
    versions: list[str] | None = None


@dataclass
class CapacityRequestPolicyRange:
    min: str | None = None
    max: str | None = None
    step: str | None = None


@dataclass
class CapacityRequestPolicy:
    default: str | None = None
    valid_values: list[str] = field(default_factory=list)
    valid_range: CapacityRequestPolicyRange | None = None


@dataclass
class DeviceCapacity:
    value: str = "0"
    request_policy: CapacityRequestPolicy | None = None


@dataclass
class Counter:
    value: str = "0"


@dataclass
class CounterSet:
    name: str = ""
    counters: dict[str, Counter] = field(default_factory=dict)


@dataclass
class DeviceCounterConsumption:
    counter_set: str = ""
    counters: dict[str, Counter] = field(default_factory=dict)


@dataclass
class Device:
    name: str = ""
    attributes: dict[str, DeviceAttribute] = field(default_factory=dict)
    capacity: dict[str, DeviceCapacity] = field(default_factory=dict)
    consumes_counters: list[DeviceCounterConsumption] = field(default_factory=list)
    node_name: str | None = None
    node_selector: NodeSelector | None = None
    all_nodes: bool | None = None
    taints: list[DeviceTaint] = field(default_factory=list)
    binds_to_node: bool | None = None
    binding_conditions: list[str] = field(default_factory=list)
    binding_failure_conditions: list[str] = field(default_factory=list)
    allow_multiple_allocations: bool | None = None
    # DRANodeAllocatableResources (alpha, not simulated): 1.36's field, renamed in 1.37. Kept as written.
    node_allocatable_resource_mappings: Any = None
    node_allocatable_resources: Any = None


@dataclass
class ResourcePool:
    name: str = ""
    generation: int = 0
    resource_slice_count: int = 0


@dataclass
class ResourceSliceSpec:
    driver: str = ""
    pool: ResourcePool = field(default_factory=ResourcePool)
    node_name: str | None = None
    node_selector: NodeSelector | None = None
    all_nodes: bool | None = None
    devices: list[Device] = field(default_factory=list)
    per_device_node_selection: bool | None = None
    shared_counters: list[CounterSet] = field(default_factory=list)
    # 1.37 alpha fields, not simulated (DRAPartitionableDevicesType, DRAOptionalNodeOperations).
    partition_type_attribute: str | None = None
    skip_node_operations: list[str] = field(default_factory=list)


@dataclass
class ResourceSlice:
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: ResourceSliceSpec = field(default_factory=ResourceSliceSpec)


# --------------------------------------------------------------------------- ResourceClaim


@dataclass
class CapacityRequirements:
    requests: dict[str, str] = field(default_factory=dict)


@dataclass
class ExactDeviceRequest:
    device_class_name: str = ""
    selectors: list[DeviceSelector] = field(default_factory=list)
    allocation_mode: str = ""  # defaulted to "ExactCount"
    count: int = 0  # defaulted to 1 for ExactCount
    admin_access: bool | None = None
    tolerations: list[DeviceToleration] = field(default_factory=list)
    capacity: CapacityRequirements | None = None


@dataclass
class DeviceSubRequest:
    name: str = ""
    device_class_name: str = ""
    selectors: list[DeviceSelector] = field(default_factory=list)
    allocation_mode: str = ""
    count: int = 0
    tolerations: list[DeviceToleration] = field(default_factory=list)
    capacity: CapacityRequirements | None = None


@dataclass
class DeviceRequest:
    name: str = ""
    exactly: ExactDeviceRequest | None = None
    first_available: list[DeviceSubRequest] = field(default_factory=list)


@dataclass
class DeviceConstraint:
    requests: list[str] = field(default_factory=list)
    match_attribute: str | None = None
    distinct_attribute: str | None = None


@dataclass
class DeviceClaimConfiguration:
    requests: list[str] = field(default_factory=list)
    opaque: OpaqueDeviceConfiguration | None = None


@dataclass
class DeviceClaim:
    requests: list[DeviceRequest] = field(default_factory=list)
    constraints: list[DeviceConstraint] = field(default_factory=list)
    config: list[DeviceClaimConfiguration] = field(default_factory=list)


@dataclass
class ResourceClaimSpec:
    devices: DeviceClaim = field(default_factory=DeviceClaim)


@dataclass
class DeviceRequestAllocationResult:
    request: str = ""
    driver: str = ""
    pool: str = ""
    device: str = ""
    admin_access: bool | None = None
    tolerations: list[DeviceToleration] = field(default_factory=list)
    binding_conditions: list[str] = field(default_factory=list)
    binding_failure_conditions: list[str] = field(default_factory=list)
    share_id: str | None = None
    consumed_capacity: dict[str, str] = field(default_factory=dict)
    skip_node_operations: list[str] = field(default_factory=list)  # DRAOptionalNodeOperations, 1.37


@dataclass
class DeviceAllocationConfiguration:
    source: str = ""  # "FromClass" or "FromClaim"
    requests: list[str] = field(default_factory=list)
    opaque: OpaqueDeviceConfiguration | None = None


@dataclass
class DeviceAllocationResult:
    results: list[DeviceRequestAllocationResult] = field(default_factory=list)
    config: list[DeviceAllocationConfiguration] = field(default_factory=list)


@dataclass
class AllocationResult:
    devices: DeviceAllocationResult = field(default_factory=DeviceAllocationResult)
    node_selector: NodeSelector | None = None
    allocation_timestamp: str | None = None


@dataclass
class ResourceClaimConsumerReference:
    api_group: str = ""
    resource: str = ""
    name: str = ""
    uid: str = ""


@dataclass
class ResourceClaimStatus:
    """The allocation and who the claim is reserved for (the scheduler's PostFilter reads it); devices is ignored."""

    allocation: AllocationResult | None = None
    reserved_for: list[ResourceClaimConsumerReference] = field(default_factory=list)


@dataclass
class ResourceClaim:
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: ResourceClaimSpec = field(default_factory=ResourceClaimSpec)
    status: ResourceClaimStatus = field(default_factory=ResourceClaimStatus)


@dataclass
class ResourceClaimTemplateSpec:
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: ResourceClaimSpec = field(default_factory=ResourceClaimSpec)


@dataclass
class ResourceClaimTemplate:
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: ResourceClaimTemplateSpec = field(default_factory=ResourceClaimTemplateSpec)


# --------------------------------------------------------------------------- core/v1


@dataclass
class Node:
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    # status.allocatable: resource name -> quantity (the extended resources a device plugin serves)
    allocatable: dict[str, str] = field(default_factory=dict)


@dataclass
class ResourceClaimReference:
    """A container's ``resources.claims[]`` entry."""

    name: str = ""
    request: str = ""


@dataclass
class Container:
    name: str = ""
    claims: list[ResourceClaimReference] = field(default_factory=list)
    # resources.requests and resources.limits (name -> quantity); decoding copies a limit into
    # requests when requests lacks it, as the apiserver's defaulting does.
    requests: dict[str, str] = field(default_factory=dict)
    limits: dict[str, str] = field(default_factory=dict)
    restart_policy: str = ""  # "Always" makes an init container a sidecar


@dataclass
class PodResourceClaim:
    name: str = ""
    resource_claim_name: str | None = None
    resource_claim_template_name: str | None = None


@dataclass
class PodSpec:
    node_name: str = ""
    containers: list[Container] = field(default_factory=list)
    init_containers: list[Container] = field(default_factory=list)
    resource_claims: list[PodResourceClaim] = field(default_factory=list)
    # 1.36 on (GenericWorkload): the PodGroup the pod belongs to; kept as written, not simulated.
    scheduling_group: Any = None


@dataclass
class Pod:
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: PodSpec = field(default_factory=PodSpec)


# --------------------------------------------------------------------------- DeviceTaintRule


@dataclass
class DeviceTaintSelector:
    # deviceClassName and selectors exist in v1alpha3 of 1.33-1.34 only; 1.35 removed them.
    device_class_name: str | None = None
    driver: str | None = None
    pool: str | None = None
    device: str | None = None
    selectors: list[DeviceSelector] = field(default_factory=list)


@dataclass
class DeviceTaintRuleSpec:
    device_selector: DeviceTaintSelector | None = None
    taint: DeviceTaint = field(default_factory=DeviceTaint)


@dataclass
class DeviceTaintRule:
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: DeviceTaintRuleSpec = field(default_factory=DeviceTaintRuleSpec)


KINDS = {
    "DeviceClass": DeviceClass,
    "DeviceTaintRule": DeviceTaintRule,
    "ResourceSlice": ResourceSlice,
    "ResourceClaim": ResourceClaim,
    "ResourceClaimTemplate": ResourceClaimTemplate,
    "Node": Node,
    "Pod": Pod,
}
