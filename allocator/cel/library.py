"""Function declarations and implementations of the DRA CEL environment.

Each overload has a static signature (for the checker) and a Python implementation working on
runtime values (see ``values``). Implementations raise ``CELError`` for CEL runtime errors.
"""

from __future__ import annotations

import ipaddress
import math
import re
import urllib.parse

import re2

from allocator.cel import types as T
from allocator.cel.values import (
    CIDR,
    IP,
    NONE,
    URL,
    CELError,
    Optional,
    QuantityRef,
    TypeValue,
    UInt,
    cel_equal,
    equal_is_true,
    format_key,
    map_lookup,
    type_name,
)
from allocator.kube.quantity import Quantity
from allocator.kube.semver import Version

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1
MAX_STRING = 1 << 22  # guard against memory blow-up: 4 Mi characters per string value


class Overload:
    __slots__ = ("fn", "oid", "member", "args", "result", "impl", "charge", "gate")

    def __init__(self, fn, oid, member, args, result, impl, charge=None, gate=None):
        self.fn = fn
        self.oid = oid
        self.member = member
        self.args = tuple(T.parse_type(a) for a in args)
        self.result = T.parse_type(result)
        self.impl = impl
        self.charge = charge  # callable(args) -> runtime cost, for size-dependent functions
        self.gate = gate


FUNCTIONS: dict[str, list[Overload]] = {}


def decl(fn, args, result, impl, *, member=False, oid=None, charge=None, gate=None):
    ov = Overload(fn, oid or f"{fn}_{'_'.join(a.replace(' ', '') for a in args)}", member, args, result, impl,
                  charge, gate)
    FUNCTIONS.setdefault(fn, []).append(ov)
    return ov


def _check_int(v):
    if v < INT64_MIN or v > INT64_MAX:
        raise CELError("integer overflow")
    return v


def _check_uint(v):
    if v < 0 or v > UINT64_MAX:
        raise CELError("unsigned integer overflow")
    return UInt(v)


def _check_str(s):
    if len(s) > MAX_STRING:
        raise CELError("operation cancelled: actual cost limit exceeded")
    return s


def _size_charge(*idx):
    def charge(args):
        return sum(len(args[i]) for i in idx if hasattr(args[i], "__len__")) // 10
    return charge


# --------------------------------------------------------------------------- arithmetic
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


decl("_+_", ["int", "int"], "int", lambda a, b: _check_int(a + b))
decl("_+_", ["uint", "uint"], "uint", lambda a, b: _check_uint(a + b))
decl("_+_", ["double", "double"], "double", lambda a, b: a + b)
decl("_+_", ["string", "string"], "string", lambda a, b: _check_str(a + b), oid="add_string",
     charge=_size_charge(0, 1))
decl("_+_", ["bytes", "bytes"], "bytes", lambda a, b: _check_str(a + b), oid="add_bytes", charge=_size_charge(0, 1))
decl("_+_", ["list(A)", "list(A)"], "list(A)", lambda a, b: _check_str(list(a) + list(b)), oid="add_list",
     charge=_size_charge(0, 1))
decl("_-_", ["int", "int"], "int", lambda a, b: _check_int(a - b))
decl("_-_", ["uint", "uint"], "uint", lambda a, b: _check_uint(a - b))
decl("_-_", ["double", "double"], "double", lambda a, b: a - b)
decl("_*_", ["int", "int"], "int", lambda a, b: _check_int(a * b))
decl("_*_", ["uint", "uint"], "uint", lambda a, b: _check_uint(a * b))
decl("_*_", ["double", "double"], "double", lambda a, b: a * b)
decl("_/_", ["int", "int"], "int", _div_int)
decl("_/_", ["uint", "uint"], "uint", lambda a, b: UInt(a // b) if b else (_ for _ in ()).throw(
    CELError("division by zero")))
decl("_/_", ["double", "double"], "double", _div_double)
decl("_%_", ["int", "int"], "int", _mod_int)
decl("_%_", ["uint", "uint"], "uint", lambda a, b: UInt(a % b) if b else (_ for _ in ()).throw(
    CELError("modulus by zero")))
decl("-_", ["int"], "int", lambda a: _check_int(-a))
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


def _in_list(v, lst):
    # cel-go's list Contains: the element on the left, a failed comparison is "not this one".
    return any(equal_is_true(v, x) for x in lst)


