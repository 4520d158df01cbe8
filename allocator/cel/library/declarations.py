"""The table of declared functions (``FUNCTIONS``), ``decl`` that fills it, and the limits and checks
the implementations share."""

from __future__ import annotations

from allocator.cel import types as T
from allocator.cel.values import (
    CELError,
    UInt,
)

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1
MAX_STRING = 1 << 22  # guard against memory blow-up: 4 Mi characters per string value


class Overload:
    """One overload of a declared function. Its signature is kept as written in ``decl`` and parsed at the first
    read of ``args``, ``result`` or ``oid``: a program names a handful of the library's 224 overloads, and parsing
    them all at import was a noticeable part of a small command's start-up (docs/performance.md). Once parsed,
    they are plain slots, as fast to read as before."""

    __slots__ = ("fn", "oid", "member", "args", "result", "impl", "charge", "gate", "_signature")

    def __init__(self, fn, oid, member, args, result, impl, charge=None, gate=None):
        self.fn = fn
        if oid is not None:
            self.oid = oid
        self.member = member
        self._signature = (args, result)
        self.impl = impl
        self.charge = charge  # callable(args) -> runtime cost, for size-dependent functions
        self.gate = gate

    def __getattr__(self, name):
        # Only reached while a slot is still unset: the signature not parsed yet, or the default oid not made yet.
        args, result = self._signature
        if name == "oid":
            self.oid = f"{self.fn}_{'_'.join(a.replace(' ', '') for a in args)}"
            return self.oid
        if name in ("args", "result"):
            self.args = tuple(T.parse_type(a) for a in args)
            self.result = T.parse_type(result)
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


FUNCTIONS: dict[str, list[Overload]] = {}


def decl(fn, args, result, impl, *, member=False, oid=None, charge=None, gate=None):
    ov = Overload(fn, oid, member, args, result, impl, charge, gate)
    FUNCTIONS.setdefault(fn, []).append(ov)
    return ov


def check_int(value):
    if value < INT64_MIN or value > INT64_MAX:
        raise CELError("integer overflow")
    return value


def check_uint(value):
    if value < 0 or value > UINT64_MAX:
        raise CELError("unsigned integer overflow")
    return UInt(value)


def check_str(text):
    if len(text) > MAX_STRING:
        raise CELError("operation cancelled: actual cost limit exceeded")
    return text


def size_charge(*idx):
    def charge(args):
        return sum(len(args[i]) for i in idx if hasattr(args[i], "__len__")) // 10
    return charge
