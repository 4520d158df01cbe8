"""What the editor can offer while someone types: plain data, no behaviour.

* ``schemas()``: for every apiVersion the engine reads, the kinds it holds and
  the fields of every type below them, taken from the model (v1, v1beta2) and
  from the conversion tables (v1beta1, v1alpha3). A child is written ``"T"``
  (an object of type T), ``"[T]"`` (a list of T), ``"{T}"`` (a map whose
  values are T) or ``None`` (a scalar, or something not modelled further).
* ``inventory_names(text)``: the DeviceClass, driver, node, attribute and
  capacity names of an inventory (attribute and capacity names grouped by
  their domain, as ``device.attributes["<domain>"]`` sees them, with each
  attribute's CEL type), bounded so that a hostile inventory cannot make the
  answer large.
* ``cel_functions(release, enabled)``: the CEL functions and macros of the
  DRA environment, each with its signature and a one-line description; a
  function behind a feature gate that is off says so first.
* ``FIELD_DOCS``: one line about each field, for hover help.

The page's script only displays this; it knows no field or function itself.
"""

from __future__ import annotations

import functools
import json
import re
import types
import typing

from allocator.cel.types import CelType
from allocator.kube import model
from allocator.kube.convert import _ROOTS, _SCHEMAS, RESOURCE_GROUP
from allocator.kube.decode import _CONTAINER_FIELDS, _POD_SPEC_FIELDS, _fields_of
from allocator.kube.objects import read_documents
from allocator.reading import records
from allocator.reading.diagnostics import DiagnosticError
from allocator.reading.limits import DEFAULT, Limits
from allocator.releases.gates import CURRENT_RELEASE, FeatureGateError, make_gates
from allocator.releases.table import release as _release

# At most this many names per list in inventory_names(): enough to choose
# from, small enough to send on every request.
MAX_NAMES = 500
MAX_DOMAINS = 100

_RESOURCE_KINDS = ("DeviceClass", "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate")
_TOP = {"apiVersion": None, "kind": None, "metadata": "ObjectMeta"}


def _child(tp: typing.Any) -> str | None:
    """The schema notation of a model field's type (see the module docstring)."""
    origin = typing.get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return _child(args[0]) if len(args) == 1 else None
    if origin is list:
        inner = _child(typing.get_args(tp)[0])
        return f"[{inner}]" if inner else None
    if origin is dict:
        inner = _child(typing.get_args(tp)[1])
        return f"{{{inner}}}" if inner else None
    if isinstance(tp, type) and records.is_dataclass(tp):  # a field's type: a class, never an instance
        return tp.__name__
    return None


def _dataclasses_in(tp: typing.Any) -> list[type]:
    """The model classes a field's type refers to (through Optional, list and dict)."""
    if isinstance(tp, type) and records.is_dataclass(tp):
        return [tp]
    return [cls for arg in typing.get_args(tp) for cls in _dataclasses_in(arg)]


def _model_types(root: type, out: dict[str, dict]) -> None:
    if root.__name__ in out:
        return
    fields: dict[str, str | None] = {}
    out[root.__name__] = fields
    for name, (_, tp) in _fields_of(root).items():
        fields[name] = _child(tp)
        for cls in _dataclasses_in(tp):
            _model_types(cls, out)


def _v1_schema(kinds: tuple[str, ...]) -> dict:
    types_: dict[str, dict] = {}
    roots = {}
    for kind in kinds:
        _model_types(model.KINDS[kind], types_)
        roots[kind] = kind
        types_[kind] = {**_TOP, **types_[kind]}
    return {"kinds": roots, "types": types_}


def _core_schema() -> dict:
    schema = _v1_schema(("Node", "Pod"))
    t = schema["types"]
    # Pods are only partly modelled: the other fields are known, not followed.
    t["PodSpec"] = {**t["PodSpec"], **{f: None for f in sorted(_POD_SPEC_FIELDS)}}
    t["Container"] = {**{f: None for f in t["Container"] if f != "claims"}, "resources": "ResourceRequirements",
                      **{f: None for f in sorted(_CONTAINER_FIELDS)}}
    t["ResourceRequirements"] = {"limits": None, "requests": None, "claims": "[ResourceClaimReference]"}
    t["Node"] = {**t["Node"], "spec": None, "status": None}
    return schema


