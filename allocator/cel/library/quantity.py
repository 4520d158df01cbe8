"""The Kubernetes quantity library: ``quantity()``, ``isQuantity()`` and the methods of a quantity."""

from __future__ import annotations

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.values import (
    CELError,
    QuantityRef,
)
from allocator.kube.quantity import Quantity


def _quantity(text):
    try:
        return Quantity.parse(text)
    except ValueError as e:
        raise CELError(str(e)) from None


def _is_quantity(text):
    try:
        Quantity.parse(text)
    except ValueError:
        return False
    return True


def _as_integer(quantity):
    value = quantity.as_integer()
    if value is None:
        raise CELError("cannot convert value to integer")
    return value


decl("quantity", ["string"], "kubernetes.Quantity", _quantity, oid="string_to_quantity")
decl("isQuantity", ["string"], "bool", _is_quantity, oid="is_quantity_string")
decl("sign", ["kubernetes.Quantity"], "int", lambda q: q.sign(), oid="quantity_sign")
decl("isGreaterThan", ["kubernetes.Quantity", "kubernetes.Quantity"], "bool", lambda a, b: a.cmp(b) == 1,
     member=True, oid="quantity_is_greater_than")
decl("isLessThan", ["kubernetes.Quantity", "kubernetes.Quantity"], "bool", lambda a, b: a.cmp(b) == -1,
     member=True, oid="quantity_is_less_than")
decl("compareTo", ["kubernetes.Quantity", "kubernetes.Quantity"], "int", lambda a, b: a.cmp(b), member=True,
     oid="quantity_compare_to")
decl("asApproximateFloat", ["kubernetes.Quantity"], "double", lambda q: q.as_approximate_float(), member=True)
decl("asInteger", ["kubernetes.Quantity"], "int", _as_integer, member=True)
decl("isInteger", ["kubernetes.Quantity"], "bool", lambda q: q.is_integer(), member=True)
# add and sub return the sum by pointer (see QuantityRef).
decl("add", ["kubernetes.Quantity", "kubernetes.Quantity"], "kubernetes.Quantity",
     lambda a, b: QuantityRef.of(a.add(b)), member=True)
decl("add", ["kubernetes.Quantity", "int"], "kubernetes.Quantity", lambda a, b: QuantityRef.of(a.add(b)), member=True)
decl("sub", ["kubernetes.Quantity", "kubernetes.Quantity"], "kubernetes.Quantity",
     lambda a, b: QuantityRef.of(a.sub(b)), member=True)
decl("sub", ["kubernetes.Quantity", "int"], "kubernetes.Quantity", lambda a, b: QuantityRef.of(a.sub(b)), member=True)
