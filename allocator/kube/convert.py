"""Conversion of every served resource.k8s.io version to the v1 shape.

The apiserver decodes an object in the version it was written in and converts
it to its internal version, which has the v1 shape. This module does the same
on positioned data (``yamlsource.PosDict``/``PosList``), so that the strict
decoder (``decode``) only ever sees v1 shapes and field positions survive the
restructuring:

* ``v1`` and ``v1beta2`` are returned unchanged (``v1beta2`` has the v1 shape
  for DeviceClass, ResourceSlice, ResourceClaim and ResourceClaimTemplate).
* ``v1beta1`` and ``v1alpha3``: the fields of ``devices[].basic`` move up onto
  the device; the request fields ``deviceClassName``, ``selectors``,
  ``allocationMode``, ``count``, ``adminAccess``, ``tolerations`` and
  ``capacity`` move into a new ``exactly`` mapping when any of them is set
  (as upstream's ``hasAnyMainRequestFieldsSet`` decides); a slice's
  ``nodeName: ""`` and ``allNodes: false`` become unset.
* ``v1alpha3`` additionally: device capacities are bare quantities and become
  ``{value: q}``.

Only fields that exist in the given version are converted. A field the version
does not have is reported as unknown at the path the user wrote
(``spec.devices[0].basic.atributes``), with the nearest field name of that
version, and dropped, so it is not silently accepted because v1 happens to
have a field of that name (``exactly`` in a v1beta1 request, ``distinctAttribute``
in v1alpha3). Errors the decoder finds later in moved data are reported under
v1 paths; ``Conversion.original_path`` maps them back to the user's paths.

The field lists below were written from kubernetes/api ``resource/*/types.go``
(v1alpha3 as of Kubernetes 1.33, the last release serving these kinds in
v1alpha3; v1beta1 and v1beta2 as of 1.37) and the conversion functions in
kubernetes/kubernetes ``pkg/apis/resource/{v1alpha3,v1beta1}/conversion.go``.
Which of these fields an earlier release lacks is ``release_fields``'s to say:
the walker notes them (``Conversion.versioned``) at the paths the user wrote.
"""

from __future__ import annotations

from allocator.reading.diagnostics import PARSE, Diagnostic, DiagnosticError
from allocator.reading.positions import PosDict, Position, PosList
from allocator.reading.records import field, record
from allocator.releases import fields as release_fields

RESOURCE_GROUP = "resource.k8s.io"
V1 = f"{RESOURCE_GROUP}/v1"  # the version every object is converted to
SERVED_VERSIONS = ("v1", "v1beta2", "v1beta1", "v1alpha3")

# --------------------------------------------------------------------------- schemas
#
# Per version, per type: JSON field name -> child. A child is None for a
# scalar or for something the v1 decoder checks itself (metadata, core
# NodeSelector, opaque parameters, fields the model does not read), "T" for an
# object of type T, "[T]" for a list of T and "{T}" for a map of T.
# "{Quantity}" is v1alpha3's capacity map of bare quantities.

