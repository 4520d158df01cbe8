"""Small inventories as YAML text, from a few keyword arguments.

Most tests need the same few objects: a Node, a DeviceClass (with one CEL selector or none) and a
ResourceSlice of a handful of devices. These builders write them in one style so that a test says
what is particular to it (a name, an expression, a device's attributes) and no more.

    inventory(node("n1"), device_class("gpu", "device.driver == 'gpu.example.com'"),
              resource_slice("s", node="n1", driver="gpu.example.com", devices=["gpu-0", "gpu-1"]))
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


def node(name: str, labels: dict[str, str] | None = None) -> str:
    """A Node with ``kubernetes.io/hostname`` and any other ``labels``."""
    all_labels = {"kubernetes.io/hostname": name, **(labels or {})}
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


def resource_slice(name: str, *, driver: str, devices: Iterable[str], node: str | None = None,
                   pool: str | None = None, version: str = "v1", pool_slices: int = 1) -> str:
    """A ResourceSlice of ``driver`` on ``node`` (else for all nodes), one of ``pool_slices`` in its pool (named
    after the node, else after the slice). ``devices``: each a device's name, or its YAML flow mapping
    (``"{name: gpu-0, ...}"``)."""
    where = f"  nodeName: {node}\n" if node else "  allNodes: true\n"
    items = "".join(f"  - {d}\n" if d.startswith("{") else f"  - {{name: {d}}}\n" for d in devices)
    return (f"apiVersion: resource.k8s.io/{version}\nkind: ResourceSlice\nmetadata: {{name: {name}}}\n"
            f"spec:\n  driver: {driver}\n{where}"
            f"  pool: {{name: {pool or node or name}, generation: 1, resourceSliceCount: {pool_slices}}}\n"
            f"  devices:\n{items}")


def inventory(*objects: str) -> str:
    """The objects as one multi-document YAML text."""
    return "---\n".join(objects)