def _converted_schema(version: str) -> dict:
    """v1beta1 and v1alpha3 from the conversion tables, whose children use the same notation."""
    table = _SCHEMAS[version]
    types_ = {name: dict(fields) for name, fields in table.items()}
    meta = _v1_schema(("DeviceClass",))["types"]
    for name in ("ObjectMeta",):
        types_[name] = meta[name]
    for kind, parts in _ROOTS.items():
        types_[kind] = {**_TOP, **parts}
    # Children the tables leave to the v1 decoder: follow them in the model where it has them.
    model_types = _v1_schema(_RESOURCE_KINDS)["types"]
    for fields in list(types_.values()):
        for child in fields.values():
            bare = (child or "").strip("[]{}")
            if bare and bare not in types_ and bare in model_types:
                types_[bare] = model_types[bare]
    return {"kinds": {kind: kind for kind in _ROOTS}, "types": types_}


@functools.cache
def schemas() -> dict[str, dict]:
    """apiVersion -> {"kinds": {kind: root type}, "types": {type: {field: child}}}."""
    v1 = _v1_schema(_RESOURCE_KINDS)
    return {
        f"{RESOURCE_GROUP}/v1": v1,
        f"{RESOURCE_GROUP}/v1beta2": v1,
        f"{RESOURCE_GROUP}/v1beta1": _converted_schema("v1beta1"),
        f"{RESOURCE_GROUP}/v1alpha3": _converted_schema("v1alpha3"),
        "v1": _core_schema(),
    }


def _split_qualified(name: str, driver: str) -> tuple[str, str]:
    """``domain/id`` or a bare ``id``, whose domain is the slice's driver."""
    domain, sep, ident = name.rpartition("/")
    return (domain, ident) if sep else (driver, name)


def _bounded(names: set[str]) -> list[str]:
    return sorted(names)[:MAX_NAMES]


def inventory_names(text: str, limits: Limits = DEFAULT) -> dict:
    """Names an inventory defines, for completion; an unreadable inventory gives empty lists.

    Objects the engine refuses (a wrong field, say) contribute nothing, as they
    do not take part in allocation either.

    Besides the names: ``devices`` (how many the inventory has), ``stats`` (per
    attribute and capacity: its type, the values devices publish with counts,
    how many lack it, and a sentence saying so, for hover help) and
    ``classInfo`` (per DeviceClass: the drivers and domains of the devices it
    selects, their number and their own ``stats``; see ``class_info``). Stats
    are bounded too: a name without them says so with ``"complete": false``.
    """
    classes: dict[str, model.DeviceClass] = {}
    drivers: set[str] = set()
    nodes: set[str] = set()
    attributes: dict[str, set[str]] = {}
    capacity: dict[str, set[str]] = {}
    types_: dict[str, dict[str, str]] = {}  # domain -> attribute -> CEL type, as the first device has it
    devices: list[tuple[str, model.Device, list]] = []  # with what each publishes (``_published``)
    try:
        read = read_documents(text, limits=limits)
    except DiagnosticError:
        read = None
    for doc in read.documents if read else ():
        obj: typing.Any = doc.obj  # the model class its kind names
        if doc.kind == "DeviceClass":
            classes.setdefault(obj.metadata.name, obj)
        elif doc.kind == "Node":
            nodes.add(obj.metadata.name)
        elif doc.kind == "ResourceSlice":
            driver = obj.spec.driver
            drivers.add(driver)
            for device in obj.spec.devices:
                entries = _published(driver, device)
                devices.append((driver, device, entries))
                for kind, domain, ident, type_, _ in entries:
                    table = attributes if kind == "attributes" else capacity
                    if domain in table or len(table) < MAX_DOMAINS:
                        table.setdefault(domain, set()).add(ident)
                        if kind == "attributes" and ident not in types_.setdefault(domain, {}):
                            types_[domain][ident] = type_
    shown = {"attributes": {d: set(_bounded(n)) for d, n in attributes.items()},
             "capacity": {d: set(_bounded(n)) for d, n in capacity.items()}}
    return {
        "classes": _bounded(set(classes)),
        "drivers": _bounded(drivers),
        "nodes": _bounded(nodes),
        "attributes": {d: _bounded(n) for d, n in sorted(attributes.items())},
        "attributeTypes": {d: {n: types_[d][n] for n in _bounded(names)} for d, names in sorted(attributes.items())},
        "capacity": {d: _bounded(n) for d, n in sorted(capacity.items())},
        "devices": len(devices),
        "stats": device_stats(devices, shown, "in the inventory"),
        "classInfo": class_info([classes[c] for c in _bounded(set(classes))[:MAX_CLASSES]], devices, shown),
    }


