"""The internal typed model of DRA objects: resource.k8s.io/v1 shapes.

Every served API version is converted to these classes (see ``convert``), the
same way the apiserver converts to its internal version. Field names are the
v1 JSON names in snake_case; ``decode`` maps camelCase JSON onto them. Optional
pointer fields of the Go types are ``None`` when unset, lists and maps default
to empty.

Each object built by ``decode`` carries ``source``: the positions of its
fields in the YAML it came from, keyed by field path (see ``positions``).

The classes are ``record``s (``allocator.reading.records``): dataclasses whose repr,
== and hash are shared rather than compiled for each class at start-up.
Every class has a docstring, if only its API name: without one, ``dataclass``
makes one from the class's signature at import, through ``inspect``, which
every command's start-up pays for.
"""

from __future__ import annotations

from allocator.reading import TYPE_CHECKING
from allocator.reading.records import field, record

if TYPE_CHECKING:  # (the decoder reads the model's Any as decode.AnyValue)
    from typing import Any

# --------------------------------------------------------------------------- meta


@record
class ObjectMeta:
    """The API's ``ObjectMeta``, as the model keeps it."""
    name: str = ""
    generate_name: str = ""
    namespace: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    uid: str = ""
    # RFC 3339 as the apiserver writes it; read for DeviceClasses (which class serves an extended resource).
    creation_timestamp: str = ""


@record
class NodeSelectorRequirement:
    """The API's ``NodeSelectorRequirement``, as the model keeps it."""
    key: str = ""
    operator: str = ""
    values: list[str] = field(default_factory=list)


@record
class NodeSelectorTerm:
    """The API's ``NodeSelectorTerm``, as the model keeps it."""
    match_expressions: list[NodeSelectorRequirement] = field(default_factory=list)
    match_fields: list[NodeSelectorRequirement] = field(default_factory=list)


@record
class NodeSelector:
    """The API's ``NodeSelector``, as the model keeps it."""
    node_selector_terms: list[NodeSelectorTerm] = field(default_factory=list)


# --------------------------------------------------------------------------- shared pieces


@record
class CELDeviceSelector:
    """The API's ``CELDeviceSelector``, as the model keeps it."""
    expression: str = ""


@record
class DeviceSelector:
    """The API's ``DeviceSelector``, as the model keeps it."""
    cel: CELDeviceSelector | None = None


@record
class OpaqueDeviceConfiguration:
    """The API's ``OpaqueDeviceConfiguration``, as the model keeps it."""
    driver: str = ""
    # Arbitrary JSON (runtime.RawExtension); kept as parsed Python data.
    parameters: Any = None


@record
class DeviceTaint:
    """The API's ``DeviceTaint``, as the model keeps it."""
    key: str = ""
    value: str = ""
    effect: str = ""
    time_added: str | None = None


@record
class DeviceToleration:
    """The API's ``DeviceToleration``, as the model keeps it."""
    key: str = ""
    operator: str = ""  # "Equal" (default) or "Exists"
    value: str = ""
    effect: str = ""
    toleration_seconds: int | None = None


# --------------------------------------------------------------------------- DeviceClass


@record
class DeviceClassConfiguration:
    """The API's ``DeviceClassConfiguration``, as the model keeps it."""
    opaque: OpaqueDeviceConfiguration | None = None


@record
class DeviceClassSpec:
    """The API's ``DeviceClassSpec``, as the model keeps it."""
    selectors: list[DeviceSelector] = field(default_factory=list)
    config: list[DeviceClassConfiguration] = field(default_factory=list)
    extended_resource_name: str | None = None


@record
class DeviceClass:
    """The API's ``DeviceClass``, as the model keeps it."""
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: DeviceClassSpec = field(default_factory=DeviceClassSpec)


# --------------------------------------------------------------------------- ResourceSlice


@record
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


@record
class CapacityRequestPolicyRange:
    """The API's ``CapacityRequestPolicyRange``, as the model keeps it."""
    min: str | None = None
    max: str | None = None
    step: str | None = None


