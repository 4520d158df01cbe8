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


def _size(value):
    return len(value)


for _t in ("string", "bytes", "list(A)", "map(K, V)"):
    decl("size", [_t], "int", _size)
    decl("size", [_t], "int", _size, member=True)


def _to_int(value):
    kind = type(value)
    if kind is int:
        return value
    if kind is UInt:
        return check_int(int(value))
    if kind is float:
        if math.isnan(value) or math.isinf(value) or value <= -9.223372036854776e18 or value >= 9.223372036854776e18:
            raise CELError("integer overflow")
        return int(value)
    if kind is str:
        return _parse_decimal(value, "int", INT64_MIN, INT64_MAX)
    raise CELError("no such overload")


# compiled at first use (re caches it): int() and uint() of a string are rare, and start-up pays for each pattern
_DECIMAL = r"[+-]?[0-9]+"


def _parse_decimal(text, type_name, low, high):
    """Go's strconv.ParseInt/ParseUint in base 10 (no spaces, no underscores); failing is cel-go's message."""
    if re.fullmatch(_DECIMAL, text) and not (type_name == "uint" and text.startswith("-")):
        value = int(text, 10)
        if low <= value <= high:
            return UInt(value) if type_name == "uint" else value
    raise CELError(f"type conversion error from 'string' to '{type_name}'")


def _to_uint(value):
    kind = type(value)
    if kind is str:
        return _parse_decimal(value, "uint", 0, (1 << 64) - 1)
    if kind is float:
        if math.isnan(value) or value < 0 or value >= 1.8446744073709552e19:
            raise CELError("unsigned integer overflow")
        return UInt(int(value))
    return check_uint(int(value))


def _to_double(value):
    if type(value) is str:
        try:
            if value.strip() != value or "_" in value:  # Python accepts these, Go's ParseFloat does not
                raise ValueError(value)
            return float(value)
        except ValueError:
            raise CELError("type conversion error from 'string' to 'double'") from None
    return float(value)


def format_double(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    text = repr(value)
    if "e" in text:
        mant, exp = text.split("e")
        if mant.endswith(".0"):
            mant = mant[:-2]
        sign = exp[0] if exp[0] in "+-" else "+"
        digits = exp.lstrip("+-").rjust(2, "0")
        return f"{mant}e{sign}{digits}"
    if text.endswith(".0"):
        text = text[:-2]
    return text


def to_string(value):
    kind = type(value)
    if kind is str:
        return value
    if kind is bool:
        return "true" if value else "false"
    if kind is int or kind is UInt:
        return str(int(value))
    if kind is float:
        return format_double(value)
    if kind is bytes:
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise CELError("invalid UTF-8 in bytes, cannot convert to string") from None
    if kind in (IP, CIDR, Quantity, Version):
        return str(value)
    raise CELError("no such overload")


def _to_bool(value):
    if type(value) is bool:
        return value
    if value in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if value in ("0", "f", "F", "FALSE", "false", "False"):
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
