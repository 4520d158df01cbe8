"""Kubernetes ``resource.Quantity`` in pure Python.

The behaviour follows ``k8s.io/apimachinery/pkg/api/resource``:

* parsing accepts the same grammar and rejects with the same error texts;
* values are exact (integers scaled by a power of ten, never floats);
* like the Go type, a quantity is held either in a small "int64" form
  (value and base-10 scale both fit the fast path) or in an arbitrary
  precision "decimal" form.  The distinction is visible through
  ``is_integer``/``as_integer`` (Go's ``AsInt64``), which only succeed for the
  int64 form at scale >= 0, exactly as CEL's ``isInteger()`` / ``asInteger()``;
* ``str()`` gives the canonical form of ``Quantity.String()``, keeping the
  format family of the input (binary SI, decimal SI, decimal exponent), and
  returning the input verbatim where Go caches it (already canonical input).
"""

from __future__ import annotations

import math
from functools import total_ordering

__all__ = [
    "BINARY_SI",
    "DECIMAL_EXPONENT",
    "DECIMAL_SI",
    "ERR_FORMAT_WRONG",
    "ERR_NUMERIC",
    "ERR_SUFFIX",
    "Quantity",
]

DECIMAL_EXPONENT = "DecimalExponent"
BINARY_SI = "BinarySI"
DECIMAL_SI = "DecimalSI"

_SPLIT_RE = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
ERR_FORMAT_WRONG = "quantities must match the regular expression '" + _SPLIT_RE + "'"
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"

_INT64_MAX = (1 << 63) - 1
_INT64_MIN = -(1 << 63)
_NANO = -9
_MAX_INT64_FACTORS = 18
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")
_DIGITS = frozenset("0123456789")