# --------------------------------------------------------------------------- what devices publish

# At most this many classes get their own drivers, domains and stats; values listed per name; names
# with stats over the whole inventory, and over all classes together (a class past that gets none).
MAX_CLASSES = 50
MAX_VALUES = 6
MAX_STATS = 500
MAX_CLASS_STATS = 1500
# The gates under which a class's selectors are evaluated: the newest environment, as the
# scheduler of 1.37 compiles stored expressions whatever the gates say.
_CLASS_GATES = frozenset({"DRAConsumableCapacity", "DRAListTypeAttributes"})


def _describe(value: model.DeviceAttribute) -> tuple[str, str]:
    """An attribute value's CEL type, and the value as a selector would write it (strings quoted)."""
    if value.string is not None:
        return "string", json.dumps(value.string)
    if value.int is not None:
        return "int", str(value.int)
    if value.bool is not None:
        return "bool", "true" if value.bool else "false"
    if value.version is not None:
        return "kubernetes.Semver", value.version
    for name, cel in _ATTRIBUTE_TYPES[4:]:
        items = getattr(value, name)
        if items is not None:
            return cel, "[" + ", ".join(str(x) if name == "versions" else json.dumps(x) for x in items) + "]"
    return "dyn", "?"


def _published(driver: str, device: model.Device) -> list[tuple[str, str, str, str, str]]:
    """(map, domain, name, type, value text) of every attribute and capacity the device publishes."""
    out = []
    for name, value in device.attributes.items():
        domain, ident = _split_qualified(name, driver)
        out.append(("attributes", domain, ident, *_describe(value)))
    for name, cap in device.capacity.items():
        domain, ident = _split_qualified(name, driver)
        out.append(("capacity", domain, ident, "kubernetes.Quantity", str(cap.value)))
    return out


def device_stats(devices: list[tuple[str, model.Device, list]], shown: dict, scope: str,
                 limit: int | None = None) -> dict:
    """{"attributes"|"capacity": {domain: {name: stats}}, "complete": bool} over ``devices`` for the
    names in ``shown``, for at most ``limit`` (default MAX_STATS) names (``complete`` says whether
    every name got its stats).

    Each stats entry: ``type``, ``devices`` (how many publish it), ``lacking`` (how many of ``devices``
    do not), ``values`` ([value as CEL writes it, count], most common first, at most MAX_VALUES, long
    ones shortened), ``moreValues`` (how many other values) and ``text``, one sentence of all that where
    ``scope`` says which devices were counted ("in the inventory", "of class gpu.example.com").
    """
    limit = MAX_STATS if limit is None else limit
    counts: dict[tuple, dict[str, int]] = {}
    types: dict[tuple, str] = {}
    for _, _, entries in devices:
        seen = set()
        for table, domain, name, type_, value in entries:
            key = (table, domain, name)
            if key in seen or name not in shown[table].get(domain, ()):
                continue
            seen.add(key)
            values = counts.get(key)
            if values is None:
                values = counts[key] = {}
                types[key] = type_
            values[value] = values.get(value, 0) + 1
    out: dict = {"attributes": {}, "capacity": {}, "complete": len(counts) <= limit}
    for (table, domain, name), values in sorted(counts.items())[:limit]:
        published = sum(values.values())
        ranked = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))
        entry = {"type": types[table, domain, name], "devices": published, "lacking": len(devices) - published,
                 "values": [[_clip(v), n] for v, n in ranked[:MAX_VALUES]],
                 "moreValues": max(0, len(ranked) - MAX_VALUES)}
        entry["text"] = _stats_text(entry, len(devices), scope)
        out[table].setdefault(domain, {})[name] = entry
    return out


