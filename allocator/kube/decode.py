"""Strict decoding of v1-shaped data into the typed model.

The dataclasses of ``model`` are the schema: a JSON field ``deviceClassName``
fills ``device_class_name``. Decoding behaves like the apiserver's strict
decoder (``kubectl --validate=strict``): unknown and duplicate fields and
wrong JSON types are errors, reported with the field path, the nearest known
field name and the line and column. Every decoded field's position is
recorded by field path so later diagnostics can point at it.
"""

from __future__ import annotations

import builtins
import functools
import types

from allocator.kube import model
from allocator.reading import TYPE_CHECKING, records
from allocator.reading.diagnostics import PARSE, Diagnostic
from allocator.reading.positions import Position, position_in

if TYPE_CHECKING:
    from typing import Any

# JSON names that are not the plain camelCase of the Python name.
_JSON_NAME_OVERRIDES = {"share_id": "shareID"}

# Quantities are strings in the model but JSON numbers are accepted too, as
# resource.Quantity's UnmarshalJSON does.
_QUANTITY_FIELDS = {
    (model.DeviceCapacity, "value"),
    (model.Counter, "value"),
    (model.CapacityRequestPolicy, "default"),
    (model.CapacityRequestPolicyRange, "min"),
    (model.CapacityRequestPolicyRange, "max"),
    (model.CapacityRequestPolicyRange, "step"),
}
_QUANTITY_LIST_FIELDS = {(model.CapacityRequestPolicy, "valid_values")}
_QUANTITY_MAP_FIELDS = {(model.CapacityRequirements, "requests"), (model.DeviceRequestAllocationResult, "consumed_capacity")}

# Server-populated or irrelevant fields that are accepted and ignored, per class.
_IGNORED_FIELDS: dict[type, set[str]] = {
    model.ObjectMeta: {
        "resourceVersion", "generation", "deletionTimestamp",
        "deletionGracePeriodSeconds", "ownerReferences", "finalizers", "managedFields", "selfLink",
    },
    model.ResourceClaimStatus: {"devices"},
}

# Core objects are only partly modelled: these fields of theirs are known
# (so strict decoding does not reject them) but not read.
_POD_SPEC_FIELDS = {
    "activeDeadlineSeconds", "affinity", "automountServiceAccountToken", "dnsConfig", "dnsPolicy",
    "enableServiceLinks", "ephemeralContainers", "hostAliases", "hostIPC", "hostNetwork", "hostPID",
    "hostUsers", "hostname", "imagePullSecrets", "nodeSelector", "os", "overhead", "preemptionPolicy",
    "priority", "priorityClassName", "readinessGates", "resources", "restartPolicy", "runtimeClassName",
    "schedulerName", "schedulingGates", "securityContext", "serviceAccount", "serviceAccountName",
    "setHostnameAsFQDN", "shareProcessNamespace", "subdomain", "terminationGracePeriodSeconds",
    "tolerations", "topologySpreadConstraints", "volumes", "hostnameOverride", "workloadRef",
}
_CONTAINER_FIELDS = {
    "args", "command", "env", "envFrom", "image", "imagePullPolicy", "lifecycle", "livenessProbe",
    "ports", "readinessProbe", "resizePolicy", "restartPolicyRules", "securityContext",
    "startupProbe", "stdin", "stdinOnce", "terminationMessagePath", "terminationMessagePolicy", "tty",
    "volumeDevices", "volumeMounts", "workingDir",
}
_RESOURCES_FIELDS = {"limits", "requests", "claims"}


def json_name(python_name: str) -> str:
    if python_name in _JSON_NAME_OVERRIDES:
        return _JSON_NAME_OVERRIDES[python_name]
    head, *rest = python_name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


# The fields resource.k8s.io/v1 moved from a request into its ``exactly`` (v1beta1 has them on the request).
EXACTLY_FIELDS = tuple(json_name(f.name) for f in records.fields(model.ExactDeviceRequest))


# Fields of metadata written at the object's top level (column 1 under "metadata:"): said so.
METADATA_FIELDS = frozenset({"name", "generateName", "namespace", "labels", "annotations"})
# The words of the hints whose edit indents the key two spaces (``text_fixes``).
INDENT_HINT = "indent it two spaces"


def exactly_hint(path: str, key: str) -> str:
    """Advice for a v1beta1-shaped request field under resource.k8s.io/v1."""
    moved = ", ".join(EXACTLY_FIELDS[:-1]) + " and " + EXACTLY_FIELDS[-1]
    return (f"in resource.k8s.io/v1 (and v1beta2) this field goes under exactly: {path[: -len(key)]}exactly.{key} "
            f"({moved} moved from the request into exactly; v1beta1 had them on the request)")


