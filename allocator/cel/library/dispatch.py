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


def value_matches(t, v) -> bool:
    """Does runtime value v belong to static type t (used for runtime overload dispatch)?"""
    k = t.kind
    if k in ("dyn", "any", "param", "error"):
        return True
    tv = type(v)
    if k == "int":
        return tv is int
    if k == "uint":
        return tv is UInt
    if k == "double":
        return tv is float
    if k == "bool":
        return tv is bool
    if k == "string":
        return tv is str
    if k == "bytes":
        return tv is bytes
    if k == "null_type":
        return v is None
    if k == "list":
        return tv is list or tv is tuple
    if k == "map":
        return isinstance(v, dict)
    if k == "opt":
        return tv is Optional
    if k == "type":
        return tv is TypeValue
    if k == "obj":
        if tv is QuantityRef:
            tv = Quantity
        return {"kubernetes.Quantity": Quantity, "kubernetes.Semver": Version, "net.IP": IP, "net.CIDR": CIDR,
                "kubernetes.URL": URL, "kubernetes.NamedFormat": NamedFormat}.get(t.name) is tv
    return False
