"""The allocator's switches (from the Kubernetes feature gates) and the choice of implementation.

Upstream keeps three implementations of the allocator (stable, incubating,
experimental) and picks the most stable one that supports every enabled
feature. They differ in behaviour users can see (pool order, how devices of
one request are combined, counters of shared devices), so we model the
same choice. What the allocator of each release did differently is in
``releases.rules`` (``ReleaseRules``).
"""

from __future__ import annotations

from allocator.reading.records import fields, record
from allocator.releases.gates import FeatureGates, exists_in


@record(frozen=True)
class Switches:
    """The allocator's switches; each maps to one or two Kubernetes feature gates."""

    admin_access: bool = False
    consumable_capacity: bool = False
    device_binding_and_status: bool = False
    # 1.34 only: the allocator took DRAResourceClaimDeviceStatus as a feature of its own, which only the
    # experimental implementation supported (1.35 folded it into device_binding_and_status).
    device_status: bool = False
    device_taints: bool = False
    list_type_attributes: bool = False
    partitionable_devices: bool = False
    prioritized_list: bool = False

    def enabled(self) -> frozenset[str]:
        return frozenset(f.name for f in fields(self) if getattr(self, f.name))


ALL = Switches(**{f.name: True for f in fields(Switches)})


def from_gates(gates: FeatureGates) -> Switches:
    """The features the scheduler derives from its gates."""
    return Switches(
        # Kubernetes 1.31 had adminAccess without a gate (DRAAdminAccess came in 1.32).
        admin_access=gates.enabled("DRAAdminAccess") or not exists_in("DRAAdminAccess", gates.release),
        consumable_capacity=gates.enabled("DRAConsumableCapacity"),
        # Binding conditions report through the device status, so both are needed.
        device_binding_and_status=gates.enabled("DRADeviceBindingConditions")
        and gates.enabled("DRAResourceClaimDeviceStatus"),
        device_status=gates.release_rules.separate_device_status
        and gates.enabled("DRAResourceClaimDeviceStatus"),
        device_taints=gates.enabled("DRADeviceTaints"),
        # Before 1.37 the gate reached CEL only (``ReleaseRules.list_attributes_in_allocator``).
        list_type_attributes=gates.enabled("DRAListTypeAttributes")
        and gates.release_rules.list_attributes_in_allocator,
        partitionable_devices=gates.enabled("DRAPartitionableDevices"),
        prioritized_list=gates.enabled("DRAPrioritizedList"),
    )


@record(frozen=True)
class Variant:
    """One upstream implementation and the behaviour that sets it apart."""

    name: str
    supported: Switches
    # Pools sorted by driver and name (binding-condition pools last), slices by name.
    sorted_order: bool
    # Devices of one request are tried as combinations, not permutations.
    combinations: bool

    @property
    def is_stable(self) -> bool:
        """The stable implementation lacks distinctAttribute, capacity checks, binding conditions."""
        return self.name == "stable"


STABLE = Variant(
    "stable",
    Switches(admin_access=True, prioritized_list=True, partitionable_devices=True, device_taints=True),
    sorted_order=False,
    combinations=False,
)
INCUBATING = Variant(
    "incubating",
    Switches(admin_access=True, prioritized_list=True, partitionable_devices=True, device_taints=True,
             device_binding_and_status=True, consumable_capacity=True),
    sorted_order=True,
    combinations=True,
)
EXPERIMENTAL = Variant("experimental", ALL, sorted_order=True, combinations=True)
VARIANTS = (STABLE, INCUBATING, EXPERIMENTAL)


def choose_variant(features: Switches) -> Variant:
    """The most stable implementation that supports every enabled feature."""
    wanted = features.enabled()
    for variant in VARIANTS:
        if wanted <= variant.supported.enabled():
            return variant
    raise AssertionError("the experimental variant supports every feature")