def _in_map(k, m):
    return map_lookup(m, k)[0]


decl("@in", ["A", "list(A)"], "bool", _in_list, oid="in_list")
decl("@in", ["A", "map(A, B)"], "bool", _in_map, oid="in_map")


# --------------------------------------------------------------------------- indexing
def index_value(c, k):
    if isinstance(c, (list, tuple)):
        tk = type(k)
        if tk is float:
            if not k.is_integer():
                raise CELError(f"unsupported index value {k} in list")
            k = int(k)
        elif tk is not int and tk is not UInt:
            raise CELError("no such overload")
        if k < 0 or k >= len(c):
            raise CELError(f"index out of bounds: {k}")
        return c[k]
    if isinstance(c, dict):
        found, v = map_lookup(c, k)
        if not found:
            default = getattr(c, "default", None)
            if default is not None:
                return default
            raise CELError(f"no such key: {format_key(k)}")
        return v
    raise CELError("no such overload")


def opt_index(c, k):
    if isinstance(c, Optional):
        if not c.present:
            return NONE
        c = c.value
    try:
        if isinstance(c, dict):
            found, v = map_lookup(c, k)
            return Optional(v, True) if found else NONE
        return Optional(index_value(c, k), True)
    except CELError as e:
        if str(e).startswith("index out of bounds"):
            return NONE
        raise


decl("_[_]", ["list(A)", "int"], "A", index_value, oid="index_list")
decl("_[_]", ["map(K, V)", "K"], "V", index_value, oid="index_map")
decl("_[?_]", ["list(A)", "int"], "optional_type(A)", opt_index, oid="opt_index_list")
decl("_[?_]", ["map(K, V)", "K"], "optional_type(V)", opt_index, oid="opt_index_map")
decl("_[?_]", ["optional_type(list(A))", "int"], "optional_type(A)", opt_index, oid="opt_index_opt_list")
decl("_[?_]", ["optional_type(map(K, V))", "K"], "optional_type(V)", opt_index, oid="opt_index_opt_map")


# --------------------------------------------------------------------------- size, conversions
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
        return _check_int(int(v))
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
    return _check_uint(int(v))


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


# --------------------------------------------------------------------------- strings
def _regex(pattern):
    return compile_regex(pattern)


_REGEX_CACHE: dict[str, object] = {}
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False


def compile_regex(pattern: str):
    r = _REGEX_CACHE.get(pattern)
    if r is None:
        try:
            r = re2.compile(pattern, _RE2_OPTIONS)
        except re2.error as e:
            msg = e.args[0].decode() if e.args and isinstance(e.args[0], bytes) else str(e)
            raise CELError(f"error parsing regexp: {msg}") from None
        if len(_REGEX_CACHE) > 512:
            _REGEX_CACHE.clear()
        _REGEX_CACHE[pattern] = r
    return r


def _matches(s, p):
    return _regex(p).search(s) is not None


def _regex_charge(args):
    return (len(args[0]) + 1) * max(1, len(args[1])) // 40


decl("matches", ["string", "string"], "bool", _matches, charge=_regex_charge)
decl("matches", ["string", "string"], "bool", _matches, member=True, oid="matches_string", charge=_regex_charge)
decl("contains", ["string", "string"], "bool", lambda s, x: x in s, member=True)
decl("startsWith", ["string", "string"], "bool", lambda s, x: s.startswith(x), member=True)
decl("endsWith", ["string", "string"], "bool", lambda s, x: s.endswith(x), member=True)


def _find(s, p):
    m = _regex(p).search(s)
    return m.group(0) if m else ""


def _find_all(s, p, limit=-1):
    if limit == 0:
        return []
    out = [m.group(0) for m in _regex(p).finditer(s)]
    return out if limit < 0 else out[:limit]


decl("find", ["string", "string"], "string", _find, member=True, charge=_regex_charge)
decl("findAll", ["string", "string"], "list(string)", _find_all, member=True, charge=_regex_charge)
decl("findAll", ["string", "string", "int"], "list(string)", _find_all, member=True, charge=_regex_charge)


def _char_at(s, i):
    if i < 0 or i > len(s):
        raise CELError(f"index out of range: {i}")
    return s[i:i + 1]