_COMMON: dict[str, dict[str, str | None]] = {
    "ResourceSliceSpec": {
        "driver": None, "pool": "ResourcePool", "nodeName": None, "nodeSelector": None, "allNodes": None,
        "devices": "[Device]", "perDeviceNodeSelection": None, "sharedCounters": "[CounterSet]",
        "partitionTypeAttribute": None, "skipNodeOperations": None,
    },
    "ResourcePool": {"name": None, "generation": None, "resourceSliceCount": None},
    "CounterSet": {"name": None, "counters": "{Counter}"},
    "Counter": {"value": None},
    "Device": {"name": None, "basic": "BasicDevice"},
    "BasicDevice": {
        "attributes": "{DeviceAttribute}", "capacity": "{DeviceCapacity}",
        "consumesCounters": "[DeviceCounterConsumption]", "nodeName": None, "nodeSelector": None,
        "allNodes": None, "taints": "[DeviceTaint]", "bindsToNode": None, "bindingConditions": None,
        "bindingFailureConditions": None, "allowMultipleAllocations": None, "nodeAllocatableResources": None,
    },
    "DeviceAttribute": {
        "int": None, "bool": None, "string": None, "version": None,
        "ints": None, "bools": None, "strings": None, "versions": None,
    },
    "DeviceCapacity": {"value": None, "requestPolicy": "CapacityRequestPolicy"},
    "CapacityRequestPolicy": {"default": None, "validValues": None, "validRange": "CapacityRequestPolicyRange"},
    "CapacityRequestPolicyRange": {"min": None, "max": None, "step": None},
    "DeviceCounterConsumption": {"counterSet": None, "counters": "{Counter}"},
    "DeviceTaint": {"key": None, "value": None, "effect": None, "timeAdded": None},
    "DeviceClassSpec": {"selectors": "[DeviceSelector]", "config": "[DeviceClassConfiguration]",
                        "extendedResourceName": None},
    "DeviceSelector": {"cel": "CELDeviceSelector"},
    "CELDeviceSelector": {"expression": None},
    "DeviceClassConfiguration": {"opaque": "OpaqueDeviceConfiguration"},
    "OpaqueDeviceConfiguration": {"driver": None, "parameters": None},
    "ResourceClaimTemplateSpec": {"metadata": None, "spec": "ResourceClaimSpec"},
    "ResourceClaimSpec": {"devices": "DeviceClaim"},
    "DeviceClaim": {"requests": "[DeviceRequest]", "constraints": "[DeviceConstraint]",
                    "config": "[DeviceClaimConfiguration]"},
    "DeviceRequest": {
        "name": None, "deviceClassName": None, "selectors": "[DeviceSelector]", "allocationMode": None,
        "count": None, "adminAccess": None, "firstAvailable": "[DeviceSubRequest]",
        "tolerations": "[DeviceToleration]", "capacity": "CapacityRequirements",
    },
    "DeviceSubRequest": {
        "name": None, "deviceClassName": None, "selectors": "[DeviceSelector]", "allocationMode": None,
        "count": None, "tolerations": "[DeviceToleration]", "capacity": "CapacityRequirements",
    },
    "CapacityRequirements": {"requests": None},
    "DeviceToleration": {"key": None, "operator": None, "value": None, "effect": None, "tolerationSeconds": None},
    "DeviceConstraint": {"requests": None, "matchAttribute": None, "distinctAttribute": None},
    "DeviceClaimConfiguration": {"requests": None, "opaque": "OpaqueDeviceConfiguration"},
    "ResourceClaimStatus": {"allocation": "AllocationResult", "reservedFor": None, "devices": None},
    "AllocationResult": {"devices": "DeviceAllocationResult", "nodeSelector": None, "allocationTimestamp": None},
    "DeviceAllocationResult": {"results": "[DeviceRequestAllocationResult]",
                               "config": "[DeviceAllocationConfiguration]"},
    "DeviceRequestAllocationResult": {
        "request": None, "driver": None, "pool": None, "device": None, "adminAccess": None,
        "tolerations": "[DeviceToleration]", "bindingConditions": None, "bindingFailureConditions": None,
        "shareID": None, "consumedCapacity": None, "skipNodeOperations": None,
    },
    "DeviceAllocationConfiguration": {"source": None, "requests": None, "opaque": "OpaqueDeviceConfiguration"},
}


def _without(fields: dict, *names: str, **replace) -> dict:
    out = {k: v for k, v in fields.items() if k not in names}
    out.update(replace)
    return out


# v1beta1 as served by Kubernetes 1.37: the common shape above.
_V1BETA1 = dict(_COMMON)

