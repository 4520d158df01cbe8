"""Arithmetic, comparisons (with CrossTypeNumericComparisons) and ``in``."""

from __future__ import annotations

import math

from allocator.cel.library.declarations import (
    INT64_MIN,
    check_int,
    check_str,
    check_uint,
    decl,
    size_charge,
)
from allocator.cel.values import (
    CELError,
    UInt,
    cel_equal,
    equal_is_true,
    map_lookup,
)


def _div_int(dividend, divisor):
    if divisor == 0:
        raise CELError("division by zero")
    if dividend == INT64_MIN and divisor == -1:
        raise CELError("integer overflow")
    quotient = abs(dividend) // abs(divisor)
    return quotient if (dividend >= 0) == (divisor >= 0) else -quotient


def _mod_int(dividend, divisor):
    if divisor == 0:
        raise CELError("modulus by zero")
    if dividend == INT64_MIN and divisor == -1:
        raise CELError("integer overflow")
    remainder = abs(dividend) % abs(divisor)
    return remainder if dividend >= 0 else -remainder


def _div_double(dividend, divisor):
    try:
        return dividend / divisor
    except ZeroDivisionError:
        if dividend == 0 or math.isnan(dividend):
            return math.nan
        return math.copysign(math.inf, dividend) * math.copysign(1.0, divisor)


decl("_+_", ["int", "int"], "int", lambda a, b: check_int(a + b))
decl("_+_", ["uint", "uint"], "uint", lambda a, b: check_uint(a + b))
decl("_+_", ["double", "double"], "double", lambda a, b: a + b)
decl("_+_", ["string", "string"], "string", lambda a, b: check_str(a + b), oid="add_string",
     charge=size_charge(0, 1))
decl("_+_", ["bytes", "bytes"], "bytes", lambda a, b: check_str(a + b), oid="add_bytes", charge=size_charge(0, 1))
decl("_+_", ["list(A)", "list(A)"], "list(A)", lambda a, b: check_str(list(a) + list(b)), oid="add_list",
     charge=size_charge(0, 1))
decl("_-_", ["int", "int"], "int", lambda a, b: check_int(a - b))
decl("_-_", ["uint", "uint"], "uint", lambda a, b: check_uint(a - b))
decl("_-_", ["double", "double"], "double", lambda a, b: a - b)
decl("_*_", ["int", "int"], "int", lambda a, b: check_int(a * b))
decl("_*_", ["uint", "uint"], "uint", lambda a, b: check_uint(a * b))
decl("_*_", ["double", "double"], "double", lambda a, b: a * b)
decl("_/_", ["int", "int"], "int", _div_int)
decl("_/_", ["uint", "uint"], "uint", lambda a, b: UInt(a // b) if b else (_ for _ in ()).throw(
    CELError("division by zero")))
decl("_/_", ["double", "double"], "double", _div_double)
decl("_%_", ["int", "int"], "int", _mod_int)
decl("_%_", ["uint", "uint"], "uint", lambda a, b: UInt(a % b) if b else (_ for _ in ()).throw(
    CELError("modulus by zero")))
decl("-_", ["int"], "int", lambda a: check_int(-a))
decl("-_", ["double"], "double", lambda a: -a)
decl("!_", ["bool"], "bool", lambda a: not a)

# comparisons (CrossTypeNumericComparisons)
_CMP = {"_<_": lambda c: c < 0, "_<=_": lambda c: c <= 0, "_>_": lambda c: c > 0, "_>=_": lambda c: c >= 0}


def _cmp(left, right):
    if isinstance(left, float) and math.isnan(left) or isinstance(right, float) and math.isnan(right):
        return None
    return (left > right) - (left < right)


for _op, _test in _CMP.items():
    def _mk(test):
        def f(left, right):
            order = _cmp(left, right)
            return False if order is None else test(order)
        return f
    for _t in ("int", "uint", "double", "string", "bytes", "bool"):
        decl(_op, [_t, _t], "bool", _mk(_test))
    for _a, _b in (("int", "uint"), ("int", "double"), ("uint", "int"), ("uint", "double"), ("double", "int"),
                   ("double", "uint")):
        decl(_op, [_a, _b], "bool", _mk(_test))

decl("_==_", ["A", "A"], "bool", cel_equal, oid="equals")
decl("_!=_", ["A", "A"], "bool", lambda a, b: not equal_is_true(a, b), oid="not_equals")


def in_list(value, lst):
    # cel-go's list Contains: the element on the left, a failed comparison is "not this one".
    return any(equal_is_true(value, x) for x in lst)


def _in_map(key, mapping):
    return map_lookup(mapping, key)[0]


decl("@in", ["A", "list(A)"], "bool", in_list, oid="in_list")
decl("@in", ["A", "map(A, B)"], "bool", _in_map, oid="in_map")
