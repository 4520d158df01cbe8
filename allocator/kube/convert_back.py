"""Writing v1-shaped objects back in the resource.k8s.io version the user wrote them in.

The inverse of ``convert``: the engine works on the v1 shape, but a claim
written as ``resource.k8s.io/v1beta1`` is printed as v1beta1, so that what
users copy is what their apiserver accepts. ``from_v1(kind, version, data)``
takes an object as ``allocation.encode`` writes it (v1 JSON) and returns it in
``version``, as the apiserver's conversion from its internal (v1-shaped)
version would:

* ``v1`` and ``v1beta2``: only ``apiVersion`` changes (same shape).
* ``v1beta1`` and ``v1alpha3``: a request's ``exactly`` fields are written on
  the request itself, and ``deviceClassName`` always (the Go field has no
  ``omitempty`` there, so a request with ``firstAvailable`` carries
  ``deviceClassName: ""``); a device's fields other than its name go under
  ``basic``, which is always written.
* ``v1alpha3`` additionally: capacities are bare quantities (a capacity's
  ``requestPolicy`` has no place there).
* Fields the version does not have are dropped, as the generated conversion
  functions drop them: a v1alpha3 allocation has no ``allocationTimestamp``
  and its device results no ``bindingConditions``, ``shareID`` or
  ``consumedCapacity``; a v1alpha3 request has no ``capacity``.

Sources: kubernetes/kubernetes ``pkg/apis/resource/v1beta1/conversion.go``
(``Convert_resource_DeviceRequest_To_v1beta1_DeviceRequest``, the device
conversion) and the ``v1alpha3`` one, and kubernetes/api
``resource/{v1alpha3,v1beta1}/types.go`` for the fields and their
``omitempty`` tags; the per-version field lists are ``convert``'s.
"""

from __future__ import annotations

from allocator.kube.convert import _EXACT_FIELDS, _ROOTS, _SCHEMAS, RESOURCE_GROUP, SERVED_VERSIONS, V1
from allocator.reading import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["V1", "from_v1", "version_of"]


def version_of(api_version: str) -> str:
    """``resource.k8s.io/v1beta1`` -> ``v1beta1``; ValueError for anything not served."""
    group, _, version = api_version.rpartition("/")
    if group != RESOURCE_GROUP or version not in SERVED_VERSIONS:
        raise ValueError(f"not a served {RESOURCE_GROUP} version: {api_version!r}")
    return version


def from_v1(kind: str, version: str, data: dict[str, Any], dropped: list[str] | None = None) -> dict[str, Any]:
    """``data`` (a v1 object of ``kind`` as JSON) written in ``version``; ``data`` is left as it is.

    The field paths of values ``version`` has no place for are appended to ``dropped`` when it is given.
    """
    if version not in SERVED_VERSIONS:
        raise ValueError(f"unsupported version {RESOURCE_GROUP}/{version}")
    out: dict[str, Any] = {"apiVersion": f"{RESOURCE_GROUP}/{version}"}
    out.update((k, v) for k, v in data.items() if k != "apiVersion")
    if version in ("v1", "v1beta2") or kind not in _ROOTS:
        return out
    writer = _Writer(_SCHEMAS[version], dropped if dropped is not None else [])
    for key, tname in _ROOTS[kind].items():
        if key in data:
            out[key] = writer.value(tname, data[key], key)
    return out


class _Writer:
    def __init__(self, schema: dict[str, dict[str, str | None]], dropped: list[str]):
        self.schema = schema
        self.dropped = dropped  # v1 field paths with no place in the version

    def value(self, child: str | None, data, path: str):
        if child is None or data is None:
            return data
        if child == "{Quantity}":
            out = {}
            for k, v in data.items():
                if isinstance(v, dict):
                    self.dropped.extend(f"{path}[{k}].{f}" for f in v if f != "value")
                    v = v.get("value", "0")
                out[k] = v
            return out
        if child.startswith("["):
            return [self.value(child[1:-1], item, f"{path}[{i}]") for i, item in enumerate(data)]
        if child.startswith("{"):
            return {k: self.value(child[1:-1], item, f"{path}[{k}]") for k, item in data.items()}
        if child == "Device":
            return self._device(data, path)
        if child == "DeviceRequest":
            return self._request(data, path)
        return self._fields(child, data, path)

    def _fields(self, tname: str, data: dict, path: str) -> dict:
        """The fields of ``data`` that the version's type has, converted; the others dropped."""
        known = self.schema[tname]
        self.dropped.extend(f"{path}.{k}" for k in data if k not in known)
        return {k: self.value(known[k], v, f"{path}.{k}") for k, v in data.items() if k in known}

    def _device(self, data: dict, path: str) -> dict:
        """v1 Device {name, ...} -> {name, basic: {...}}."""
        basic = self._fields("BasicDevice", {k: v for k, v in data.items() if k != "name"}, path)
        return {"name": data.get("name", ""), "basic": basic}

    def _request(self, data: dict, path: str) -> dict:
        """v1 DeviceRequest {name, exactly: {...}, firstAvailable} -> the flat request, in Go field order."""
        known = self.schema["DeviceRequest"]
        exactly = data.get("exactly") or {}
        self.dropped.extend(f"{path}.{k}" for k in data if k != "exactly" and k not in known)
        self.dropped.extend(f"{path}.exactly.{k}" for k in exactly if k not in known)
        out: dict[str, Any] = {}
        for key, child in known.items():
            source, at = (exactly, f"{path}.exactly") if key in _EXACT_FIELDS else (data, path)
            if key in source:
                out[key] = self.value(child, source[key], f"{at}.{key}")
            elif key == "deviceClassName":
                out[key] = ""  # no omitempty on this field in v1beta1/v1alpha3
        return out