@functools.cache
def _fields_of(cls: type) -> dict[str, tuple[str, Any]]:
    """JSON name -> (python name, resolved type) for a model dataclass."""
    return {json_name(f.name): (f.name, _hint(f.type)) for f in records.fields(cls)}


class AnyValue:
    """What the model's ``Any`` names here: a field that takes any JSON value (as typing's ``Any`` would,
    without importing typing at start-up)."""


def _origin(tp: Any) -> Any:
    """``typing.get_origin`` for the types the model's annotations make: ``X | None``, ``list[X]``,
    ``dict[K, V]`` or a class (None)."""
    return types.UnionType if isinstance(tp, types.UnionType) else getattr(tp, "__origin__", None)


# The names the model's annotations use. Explicit: DeviceAttribute has fields named "int" and "bool",
# which would otherwise shadow the builtins in its annotations.
_NAMES = {**vars(builtins), **vars(model), "Any": AnyValue}
_HINTS: dict[str, Any] = {}  # annotation text -> the type it names


def _hint(annotation: Any) -> Any:
    """The type an annotation names, as typing.get_type_hints resolves it in ``_NAMES``; each text evaluated
    once, a plain name looked up (get_type_hints compiles every annotation of every class: start-up)."""
    if not isinstance(annotation, str):
        return annotation
    found = _HINTS.get(annotation)
    if found is None:
        found = _HINTS[annotation] = (_NAMES[annotation] if annotation in _NAMES
                                      else eval(annotation, _NAMES))  # the model's own annotation text
    return found


# Model fields filled from elsewhere in the object (a Node's status.allocatable, a container's
# resources.requests/limits): not fields of the object itself.
_NESTED_FIELDS: dict[type, set[str]] = {model.Node: {"allocatable"}, model.Container: {"requests", "limits"}}


@functools.cache
def _decoded_fields(cls: type) -> dict[str, tuple[str, Any]]:
    nested = _NESTED_FIELDS.get(cls)
    fields = _fields_of(cls)
    return {k: v for k, v in fields.items() if k not in nested} if nested else fields


def _go_type(tp) -> str:
    """A short name for the expected JSON type, in the decoder's words."""
    origin = _origin(tp)
    if origin is types.UnionType:
        args = [a for a in tp.__args__ if a is not type(None)]
        return _go_type(args[0]) if args else "null"
    if origin is list:
        return "array"
    if origin is dict or records.is_dataclass(tp):
        return "object"
    return {str: "string", int: "integer", bool: "boolean", float: "number"}.get(tp, "value")


