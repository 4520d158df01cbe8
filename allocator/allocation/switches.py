"""The allocator's switches (from the Kubernetes feature gates) and the choice of implementation.

Upstream keeps three implementations of the allocator (stable, incubating,
experimental) and picks the most stable one that supports every enabled
feature. They differ in behaviour users can see (pool order, how devices of
one request are combined, counters of shared devices), so we model the
same choice.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from allocator.releases.gates import FeatureGates, exists_in


@dataclass(frozen=True)
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
        device_status=rules_for(gates.release).separate_device_status
        and gates.enabled("DRAResourceClaimDeviceStatus"),
        device_taints=gates.enabled("DRADeviceTaints"),
        list_type_attributes=gates.enabled("DRAListTypeAttributes"),
        partitionable_devices=gates.enabled("DRAPartitionableDevices"),
        prioritized_list=gates.enabled("DRAPrioritizedList"),
    )


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class ReleaseRules:
    """What the allocator released with a Kubernetes version did differently from today's.

    Read in k8s.io/dynamic-resource-allocation at the tags released with each version (v0.33.x to
    v0.36.x; 1.37 is the current code). The defaults are 1.37's.
    """

    # 1.37: a CEL runtime error names the device ("selector #0 on device D: ...") and a "no such key"
    # error carries cel.EnhanceRuntimeError's advice; before, neither.
    device_in_cel_errors: bool = True
    # 1.37: a config entry that applies to every request of the claim is written without its
    # requests ("empty means all"); before, its requests were listed.
    clears_config_requests: bool = True
    # 1.35: devices of incomplete and invalid pools are skipped, a pool's completeness counts the slices of
    # every node, and "invalid resource pools were encountered" ends a failed search. Before, a pool was
    # incomplete only by the slices the node can reach, its devices could be allocated, and a search that
    # reached an invalid pool stopped with "pool NAME is invalid: REASON" (v0.33.x, v0.34.x).
    skips_unusable_pools: bool = True
    # 1.33-1.34: the ResourceSlice tracker also matched a DeviceTaintRule's deviceClassName and CEL
    # selectors; 1.35 removed both and keeps driver, pool and device.
    taint_rule_class_and_cel: bool = False
    # 1.34: DRAResourceClaimDeviceStatus was an allocator feature of its own (v0.34.x ``Features.DeviceStatus``)
    # that only the experimental implementation supported; on by default, it picked that implementation,
    # which refuses requests with capacity requests while DRAConsumableCapacity is off.
    separate_device_status: bool = False
    # 1.33-1.34: a device consumes counters of the counter sets in its own slice (which may hold devices and
    # sharedCounters both), less what the allocated and allocating devices of that slice consume; 1.35 moved
    # counter sets to slices of their own, shared by the pool. How a device was checked:
    #   "device" (v0.33.x): each counter the device consumes must exist in its slice and have enough left;
    #   "slice" (v0.34.x): no counter of the slice may drop below zero (a set the slice lacks is not checked).
    slice_counters: str = ""
    # 1.36: the incubating and experimental implementations look for a request's next device after the one it
    # took (combinations, not permutations), so one request cannot take two shares of a multi-allocatable
    # device; in 1.35 (v0.35.x) every device was tried again, and it could.
    combinations: bool = True
    # 1.34: a device given with admin access is marked as being allocated (for its claim, so no other request of
    # the claim takes it, and its counters count); in 1.33 (v0.33.x) it stayed free for every request, the same
    # admin request could take it again, and its counters were only checked.
    admin_devices_in_use: bool = True
    # 1.36: the incubating and experimental implementations walk a pool's slices sorted by name; before, in the
    # order they were listed (v0.34.x, v0.35.x).
    sorts_slices: bool = True


def rules_for(release: str) -> ReleaseRules:
    """The allocator's rules of a Kubernetes release (``"1.34"``)."""
    version = tuple(int(part) for part in release.split(".")[:2])
    before_1_37 = version < (1, 37)
    return ReleaseRules(device_in_cel_errors=not before_1_37, clears_config_requests=not before_1_37,
                        skips_unusable_pools=version >= (1, 35), taint_rule_class_and_cel=version < (1, 35),
                        separate_device_status=version == (1, 34),
                        slice_counters={(1, 33): "device", (1, 34): "slice"}.get(version, ""),
                        combinations=version >= (1, 36), admin_devices_in_use=version >= (1, 34),
                        sorts_slices=version >= (1, 36))


def taint_rules_gate(release: str) -> str:
    """The gate under which the scheduler's tracker applies DeviceTaintRules: DRADeviceTaints up to 1.34,
    DRADeviceTaintRules from 1.35 (which split it off)."""
    return "DRADeviceTaints" if rules_for(release).taint_rule_class_and_cel else "DRADeviceTaintRules"