def _index_of(s, sub, start=0):
    if start < 0 or start > len(s):
        raise CELError(f"index out of range: {start}")
    return s.find(sub, start)


def _last_index_of(s, sub, end=None):
    if end is None:
        return s.rfind(sub)
    if end < 0 or end > len(s):
        raise CELError(f"index out of range: {end}")
    return s.rfind(sub, 0, end + len(sub))


def _lower_ascii(s):
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in s)


def _upper_ascii(s):
    return "".join(c.upper() if "a" <= c <= "z" else c for c in s)


def _replace(s, old, new, n=-1):
    if old == "" and len(s) * max(1, len(new)) > MAX_STRING:
        raise CELError("operation cancelled: actual cost limit exceeded")
    r = s.replace(old, new) if n < 0 else s.replace(old, new, n)
    return _check_str(r)


def _split(s, sep, n=-1):
    if n == 0:
        return []
    if sep == "":
        parts = list(s)
        if n > 0 and len(parts) > n:
            parts = parts[: n - 1] + ["".join(parts[n - 1:])]
        return parts
    return s.split(sep) if n < 0 else s.split(sep, n - 1)


def _substring(s, start, end=None):
    if end is None:
        end = len(s)
    if start < 0 or start > len(s):
        raise CELError(f"index out of range: {start}")
    if end < 0 or end > len(s):
        raise CELError(f"index out of range: {end}")
    if start > end:
        raise CELError(f"invalid substring range. start: {start}, end: {end}")
    return s[start:end]


_UNICODE_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
                 "\u2028\u2029\u202f\u205f\u3000"


def _join(lst, sep=""):
    for x in lst:
        if type(x) is not str:
            raise CELError("no such overload")
    return _check_str(sep.join(lst))


def _quote(s):
    out = ['"']
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                        "\v": "\\v"}[c])
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


decl("charAt", ["string", "int"], "string", _char_at, member=True)
decl("indexOf", ["string", "string"], "int", _index_of, member=True)
decl("indexOf", ["string", "string", "int"], "int", _index_of, member=True)
decl("lastIndexOf", ["string", "string"], "int", _last_index_of, member=True)
decl("lastIndexOf", ["string", "string", "int"], "int", _last_index_of, member=True)
decl("lowerAscii", ["string"], "string", _lower_ascii, member=True)
decl("upperAscii", ["string"], "string", _upper_ascii, member=True)
decl("replace", ["string", "string", "string"], "string", _replace, member=True, charge=_size_charge(0, 2))
decl("replace", ["string", "string", "string", "int"], "string", _replace, member=True, charge=_size_charge(0, 2))
decl("split", ["string", "string"], "list(string)", _split, member=True, charge=_size_charge(0))
decl("split", ["string", "string", "int"], "list(string)", _split, member=True, charge=_size_charge(0))
decl("substring", ["string", "int"], "string", _substring, member=True)
decl("substring", ["string", "int", "int"], "string", _substring, member=True)
decl("trim", ["string"], "string", lambda s: s.strip(_UNICODE_SPACE), member=True)
decl("join", ["list(string)"], "string", _join, member=True, charge=_size_charge(0))
decl("join", ["list(string)", "string"], "string", _join, member=True, charge=_size_charge(0))
decl("strings.quote", ["string"], "string", _quote)


