"""Typed objects back to Kubernetes JSON (camelCase), omitting what the apiserver omits.

The apiserver's JSON leaves out unset pointers and empty ``omitempty``
fields; fields without ``omitempty`` (names, class names, the parts of a
device result) and embedded structs are always written.
"""

from __future__ import annotations

import types

from allocator.kube import model
from allocator.kube.convert import V1
from allocator.kube.decode import _fields_of
from allocator.reading import TYPE_CHECKING, records

if TYPE_CHECKING:
    from typing import Any

# Fields the Go types declare without omitempty: written even when empty.
_ALWAYS = {
    (model.DeviceRequest, "name"),
    (model.ExactDeviceRequest, "device_class_name"),
    (model.DeviceSubRequest, "name"),
    (model.DeviceSubRequest, "device_class_name"),
    (model.OpaqueDeviceConfiguration, "driver"),
    (model.OpaqueDeviceConfiguration, "parameters"),
    (model.DeviceRequestAllocationResult, "request"),
    (model.DeviceRequestAllocationResult, "driver"),
    (model.DeviceRequestAllocationResult, "pool"),
    (model.DeviceRequestAllocationResult, "device"),
    (model.DeviceAllocationConfiguration, "source"),
    (model.NodeSelector, "node_selector_terms"),
    (model.NodeSelectorRequirement, "key"),
    (model.NodeSelectorRequirement, "operator"),
    (model.ResourcePool, "name"),
    (model.ResourcePool, "generation"),
    (model.ResourcePool, "resource_slice_count"),
    (model.ResourceSliceSpec, "driver"),
    (model.Device, "name"),
    (model.DeviceCapacity, "value"),
    (model.Counter, "value"),
    (model.CounterSet, "name"),
    (model.CounterSet, "counters"),
    (model.DeviceCounterConsumption, "counter_set"),
    (model.DeviceCounterConsumption, "counters"),
    (model.DeviceTaint, "key"),
    (model.DeviceTaint, "effect"),
}


def _optional(tp) -> bool:
    return isinstance(tp, types.UnionType) and type(None) in tp.__args__


def to_json(obj: Any) -> Any:
    """A model object (or list/dict of them) as JSON-ready data."""
    if records.is_dataclass(obj):
        cls = type(obj)
        out = {}
        for json_name, (py_name, tp) in _fields_of(cls).items():
            value = getattr(obj, py_name)
            if value is None:
                continue
            # Set pointers and embedded structs are always written, as Go's encoder does.
            always = (cls, py_name) in _ALWAYS or _optional(tp) or records.is_dataclass(value)
            if not always and (value is False or value in ("", 0, [], {})):
                continue
            out[json_name] = to_json(value)
        return out
    if isinstance(obj, list):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items()}
    return obj


def claim_to_json(claim: model.ResourceClaim, allocation: model.AllocationResult | None = None,
                  api_version: str = V1) -> dict:
    """The ResourceClaim as the apiserver would return it in ``api_version``, with ``allocation`` as its status."""
    out: dict[str, Any] = {"apiVersion": V1, "kind": "ResourceClaim",
                           "metadata": to_json(claim.metadata), "spec": to_json(claim.spec)}
    allocation = allocation if allocation is not None else claim.status.allocation
    if allocation is not None:
        out["status"] = {"allocation": to_json(allocation)}
    return out if api_version == V1 else _written_back("ResourceClaim", api_version, out)


def object_to_json(kind: str, obj: Any, api_version: str = V1) -> dict:
    """A resource.k8s.io object (metadata, spec, and a claim's allocation) as JSON in ``api_version``."""
    if kind == "ResourceClaim":
        return claim_to_json(obj, api_version=api_version)
    out = {"apiVersion": V1, "kind": kind, "metadata": to_json(obj.metadata), "spec": to_json(obj.spec)}
    return out if api_version == V1 else _written_back(kind, api_version, out)


def _written_back(kind: str, api_version: str, out: dict) -> dict:
    """``out`` (v1) in the version the object was written in. (Imported here: most inputs are v1.)"""
    from allocator.kube.convert_back import from_v1, version_of

    return from_v1(kind, version_of(api_version), out)
