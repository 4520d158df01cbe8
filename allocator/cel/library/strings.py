"""Regular expressions (RE2, as cel-go), cel-go's strings extension and ``format()``."""

from __future__ import annotations

import functools
import math

from allocator.cel.library.conversions import format_double, to_string
from allocator.cel.library.declarations import (
    MAX_STRING,
    check_str,
    decl,
    size_charge,
)
from allocator.cel.values import (
    CELError,
    Optional,
    TypeValue,
    UInt,
    type_name,
)


def _regex(pattern):
    return compile_regex(pattern)


_REGEX_CACHE: dict[str, object] = {}


@functools.cache
def _re2():
    """RE2 and its options, loaded with the first regular expression: most selectors have none, and loading
    the library is a noticeable part of a small command's start-up (docs/performance.md)."""
    import re2

    options = re2.Options()
    options.log_errors = False
    return re2, options


def compile_regex(pattern: str):
    compiled = _REGEX_CACHE.get(pattern)
    if compiled is None:
        re2, options = _re2()
        try:
            compiled = re2.compile(pattern, options)
        except re2.error as e:
            msg = e.args[0].decode() if e.args and isinstance(e.args[0], bytes) else str(e)
            raise CELError(f"error parsing regexp: {msg}") from None
        if len(_REGEX_CACHE) > 512:
            _REGEX_CACHE.clear()
        _REGEX_CACHE[pattern] = compiled
    return compiled


# matches() is pure, and a selector inside comprehensions asks the same (text, pattern) thousands of times
# per device: the wrapper around RE2 costs far more than a dict lookup. Cost is still charged per call.
_MATCHES_CACHE: dict[tuple[str, str], bool] = {}
_MATCHES_CACHE_SIZE = 4096


def _matches(text, pattern):
    key = (text, pattern)
    found = _MATCHES_CACHE.get(key)
    if found is None:
        found = _regex(pattern).search(text) is not None
        if len(_MATCHES_CACHE) >= _MATCHES_CACHE_SIZE:
            _MATCHES_CACHE.clear()
        _MATCHES_CACHE[key] = found
    return found


def _regex_charge(args):
    return (len(args[0]) + 1) * max(1, len(args[1])) // 40


decl("matches", ["string", "string"], "bool", _matches, charge=_regex_charge)
decl("matches", ["string", "string"], "bool", _matches, member=True, oid="matches_string", charge=_regex_charge)
decl("contains", ["string", "string"], "bool", lambda s, x: x in s, member=True)
decl("startsWith", ["string", "string"], "bool", lambda s, x: s.startswith(x), member=True)
decl("endsWith", ["string", "string"], "bool", lambda s, x: s.endswith(x), member=True)


def _find(text, pattern):
    match = _regex(pattern).search(text)
    return match.group(0) if match else ""


def _find_all(text, pattern, limit=-1):
    if limit == 0:
        return []
    out = [m.group(0) for m in _regex(pattern).finditer(text)]
    return out if limit < 0 else out[:limit]


decl("find", ["string", "string"], "string", _find, member=True, charge=_regex_charge)
decl("findAll", ["string", "string"], "list(string)", _find_all, member=True, charge=_regex_charge)
decl("findAll", ["string", "string", "int"], "list(string)", _find_all, member=True, charge=_regex_charge)


def _char_at(text, index):
    if index < 0 or index > len(text):
        raise CELError(f"index out of range: {index}")
    return text[index:index + 1]


def _index_of(text, sub, start=0):
    if start < 0 or start > len(text):
        raise CELError(f"index out of range: {start}")
    return text.find(sub, start)


def _last_index_of(text, sub, end=None):
    if end is None:
        return text.rfind(sub)
    if end < 0 or end > len(text):
        raise CELError(f"index out of range: {end}")
    return text.rfind(sub, 0, end + len(sub))


def _lower_ascii(text):
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in text)


def _upper_ascii(text):
    return "".join(c.upper() if "a" <= c <= "z" else c for c in text)


def _replace(text, old, new, count=-1):
    if old == "" and len(text) * max(1, len(new)) > MAX_STRING:
        raise CELError("operation cancelled: actual cost limit exceeded")
    replaced = text.replace(old, new) if count < 0 else text.replace(old, new, count)
    return check_str(replaced)


def _split(text, sep, count=-1):
    if count == 0:
        return []
    if sep == "":
        parts = list(text)
        if count > 0 and len(parts) > count:
            parts = parts[: count - 1] + ["".join(parts[count - 1:])]
        return parts
    return text.split(sep) if count < 0 else text.split(sep, count - 1)


def _substring(text, start, end=None):
    if end is None:
        end = len(text)
    if start < 0 or start > len(text):
        raise CELError(f"index out of range: {start}")
    if end < 0 or end > len(text):
        raise CELError(f"index out of range: {end}")
    if start > end:
        raise CELError(f"invalid substring range. start: {start}, end: {end}")
    return text[start:end]


_UNICODE_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
                 "\u2028\u2029\u202f\u205f\u3000"


def _join(lst, sep=""):
    for x in lst:
        if type(x) is not str:
            raise CELError("no such overload")
    return check_str(sep.join(lst))


