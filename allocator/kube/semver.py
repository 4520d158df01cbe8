"""Semantic versions (semver 2.0.0) as parsed and ordered by blang/semver v4.

``Version.parse`` is strict (Kubernetes' ``semver(s)`` and DRA version
attributes); ``Version.parse(s, normalize=True)`` is the relaxed variant of
Kubernetes' CEL ``semver(s, true)``: a leading ``v`` is dropped, missing minor
and patch parts become ``0`` and leading zeros are removed. Error messages
are the ones blang/semver produces, so they can be shown to users as-is.
"""

from __future__ import annotations

from functools import total_ordering

__all__ = ["PreRelease", "Version"]

_NUMBERS = frozenset("0123456789")
_ALPHANUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789")
_UINT64_MAX = (1 << 64) - 1


def _only(s: str, allowed: frozenset[str]) -> bool:
    return all(c in allowed for c in s)


def _leading_zero(s: str) -> bool:
    return len(s) > 1 and s[0] == "0"


def _parse_uint(s: str) -> int:
    # strconv.ParseUint(s, 10, 64) error texts
    if not s:
        raise ValueError('strconv.ParseUint: parsing "": invalid syntax')
    n = int(s)
    if n > _UINT64_MAX:
        raise ValueError(f'strconv.ParseUint: parsing "{s}": value out of range')
    return n


def _quote(s: str) -> str:
    """Go's %q for the (ASCII-ish) strings that appear in semver messages."""
    out = []
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\x{ord(c):02x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


class PreRelease:
    """One dot-separated pre-release identifier: numeric or alphanumeric."""

    __slots__ = ("is_num", "num", "text")

    def __init__(self, s: str):
        if not s:
            raise ValueError("Prerelease is empty")
        if _only(s, _NUMBERS):
            if _leading_zero(s):
                raise ValueError(f"Numeric PreRelease version must not contain leading zeroes {_quote(s)}")
            self.is_num = True
            self.num = _parse_uint(s)
            self.text = ""
        elif _only(s, _ALPHANUM):
            self.is_num = False
            self.num = 0
            self.text = s
        else:
            raise ValueError(f"Invalid character(s) found in prerelease {_quote(s)}")

    def compare(self, other: PreRelease) -> int:
        if self.is_num != other.is_num:
            return -1 if self.is_num else 1
        if self.is_num:
            return (self.num > other.num) - (self.num < other.num)
        return (self.text > other.text) - (self.text < other.text)

    def __str__(self) -> str:
        return str(self.num) if self.is_num else self.text


@total_ordering
class Version:
    __slots__ = ("major", "minor", "patch", "pre", "build")

    def __init__(self, major: int, minor: int, patch: int, pre: tuple[PreRelease, ...] = (),
                 build: tuple[str, ...] = ()):
        self.major = major
        self.minor = minor
        self.patch = patch
        self.pre = tuple(pre)
        self.build = tuple(build)

    @classmethod
    def parse(cls, s: str, normalize: bool = False) -> Version:
        if normalize:
            s = _normalize(s)
        if not s:
            raise ValueError("Version string empty")
        parts = s.split(".", 2)
        if len(parts) != 3:
            raise ValueError("No Major.Minor.Patch elements found")
        major_s, minor_s, rest = parts
        if not _only(major_s, _NUMBERS):
            raise ValueError(f"Invalid character(s) found in major number {_quote(major_s)}")
        if _leading_zero(major_s):
            raise ValueError(f"Major number must not contain leading zeroes {_quote(major_s)}")
        major = _parse_uint(major_s)
        if not _only(minor_s, _NUMBERS):
            raise ValueError(f"Invalid character(s) found in minor number {_quote(minor_s)}")
        if _leading_zero(minor_s):
            raise ValueError(f"Minor number must not contain leading zeroes {_quote(minor_s)}")
        minor = _parse_uint(minor_s)

        build: list[str] = []
        pre_parts: list[str] = []
        plus = rest.find("+")
        if plus != -1:
            build = rest[plus + 1:].split(".")
            rest = rest[:plus]
        dash = rest.find("-")
        if dash != -1:
            pre_parts = rest[dash + 1:].split(".")
            rest = rest[:dash]
        if not _only(rest, _NUMBERS):
            raise ValueError(f"Invalid character(s) found in patch number {_quote(rest)}")
        if _leading_zero(rest):
            raise ValueError(f"Patch number must not contain leading zeroes {_quote(rest)}")
        patch = _parse_uint(rest)
        pre = tuple(PreRelease(p) for p in pre_parts)
        for b in build:
            if not b:
                raise ValueError("Build meta data is empty")
            if not _only(b, _ALPHANUM):
                raise ValueError(f"Invalid character(s) found in build meta data {_quote(b)}")
        return cls(major, minor, patch, pre, tuple(build))

    @classmethod
    def is_valid(cls, s: str, normalize: bool = False) -> bool:
        try:
            cls.parse(s, normalize)
        except ValueError:
            return False
        return True

    def compare(self, other: Version) -> int:
        for a, b in ((self.major, other.major), (self.minor, other.minor), (self.patch, other.patch)):
            if a != b:
                return 1 if a > b else -1
        if not self.pre and not other.pre:
            return 0
        if not self.pre:
            return 1
        if not other.pre:
            return -1
        for a, b in zip(self.pre, other.pre, strict=False):
            c = a.compare(b)
            if c:
                return c
        return (len(self.pre) > len(other.pre)) - (len(self.pre) < len(other.pre))

    def __eq__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self.compare(other) == 0

    def __lt__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self.compare(other) < 0

    def __hash__(self):
        return hash((self.major, self.minor, self.patch, tuple(str(p) for p in self.pre)))

    def __str__(self) -> str:
        s = f"{self.major}.{self.minor}.{self.patch}"
        if self.pre:
            s += "-" + ".".join(str(p) for p in self.pre)
        if self.build:
            s += "+" + ".".join(self.build)
        return s

    def __repr__(self) -> str:
        return f"Version({str(self)!r})"


def _normalize(s: str) -> str:
    """Kubernetes' normalizeAndParse preprocessing (before the strict parse)."""
    if s.startswith("v"):
        s = s[1:]
    parts = s.split(".", 2)
    for i, p in enumerate(parts):
        if len(p) > 1:
            p = p.lstrip("0")
            if not p or p[0] not in _NUMBERS:
                p = "0" + p
            parts[i] = p
    if len(parts) < 3:
        if any(c in "+-" for c in parts[-1]):
            raise ValueError("short version cannot contain PreRelease/Build meta data")
        parts += ["0"] * (3 - len(parts))
    return ".".join(parts)