# suffix -> (base, exponent, format)
_SUFFIXES: dict[str, tuple[int, int, str]] = {
    "": (10, 0, DECIMAL_SI),
    "n": (10, -9, DECIMAL_SI),
    "u": (10, -6, DECIMAL_SI),
    "m": (10, -3, DECIMAL_SI),
    "k": (10, 3, DECIMAL_SI),
    "M": (10, 6, DECIMAL_SI),
    "G": (10, 9, DECIMAL_SI),
    "T": (10, 12, DECIMAL_SI),
    "P": (10, 15, DECIMAL_SI),
    "E": (10, 18, DECIMAL_SI),
    "Ki": (2, 10, BINARY_SI),
    "Mi": (2, 20, BINARY_SI),
    "Gi": (2, 30, BINARY_SI),
    "Ti": (2, 40, BINARY_SI),
    "Pi": (2, 50, BINARY_SI),
    "Ei": (2, 60, BINARY_SI),
}
_DEC_SUFFIX_BY_EXP = {e: s for s, (b, e, f) in _SUFFIXES.items() if b == 10}
_BIN_SUFFIX_BY_POW = {e // 10: s for s, (b, e, f) in _SUFFIXES.items() if b == 2}


def _wrap_int32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def _interpret(suffix: str) -> tuple[int, int, str]:
    hit = _SUFFIXES.get(suffix)
    if hit is not None:
        return hit
    if len(suffix) > 1 and suffix[0] in "eE":
        body = suffix[1:]
        digits = body[1:] if body[0] in "+-" else body
        if digits and digits.isdigit() and digits.isascii():
            parsed = int(body)
            if _INT64_MIN <= parsed <= _INT64_MAX:
                return 10, _wrap_int32(parsed), DECIMAL_EXPONENT
    raise ValueError(ERR_SUFFIX)


def _scan(s: str) -> tuple[bool, str, str, str, str]:
    """Split into (positive, value, numerator, denominator, suffix) like Go's scanner."""
    positive = True
    pos = 0
    end = len(s)
    if s[0] == "-":
        positive = False
        pos = 1
    elif s[0] == "+":
        pos = 1
    # leading zeros
    while True:
        if pos >= end:
            return positive, "0", "0", "", ""
        if s[pos] != "0":
            break
        pos += 1
    i = pos
    while i < end and s[i] in _DIGITS:
        i += 1
    if i >= end:
        return positive, s, s[pos:] or "0", "", ""
    num = s[pos:i] or "0"
    pos = i
    denom = ""
    if s[pos] == ".":
        pos += 1
        i = pos
        while i < end and s[i] in _DIGITS:
            i += 1
        denom = s[pos:i]
        if i >= end:
            return positive, s, num, denom, ""
        pos = i
    value = s[:pos]
    start = pos
    i = pos
    while i < end and s[i] in _SUFFIX_CHARS:
        i += 1
    if i >= end:
        return positive, value, num, denom, s[start:]
    pos = i
    if s[pos] in "+-":
        pos += 1
    while pos < end and s[pos] in _DIGITS:
        pos += 1
    if pos >= end:
        return positive, value, num, denom, s[start:]
    raise ValueError(ERR_FORMAT_WRONG)


def _strip10(m: int, e: int) -> tuple[int, int]:
    if m == 0:
        return 0, 0
    while m % 10 == 0:
        m //= 10
        e += 1
    return m, e


def _ndigits(m: int) -> int:
    return len(str(abs(m))) if m else 0


def _cmp_scaled(m1: int, e1: int, m2: int, e2: int) -> int:
    """Compare m1*10^e1 with m2*10^e2 exactly without building huge powers needlessly."""
    s1 = (m1 > 0) - (m1 < 0)
    s2 = (m2 > 0) - (m2 < 0)
    if s1 != s2:
        return -1 if s1 < s2 else 1
    if s1 == 0:
        return 0
    o1 = _ndigits(m1) + e1
    o2 = _ndigits(m2) + e2
    if o1 != o2:
        bigger = 1 if o1 > o2 else -1
        return bigger if s1 > 0 else -bigger
    # same order of magnitude: the exponent gap is bounded by the digit counts
    if e1 > e2:
        m1 = m1 * 10 ** (e1 - e2)
    elif e2 > e1:
        m2 = m2 * 10 ** (e2 - e1)
    return (m1 > m2) - (m1 < m2)


def _round_up_to_scale(m: int, e: int, target: int) -> tuple[int, int, bool]:
    """Round m*10^e away from zero to exponent >= target; returns (m, e, exact)."""
    if e >= target:
        return m, e, True
    q, r = divmod(abs(m), 10 ** (target - e))
    if r:
        q += 1
    return (q if m >= 0 else -q), target, r == 0


@total_ordering
class Quantity:
    """An exact Kubernetes quantity. Immutable; compare and hash by value."""

    __slots__ = ("_m", "_e", "_int", "format", "_s", "_key")

    def __init__(self, mantissa: int, exponent: int = 0, fmt: str = DECIMAL_SI, *, int_form: bool | None = None,
                 cached: str | None = None):
        self._m = mantissa
        self._e = exponent
        if int_form is None:
            int_form = _INT64_MIN <= mantissa <= _INT64_MAX
        self._int = int_form
        self.format = fmt
        self._s = cached
        self._key = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def parse(cls, s: str) -> Quantity:
        if not isinstance(s, str):
            raise TypeError("quantity must be parsed from a string")
        if not s:
            raise ValueError(ERR_FORMAT_WRONG)
        if s == "0":
            return cls(0, 0, DECIMAL_SI, int_form=True, cached="0")
        positive, value, num, denom, suf = _scan(s)
        base, exponent, fmt = _interpret(suf)

        precision = 0
        scale = 0
        mantissa = 1
        if fmt != BINARY_SI:
            scale = exponent
            precision = _MAX_INT64_FACTORS - (len(num) + len(denom))
        elif exponent >= 0 and not denom:
            mantissa = 1 << exponent
            precision = 15 - len(num) - (exponent * 3 // 10) - 1
        else:
            precision = -1

        if precision >= 0:
            scale -= len(denom)
            if scale >= _NANO:
                shifted = num + denom
                v = int(shifted)
                result = v * mantissa
                if result <= _INT64_MAX:
                    if not positive:
                        result = -result
                    cached = None
                    if fmt == BINARY_SI:
                        if exponent % 10 == 0 and (v & 0x07) != 0:
                            cached = s
                    elif scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0":
                        cached = s
                    return cls(result, scale, fmt, int_form=True, cached=cached)

        # arbitrary precision path
        body = value[1:] if value[:1] in "+-" else value
        ip, _, fp = body.partition(".")
        if not (ip + fp) or not (ip + fp).isdigit():
            raise ValueError(ERR_NUMERIC)
        m = int(ip + fp)
        e = -len(fp)
        if base == 10:
            e += exponent
        else:
            m <<= exponent
        if m != 0:
            m, e, _ = _round_up_to_scale(m, e, _NANO)
        if fmt == BINARY_SI and _cmp_scaled(m, e, _INT64_MAX, 0) > 0:
            m, e = _INT64_MAX, 0
        if fmt == BINARY_SI and m != 0 and _cmp_scaled(m, e, 1, 0) < 0:
            fmt = DECIMAL_SI
        if value[:1] == "-":
            m = -m
        return cls(m, e, fmt, int_form=False)

    @classmethod
    def from_int(cls, value: int, fmt: str = DECIMAL_EXPONENT) -> Quantity:
        """Like Go's NewQuantity(value, format)."""
        return cls(value, 0, fmt, int_form=True)

    # ------------------------------------------------------------------ value access
    @property
    def is_zero(self) -> bool:
        return self._m == 0

    def sign(self) -> int:
        return (self._m > 0) - (self._m < 0)

    def is_integer(self) -> bool:
        """Go's ``AsInt64`` success: int64 form, non-negative scale, no overflow."""
        return self.as_integer() is not None

    def as_integer(self) -> int | None:
        """The value as an int64 if Go's ``AsInt64`` succeeds, else None."""
        if not self._int:
            return None
        if self._e == 0:
            return self._m
        if self._e < 0:
            return None
        if self._e > 40:
            return None if self._m else 0
        v = self._m * 10**self._e
        if _INT64_MIN <= v <= _INT64_MAX:
            return v
        return None

    def as_approximate_float(self) -> float:
        m, e = self._m, self._e
        if e == 0:
            return float(m)
        try:
            base = float(m)
        except OverflowError:
            return math.inf if m > 0 else -math.inf
        if base == 0.0:
            return 0.0
        if e > 400:
            return math.copysign(math.inf, base)
        if e < -400:
            return math.copysign(0.0, base)
        try:
            return base * float(f"1e{e}")
        except OverflowError:  # pragma: no cover - float() of "1e400" gives inf, not an error
            return math.copysign(math.inf, base)

    def scaled_value(self, scale: int) -> int:
        """ceil(q / 10^scale), rounding away from zero (Go's ``ScaledValue``)."""
        m, e, _ = _round_up_to_scale(self._m, self._e, scale)
        return m * 10 ** (e - scale)

    @property
    def value(self) -> int:
        return self.scaled_value(0)

    @property
    def milli_value(self) -> int:
        return self.scaled_value(-3)

    # ------------------------------------------------------------------ arithmetic
    def _combine(self, other: Quantity, negate: bool) -> Quantity:
        om = -other._m if negate else other._m
        fmt = other.format if self._m == 0 else self.format
        if self._int and other._int:
            if om == 0:
                return Quantity(self._m, self._e, fmt, int_form=True)
            if self._m == 0:
                return Quantity(om, other._e, fmt, int_form=True)
            a_m, a_e, b_m, b_e = self._m, self._e, om, other._e
            ok = True
            if a_e > b_e:
                a_m = a_m * 10 ** (a_e - b_e) if a_e - b_e < 40 else None
                ok = a_m is not None and _INT64_MIN <= a_m <= _INT64_MAX
                a_e = b_e
            elif b_e > a_e:
                b_m = b_m * 10 ** (b_e - a_e) if b_e - a_e < 40 else None
                ok = b_m is not None and _INT64_MIN <= b_m <= _INT64_MAX
            if ok:
                c = a_m + b_m
                if _INT64_MIN <= c <= _INT64_MAX and not (negate and other._m == _INT64_MIN):
                    return Quantity(c, a_e, fmt, int_form=True)
        e = min(self._e, other._e)
        m = self._m * 10 ** (self._e - e) + om * 10 ** (other._e - e)
        return Quantity(m, e, fmt, int_form=False)

    def add(self, other: Quantity | int) -> Quantity:
        if isinstance(other, int):
            other = Quantity.from_int(other)
        return self._combine(other, False)

    def sub(self, other: Quantity | int) -> Quantity:
        if isinstance(other, int):
            other = Quantity.from_int(other)
        return self._combine(other, True)

    def __add__(self, other):
        if isinstance(other, (Quantity, int)) and not isinstance(other, bool):
            return self.add(other)
        return NotImplemented

    def __sub__(self, other):
        if isinstance(other, (Quantity, int)) and not isinstance(other, bool):
            return self.sub(other)
        return NotImplemented

    def neg(self) -> Quantity:
        return Quantity(-self._m, self._e, self.format, int_form=self._int)

    # ------------------------------------------------------------------ comparison
    def cmp(self, other: Quantity) -> int:
        return _cmp_scaled(self._m, self._e, other._m, other._e)

    def __eq__(self, other):
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.cmp(other) == 0

    def __lt__(self, other):
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.cmp(other) < 0

    def __hash__(self):
        if self._key is None:
            self._key = _strip10(self._m, self._e)
        return hash(self._key)

    # ------------------------------------------------------------------ formatting
    def __str__(self) -> str:
        if self._s is None:
            self._s = self._canonical()
        return self._s

    def __repr__(self) -> str:
        return f"Quantity({str(self)!r})"

    def _canonical(self) -> str:
        m, e = self._m, self._e
        if m == 0:
            return "0"
        fmt = self.format
        if fmt == BINARY_SI:
            if _cmp_scaled(m, e, -1024, 0) > 0 and _cmp_scaled(m, e, 1024, 0) < 0:
                fmt = DECIMAL_SI
            else:
                r_m, r_e, exact = _round_up_to_scale(m, e, 0)
                if not exact:
                    fmt = DECIMAL_SI
                else:
                    n = r_m * 10**r_e
                    k = 0
                    while n % 1024 == 0:
                        n //= 1024
                        k += 1
                    return str(n) + _BIN_SUFFIX_BY_POW.get(k, "")
        elif fmt not in (DECIMAL_SI, DECIMAL_EXPONENT):
            fmt = DECIMAL_EXPONENT
        m, e = _strip10(m, e)
        while e % 3:
            m *= 10
            e -= 1
        if fmt == DECIMAL_SI:
            return str(m) + _DEC_SUFFIX_BY_EXP.get(e, "")
        return str(m) + (f"e{e}" if e else "")
