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


def _div_int(a, b):
    if b == 0:
        raise CELError("division by zero")
    if a == INT64_MIN and b == -1:
        raise CELError("integer overflow")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _mod_int(a, b):
    if b == 0:
        raise CELError("modulus by zero")
    if a == INT64_MIN and b == -1:
        raise CELError("integer overflow")
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def _div_double(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)


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


def _cmp(a, b):
    if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
        return None
    return (a > b) - (a < b)


for _op, _test in _CMP.items():
    def _mk(test):
        def f(a, b):
            c = _cmp(a, b)
            return False if c is None else test(c)
        return f
    for _t in ("int", "uint", "double", "string", "bytes", "bool"):
        decl(_op, [_t, _t], "bool", _mk(_test))
    for _a, _b in (("int", "uint"), ("int", "double"), ("uint", "int"), ("uint", "double"), ("double", "int"),
                   ("double", "uint")):
        decl(_op, [_a, _b], "bool", _mk(_test))

decl("_==_", ["A", "A"], "bool", cel_equal, oid="equals")
decl("_!=_", ["A", "A"], "bool", lambda a, b: not equal_is_true(a, b), oid="not_equals")


def in_list(v, lst):
    # cel-go's list Contains: the element on the left, a failed comparison is "not this one".
    return any(equal_is_true(v, x) for x in lst)


def _in_map(k, m):
    return map_lookup(m, k)[0]


decl("@in", ["A", "list(A)"], "bool", in_list, oid="in_list")
decl("@in", ["A", "map(A, B)"], "bool", _in_map, oid="in_map")