def _clip(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def _stats_text(entry: dict, total: int, scope: str) -> str:
    listed = ", ".join(f"{value} ×{count}" for value, count in entry["values"])
    if entry["moreValues"]:
        listed += f" and {entry['moreValues']} more value{'s' if entry['moreValues'] != 1 else ''}"
    published, lacking = entry["devices"], entry["lacking"]
    if not lacking:
        who = f"the {total} devices {scope} all publish it" if total > 1 else f"the device {scope} publishes it"
        return f"{entry['type']}; {who}: {listed}."
    return (f"{entry['type']}; of the {total} device{'s' if total != 1 else ''} {scope}, {published} "
            f"publish{'es' if published == 1 else ''} it: {listed}; {lacking} lack{'s' if lacking == 1 else ''} it.")


def _literal_drivers(device_class: model.DeviceClass) -> list[str]:
    """Drivers a class's selectors name as ``device.driver == "..."`` (either side)."""
    found = []
    for selector in device_class.spec.selectors:
        expression = selector.cel.expression if selector.cel is not None else ""
        found += [a or b for a, b in _DRIVER_LITERAL.findall(expression)]
    return list(dict.fromkeys(found))


_DRIVER_LITERAL = re.compile(r"""device\.driver\s*==\s*["']([^"']+)["']|["']([^"']+)["']\s*==\s*device\.driver""")


def class_info(classes: list[model.DeviceClass], devices: list[tuple[str, model.Device, list]], shown: dict) -> dict:
    """Per class: the ``drivers`` of the devices its selectors select (most devices first; when it
    selects none, those its selectors name as ``device.driver == "..."``), the ``domains`` those devices
    publish names in (their drivers' first), how many ``devices`` it selects and their ``stats``.

    A selector that does not compile or fails on a device does not select it, as in allocation.
    """
    from allocator.cel.selectors import shared_evaluator

    # The process's evaluator, as the scheduler of 1.37 uses it: what an analysis of the same
    # inventory worked out is remembered there, and the other way round.
    evaluator = shared_evaluator(_CLASS_GATES)
    budget = MAX_CLASS_STATS
    triples = [(driver, device, bool(device.allow_multiple_allocations)) for driver, device, _ in devices]
    out = {}
    for device_class in classes:
        selected = [True] * len(devices)
        for selector in device_class.spec.selectors:
            if selector.cel is None:
                continue
            for i, outcome in enumerate(evaluator.outcomes(selector.cel.expression, triples)):
                selected[i] = selected[i] and outcome is True
        mine = [d for d, keep in zip(devices, selected, strict=True) if keep]
        by_driver: dict[str, int] = {}
        by_domain: dict[str, int] = {}
        for driver, _, entries in mine:
            by_driver[driver] = by_driver.get(driver, 0) + 1
            for domain in {entry[1] for entry in entries}:
                by_domain[domain] = by_domain.get(domain, 0) + 1
        drivers = sorted(by_driver, key=lambda d: (-by_driver[d], d)) or _literal_drivers(device_class)
        domains = [d for d in drivers] + sorted((d for d in by_domain if d not in drivers),
                                                key=lambda d: (-by_domain[d], d))
        name = device_class.metadata.name
        stats = device_stats(mine, shown, f"of class {name}", budget)
        budget -= sum(len(names) for table in ("attributes", "capacity") for names in stats[table].values())
        out[name] = {"drivers": drivers, "domains": domains, "devices": len(mine), "stats": stats}
    return out


# The CEL type of each kind of attribute value (capacities are all kubernetes.Quantity).
_ATTRIBUTE_TYPES = (("int", "int"), ("bool", "bool"), ("string", "string"), ("version", "kubernetes.Semver"),
                    ("ints", "list(int)"), ("bools", "list(bool)"), ("strings", "list(string)"),
                    ("versions", "list(kubernetes.Semver)"))


def _attribute_type(value: model.DeviceAttribute) -> str:
    return _describe(value)[0]


# --------------------------------------------------------------------------- CEL

MACROS = {
    "has": ("has(e.f)", "True when the field or map key is present; guards an attribute a device may lack."),
    "all": ("list.all(x, p)", "True when p holds for every element (every key of a map)."),
    "exists": ("list.exists(x, p)", "True when p holds for at least one element."),
    "exists_one": ("list.exists_one(x, p)", "True when p holds for exactly one element."),
    "map": ("list.map(x, e)", "The list of e for every element (list.map(x, p, e) keeps those where p holds)."),
    "filter": ("list.filter(x, p)", "The elements for which p holds."),
}

# Our own one-line descriptions; a function without one shows its signature only.
CEL_DOCS = {
    "quantity": "Parses a Kubernetes quantity such as \"40Gi\" or \"500m\".",
    "isQuantity": "True when the string is a valid quantity.",
    "compareTo": "Compares two quantities (or semvers): -1, 0 or 1. Use it instead of < and >.",
    "isGreaterThan": "True when this quantity (or semver) is larger than the argument.",
    "isLessThan": "True when this quantity (or semver) is smaller than the argument.",
    "add": "The sum of two quantities (or a quantity and an int).",
    "sub": "The difference of two quantities (or a quantity and an int).",
    "asInteger": "The quantity as an int; an error when it has a fraction or does not fit.",
    "asApproximateFloat": "The quantity as a double, possibly rounded.",
    "isInteger": "True when the quantity is a whole number that fits an int.",
    "sign": "-1, 0 or 1 by the sign of the quantity.",
    "semver": "Parses a semantic version such as \"1.2.3\" (semver(s, true) also accepts \"v1.2\").",
    "isSemver": "True when the string is a valid semantic version.",
    "major": "The major number of a semver.",
    "minor": "The minor number of a semver.",
    "patch": "The patch number of a semver.",
    "matches": "True when the string matches the RE2 regular expression.",
    "startsWith": "True when the string starts with the argument.",
    "endsWith": "True when the string ends with the argument.",
    "contains": "True when the string contains the argument.",
    "size": "The length of a string, list or map.",
    "lowerAscii": "The string with ASCII letters in lower case.",
    "upperAscii": "The string with ASCII letters in upper case.",
    "split": "The string split at every occurrence of the separator.",
    "substring": "The part of the string between two indexes.",
    "trim": "The string without leading and trailing white space.",
    "replace": "The string with occurrences of one string replaced by another.",
    "indexOf": "The first index of a substring (or list element), -1 when absent.",
    "lastIndexOf": "The last index of a substring (or list element), -1 when absent.",
    "join": "The strings of a list joined with an optional separator.",
    "format": "Formats values into the string like printf (%s, %d, %f...).",
    "string": "Converts a value to a string.",
    "int": "Converts a value to an int.",
    "uint": "Converts a value to an unsigned int.",
    "double": "Converts a value to a double.",
    "bool": "Converts \"true\"/\"false\" to a bool.",
    "includes": "True when a list-type attribute holds the value (or a scalar attribute equals it).",
    "ip": "Parses an IP address.",
    "cidr": "Parses a CIDR such as \"10.0.0.0/8\".",
    "isIP": "True when the string is an IP address.",
    "isCIDR": "True when the string is a CIDR.",
    "containsIP": "True when the CIDR holds the address.",
    "url": "Parses a URL.",
    "isURL": "True when the string is a URL.",
    "min": "The smallest element of a list.",
    "max": "The largest element of a list.",
    "sum": "The sum of a list of numbers.",
    "sort": "The list sorted.",
    "distinct": "The list without repeated elements.",
    "sets.contains": "True when the first list holds every element of the second.",
    "sets.intersects": "True when the lists share an element.",
    "sets.equivalent": "True when the lists hold the same elements.",
    "type": "The type of a value.",
    "dyn": "The value with its type checked only at run time.",
}


def _type_text(t: CelType) -> str:
    if t.kind in ("obj", "param"):
        return t.name
    if t.kind == "opt":
        return f"optional({_type_text(t.elem)})"
    if not t.params:
        return t.kind
    return f"{t.kind}({', '.join(_type_text(param) for param in t.params)})"


def _gate_status(gate: str, release: str, enabled: frozenset[str]) -> str:
    """"on", "off" (the release has the gate, the chosen values leave it off) or "absent"."""
    if not _release(release).exists(gate):
        return "absent"
    return "on" if gate in enabled else "off"


def gate_note(gate: str, release: str) -> str:
    """What a name behind a gate that is off says, first thing in its detail."""
    return (f"Needs the feature gate {gate}, off here (Kubernetes {release}): the apiserver refuses it in a "
            "new selector.")


def _enabled(release: str, enabled: frozenset[str] | None) -> frozenset[str]:
    return make_gates({}, release).enabled_set() if enabled is None else frozenset(enabled)


@functools.cache
def cel_functions(release: str = CURRENT_RELEASE, enabled: frozenset[str] | None = None) -> list[dict]:
    """[{"name", "member", "signature", "doc"}] for the named functions and the macros; member
    functions also list the types they can be called on ("receivers").

    As the apiserver compiles a new selector in ``release`` with the gates ``enabled`` (default: the
    release's defaults): a function behind a gate the release does not have is left out; one behind a
    gate that is off is listed with ``"gate"`` and ``"gateOff": true``, its doc saying so first.
    """
    from allocator.cel.library import FUNCTIONS

    enabled = _enabled(release, enabled)
    out = []
    for name, overloads in sorted(FUNCTIONS.items()):
        if not name[:1].isalpha():  # operators (_+_, @in, ...)
            continue
        ov = overloads[0]
        gate = ov.gate if all(o.gate == ov.gate for o in overloads) else None
        status = _gate_status(gate, release, enabled) if gate else "on"
        if status == "absent":
            continue
        args = [_type_text(a) for a in ov.args]
        if ov.member:
            signature = f"{args[0]}.{name}({', '.join(args[1:])}) -> {_type_text(ov.result)}"
        else:
            signature = f"{name}({', '.join(args)}) -> {_type_text(ov.result)}"
        entry = {"name": name, "member": ov.member, "signature": signature, "doc": CEL_DOCS.get(name, "")}
        if gate:
            entry["gate"] = gate
            if status == "off":
                entry["gateOff"] = True
                entry["doc"] = f"{gate_note(gate, release)} {entry['doc']}".strip()
        if ov.member:  # the types it can be called on, to offer after a value of that type
            entry["receivers"] = sorted({_type_text(o.args[0]) for o in overloads if o.member and o.args})
        out.append(entry)
    for name, (signature, doc) in MACROS.items():
        entry = {"name": name, "member": name != "has", "signature": signature, "doc": doc, "macro": True}
        if entry["member"]:
            entry["receivers"] = ["list(A)", "map(K, V)"]
        out.append(entry)
    return out


# The names a selector can start from, with what they hold.
CEL_VARIABLES = {
    "device": "The device being checked: driver, attributes, capacity, allowMultipleAllocations.",
    "device.driver": "The name of the driver that publishes the device.",
    "device.attributes": "Attributes by domain: device.attributes[\"gpu.example.com\"].model.",
    "device.capacity": "Capacities by domain, as quantities: device.capacity[\"gpu.example.com\"].memory.",
    "device.allowMultipleAllocations": "True when the device can be shared by several claims.",
}

# Variables the CEL environment declares only with a gate on.
CEL_VARIABLE_GATES = {"device.allowMultipleAllocations": "DRAConsumableCapacity"}


def cel_variables(release: str = CURRENT_RELEASE, enabled: frozenset[str] | None = None) -> dict[str, str]:
    """``CEL_VARIABLES`` as ``cel_functions`` treats functions: without those of a gate the release does not
    have, saying so first for those of a gate that is off."""
    enabled = _enabled(release, enabled)
    out = {}
    for name, doc in CEL_VARIABLES.items():
        gate = CEL_VARIABLE_GATES.get(name)
        status = _gate_status(gate, release, enabled) if gate else "on"
        if status != "absent":
            out[name] = f"{gate_note(gate, release)} {doc}" if gate and status == "off" else doc
    return out


# --------------------------------------------------------------------------- field docs

FIELD_DOCS = {
    "apiVersion": "The API group and version the object is written in, e.g. resource.k8s.io/v1.",
    "kind": "The type of the object: ResourceClaim, ResourceClaimTemplate, DeviceClass, ResourceSlice, Pod, Node.",
    "metadata": "Name, namespace, labels and annotations of the object.",
    "name": "A name, unique where it is used (object, request, device, pool, container).",
    "namespace": "The namespace of a namespaced object; default when left out.",
    "labels": "Key/value labels of the object.",
    "annotations": "Key/value notes of the object, not used for selection.",
    "spec": "What the object asks for or describes.",
    "status": "What the system recorded about the object (for claims: the allocation).",
    "devices": "Devices: the requests of a claim, or the devices a slice publishes.",
    "requests": "The device requests of a claim; each gets its own devices.",
    "exactly": "One request for devices of one class (v1); the alternative is firstAvailable.",
    "firstAvailable": "Alternatives tried in order; the first that can be satisfied is used.",
    "deviceClassName": "The DeviceClass whose selectors and config every device must satisfy.",
    "selectors": "CEL selectors that every device must satisfy.",
    "cel": "A selector written in CEL.",
    "expression": "A CEL expression over `device` that must be true for a device to be chosen.",
    "allocationMode": "ExactCount (the default, with count) or All (every matching device).",
    "count": "How many devices to allocate with allocationMode ExactCount (default 1).",
    "adminAccess": "Access to devices already in use, for monitoring; needs an admin namespace.",
    "tolerations": "Taints of devices that this request tolerates.",
    "capacity": "Capacity per name: of a device (value) or requested from a shared device (requests).",
    "constraints": "Conditions across the devices of several requests.",
    "matchAttribute": "A fully qualified attribute that must have the same value on all the devices.",
    "distinctAttribute": "A fully qualified attribute that must differ between all the devices.",
    "config": "Opaque configuration passed to the driver, for some or all requests.",
    "opaque": "Driver-specific parameters, passed on unchanged.",
    "driver": "The name of the driver (a DNS subdomain, e.g. gpu.example.com).",
    "parameters": "Driver-specific configuration, any JSON object.",
    "pool": "The pool the slice belongs to: name, generation and slice count.",
    "generation": "Pool generation: only the slices of the highest generation count.",
    "resourceSliceCount": "How many slices make up the pool in this generation.",
    "nodeName": "The node whose devices these are (slice) or the node a pod runs on.",
    "nodeSelector": "Nodes that can reach the devices, as a node selector.",
    "allNodes": "The devices are reachable from every node.",
    "perDeviceNodeSelection": "Each device says itself which nodes reach it.",
    "sharedCounters": "Counter sets that devices of the pool consume from (partitionable devices).",
    "consumesCounters": "Counters this device uses up from the pool's counter sets.",
    "counterSet": "The name of the shared counter set to consume from.",
    "counters": "Counters by name, each with a value (a quantity).",
    "attributes": "Attributes by name; each holds one of int, bool, string or version.",
    "int": "An integer attribute value.",
    "bool": "A boolean attribute value.",
    "string": "A string attribute value.",
    "version": "A semantic-version attribute value, compared with semver().",
    "value": "A quantity, e.g. 80Gi.",
    "requestPolicy": "How a shared device's capacity may be requested: default, validValues, validRange.",
    "taints": "Taints on the device; requests must tolerate them.",
    "key": "A taint or toleration key.",
    "effect": "NoSchedule, NoExecute or None.",
    "operator": "Equal (the default) or Exists.",
    "allowMultipleAllocations": "The device can be allocated to several claims at once (consumable capacity).",
    "bindsToNode": "The device is bound to the node it is used on first.",
    "bindingConditions": "Conditions that must be true before a pod using the device is bound.",
    "containers": "The containers of the pod.",
    "initContainers": "Containers that run before the others.",
    "resourceClaims": "Claims the pod uses, by claim name or from a template.",
    "resourceClaimName": "The name of an existing ResourceClaim.",
    "resourceClaimTemplateName": "A template from which a claim is made for the pod.",
    "resources": "A container's resources; claims lists the pod claims it uses.",
    "claims": "The pod claims (and optionally one request of each) this container uses.",
    "request": "One request of the claim, for this container or result.",
    "allocation": "Where the scheduler put the claim: devices per request and node selector.",
    "results": "The devices allocated, one entry per device and request.",
    "device": "The name of a device within its pool.",
}


def completion_data(release: str = CURRENT_RELEASE, gates: dict[str, bool] | None = None) -> dict:
    """Everything about the language, independent of an inventory (one JSON answer), for ``release``
    with the gate overrides ``gates`` (an override the release would refuse is ignored: completion
    must not fail for it, the analysis says what is wrong)."""
    try:
        release = _release(release).name
    except ValueError:
        release = CURRENT_RELEASE
    kept: dict[str, bool] = {}
    for gate, value in (gates or {}).items():
        try:
            make_gates({**kept, gate: value}, release)
        except FeatureGateError:
            continue
        kept[gate] = value
    enabled = make_gates(kept, release).enabled_set()
    return {
        "release": release,
        "schemas": schemas(),
        "fieldDocs": FIELD_DOCS,
        "cel": {"functions": cel_functions(release, enabled), "variables": cel_variables(release, enabled)},
    }
