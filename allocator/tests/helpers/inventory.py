"""Small inventories as YAML text, from a few keyword arguments.

Most tests need the same few objects: a Node, a DeviceClass (with one CEL selector or none) and a
ResourceSlice of a handful of devices. These builders write them in one style so that a test says
what is particular to it (a name, an expression, a device's attributes) and no more.

    inventory(node("n1"), device_class("gpu", "device.driver == 'gpu.example.com'"),
              resource_slice("s", node="n1", driver="gpu.example.com", devices=["gpu-0", "gpu-1"]))

Partitionable devices: ``device`` writes one device with attributes, capacity and the counters it consumes,
and ``resource_slice(shared_counters=...)`` the counter sets (in a slice of their own from 1.35 on):

    resource_slice("node-a-counters", node="node-a", driver=DRIVER, pool_slices=2,
                   shared_counters={"memory-set": {"memory": "8Gi"}})
    resource_slice("node-a-devices", node="node-a", driver=DRIVER, pool_slices=2, devices=[
        device("half-0", consumes={"memory-set": {"memory": "4Gi"}}), ...])
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

_PLAIN = re.compile(r"[A-Za-z0-9][\w./-]*")  # a label value YAML reads as that string unquoted


def _quoted(text: str) -> str:
    """A YAML scalar for any text: single-quoted when it holds no single quote, else a JSON string (a valid
    double-quoted YAML scalar)."""
    return f"'{text}'" if "'" not in text and "\n" not in text else json.dumps(text)


def node(name: str, labels: dict[str, str] | None = None, *, hostname: bool = True) -> str:
    """A Node with ``kubernetes.io/hostname`` (unless not ``hostname``) and any other ``labels``."""
    all_labels = {**({"kubernetes.io/hostname": name} if hostname else {}), **(labels or {})}
    if not all_labels:
        return f"apiVersion: v1\nkind: Node\nmetadata: {{name: {name}}}\n"
    flow = ", ".join(f"{key}: {value if _PLAIN.fullmatch(value) else _quoted(value)}"
                     for key, value in all_labels.items())
    return f"apiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {{{flow}}}}}\n"


def device_class(name: str, expression: str | None = None, *, version: str = "v1", spec: str = "") -> str:
    """A DeviceClass: with one CEL selector when ``expression`` is given; ``spec`` adds YAML lines under ``spec``
    (indented two spaces, e.g. ``"  config: [...]\\n"``). Without either it has no ``spec``."""
    text = f"apiVersion: resource.k8s.io/{version}\nkind: DeviceClass\nmetadata: {{name: {name}}}\n"
    if expression is None and not spec:
        return text
    text += "spec:\n"
    if expression is not None:
        text += f"  selectors: [{{cel: {{expression: {_quoted(expression)}}}}}]\n"
    return text + spec


def _flow(mapping: dict[str, str]) -> str:
    """``{key: value, ...}`` of values written already."""
    return "{" + ", ".join(f"{key}: {value}" for key, value in mapping.items()) + "}"


def _quantity(value: str) -> str:
    """A quantity as a YAML string ("4" stays the text "4", as a quantity is written in the API)."""
    return json.dumps(value)


Attribute = str | int | bool | list[str] | list[int] | list[bool]


def _scalar(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return value if _PLAIN.fullmatch(value) else _quoted(value)


def _attribute(value: Attribute) -> str:
    """``{string: a100}``, ``{int: 1}``, ``{bool: true}``, or a list type (``{ints: [1, 2]}``) for a list."""
    if isinstance(value, list):
        kind = "bool" if value and isinstance(value[0], bool) else "int" if value and isinstance(value[0], int) \
            else "string"
        return f"{{{kind}s: [{', '.join(_scalar(v) for v in value)}]}}"
    kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "string"
    return f"{{{kind}: {_scalar(value)}}}"


def counters(values: dict[str, str]) -> str:
    """``{memory: {value: "4Gi"}, ...}``: counters by name, as a counter set or a consumption holds them."""
    return _flow({name: f"{{value: {_quantity(value)}}}" for name, value in values.items()})


def device(name: str, *, attributes: dict[str, Attribute] | None = None,
           capacity: dict[str, str] | None = None, consumes: dict[str, dict[str, str]] | None = None,
           allow_multiple: bool = False, more: dict[str, str] | None = None) -> str:
    """One device of a v1 slice as a YAML flow mapping, for ``resource_slice(devices=...)``.

    ``attributes``: name -> a string, int or bool value, or a list of one of them; ``capacity``: name -> a quantity, or a flow mapping
    written as is (``"{value: 8Gi, requestPolicy: {...}}"``); ``consumes``: counter set -> counter -> quantity
    (``consumesCounters``); ``allow_multiple``: ``allowMultipleAllocations``; ``more``: other fields, written as
    given (``{"taints": "[{key: k, effect: NoSchedule}]"}``)."""
    fields = {"name": name}
    if attributes:
        fields["attributes"] = _flow({key: _attribute(value) for key, value in attributes.items()})
    if capacity:
        fields["capacity"] = _flow({key: value if value.startswith("{") else f"{{value: {_quantity(value)}}}"
                                    for key, value in capacity.items()})
    if allow_multiple:
        fields["allowMultipleAllocations"] = "true"
    if consumes:
        fields["consumesCounters"] = "[" + ", ".join(f"{{counterSet: {set_name}, counters: {counters(values)}}}"
                                                     for set_name, values in consumes.items()) + "]"
    return _flow({**fields, **(more or {})})


def resource_slice(name: str, *, driver: str, devices: Iterable[str] = (), node: str | None = None,
                   pool: str | None = None, version: str = "v1", pool_slices: int = 1, generation: int | None = 1,
                   shared_counters: dict[str, dict[str, str]] | None = None) -> str:
    """A ResourceSlice of ``driver`` on ``node`` (else for all nodes), one of ``pool_slices`` in its pool (named
    after the node, else after the slice) at ``generation`` (None: not written). ``devices``: each a device's
    name, or its YAML flow mapping (``device(...)``, ``"{name: gpu-0, ...}"``). ``shared_counters``: counter set
    -> counter -> quantity (``sharedCounters``). A slice of counters alone has no ``devices`` field."""
    where = f"  nodeName: {node}\n" if node else "  allNodes: true\n"
    at = "" if generation is None else f"generation: {generation}, "
    text = (f"apiVersion: resource.k8s.io/{version}\nkind: ResourceSlice\nmetadata: {{name: {name}}}\n"
            f"spec:\n  driver: {driver}\n{where}"
            f"  pool: {{name: {pool or node or name}, {at}resourceSliceCount: {pool_slices}}}\n")
    if shared_counters:
        text += "  sharedCounters:\n" + "".join(f"  - {{name: {set_name}, counters: {counters(values)}}}\n"
                                                 for set_name, values in shared_counters.items())
    items = "".join(f"  - {d}\n" if d.startswith("{") else f"  - {{name: {d}}}\n" for d in devices)
    if items or not shared_counters:
        text += f"  devices:\n{items}"
    return text


def inventory(*objects: str) -> str:
    """The objects as one multi-document YAML text."""
    return "---\n".join(objects)