def _json_type(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


_NOTHING: frozenset = frozenset()
_TEXT_TYPES = frozenset({str, str | None})  # fields a string decodes into unchanged

_OPTIONAL, _ANY, _OBJECT, _LIST, _DICT, _SCALAR = "optional", "any", "object", "list", "dict", "scalar"


@functools.cache
def _shape(tp) -> tuple[str, Any]:
    """How to decode a value of type ``tp``, and the type inside it; worked out once per type."""
    origin = _origin(tp)
    if origin is types.UnionType:
        return _OPTIONAL, [a for a in tp.__args__ if a is not type(None)][0]
    if tp is AnyValue:
        return _ANY, None
    if records.is_dataclass(tp):
        return _OBJECT, None
    if origin is list:
        return _LIST, tp.__args__[0]
    if origin is dict:
        return _DICT, tp.__args__[1]
    return _SCALAR, None


# Leaf value types whose decoded objects nothing changes, so equal values may share one object.
_SHARED_VALUE_TYPES = frozenset({model.DeviceAttribute, model.DeviceCapacity})


@functools.cache
def _object_plan(cls: type) -> tuple[dict[str, tuple[str, Any]], dict[str, type]]:
    """The fields ``_object`` decodes for ``cls``, and those of them that are maps of shared values (JSON name
    -> the values' type), which ``_value`` hands to ``_shared_values`` when read without positions."""
    known = _decoded_fields(cls)
    shared = {}
    for key, (pyname, tp) in known.items():
        shape, inner = _shape(tp)
        if shape is _DICT and inner in _SHARED_VALUE_TYPES and (cls, pyname) not in _QUANTITY_MAP_FIELDS:
            shared[key] = inner
    return known, shared
_SHARED_VALUES: dict[tuple, object] = {}
_SHARED_VALUES_MAX = 100_000  # about 30 MB of keys and objects at most


def _flat_key(cls: type, item) -> tuple | None:
    """A key for a JSON object of scalars, types included (1, 1.0 and true decode differently); None otherwise."""
    if item.__class__ is not dict:
        return None
    key = [cls]
    for name, value in item.items():
        kind = value.__class__
        if kind is not str and kind is not int and kind is not bool and kind is not float and value is not None:
            return None
        key.append((name, kind, value))
    return tuple(key)


class Decoder:
    """Decodes one document; collects errors and the positions of fields."""

    def __init__(self, kind: str = "", name: str = "", tracked=None):
        self.kind = kind
        self.name = name
        self.errors: list[Diagnostic] = []
        self.positions: dict[str, Position] = {}
        # Paths decoded without a position (fast-read text), those outside lists and maps only: what is
        # asked of them is whether a field was written ("devices: []"), and a cluster has 100,000s inside.
        self.present: set[str] = set()
        # model type name -> fields not every release of the object's version has (``release_fields.tracked``)
        self.tracked = tracked or {}
        self.versioned: dict[str, tuple] = {}  # path -> (type, field, key position) of those found

    def error(self, path: str, detail: str, pos: Position | None) -> None:
        line, column = pos if pos else (None, None)
        self.errors.append(Diagnostic(field=path, type=PARSE, detail=detail, kind=self.kind, name=self.name, line=line, column=column))

    # -- entry point
    def decode(self, cls: type, data: Any, path: str = "", pos: Position | None = None):
        return self._value(cls, data, path, pos, owner=None)

    # -- per type
    def _value(self, tp, data, path: str, pos: Position | None, owner: tuple | None):
        if pos:
            self.positions.setdefault(path, pos)
        elif "[" not in path:
            self.present.add(path)
        shape, inner = _shape(tp)
        if shape is _OPTIONAL:
            if data is None:
                return None
            return self._value(inner, data, path, pos, owner)
        if shape is _ANY:
            return data
        if shape is _OBJECT:
            if data is None:
                return tp()
            if not isinstance(data, dict):
                return self._type_error(tp, data, path, pos)
            return self._object(tp, data, path)
        if shape is _LIST:
            if data is None:
                return []
            if not isinstance(data, list):
                return self._type_error(tp, data, path, pos)
            item_type = "quantity" if owner in _QUANTITY_LIST_FIELDS else inner
            position_of = getattr(data, "position_of", None)
            if position_of is None and _shape(item_type)[0] is _OBJECT:
                # Objects read without positions (a slice's devices): what _value does for each, straight.
                decode_object, value = self._object, self._value
                return [decode_object(item_type, item, f"{path}[{i}]") if item.__class__ is dict
                        else value(item_type, item, f"{path}[{i}]", None, None) for i, item in enumerate(data)]
            return [
                self._value(item_type, item, f"{path}[{i}]", position_of(i) if position_of is not None else None, None)
                for i, item in enumerate(data)
            ]
        if shape is _DICT:
            if data is None:
                return {}
            if not isinstance(data, dict):
                return self._type_error(tp, data, path, pos)
            value_type = "quantity" if owner in _QUANTITY_MAP_FIELDS else inner
            position_of = getattr(data, "position_of", None)
            if position_of is None and value_type in _SHARED_VALUE_TYPES:
                return self._shared_values(value_type, data, path)
            out = {}
            for key, item in data.items():
                pos_of_item = position_of(key) if position_of is not None else None
                out[str(key)] = self._value(value_type, item, f"{path}[{key}]", pos_of_item, None)
            return out
        if tp == "quantity" or owner in _QUANTITY_FIELDS:
            if isinstance(data, bool) or not isinstance(data, str | int | float):
                return self._type_error(str, data, path, pos, expected="quantity (string or number)")
            return str(data)
        return self._scalar(tp, data, path, pos)

    def _shared_values(self, cls: type, data: dict, path: str) -> dict:
        """A map of attributes or capacities read without positions, each distinct value decoded once.

        A cluster's devices repeat the same values ({"string": "Hopper"},
        {"value": "80Gi"}); the decoded objects are shared, as all read
        objects are, read-only. Only values decoded without errors or
        release-tracked fields are shared; the paths inside them are not
        noted in ``present`` (nothing asks about them).
        """
        out = {}
        shared = _SHARED_VALUES
        attributes = cls is model.DeviceAttribute
        # Fields of attributes not every release has: decoded field by field, which notes them.
        tracked = self.tracked.get("DeviceAttribute", ()) if self.tracked else ()
        for key, item in data.items():
            if key.__class__ is not str:
                key = str(key)
            text = None
            if item.__class__ is dict and len(item) == 1:  # most values: {"string": "Hopper"}, {"value": "80Gi"}
                ((name, value),) = item.items()
                kind = value.__class__
                if kind is str:  # a text never equals a number or a flag: no type in its key
                    found = shared.get(memo_key := (cls, name, value))
                    if found is None and attributes and (name == "string" or name == "version") \
                            and name not in tracked:
                        text = name
                else:
                    memo_key = ((cls, name, kind, value) if kind is int or kind is bool or kind is float
                                or value is None else None)
                    found = shared.get(memo_key) if memo_key is not None else None
            else:
                memo_key = _flat_key(cls, item)
                found = shared.get(memo_key) if memo_key is not None else None
            if found is None:
                errors, versioned = len(self.errors), len(self.versioned)
                if text is not None:
                    # Text or a version, such as the serial number each device has its own of: what decoding
                    # it field by field gives, in one step.
                    found = model.DeviceAttribute(string=value) if text == "string" else model.DeviceAttribute(
                        version=value)
                else:
                    found = self._value(cls, item, f"{path}[{key}]", None, None)
                if memo_key is not None and found is not None and len(self.errors) == errors \
                        and len(self.versioned) == versioned:
                    if len(shared) >= _SHARED_VALUES_MAX:
                        shared.clear()
                    shared[memo_key] = found
            out[key] = found
        return out

    def _scalar(self, tp, data, path, pos):
        if data is None:
            return None
        if tp is bool:
            ok = isinstance(data, bool)
        elif tp is int:
            ok = (isinstance(data, int) and not isinstance(data, bool)) or (isinstance(data, float) and data.is_integer())
            if ok:
                data = int(data)
                if not -(2**63) <= data < 2**63:
                    self.error(path, f"cannot decode number {data}: out of range for a 64-bit integer", pos)
                    return None
        elif tp is str:
            ok = isinstance(data, str)
        else:
            ok = True
        if not ok:
            return self._type_error(tp, data, path, pos)
        return data

    def _type_error(self, tp, data, path, pos, expected: str | None = None):
        self.error(path, f"cannot decode {_json_type(data)} into field {path or '(root)'} of type {expected or _go_type(tp)}", pos)
        return None

    def _object(self, cls: type, data: dict, path: str):
        known, shared_maps = _object_plan(cls)
        ignored = _IGNORED_FIELDS.get(cls, _NOTHING)
        kwargs = {}
        special = _SPECIAL.get(cls)
        tracked = self.tracked.get(cls.__name__) if self.tracked else None
        position_of = getattr(data, "position_of", None)  # what position_in asks, once per object
        for key, value in data.items():
            child = f"{path}.{key}" if path else key
            pos = position_of(key) if position_of is not None else None
            if key in known:
                pyname, tp = known[key]
                if tracked is not None and key in tracked:
                    self.versioned[child] = (cls.__name__, key, getattr(data, "key_pos", {}).get(key) or pos)
                if value.__class__ is str and tp in _TEXT_TYPES:
                    # The most common value, decoded here: what _value would do, without its dispatch.
                    if pos:
                        self.positions.setdefault(child, pos)
                    elif "[" not in child:
                        self.present.add(child)
                    kwargs[pyname] = value
                    continue
                if position_of is None and value.__class__ is dict and key in shared_maps:
                    # Attributes and capacities read without positions: what _value does for them, straight.
                    if "[" not in child:
                        self.present.add(child)
                    kwargs[pyname] = self._shared_values(shared_maps[key], value, child)
                    continue
                decoded = self._value(tp, value, child, pos, (cls, pyname))
                if decoded is not None:
                    kwargs[pyname] = decoded
            elif special and key in special[0]:
                special[1](self, kwargs, key, value, child, pos)
            elif key in ignored:
                continue
            else:
                names = list(known) + sorted(ignored) + sorted(special[0] if special else ())
                self.unknown_field(child, key, names, getattr(data, "key_pos", {}).get(key) or pos, owner=cls)
        return cls(**kwargs)

    def unknown_field(self, path: str, key: str, known: list[str], pos: Position | None,
                      owner: type | None = None) -> None:
        detail = f'unknown field "{path}"'
        import difflib  # deferred: only a misspelt name needs it (start-up)

        near = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
        if not near:
            near = [k for k in known if k.lower() == key.lower()]
        if near:
            detail += f' (did you mean "{near[0]}"?)'
        self.error(path, detail, pos)
        if owner is model.DeviceRequest and key in EXACTLY_FIELDS:
            self.errors[-1].hint = exactly_hint(path, key)
        elif owner is model.DeviceSelector and key == "expression":
            # Enter after "- cel:" keeps the column of "cel": the expression lands beside it, not under it.
            self.errors[-1].hint = ('"expression" belongs under "cel:": ' + INDENT_HINT
                                    + ' more than "cel" (a selector is "- cel:" with "expression:" inside it)')
        elif path == key and key in METADATA_FIELDS:
            self.errors[-1].hint = (f'"{key}" is a field of metadata: {INDENT_HINT}, under "metadata:" '
                                    "(a key in column 1 is a field of the object itself)")

    def check_known(self, data: Any, path: str, known: set[str]) -> None:
        """Strictly check the field names of an unmodelled core object."""
        if not isinstance(data, dict):
            return
        for key in data:
            if key not in known:
                child = f"{path}.{key}"
                self.unknown_field(child, key, sorted(known), getattr(data, "key_pos", {}).get(key) or position_in(data, key))


# -- the parts of core/v1 Pod that the model flattens or leaves out ---------------------


def _pod_spec_extra(dec: Decoder, kwargs, key, value, path, pos):
    dec.positions.setdefault(path, pos) if pos else None


def _container_resources(dec: Decoder, kwargs, key, value, path, pos):
    if value is None:
        return
    if not isinstance(value, dict):
        dec._type_error(dict, value, path, pos)
        return
    dec.check_known(value, path, _RESOURCES_FIELDS)
    for key in ("limits", "requests"):
        if key in value and value[key] is not None:
            quantities = _quantity_map(dec, value[key], f"{path}.{key}", position_in(value, key))
            if quantities:
                kwargs[key] = quantities
    # The apiserver defaults a missing request to its limit (core/v1 SetDefaults_Container... for resources).
    if kwargs.get("limits"):
        kwargs["requests"] = {**kwargs["limits"], **kwargs.get("requests", {})}
    if "claims" in value:
        claims = dec._value(list[model.ResourceClaimReference], value["claims"], f"{path}.claims",
                            position_in(value, "claims"), None)
        if claims:
            kwargs["claims"] = claims


def _quantity_map(dec: Decoder, value, path: str, pos) -> dict[str, str]:
    """A ResourceList: names to quantities (JSON numbers accepted, as resource.Quantity does)."""
    if not isinstance(value, dict):
        dec._type_error(dict, value, path, pos)
        return {}
    out = {}
    for name, quantity in value.items():
        if isinstance(quantity, bool) or not isinstance(quantity, str | int | float):
            dec._type_error(str, quantity, f"{path}.{name}", position_in(value, name) or pos)
            continue
        out[str(name)] = str(quantity)
    if pos:
        dec.positions.setdefault(path, pos)
    return out


def _container_extra(dec: Decoder, kwargs, key, value, path, pos):
    if pos:
        dec.positions.setdefault(path, pos)
    if key == "restartPolicy" and isinstance(value, str):
        kwargs["restart_policy"] = value


def _node_extra(dec: Decoder, kwargs, key, value, path, pos):
    """Node spec and status are accepted as they come from kubectl; only status.allocatable is read."""
    if key == "status" and isinstance(value, dict) and value.get("allocatable") is not None:
        allocatable = _quantity_map(dec, value["allocatable"], f"{path}.allocatable", position_in(value, "allocatable"))
        if allocatable:
            kwargs["allocatable"] = allocatable


def _pod_extra(dec: Decoder, kwargs, key, value, path, pos):
    """A pod's status is accepted as kubectl prints it; nothing in it is read."""


_SPECIAL: dict[type, tuple[set[str], Any]] = {
    model.PodSpec: (_POD_SPEC_FIELDS, _pod_spec_extra),
    model.Container: ({"resources", "restartPolicy"} | _CONTAINER_FIELDS, lambda d, kw, k, v, p, pos: (
        _container_resources(d, kw, k, v, p, pos) if k == "resources" else _container_extra(d, kw, k, v, p, pos))),
    model.Node: ({"spec", "status"}, _node_extra),
    model.Pod: ({"status"}, _pod_extra),
}