@record
class CapacityRequestPolicy:
    """The API's ``CapacityRequestPolicy``, as the model keeps it."""
    default: str | None = None
    valid_values: list[str] = field(default_factory=list)
    valid_range: CapacityRequestPolicyRange | None = None


@record
class DeviceCapacity:
    """The API's ``DeviceCapacity``, as the model keeps it."""
    value: str = "0"
    request_policy: CapacityRequestPolicy | None = None


@record
class Counter:
    """The API's ``Counter``, as the model keeps it."""
    value: str = "0"


@record
class CounterSet:
    """The API's ``CounterSet``, as the model keeps it."""
    name: str = ""
    counters: dict[str, Counter] = field(default_factory=dict)


@record
class DeviceCounterConsumption:
    """The API's ``DeviceCounterConsumption``, as the model keeps it."""
    counter_set: str = ""
    counters: dict[str, Counter] = field(default_factory=dict)


@record
class Device:
    """The API's ``Device``, as the model keeps it."""
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


@record
class ResourcePool:
    """The API's ``ResourcePool``, as the model keeps it."""
    name: str = ""
    generation: int = 0
    resource_slice_count: int = 0


@record
class ResourceSliceSpec:
    """The API's ``ResourceSliceSpec``, as the model keeps it."""
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


@record
class ResourceSlice:
    """The API's ``ResourceSlice``, as the model keeps it."""
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: ResourceSliceSpec = field(default_factory=ResourceSliceSpec)


# --------------------------------------------------------------------------- ResourceClaim


@record
class CapacityRequirements:
    """The API's ``CapacityRequirements``, as the model keeps it."""
    requests: dict[str, str] = field(default_factory=dict)


@record
class ExactDeviceRequest:
    """The API's ``ExactDeviceRequest``, as the model keeps it."""
    device_class_name: str = ""
    selectors: list[DeviceSelector] = field(default_factory=list)
    allocation_mode: str = ""  # defaulted to "ExactCount"
    count: int = 0  # defaulted to 1 for ExactCount
    admin_access: bool | None = None
    tolerations: list[DeviceToleration] = field(default_factory=list)
    capacity: CapacityRequirements | None = None


@record
class DeviceSubRequest:
    """The API's ``DeviceSubRequest``, as the model keeps it."""
    name: str = ""
    device_class_name: str = ""
    selectors: list[DeviceSelector] = field(default_factory=list)
    allocation_mode: str = ""
    count: int = 0
    tolerations: list[DeviceToleration] = field(default_factory=list)
    capacity: CapacityRequirements | None = None


@record
class DeviceRequest:
    """The API's ``DeviceRequest``, as the model keeps it."""
    name: str = ""
    exactly: ExactDeviceRequest | None = None
    first_available: list[DeviceSubRequest] = field(default_factory=list)


@record
class DeviceConstraint:
    """The API's ``DeviceConstraint``, as the model keeps it."""
    requests: list[str] = field(default_factory=list)
    match_attribute: str | None = None
    distinct_attribute: str | None = None


@record
class DeviceClaimConfiguration:
    """The API's ``DeviceClaimConfiguration``, as the model keeps it."""
    requests: list[str] = field(default_factory=list)
    opaque: OpaqueDeviceConfiguration | None = None


@record
class DeviceClaim:
    """The API's ``DeviceClaim``, as the model keeps it."""
    requests: list[DeviceRequest] = field(default_factory=list)
    constraints: list[DeviceConstraint] = field(default_factory=list)
    config: list[DeviceClaimConfiguration] = field(default_factory=list)


@record
class ResourceClaimSpec:
    """The API's ``ResourceClaimSpec``, as the model keeps it."""
    devices: DeviceClaim = field(default_factory=DeviceClaim)


@record
class DeviceRequestAllocationResult:
    """The API's ``DeviceRequestAllocationResult``, as the model keeps it."""
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


@record
class DeviceAllocationConfiguration:
    """The API's ``DeviceAllocationConfiguration``, as the model keeps it."""
    source: str = ""  # "FromClass" or "FromClaim"
    requests: list[str] = field(default_factory=list)
    opaque: OpaqueDeviceConfiguration | None = None


