"""What the apiserver does to an object before validating it on create.

1. v1 defaulting (``pkg/apis/resource/v1/defaults.go`` and the ``+default``
   tags): ``allocationMode`` becomes ``ExactCount``, an ExactCount request
   without ``count`` asks for one device, a toleration's ``operator`` is
   ``Equal``.
2. The registry strategies drop fields whose feature gate is disabled, as if
   they had not been sent. We do the same and say so with a warning, because
   a silently ignored field is the most confusing thing a playground can do.
   A gate the release does not have yet drops nothing: its fields are either
   not in that release's types (``release_fields`` refuses them before this)
   or, like 1.31's ``adminAccess``, there without a gate.

Both work on a copy (made only when something changes: a cluster has many
slices); the caller's objects stay as the user wrote them.
"""

from __future__ import annotations

import functools

from allocator.reading.records import deep_copy_of
from allocator.releases.gates import exists_in
from allocator.validation.errors import Errors


def _default_request(req) -> None:
    if not req.allocation_mode:
        req.allocation_mode = "ExactCount"
    if req.allocation_mode == "ExactCount" and req.count == 0:
        req.count = 1
    for tol in req.tolerations:
        if not tol.operator:
            tol.operator = "Equal"


def _off(gates, gate: str) -> bool:
    """Whether the apiserver drops the fields of ``gate``: the release has the gate and it is disabled."""
    return not gates.enabled(gate) and _has_gate(gate, gates.release)


_has_gate = functools.cache(exists_in)  # asked per slice of a large inventory


def _dropped(warnings: Errors, path: str, gate: str) -> None:
    warnings.warn(path, f"dropped by the apiserver: feature gate {gate} is disabled")


def claim_spec(spec, gates, warnings: Errors, path: str):
    """Defaulted copy of a ResourceClaimSpec with disabled fields removed."""
    spec = deep_copy_of(spec)
    drop_disabled_claim_fields(spec, gates, warnings, path)
    for req in spec.devices.requests:
        if req.exactly is not None:
            _default_request(req.exactly)
        for sub in req.first_available:
            _default_request(sub)
    return spec


CLAIM_FIELD_GATES = ("DRAPrioritizedList", "DRADeviceTaints", "DRAAdminAccess", "DRAConsumableCapacity")


def drops_claim_fields(gates) -> bool:
    """Whether ``drop_disabled_claim_fields`` can drop anything under ``gates``."""
    return any(_off(gates, gate) for gate in CLAIM_FIELD_GATES)


def drop_disabled_claim_fields(spec, gates, warnings: Errors, path: str) -> None:
    """Remove from ``spec`` (in place) the fields the registry strategy drops on create under ``gates``; each
    one dropped gets a warning in ``warnings``."""
    requests = spec.devices.requests
    base = f"{path}.devices.requests"
    if _off(gates, "DRAPrioritizedList"):
        for i, req in enumerate(requests):
            if req.first_available:
                _dropped(warnings, f"{base}[{i}].firstAvailable", "DRAPrioritizedList")
                req.first_available = []
    if _off(gates, "DRADeviceTaints") and gates.release_rules.drops_claim_tolerations:
        for i, req in enumerate(requests):
            if req.exactly is not None and req.exactly.tolerations:
                _dropped(warnings, f"{base}[{i}].exactly.tolerations", "DRADeviceTaints")
                req.exactly.tolerations = []
            for j, sub in enumerate(req.first_available):
                if sub.tolerations:
                    _dropped(warnings, f"{base}[{i}].firstAvailable[{j}].tolerations", "DRADeviceTaints")
                    sub.tolerations = []
    if _off(gates, "DRAAdminAccess"):
        for i, req in enumerate(requests):
            if req.exactly is not None and req.exactly.admin_access is not None:
                _dropped(warnings, f"{base}[{i}].exactly.adminAccess", "DRAAdminAccess")
                req.exactly.admin_access = None
    if _off(gates, "DRAConsumableCapacity"):
        # Upstream also means to drop constraints' distinctAttribute here, but
        # its loop works on copies of the constraints, so the field survives.
        for i, req in enumerate(requests):
            if req.exactly is not None and req.exactly.capacity is not None:
                _dropped(warnings, f"{base}[{i}].exactly.capacity", "DRAConsumableCapacity")
                req.exactly.capacity = None
            for j, sub in enumerate(req.first_available):
                if sub.capacity is not None:
                    _dropped(warnings, f"{base}[{i}].firstAvailable[{j}].capacity", "DRAConsumableCapacity")
                    sub.capacity = None