def _format_arg(verb, arg, precision):
    t = type(arg)
    if verb == "s":
        if t in (list, tuple):
            return "[" + ", ".join(_format_arg("s", x, None) for x in arg) + "]"
        if isinstance(arg, dict):
            items = sorted(((_format_arg("s", k, None), _format_arg("s", v, None)) for k, v in arg.items()))
            return "{" + ", ".join(f"{k}: {v}" for k, v in items) + "}"
        if arg is None:
            return "null"
        if t is TypeValue:
            return arg.name
        if t is Optional:
            return f"optional.of({_format_arg('s', arg.value, None)})" if arg.present else "optional.none()"
        return to_string(arg)
    if verb == "d":
        if t is bool or t not in (int, UInt, float) or (t is float and not (math.isnan(arg) or math.isinf(arg))):
            raise CELError(f"error during formatting: decimal clause can only be used on integers, was given "
                           f"{type_name(arg)}")
        return str(int(arg)) if t is not float else format_double(arg)
    if verb in "fe":
        if t not in (int, UInt, float) or t is bool:
            raise CELError(f"error during formatting: fixed-point clause can only be used on doubles, was given "
                           f"{type_name(arg)}")
        p = 6 if precision is None else precision
        v = float(arg)
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return f"{v:.{p}{verb}}"
    if verb in "xX":
        if t is str:
            r = arg.encode().hex()
        elif t is bytes:
            r = arg.hex()
        elif t in (int, UInt):
            r = format(arg, "x") if arg >= 0 else "-" + format(-arg, "x")
        else:
            raise CELError("error during formatting: only integers, byte buffers, and strings can be formatted "
                           f"as hex, was given {type_name(arg)}")
        return r.upper() if verb == "X" else r
    if verb == "o":
        if t not in (int, UInt):
            raise CELError(f"error during formatting: octal clause can only be used on integers, was given "
                           f"{type_name(arg)}")
        return format(arg, "o") if arg >= 0 else "-" + format(-arg, "o")
    if verb == "b":
        if t is bool:
            return "1" if arg else "0"
        if t not in (int, UInt):
            raise CELError(f"error during formatting: only integers and bools can be formatted as binary, was "
                           f"given {type_name(arg)}")
        return format(arg, "b") if arg >= 0 else "-" + format(-arg, "b")
    raise CELError(f"could not parse formatting clause: unrecognized formatting clause \"{verb}\"")


def _format(fmt_str, args):
    out = []
    i = 0
    n = len(fmt_str)
    argi = 0
    while i < n:
        c = fmt_str[i]
        if c != "%":
            out.append(c)
            i += 1
            continue
        i += 1
        if i < n and fmt_str[i] == "%":
            out.append("%")
            i += 1
            continue
        precision = None
        if i < n and fmt_str[i] == ".":
            j = i + 1
            while j < n and fmt_str[j].isdigit():
                j += 1
            precision = int(fmt_str[i + 1:j] or "0")
            i = j
        if i >= n:
            raise CELError("could not parse formatting clause: unexpected end of string")
        verb = fmt_str[i]
        i += 1
        if argi >= len(args):
            raise CELError(f"index {argi} out of range")
        out.append(_format_arg(verb, args[argi], precision))
        argi += 1
    return _check_str("".join(out))


decl("format", ["string", "list(dyn)"], "string", _format, member=True, charge=_size_charge(0))


# --------------------------------------------------------------------------- Kubernetes lists library
def _comparable_list(lst):
    if not lst:
        return
    t0 = type(lst[0])
    for x in lst:
        if type(x) is not t0 or t0 in (list, dict, type(None), Optional):
            raise CELError("no such overload")


def _is_sorted(lst):
    _comparable_list(lst)
    return all(_lt_or_eq(lst[i], lst[i + 1]) for i in range(len(lst) - 1))


def _lt_or_eq(a, b):
    if isinstance(a, (Quantity, Version)):
        return a.compare(b) <= 0 if isinstance(a, Version) else a.cmp(b) <= 0
    return a <= b


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
        return _check_int(total)
    if t0 is UInt:
        return _check_uint(total)
    return total


def _min_max(pick_min):
    def f(lst):
        if not lst:
            raise CELError("min called on empty list" if pick_min else "max called on empty list")
        _comparable_list(lst)
        best = lst[0]
        for x in lst[1:]:
            if (x < best) if pick_min else (x > best):
                best = x
        return best
    return f


def _list_index_of(lst, v):
    for i, x in enumerate(lst):
        if equal_is_true(x, v):
            return i
    return -1


def _list_last_index_of(lst, v):
    for i in range(len(lst) - 1, -1, -1):
        if equal_is_true(lst[i], v):
            return i
    return -1


decl("isSorted", ["list(A)"], "bool", _is_sorted, member=True)
for _t in ("int", "uint", "double"):
    decl("sum", [f"list({_t})"], _t, _sum, member=True)
decl("min", ["list(A)"], "A", _min_max(True), member=True)
decl("max", ["list(A)"], "A", _min_max(False), member=True)
decl("indexOf", ["list(A)", "A"], "int", _list_index_of, member=True)
decl("lastIndexOf", ["list(A)", "A"], "int", _list_last_index_of, member=True)


