"""Runtime overload dispatch: whether a value belongs to a static type."""

from __future__ import annotations

from allocator.cel.library.named_formats import NamedFormat
from allocator.cel.values import (
    CIDR,
    IP,
    URL,
    Optional,
    QuantityRef,
    TypeValue,
    UInt,
)
from allocator.kube.quantity import Quantity
from allocator.kube.semver import Version


def value_matches(cel_type, value) -> bool:
    """Does runtime value v belong to static type t (used for runtime overload dispatch)?"""
    kind = cel_type.kind
    if kind in ("dyn", "any", "param", "error"):
        return True
    tv = type(value)
    if kind == "int":
        return tv is int
    if kind == "uint":
        return tv is UInt
    if kind == "double":
        return tv is float
    if kind == "bool":
        return tv is bool
    if kind == "string":
        return tv is str
    if kind == "bytes":
        return tv is bytes
    if kind == "null_type":
        return value is None
    if kind == "list":
        return tv is list or tv is tuple
    if kind == "map":
        return isinstance(value, dict)
    if kind == "opt":
        return tv is Optional
    if kind == "type":
        return tv is TypeValue
    if kind == "obj":
        if tv is QuantityRef:
            tv = Quantity
        return {"kubernetes.Quantity": Quantity, "kubernetes.Semver": Version, "net.IP": IP, "net.CIDR": CIDR,
                "kubernetes.URL": URL, "kubernetes.NamedFormat": NamedFormat}.get(cel_type.name) is tv
    return False