# v1alpha3 as served by Kubernetes 1.33 (a superset of 1.31/1.32 for these
# kinds, except the classic-DRA fields dropped in 1.32, see _REMOVED).
_V1ALPHA3 = dict(_COMMON)
_V1ALPHA3.update({
    "ResourceSliceSpec": _without(_COMMON["ResourceSliceSpec"], "partitionTypeAttribute", "skipNodeOperations"),
    "BasicDevice": {
        "attributes": "{DeviceAttribute}", "capacity": "{Quantity}",
        "consumesCounters": "[DeviceCounterConsumption]", "nodeName": None, "nodeSelector": None,
        "allNodes": None, "taints": "[DeviceTaint]",
    },
    "DeviceAttribute": {"int": None, "bool": None, "string": None, "version": None},
    "DeviceClassSpec": _without(_COMMON["DeviceClassSpec"], "extendedResourceName"),
    "DeviceRequest": _without(_COMMON["DeviceRequest"], "capacity"),
    "DeviceSubRequest": _without(_COMMON["DeviceSubRequest"], "capacity"),
    "DeviceConstraint": _without(_COMMON["DeviceConstraint"], "distinctAttribute"),
    "AllocationResult": _without(_COMMON["AllocationResult"], "allocationTimestamp"),
    "DeviceRequestAllocationResult": {
        "request": None, "driver": None, "pool": None, "device": None, "adminAccess": None,
        "tolerations": "[DeviceToleration]",
    },
})

_SCHEMAS = {"v1beta1": _V1BETA1, "v1alpha3": _V1ALPHA3}

# Root type of each kind's spec and status.
_ROOTS = {
    "DeviceClass": {"spec": "DeviceClassSpec"},
    "ResourceSlice": {"spec": "ResourceSliceSpec"},
    "ResourceClaim": {"spec": "ResourceClaimSpec", "status": "ResourceClaimStatus"},
    "ResourceClaimTemplate": {"spec": "ResourceClaimTemplateSpec"},
}

# Request fields that v1 keeps under `exactly` (ExactDeviceRequest).
_EXACT_FIELDS = ("deviceClassName", "selectors", "allocationMode", "count", "adminAccess", "tolerations", "capacity")

# Classic DRA's fields of v1alpha3 in Kubernetes 1.31 (behind DRAControlPlaneController),
# with the words said when a later release, which no longer has them, meets them.
# They are set aside (``Conversion.classic``) rather than refused: whether they are
# known depends on the release, which ``classic`` decides.
CLASSIC_FIELDS = {
    ("v1alpha3", "ResourceClaimSpec", "controller"): "classic DRA with a control-plane controller was removed in Kubernetes 1.32",
    ("v1alpha3", "AllocationResult", "controller"): "classic DRA with a control-plane controller was removed in Kubernetes 1.32",
    ("v1alpha3", "DeviceClassSpec", "suitableNodes"): "classic DRA was removed in Kubernetes 1.32",
    ("v1alpha3", "ResourceClaimStatus", "deallocationRequested"): "classic DRA was removed in Kubernetes 1.32",
}
_MISPLACED = {
    ("DeviceRequest", "exactly"): "{version} has no `exactly`: write its fields directly on the request, or use apiVersion resource.k8s.io/v1",
    ("Device", "attributes"): "in {version} device fields go under `basic`",
    ("Device", "capacity"): "in {version} device fields go under `basic`",
    ("BasicDevice", "name"): "the device name belongs next to `basic`, not inside it",
}


# --------------------------------------------------------------------------- result