def device_class(obj, gates, warnings: Errors):
    obj = deep_copy_of(obj)
    if _off(gates, "DRAExtendedResource") and obj.spec.extended_resource_name is not None:
        _dropped(warnings, "spec.extendedResourceName", "DRAExtendedResource")
        obj.spec.extended_resource_name = None
    return obj


_LIST_ATTRIBUTE_FIELDS = ("ints", "bools", "strings", "versions")


def resource_slice(obj, gates, warnings: Errors):
    """``obj`` itself when the gates drop nothing (the usual case: a cluster's slices are many), else a copy."""
    found = Errors()
    _drop_slice_fields(obj, gates, found, apply=False)
    if not found.items:
        return obj
    obj = deep_copy_of(obj)
    _drop_slice_fields(obj, gates, warnings, apply=True)
    return obj


def _drop_slice_fields(obj, gates, warnings: Errors, apply: bool) -> None:
    """Warn about (and, with ``apply``, drop) the fields of disabled gates."""
    spec = obj.spec
    devices = spec.devices
    if _off(gates, "DRADeviceTaints"):
        for i, dev in enumerate(devices):
            if dev.taints:
                _dropped(warnings, f"spec.devices[{i}].taints", "DRADeviceTaints")
                if apply:
                    dev.taints = []
    if _off(gates, "DRAPartitionableDevices"):
        gate = "DRAPartitionableDevices"
        if spec.shared_counters:
            _dropped(warnings, "spec.sharedCounters", gate)
            if apply:
                spec.shared_counters = []
        if spec.per_device_node_selection is not None:
            _dropped(warnings, "spec.perDeviceNodeSelection", gate)
            if apply:
                spec.per_device_node_selection = None
        for i, dev in enumerate(devices):
            for json_name, attr in (("consumesCounters", "consumes_counters"), ("nodeName", "node_name"),
                                    ("nodeSelector", "node_selector"), ("allNodes", "all_nodes")):
                value = getattr(dev, attr)
                if value is not None and value != []:
                    _dropped(warnings, f"spec.devices[{i}].{json_name}", gate)
                    if apply:
                        setattr(dev, attr, [] if attr == "consumes_counters" else None)
    if _off(gates, "DRADeviceBindingConditions") or _off(gates, "DRAResourceClaimDeviceStatus"):
        gate = "DRADeviceBindingConditions" if _off(gates, "DRADeviceBindingConditions") \
            else "DRAResourceClaimDeviceStatus"
        for i, dev in enumerate(devices):
            for json_name, attr in (("bindsToNode", "binds_to_node"), ("bindingConditions", "binding_conditions"),
                                    ("bindingFailureConditions", "binding_failure_conditions")):
                value = getattr(dev, attr)
                if value is not None and value != []:
                    _dropped(warnings, f"spec.devices[{i}].{json_name}", gate)
                    if apply:
                        setattr(dev, attr, None if attr == "binds_to_node" else [])
    if _off(gates, "DRAConsumableCapacity"):
        for i, dev in enumerate(devices):
            if dev.allow_multiple_allocations is not None:
                _dropped(warnings, f"spec.devices[{i}].allowMultipleAllocations", "DRAConsumableCapacity")
                if apply:
                    dev.allow_multiple_allocations = None
            for key, cap in dev.capacity.items():
                if cap.request_policy is not None:
                    _dropped(warnings, f"spec.devices[{i}].capacity[{key}].requestPolicy", "DRAConsumableCapacity")
                    if apply:
                        cap.request_policy = None
    if _off(gates, "DRAListTypeAttributes"):
        for i, dev in enumerate(devices):
            for key, attr in dev.attributes.items():
                for name in _LIST_ATTRIBUTE_FIELDS:
                    if getattr(attr, name) is not None:
                        _dropped(warnings, f"spec.devices[{i}].attributes[{key}].{name}", "DRAListTypeAttributes")
                        if apply:
                            setattr(attr, name, None)