@record
class DeviceAllocationResult:
    """The API's ``DeviceAllocationResult``, as the model keeps it."""
    results: list[DeviceRequestAllocationResult] = field(default_factory=list)
    config: list[DeviceAllocationConfiguration] = field(default_factory=list)


@record
class AllocationResult:
    """The API's ``AllocationResult``, as the model keeps it."""
    devices: DeviceAllocationResult = field(default_factory=DeviceAllocationResult)
    node_selector: NodeSelector | None = None
    allocation_timestamp: str | None = None


@record
class ResourceClaimConsumerReference:
    """The API's ``ResourceClaimConsumerReference``, as the model keeps it."""
    api_group: str = ""
    resource: str = ""
    name: str = ""
    uid: str = ""


@record
class ResourceClaimStatus:
    """The allocation and who the claim is reserved for (the scheduler's PostFilter reads it); devices is ignored."""

    allocation: AllocationResult | None = None
    reserved_for: list[ResourceClaimConsumerReference] = field(default_factory=list)


@record
class ResourceClaim:
    """The API's ``ResourceClaim``, as the model keeps it."""
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: ResourceClaimSpec = field(default_factory=ResourceClaimSpec)
    status: ResourceClaimStatus = field(default_factory=ResourceClaimStatus)


@record
class ResourceClaimTemplateSpec:
    """The API's ``ResourceClaimTemplateSpec``, as the model keeps it."""
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: ResourceClaimSpec = field(default_factory=ResourceClaimSpec)


@record
class ResourceClaimTemplate:
    """The API's ``ResourceClaimTemplate``, as the model keeps it."""
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: ResourceClaimTemplateSpec = field(default_factory=ResourceClaimTemplateSpec)


# --------------------------------------------------------------------------- core/v1


@record
class Node:
    """The API's ``Node``, as the model keeps it."""
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    # status.allocatable: resource name -> quantity (the extended resources a device plugin serves)
    allocatable: dict[str, str] = field(default_factory=dict)


@record
class ResourceClaimReference:
    """A container's ``resources.claims[]`` entry."""

    name: str = ""
    request: str = ""


@record
class Container:
    """The API's ``Container``, as the model keeps it."""
    name: str = ""
    claims: list[ResourceClaimReference] = field(default_factory=list)
    # resources.requests and resources.limits (name -> quantity); decoding copies a limit into
    # requests when requests lacks it, as the apiserver's defaulting does.
    requests: dict[str, str] = field(default_factory=dict)
    limits: dict[str, str] = field(default_factory=dict)
    restart_policy: str = ""  # "Always" makes an init container a sidecar


@record
class PodResourceClaim:
    """The API's ``PodResourceClaim``, as the model keeps it."""
    name: str = ""
    resource_claim_name: str | None = None
    resource_claim_template_name: str | None = None


@record
class PodSpec:
    """The API's ``PodSpec``, as the model keeps it."""
    node_name: str = ""
    containers: list[Container] = field(default_factory=list)
    init_containers: list[Container] = field(default_factory=list)
    resource_claims: list[PodResourceClaim] = field(default_factory=list)
    # 1.36 on (GenericWorkload): the PodGroup the pod belongs to; kept as written, not simulated.
    scheduling_group: Any = None


@record
class Pod:
    """The API's ``Pod``, as the model keeps it."""
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: PodSpec = field(default_factory=PodSpec)


# --------------------------------------------------------------------------- DeviceTaintRule


@record
class DeviceTaintSelector:
    """The API's ``DeviceTaintSelector``, as the model keeps it."""
    # deviceClassName and selectors exist in v1alpha3 of 1.33-1.34 only; 1.35 removed them.
    device_class_name: str | None = None
    driver: str | None = None
    pool: str | None = None
    device: str | None = None
    selectors: list[DeviceSelector] = field(default_factory=list)


@record
class DeviceTaintRuleSpec:
    """The API's ``DeviceTaintRuleSpec``, as the model keeps it."""
    device_selector: DeviceTaintSelector | None = None
    taint: DeviceTaint = field(default_factory=DeviceTaint)


@record
class DeviceTaintRule:
    """The API's ``DeviceTaintRule``, as the model keeps it."""
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
