"""``size()`` and the conversions ``int()``, ``uint()``, ``double()``, ``string()``, ``bytes()``, ``bool()``, ``dyn()``, ``type()``."""

from __future__ import annotations

import math
import re

from allocator.cel.library.declarations import (
    INT64_MAX,
    INT64_MIN,
    check_int,
    check_uint,
    decl,
)
from allocator.cel.values import (
    CIDR,
    IP,
    CELError,
    TypeValue,
    UInt,
    type_name,
)
from allocator.kube.quantity import Quantity
from allocator.kube.semver import Version


def _size(v):
    return len(v)


for _t in ("string", "bytes", "list(A)", "map(K, V)"):
    decl("size", [_t], "int", _size)
    decl("size", [_t], "int", _size, member=True)


def _to_int(v):
    t = type(v)
    if t is int:
        return v
    if t is UInt:
        return check_int(int(v))
    if t is float:
        if math.isnan(v) or math.isinf(v) or v <= -9.223372036854776e18 or v >= 9.223372036854776e18:
            raise CELError("integer overflow")
        return int(v)
    if t is str:
        return _parse_decimal(v, "int", INT64_MIN, INT64_MAX)
    raise CELError("no such overload")


_DECIMAL = re.compile(r"[+-]?[0-9]+")


def _parse_decimal(text, type_name, low, high):
    """Go's strconv.ParseInt/ParseUint in base 10 (no spaces, no underscores); failing is cel-go's message."""
    if _DECIMAL.fullmatch(text) and not (type_name == "uint" and text.startswith("-")):
        value = int(text, 10)
        if low <= value <= high:
            return UInt(value) if type_name == "uint" else value
    raise CELError(f"type conversion error from 'string' to '{type_name}'")


def _to_uint(v):
    t = type(v)
    if t is str:
        return _parse_decimal(v, "uint", 0, (1 << 64) - 1)
    if t is float:
        if math.isnan(v) or v < 0 or v >= 1.8446744073709552e19:
            raise CELError("unsigned integer overflow")
        return UInt(int(v))
    return check_uint(int(v))


def _to_double(v):
    if type(v) is str:
        try:
            if v.strip() != v or "_" in v:  # Python accepts these, Go's ParseFloat does not
                raise ValueError(v)
            return float(v)
        except ValueError:
            raise CELError("type conversion error from 'string' to 'double'") from None
    return float(v)


def format_double(v: float) -> str:
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "+Inf" if v > 0 else "-Inf"
    r = repr(v)
    if "e" in r:
        mant, exp = r.split("e")
        if mant.endswith(".0"):
            mant = mant[:-2]
        sign = exp[0] if exp[0] in "+-" else "+"
        digits = exp.lstrip("+-").rjust(2, "0")
        return f"{mant}e{sign}{digits}"
    if r.endswith(".0"):
        r = r[:-2]
    return r


def to_string(v):
    t = type(v)
    if t is str:
        return v
    if t is bool:
        return "true" if v else "false"
    if t is int or t is UInt:
        return str(int(v))
    if t is float:
        return format_double(v)
    if t is bytes:
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            raise CELError("invalid UTF-8 in bytes, cannot convert to string") from None
    if t in (IP, CIDR, Quantity, Version):
        return str(v)
    raise CELError("no such overload")


def _to_bool(v):
    if type(v) is bool:
        return v
    if v in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if v in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    raise CELError("type conversion error from 'string' to 'bool'")


for _t in ("int", "uint", "double", "string"):
    decl("int", [_t], "int", _to_int)
    decl("uint", [_t], "uint", _to_uint)
    decl("double", [_t], "double", _to_double)
for _t in ("int", "uint", "double", "bool", "string", "bytes", "net.IP", "net.CIDR"):
    decl("string", [_t], "string", to_string)
decl("bytes", ["string"], "bytes", lambda s: s.encode("utf-8"))
decl("bytes", ["bytes"], "bytes", lambda s: s)
decl("bool", ["bool"], "bool", _to_bool)
decl("bool", ["string"], "bool", _to_bool)
decl("dyn", ["A"], "dyn", lambda v: v)
decl("type", ["A"], "type(A)", lambda v: TypeValue(type_name(v)))