def _quote(text):
    out = ['"']
    for char in text:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                        "\v": "\\v"}[char])
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


decl("charAt", ["string", "int"], "string", _char_at, member=True)
decl("indexOf", ["string", "string"], "int", _index_of, member=True)
decl("indexOf", ["string", "string", "int"], "int", _index_of, member=True)
decl("lastIndexOf", ["string", "string"], "int", _last_index_of, member=True)
decl("lastIndexOf", ["string", "string", "int"], "int", _last_index_of, member=True)
decl("lowerAscii", ["string"], "string", _lower_ascii, member=True)
decl("upperAscii", ["string"], "string", _upper_ascii, member=True)
decl("replace", ["string", "string", "string"], "string", _replace, member=True, charge=size_charge(0, 2))
decl("replace", ["string", "string", "string", "int"], "string", _replace, member=True, charge=size_charge(0, 2))
decl("split", ["string", "string"], "list(string)", _split, member=True, charge=size_charge(0))
decl("split", ["string", "string", "int"], "list(string)", _split, member=True, charge=size_charge(0))
decl("substring", ["string", "int"], "string", _substring, member=True)
decl("substring", ["string", "int", "int"], "string", _substring, member=True)
decl("trim", ["string"], "string", lambda s: s.strip(_UNICODE_SPACE), member=True)
decl("join", ["list(string)"], "string", _join, member=True, charge=size_charge(0))
decl("join", ["list(string)", "string"], "string", _join, member=True, charge=size_charge(0))
decl("strings.quote", ["string"], "string", _quote)


def _format_arg(verb, arg, precision):
    kind = type(arg)
    if verb == "s":
        if kind in (list, tuple):
            return "[" + ", ".join(_format_arg("s", x, None) for x in arg) + "]"
        if isinstance(arg, dict):
            items = sorted(((_format_arg("s", k, None), _format_arg("s", number, None)) for k, number in arg.items()))
            return "{" + ", ".join(f"{k}: {number}" for k, number in items) + "}"
        if arg is None:
            return "null"
        if kind is TypeValue:
            return arg.name
        if kind is Optional:
            return f"optional.of({_format_arg('s', arg.value, None)})" if arg.present else "optional.none()"
        return to_string(arg)
    if verb == "d":
        if kind is bool or kind not in (int, UInt, float) or (kind is float and not (math.isnan(arg) or math.isinf(arg))):
            raise CELError(f"error during formatting: decimal clause can only be used on integers, was given "
                           f"{type_name(arg)}")
        return str(int(arg)) if kind is not float else format_double(arg)
    if verb in "fe":
        if kind not in (int, UInt, float) or kind is bool:
            raise CELError(f"error during formatting: fixed-point clause can only be used on doubles, was given "
                           f"{type_name(arg)}")
        digits = 6 if precision is None else precision
        number = float(arg)
        if math.isnan(number):
            return "NaN"
        if math.isinf(number):
            return "Infinity" if number > 0 else "-Infinity"
        return f"{number:.{digits}{verb}}"
    if verb in "xX":
        if kind is str:
            text = arg.encode().hex()
        elif kind is bytes:
            text = arg.hex()
        elif kind in (int, UInt):
            text = format(arg, "x") if arg >= 0 else "-" + format(-arg, "x")
        else:
            raise CELError("error during formatting: only integers, byte buffers, and strings can be formatted "
                           f"as hex, was given {type_name(arg)}")
        return text.upper() if verb == "X" else text
    if verb == "o":
        if kind not in (int, UInt):
            raise CELError(f"error during formatting: octal clause can only be used on integers, was given "
                           f"{type_name(arg)}")
        return format(arg, "o") if arg >= 0 else "-" + format(-arg, "o")
    if verb == "b":
        if kind is bool:
            return "1" if arg else "0"
        if kind not in (int, UInt):
            raise CELError(f"error during formatting: only integers and bools can be formatted as binary, was "
                           f"given {type_name(arg)}")
        return format(arg, "b") if arg >= 0 else "-" + format(-arg, "b")
    raise CELError(f"could not parse formatting clause: unrecognized formatting clause \"{verb}\"")


def _format(fmt_str, args):
    out = []
    index = 0
    length = len(fmt_str)
    argi = 0
    while index < length:
        char = fmt_str[index]
        if char != "%":
            out.append(char)
            index += 1
            continue
        index += 1
        if index < length and fmt_str[index] == "%":
            out.append("%")
            index += 1
            continue
        precision = None
        if index < length and fmt_str[index] == ".":
            end = index + 1
            while end < length and fmt_str[end].isdigit():
                end += 1
            precision = int(fmt_str[index + 1:end] or "0")
            index = end
        if index >= length:
            raise CELError("could not parse formatting clause: unexpected end of string")
        verb = fmt_str[index]
        index += 1
        if argi >= len(args):
            raise CELError(f"index {argi} out of range")
        out.append(_format_arg(verb, args[argi], precision))
        argi += 1
    return check_str("".join(out))


decl("format", ["string", "list(dyn)"], "string", _format, member=True, charge=size_charge(0))
