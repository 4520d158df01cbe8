"""Plain YAML scalars resolved as the positioned reader resolves them, without importing PyYAML.

The readers take YAML 1.1's implicit types (PyYAML's ``SafeLoader``: bools
such as ``yes``/``off``, ints in base 2, 8, 10, 16 and 60, floats, nulls)
except timestamps, which Kubernetes reads as strings. The fast readers only
need these few rules, and importing PyYAML costs a one-node command about a
tenth of its time, so they live here; the tests check that every rule gives
what PyYAML's gives, on the tricky cases and on generated text.
"""

from __future__ import annotations

import re


class _Words:
    """A rule whose pattern is a list of whole words (PyYAML's ``^(?:yes|Yes|...)$``): a set lookup, with no
    pattern to compile at start-up. (A plain scalar never ends in a newline, which ``$`` would also allow.)"""

    def __init__(self, *words: str) -> None:
        self.words = frozenset(words)

    def match(self, text: str) -> bool:
        return text in self.words


_BOOL = _Words("yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
               "on", "On", "ON", "off", "Off", "OFF")


class _Pattern:
    """A pattern compiled when first matched: most inputs' numbers are plain decimal integers, read without
    one (``resolve``), and text such as ``80Gi`` or ``575.57.8`` that starts with a digit is told from a
    number by its characters (``_DECIMAL_CHARACTERS``; no float has two dots, no int one)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern, self.flags = pattern, flags
        self.compiled: re.Pattern | None = None

    def match(self, text: str):
        if self.compiled is None:
            self.compiled = re.compile(self.pattern, self.flags)
        return self.compiled.match(text)


_FLOAT = _Pattern(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
                    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
                    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
                    |[-+]?\.(?:inf|Inf|INF)
                    |\.(?:nan|NaN|NAN))$""", re.X)
_INT = _Pattern(r"""^(?:[-+]?0b[0-1_]+
                    |[-+]?0[0-7_]+
                    |[-+]?(?:0|[1-9][0-9_]*)
                    |[-+]?0x[0-9a-fA-F_]+
                    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$""", re.X)
# The characters of a number that starts with a digit, unless it starts 0x or 0b: digits, "_", one ".",
# ":" (base 60) and an exponent's e, E, + and -. A scalar with any other is text.
_DECIMAL_CHARACTERS = frozenset("0123456789_.:eE+-")
_MERGE = _Words("<<")
_NULL = _Words("~", "null", "Null", "NULL", "")
_VALUE = _Words("=")

_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
_INFINITY = float("inf")


class NotPlainData(ValueError):
    """A merge key (``<<``) or a ``=`` value: YAML 1.1 types the readers leave to the positioned one."""


def _bool(text: str) -> bool:
    return _BOOLS[text.lower()]


def _sign(text: str) -> tuple[int, str]:
    sign = -1 if text[0] == "-" else 1
    return sign, text[1:] if text[0] in "+-" else text


def _int(text: str) -> int:
    sign, digits = _sign(text.replace("_", ""))
    if digits == "0":
        return 0
    if digits.startswith("0b"):
        return sign * int(digits[2:], 2)
    if digits.startswith("0x"):
        return sign * int(digits[2:], 16)
    if digits[0] == "0":
        return sign * int(digits, 8)
    if ":" in digits:  # base 60: 1:30 is 90
        value = 0
        for part in digits.split(":"):
            value = value * 60 + int(part)
        return sign * value
    return sign * int(digits)


def _float(text: str) -> float:
    sign, digits = _sign(text.replace("_", "").lower())
    if digits == ".inf":
        return sign * _INFINITY
    if digits == ".nan":
        return -_INFINITY / _INFINITY  # the NaN PyYAML makes
    if ":" in digits:
        value, base = 0.0, 1
        for part in reversed(digits.split(":")):
            value += float(part) * base
            base *= 60
        return sign * value
    return sign * float(digits)


def _refuse(text: str):
    raise NotPlainData(text)


def _null(text: str) -> None:
    return None


# First character of the scalar -> the rules to try, in PyYAML's order.
_RULES: dict[str, list] = {}
for _rule, _first in (((_BOOL, _bool), "yYnNtTfFoO"), ((_FLOAT, _float), "-+0123456789."),
                      ((_INT, _int), "-+0123456789"), ((_MERGE, _refuse), "<"),
                      ((_NULL, _null), "~nN"), ((_VALUE, _refuse), "=")):
    for _char in _first:
        _RULES.setdefault(_char, []).append(_rule)
_RULES[""] = [(_NULL, _null)]
_NO_RULES: list = []

# First characters of plain scalars that may be something else than text.
RESOLVABLE = frozenset(char for char in _RULES if char)


def resolve(text: str):
    """The value of a plain scalar: text, or the bool, int, float or None it stands for.

    Raises NotPlainData for ``<<`` and ``=``, ValueError for a number Python cannot read
    (as PyYAML does).
    """
    first = text[:1]
    if first in _DIGITS:
        if text.isdigit() and text.isascii() and (first != "0" or len(text) == 1):
            return int(text)  # a decimal integer: what the int pattern takes first, and the float one never
        if text[:2] not in ("0x", "0b") and (text.count(".") > 1 or not _DECIMAL_CHARACTERS.issuperset(text)):
            return text  # neither pattern can match: a version (575.57.8), a quantity (80Gi), a UID
    for pattern, construct in _RULES.get(first, _NO_RULES):
        if pattern.match(text):
            return construct(text)
    return text


_DIGITS = frozenset("0123456789")