# --------------------------------------------------------------------------- cel-go lists extension
def _range(n):
    if n < 0:
        return []
    if n > 1_000_000:
        raise CELError("operation cancelled: actual cost limit exceeded")
    return list(range(n))


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
    _comparable_list(lst)
    if lst and type(lst[0]) in (Quantity, Version):
        import functools

        key = functools.cmp_to_key(lambda a, b: a.cmp(b) if isinstance(a, Quantity) else a.compare(b))
        return sorted(lst, key=key)
    return sorted(lst)


decl("lists.range", ["int"], "list(int)", _range, charge=lambda a: a[0] if a[0] > 0 else 0)
decl("distinct", ["list(A)"], "list(A)", _distinct, member=True, charge=lambda a: len(a[0]) * len(a[0]) // 10)
decl("flatten", ["list(list(A))"], "list(A)", _flatten, member=True, charge=_size_charge(0))
decl("flatten", ["list(A)", "int"], "list(dyn)", _flatten, member=True, charge=_size_charge(0))
decl("slice", ["list(A)", "int", "int"], "list(A)", _slice, member=True)
decl("sort", ["list(A)"], "list(A)", sort_values, member=True, charge=_size_charge(0))
decl("reverse", ["list(A)"], "list(A)", lambda lst: list(reversed(lst)), member=True)
decl("first", ["list(A)"], "optional_type(A)", lambda lst: Optional(lst[0], True) if lst else NONE, member=True)
decl("last", ["list(A)"], "optional_type(A)", lambda lst: Optional(lst[-1], True) if lst else NONE, member=True)


# --------------------------------------------------------------------------- sets
def _sets_contains(a, b):
    return all(_in_list(x, a) for x in b)


decl("sets.contains", ["list(A)", "list(A)"], "bool", _sets_contains,
     charge=lambda a: len(a[0]) * len(a[1]) // 10)
decl("sets.equivalent", ["list(A)", "list(A)"], "bool", lambda a, b: _sets_contains(a, b) and _sets_contains(b, a),
     charge=lambda a: len(a[0]) * len(a[1]) // 5)
decl("sets.intersects", ["list(A)", "list(A)"], "bool", lambda a, b: any(_in_list(x, a) for x in b),
     charge=lambda a: len(a[0]) * len(a[1]) // 10)


# --------------------------------------------------------------------------- optional
decl("optional.of", ["A"], "optional_type(A)", lambda v: Optional(v, True))
decl("optional.none", [], "optional_type(T)", lambda: NONE)


def _is_zero(v):
    if v is None or v is False:
        return True
    t = type(v)
    if t in (int, UInt, float):
        return v == 0
    if t in (str, bytes, list, dict):
        return len(v) == 0
    return False


decl("optional.ofNonZeroValue", ["A"], "optional_type(A)", lambda v: NONE if _is_zero(v) else Optional(v, True))


def _opt_value(o):
    if not o.present:
        raise CELError("optional.none() dereference")
    return o.value


decl("hasValue", ["optional_type(A)"], "bool", lambda o: o.present, member=True)
decl("value", ["optional_type(A)"], "A", _opt_value, member=True)
decl("orValue", ["optional_type(A)", "A"], "A", lambda o, v: o.value if o.present else v, member=True)
decl("or", ["optional_type(A)", "optional_type(A)"], "optional_type(A)", lambda o, p: o if o.present else p,
     member=True)


# --------------------------------------------------------------------------- quantity
def _quantity(s):
    try:
        return Quantity.parse(s)
    except ValueError as e:
        raise CELError(str(e)) from None


def _is_quantity(s):
    try:
        Quantity.parse(s)
    except ValueError:
        return False
    return True


def _as_integer(q):
    v = q.as_integer()
    if v is None:
        raise CELError("cannot convert value to integer")
    return v


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


# --------------------------------------------------------------------------- semver
def _semver(s, normalize=False):
    try:
        return Version.parse(s, normalize)
    except ValueError as e:
        raise CELError(str(e)) from None


decl("semver", ["string"], "kubernetes.Semver", _semver, oid="string_to_semver")
decl("semver", ["string", "bool"], "kubernetes.Semver", _semver, oid="string_bool_to_semver")
decl("isSemver", ["string"], "bool", lambda s: Version.is_valid(s), oid="is_semver_string")
decl("isSemver", ["string", "bool"], "bool", lambda s, n: Version.is_valid(s, n), oid="is_semver_string_bool")
decl("isGreaterThan", ["kubernetes.Semver", "kubernetes.Semver"], "bool", lambda a, b: a.compare(b) == 1,
     member=True, oid="semver_is_greater_than")
decl("isLessThan", ["kubernetes.Semver", "kubernetes.Semver"], "bool", lambda a, b: a.compare(b) == -1,
     member=True, oid="semver_is_less_than")
decl("compareTo", ["kubernetes.Semver", "kubernetes.Semver"], "int", lambda a, b: a.compare(b), member=True,
     oid="semver_compare_to")
decl("major", ["kubernetes.Semver"], "int", lambda v: v.major, member=True)
decl("minor", ["kubernetes.Semver"], "int", lambda v: v.minor, member=True)
decl("patch", ["kubernetes.Semver"], "int", lambda v: v.patch, member=True)


# --------------------------------------------------------------------------- DRA includes()
def _includes(target, arg):
    if isinstance(target, (list, tuple)):
        for i, item in enumerate(target):
            if i >= 48:
                raise CELError("'includes' function cannot be applied to lists longer than 48 values")
            try:
                if cel_equal(item, arg):
                    return True
            except CELError:
                pass
        return False
    try:
        return cel_equal(target, arg)
    except CELError:
        return False


decl("includes", ["dyn", "dyn"], "bool", _includes, member=True, oid="dra_includes_dyn_dyn",
     gate="DRAListTypeAttributes")


# --------------------------------------------------------------------------- IP and CIDR
def _parse_ip(s):
    if "%" in s:
        raise CELError(f"IP Address {s!r} with zone value is not allowed".replace("'", '"'))
    try:
        a = ipaddress.ip_address(s)
    except ValueError:
        raise CELError(f'IP Address "{s}" parse error during conversion from string: ParseAddr("{s}"): '
                       "unable to parse IP") from None
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None and "." in s:
        raise CELError(f'IPv4-mapped IPv6 address "{s}" is not allowed')
    return IP(a)


def _is_ip(s):
    try:
        _parse_ip(s)
    except CELError:
        return False
    return True


def _parse_cidr(s):
    addr_s, sep, plen = s.partition("/")
    if not sep:
        raise CELError(f'network address parse error during conversion from string: network address "{s}" '
                       "must have a prefix length")
    ip = _parse_ip(addr_s).addr
    try:
        p = int(plen)
        net = ipaddress.ip_network(f"{ip}/{p}", strict=False)
    except ValueError:
        raise CELError(f'network address parse error during conversion from string: netip.ParsePrefix("{s}"): '
                       "bad bits after slash") from None
    return CIDR(ip, net)


def _is_cidr(s):
    try:
        _parse_cidr(s)
    except CELError:
        return False
    return True


def _family(ip):
    return 4 if ip.addr.version == 4 else 6


def _is_global_unicast(ip):
    a = ip.addr
    if a.is_multicast or a.is_loopback or a.is_link_local or a.is_unspecified:
        return False
    if a.version == 4 and a == ipaddress.ip_address("255.255.255.255"):
        return False
    return True


def _contains_ip(c, ip):
    if isinstance(ip, str):
        ip = _parse_ip(ip)
    return ip.addr.version == c.net.version and ip.addr in c.net


def _contains_cidr(c, other):
    if isinstance(other, str):
        other = _parse_cidr(other)
    return other.net.version == c.net.version and other.net.subnet_of(c.net)


decl("ip", ["string"], "net.IP", _parse_ip)
decl("isIP", ["string"], "bool", _is_ip)
decl("ip.isCanonical", ["string"], "bool", lambda s: str(_parse_ip(s)) == s)
decl("family", ["net.IP"], "int", _family, member=True)
decl("isUnspecified", ["net.IP"], "bool", lambda ip: ip.addr.is_unspecified, member=True)
decl("isLoopback", ["net.IP"], "bool", lambda ip: ip.addr.is_loopback, member=True)
decl("isLinkLocalMulticast", ["net.IP"], "bool",
     lambda ip: ip.addr.is_multicast and (ip.addr in ipaddress.ip_network("224.0.0.0/24") if ip.addr.version == 4
                                          else ip.addr in ipaddress.ip_network("ff02::/16")), member=True)
decl("isLinkLocalUnicast", ["net.IP"], "bool", lambda ip: ip.addr.is_link_local and not ip.addr.is_multicast,
     member=True)
decl("isGlobalUnicast", ["net.IP"], "bool", _is_global_unicast, member=True)
decl("cidr", ["string"], "net.CIDR", _parse_cidr)
decl("isCIDR", ["string"], "bool", _is_cidr)
decl("containsIP", ["net.CIDR", "net.IP"], "bool", _contains_ip, member=True)
decl("containsIP", ["net.CIDR", "string"], "bool", _contains_ip, member=True)
decl("containsCIDR", ["net.CIDR", "net.CIDR"], "bool", _contains_cidr, member=True)
decl("containsCIDR", ["net.CIDR", "string"], "bool", _contains_cidr, member=True)
decl("ip", ["net.CIDR"], "net.IP", lambda c: IP(c.addr), member=True)
decl("masked", ["net.CIDR"], "net.CIDR", lambda c: CIDR(c.net.network_address, c.net), member=True)
decl("prefixLength", ["net.CIDR"], "int", lambda c: c.net.prefixlen, member=True)


# --------------------------------------------------------------------------- URL
def _parse_url(s):
    try:
        p = urllib.parse.urlsplit(s)
    except ValueError:
        p = None
    if p is None or not p.scheme or (not p.netloc and not p.path.startswith("/")) or " " in s:
        if p is None or not (s.startswith("/") or p.scheme):
            raise CELError(f"URL parse error during conversion from string: parse \"{s}\": invalid URI for request")
    hostname = p.hostname or ""
    try:
        port = str(p.port) if p.port is not None else ""
    except ValueError:
        raise CELError(f"URL parse error during conversion from string: parse \"{s}\": invalid port") from None
    host = p.netloc.rpartition("@")[2]
    return URL(s, p.scheme, host, hostname.strip("[]"), port, p.path, p.query)


def _is_url(s):
    try:
        _parse_url(s)
    except CELError:
        return False
    return True


def _query(u):
    out: dict[str, list[str]] = {}
    for k, v in urllib.parse.parse_qsl(u.query, keep_blank_values=True):
        out.setdefault(k, []).append(v)
    return out


decl("url", ["string"], "kubernetes.URL", _parse_url)
decl("isURL", ["string"], "bool", _is_url)
decl("getScheme", ["kubernetes.URL"], "string", lambda u: u.scheme, member=True)
decl("getHost", ["kubernetes.URL"], "string", lambda u: u.host, member=True)
decl("getHostname", ["kubernetes.URL"], "string", lambda u: u.hostname, member=True)
decl("getPort", ["kubernetes.URL"], "string", lambda u: u.port, member=True)
decl("getEscapedPath", ["kubernetes.URL"], "string", lambda u: urllib.parse.quote(u.path, safe="/:@!$&'()*+,;="),
     member=True)
decl("getQuery", ["kubernetes.URL"], "map(string, list(string))", _query, member=True)


# --------------------------------------------------------------------------- format library
_DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_FORMATS = {
    "dns1123Label": (rf"^{_DNS1123_LABEL}$", 63),
    "dns1123Subdomain": (rf"^{_DNS1123_LABEL}(\.{_DNS1123_LABEL})*$", 253),
    "dns1035Label": (r"^[a-z]([-a-z0-9]*[a-z0-9])?$", 63),
    "labelValue": (r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$", 63),
    "qualifiedName": (r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$", 63),
    "uuid": (r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", 36),
    "date": (r"^\d{4}-\d{2}-\d{2}$", 10),
}


class NamedFormat:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


def _format_named(name):
    return Optional(NamedFormat(name), True) if name in _FORMATS else NONE


def _validate(f, s):
    pattern, max_len = _FORMATS[f.name]
    errs = []
    if len(s) > max_len:
        errs.append(f"must be no more than {max_len} characters")
    if not re2.search(pattern, s):
        errs.append(f"must be a valid {f.name}")
    return Optional(errs, True) if errs else NONE


decl("format.named", ["string"], "optional_type(kubernetes.NamedFormat)", _format_named)
for _name in _FORMATS:
    decl(f"format.{_name}", [], "kubernetes.NamedFormat", (lambda n: lambda: NamedFormat(n))(_name))
decl("validate", ["kubernetes.NamedFormat", "string"], "optional_type(list(string))", _validate, member=True)


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