@record
class Conversion:
    """The v1-shaped data, the unknown fields found, and the way back to the user's paths."""

    data: dict
    errors: list[Diagnostic] = field(default_factory=list)
    # v1 field path -> the path the user wrote (for the subtree below it).
    renames: dict[str, str] = field(default_factory=dict)
    # classic DRA fields set aside: the user's path -> (value, position, what later releases say)
    classic: dict[str, tuple] = field(default_factory=dict)
    # fields not every release of the version has (``release_fields``): the user's path -> (type, field, position)
    versioned: dict[str, tuple] = field(default_factory=dict)
    # v1beta1/v1alpha3 devices written without ``basic``: their paths (``spec.devices[0]``)
    without_basic: tuple[str, ...] = ()

    def original_path(self, path: str) -> str:
        """The path the user wrote for a v1 field path (unchanged when nothing moved)."""
        prefix = path
        while prefix:
            if prefix in self.renames:
                return self.renames[prefix] + path[len(prefix):]
            cut = max(prefix.rfind("."), prefix.rfind("["))
            if cut <= 0:
                break
            prefix = prefix[:cut]
        return path

    def relocate(self, diagnostic: Diagnostic) -> Diagnostic:
        """Rewrite a decoder diagnostic's v1 path (and the path in its text) to the user's path."""
        original = self.original_path(diagnostic.field)
        if original != diagnostic.field:
            diagnostic.detail = diagnostic.detail.replace(diagnostic.field, original)
            diagnostic.field = original
        return diagnostic


def convert(kind: str, version: str, data: dict) -> Conversion:
    """Convert ``data`` (an object of ``kind`` written in ``version``) to v1 shape.

    Unknown fields of that version are reported in ``errors`` and left out of
    ``data``. ``data`` itself is not modified: changed mappings are copies that
    keep their positions, unchanged sub-mappings are shared.
    """
    if version not in SERVED_VERSIONS:
        raise ValueError(f"unsupported version {RESOURCE_GROUP}/{version}")
    if version in ("v1", "v1beta2") or kind not in _ROOTS or not isinstance(data, dict):
        return Conversion(data=data)
    meta = data.get("metadata")
    name = meta.get("name", "") if isinstance(meta, dict) and isinstance(meta.get("name"), str) else ""
    walker = _Walker(version, kind, name)
    out = _copy_dict(data)
    for key, tname in _ROOTS[kind].items():
        if key in data:
            out[key] = walker.value(tname, data[key], key, key)
    return Conversion(data=out, errors=walker.errors, renames=walker.renames, classic=walker.classic,
                      versioned=walker.versioned, without_basic=tuple(walker.without_basic))


def to_v1(kind: str, version: str, data: dict) -> dict:
    """Return ``data`` in v1 shape; raise DiagnosticError for fields ``version`` does not have."""
    result = convert(kind, version, data)
    if result.errors:
        raise DiagnosticError(result.errors)
    return result.data


# --------------------------------------------------------------------------- walking


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _copy_dict(data) -> PosDict:
    """An empty-of-changes copy of a mapping that keeps its positions."""
    out = PosDict(data, pos=getattr(data, "pos", None))
    out.key_pos = dict(getattr(data, "key_pos", {}))
    out.value_pos = dict(getattr(data, "value_pos", {}))
    return out


def _key_pos(data, key) -> Position | None:
    return getattr(data, "key_pos", {}).get(key) or getattr(data, "value_pos", {}).get(key) or getattr(data, "pos", None)


def _is_zero_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == 0


