"""The Kubernetes lists library, cel-go's lists extension and its sets library."""

from __future__ import annotations

import functools

from allocator.cel.library.arithmetic import in_list
from allocator.cel.library.declarations import (
    check_int,
    check_uint,
    decl,
    size_charge,
)
from allocator.cel.values import (
    NONE,
    CELError,
    Optional,
    UInt,
    equal_is_true,
)
from allocator.kube.quantity import Quantity
from allocator.kube.semver import Version


# --------------------------------------------------------------------------- Kubernetes lists library
def comparable_list(lst):
    if not lst:
        return
    t0 = type(lst[0])
    for x in lst:
        if type(x) is not t0 or t0 in (list, dict, type(None), Optional):
            raise CELError("no such overload")


def _is_sorted(lst):
    comparable_list(lst)
    return all(_lt_or_eq(lst[i], lst[i + 1]) for i in range(len(lst) - 1))


def _lt_or_eq(left, right):
    if isinstance(left, (Quantity, Version)):
        return left.compare(right) <= 0 if isinstance(left, Version) else left.cmp(right) <= 0
    return left <= right


def _sum(lst):
    if not lst:
        return 0
    t0 = type(lst[0])
    total = t0(0) if t0 is not UInt else 0
    for x in lst:
        if type(x) is not t0:
            raise CELError("no such overload")
        total = total + x
    if t0 is int:
        return check_int(total)
    if t0 is UInt:
        return check_uint(total)
    return total


def _min_max(pick_min):
    def f(lst):
        if not lst:
            raise CELError("min called on empty list" if pick_min else "max called on empty list")
        comparable_list(lst)
        best = lst[0]
        for x in lst[1:]:
            if (x < best) if pick_min else (x > best):
                best = x
        return best
    return f


def _list_index_of(lst, value):
    for index, x in enumerate(lst):
        if equal_is_true(x, value):
            return index
    return -1


def _list_last_index_of(lst, value):
    for index in range(len(lst) - 1, -1, -1):
        if equal_is_true(lst[index], value):
            return index
    return -1


decl("isSorted", ["list(A)"], "bool", _is_sorted, member=True)
for _t in ("int", "uint", "double"):
    decl("sum", [f"list({_t})"], _t, _sum, member=True)
decl("min", ["list(A)"], "A", _min_max(True), member=True)
decl("max", ["list(A)"], "A", _min_max(False), member=True)
decl("indexOf", ["list(A)", "A"], "int", _list_index_of, member=True)
decl("lastIndexOf", ["list(A)", "A"], "int", _list_last_index_of, member=True)


# --------------------------------------------------------------------------- cel-go lists extension
def _range(count):
    if count < 0:
        return []
    if count > 1_000_000:
        raise CELError("operation cancelled: actual cost limit exceeded")
    return list(range(count))


def _distinct(lst):
    out = []
    for x in lst:
        if not any(equal_is_true(x, y) for y in out):
            out.append(x)
    return out


def _flatten(lst, depth=1):
    if depth < 0:
        raise CELError("level must be non-negative")
    out = []
    for x in lst:
        if isinstance(x, list) and depth > 0:
            out.extend(_flatten(x, depth - 1))
        else:
            out.append(x)
    return out


def _slice(lst, start, end):
    if start < 0 or end < 0:
        raise CELError(f"cannot slice({start}, {end}), negative indexes not supported")
    if start > end:
        raise CELError(f"cannot slice({start}, {end}), start index must be less than or equal to end index")
    if end > len(lst):
        raise CELError(f"cannot slice({start}, {end}), list is length {len(lst)}")
    return list(lst[start:end])


def sort_values(lst):
    comparable_list(lst)
    if lst and type(lst[0]) in (Quantity, Version):
        key = functools.cmp_to_key(lambda a, b: a.cmp(b) if isinstance(a, Quantity) else a.compare(b))
        return sorted(lst, key=key)
    return sorted(lst)


decl("lists.range", ["int"], "list(int)", _range, charge=lambda a: a[0] if a[0] > 0 else 0)
decl("distinct", ["list(A)"], "list(A)", _distinct, member=True, charge=lambda a: len(a[0]) * len(a[0]) // 10)
decl("flatten", ["list(list(A))"], "list(A)", _flatten, member=True, charge=size_charge(0))
decl("flatten", ["list(A)", "int"], "list(dyn)", _flatten, member=True, charge=size_charge(0))
decl("slice", ["list(A)", "int", "int"], "list(A)", _slice, member=True)
decl("sort", ["list(A)"], "list(A)", sort_values, member=True, charge=size_charge(0))
decl("reverse", ["list(A)"], "list(A)", lambda lst: list(reversed(lst)), member=True)
decl("first", ["list(A)"], "optional_type(A)", lambda lst: Optional(lst[0], True) if lst else NONE, member=True)
decl("last", ["list(A)"], "optional_type(A)", lambda lst: Optional(lst[-1], True) if lst else NONE, member=True)


# --------------------------------------------------------------------------- sets
def _sets_contains(container, contained):
    return all(in_list(x, container) for x in contained)


decl("sets.contains", ["list(A)", "list(A)"], "bool", _sets_contains,
     charge=lambda a: len(a[0]) * len(a[1]) // 10)
decl("sets.equivalent", ["list(A)", "list(A)"], "bool", lambda a, b: _sets_contains(a, b) and _sets_contains(b, a),
     charge=lambda a: len(a[0]) * len(a[1]) // 5)
decl("sets.intersects", ["list(A)", "list(A)"], "bool", lambda a, b: any(in_list(x, a) for x in b),
     charge=lambda a: len(a[0]) * len(a[1]) // 10)