def _json_type(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "null"


class _Walker:
    def __init__(self, version: str, kind: str, name: str):
        self.version = version
        self.schema = _SCHEMAS[version]
        self.kind = kind
        self.name = name
        self.errors: list[Diagnostic] = []
        self.renames: dict[str, str] = {}
        self.classic: dict[str, tuple] = {}
        self.tracked = release_fields.tracked(version)
        self.versioned: dict[str, tuple] = {}
        self.without_basic: list[str] = []

    # -- reporting
    def _error(self, path: str, detail: str, pos: Position | None) -> None:
        line, column = pos if pos else (None, None)
        self.errors.append(Diagnostic(field=path, type=PARSE, detail=detail, kind=self.kind, name=self.name,
                                      line=line, column=column))

    def _unknown(self, tname: str, path: str, key: str, pos: Position | None) -> None:
        detail = f'unknown field "{path}"'
        hint = None
        if hint is None and (tname, key) in _MISPLACED:
            hint = _MISPLACED[(tname, key)].format(version=f"{RESOURCE_GROUP}/{self.version}")
        known = list(self.schema[tname])
        import difflib  # deferred: only a misspelt name needs it (start-up)

        near = difflib.get_close_matches(key, known, n=1, cutoff=0.6) or [k for k in known if k.lower() == key.lower()]
        if near and not hint:
            detail += f' (did you mean "{near[0]}"?)'
        if hint:
            detail += f": {hint}"
        self._error(path, detail, pos)

    def _rename(self, v1_path: str, user_path: str) -> None:
        if v1_path != user_path:
            self.renames[v1_path] = user_path

    # -- dispatch on a child descriptor
    def value(self, child: str | None, data, upath: str, vpath: str):
        if child is None or data is None:
            return data
        if child == "{Quantity}":
            return self._quantity_map(data, upath, vpath)
        if child.startswith("["):
            if not isinstance(data, list):
                return data  # the decoder reports the wrong type
            items = [self.value(child[1:-1], item, f"{upath}[{i}]", f"{vpath}[{i}]") for i, item in enumerate(data)]
            if all(a is b for a, b in zip(items, data, strict=True)):
                return data
            out = PosList(items, pos=getattr(data, "pos", None))
            out.item_pos = list(getattr(data, "item_pos", []))
            return out
        if child.startswith("{"):
            if not isinstance(data, dict):
                return data
            out = None
            for key, item in data.items():
                new = self.value(child[1:-1], item, f"{upath}[{key}]", f"{vpath}[{key}]")
                if new is not item:
                    out = out if out is not None else _copy_dict(data)
                    out[key] = new
            return data if out is None else out
        return self._object(child, data, upath, vpath)

    def _fields(self, tname: str, data: dict, upath: str, vpath: str) -> PosDict | dict:
        """Check the keys of one mapping against the version's type; convert its children."""
        known = self.schema[tname]
        out = None
        for key, item in data.items():
            removed = CLASSIC_FIELDS.get((self.version, tname, key))
            if removed is not None:
                self.classic[_join(upath, key)] = (item, _key_pos(data, key), removed)
                out = out if out is not None else _copy_dict(data)
                del out[key]
                continue
            if key not in known:
                self._unknown(tname, _join(upath, key), key, _key_pos(data, key))
                out = out if out is not None else _copy_dict(data)
                del out[key]
                continue
            if key in self.tracked.get(tname, ()):
                # Whether the release has it is for ``release_fields`` to say, once the release is known.
                self.versioned[_join(upath, key)] = (tname, key, _key_pos(data, key))
            # A request's selection fields end up under `exactly` in v1.
            vparent = _join(vpath, "exactly") if tname == "DeviceRequest" and key in _EXACT_FIELDS else vpath
            new = self.value(known[key], item, _join(upath, key), _join(vparent, key))
            if new is not item:
                out = out if out is not None else _copy_dict(data)
                out[key] = new
        return data if out is None else out

    def _object(self, tname: str, data, upath: str, vpath: str):
        if not isinstance(data, dict):
            return data  # the decoder reports the wrong type (at the mapped path)
        if tname == "Device":
            return self._device(data, upath, vpath)
        data = self._fields(tname, data, upath, vpath)
        if tname == "DeviceRequest":
            return self._request(data, vpath)
        if tname == "ResourceSliceSpec":
            return self._slice_spec(data)
        return data

    # -- the restructurings
    def _device(self, data: dict, upath: str, vpath: str):
        """v1beta1/v1alpha3 Device {name, basic: {...}} -> v1 Device {name, ...}."""
        out = PosDict(pos=getattr(data, "pos", None))
        if data.get("basic") is None:
            self.without_basic.append(upath)  # 1.32's apiserver requires it (``ReleaseRules.device_needs_basic``)
        for key, item in data.items():
            kpos = _key_pos(data, key)
            if key not in self.schema["Device"]:
                self._unknown("Device", _join(upath, key), key, kpos)
                continue
            if key != "basic":
                out[key] = item
                out.key_pos[key] = getattr(data, "key_pos", {}).get(key)
                out.value_pos[key] = getattr(data, "value_pos", {}).get(key)
                continue
            if item is None:
                continue
            bpath = _join(upath, "basic")
            if not isinstance(item, dict):
                self._error(bpath, f"cannot decode {_json_type(item)} into field {bpath} of type object",
                            getattr(data, "value_pos", {}).get(key) or kpos)
                continue
            basic = self._fields("BasicDevice", item, bpath, vpath)
            for bkey, bvalue in basic.items():
                out[bkey] = bvalue
                out.key_pos[bkey] = getattr(basic, "key_pos", {}).get(bkey)
                out.value_pos[bkey] = getattr(basic, "value_pos", {}).get(bkey)
                self._rename(_join(vpath, bkey), _join(bpath, bkey))
        return out

    def _request(self, data: dict, vpath: str):
        """Move the request's own selection fields into `exactly` when any of them is set."""
        present = [k for k in _EXACT_FIELDS if k in data]
        if not present:
            return data
        if not any(self._is_set(k, data[k]) for k in present):
            out = _copy_dict(data)
            for k in present:
                del out[k]
            return out
        first = present[0]
        for k in data:  # the first one in the user's order, for the wrapper's position
            if k in present:
                first = k
                break
        key_pos, value_pos = getattr(data, "key_pos", {}), getattr(data, "value_pos", {})
        exactly = PosDict(pos=key_pos.get(first) or getattr(data, "pos", None))
        out = PosDict(pos=getattr(data, "pos", None))
        for key, item in data.items():
            if key in present:
                exactly[key] = item
                exactly.key_pos[key] = key_pos.get(key)
                exactly.value_pos[key] = value_pos.get(key)
                if key == first:
                    out["exactly"] = exactly
                    out.key_pos["exactly"] = key_pos.get(key)
                    out.value_pos["exactly"] = key_pos.get(key)
            else:
                out[key] = item
                out.key_pos[key] = key_pos.get(key)
                out.value_pos[key] = value_pos.get(key)
        self._rename(_join(vpath, "exactly"), vpath)
        return out

    @staticmethod
    def _is_set(key: str, value) -> bool:
        """Upstream's test for a non-zero Go field, on JSON input (wrong types count as set)."""
        if value is None:
            return False
        if key in ("deviceClassName", "allocationMode"):
            return value != ""
        if key == "count":
            return not _is_zero_number(value)
        return True  # selectors/tolerations ([] is non-nil), adminAccess (pointer), capacity (pointer)

    @staticmethod
    def _slice_spec(data: dict):
        """nodeName and allNodes are plain string/bool here; their zero values mean unset."""
        drop = [k for k, zero in (("nodeName", ""), ("allNodes", False))
                if k in data and type(data[k]) is type(zero) and data[k] == zero]
        if not drop:
            return data
        out = _copy_dict(data)
        for k in drop:
            del out[k]
        return out

    def _quantity_map(self, data, upath: str, vpath: str):
        """v1alpha3 capacity {name: quantity} -> v1 {name: {value: quantity}}."""
        if not isinstance(data, dict):
            return data
        out = _copy_dict(data)
        for key, item in data.items():
            kpos = getattr(data, "key_pos", {}).get(key)
            vpos = getattr(data, "value_pos", {}).get(key)
            wrapper = PosDict(value=item, pos=vpos or kpos)
            wrapper.key_pos["value"] = kpos
            wrapper.value_pos["value"] = vpos
            out[key] = wrapper
            self._rename(f"{vpath}[{key}].value", f"{upath}[{key}]")
            self._rename(f"{vpath}[{key}]", f"{upath}[{key}]")
        return out
