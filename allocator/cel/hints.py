"""Hints for the usual CEL mistakes in DRA selectors, shown beside the upstream message (never instead).

A separate pass over what went wrong: the compile error's message, or a runtime error with the values
involved and the names the inventory publishes. Each function returns a short sentence or None.
"""

from __future__ import annotations

import difflib
import re

_QUANTITY = "kubernetes.Quantity"
_SEMVER = "kubernetes.Semver"
_ORDERING = {"_<_": "<", "_<=_": "<=", "_>_": ">", "_>=_": ">="}
_COMPARE_METHODS = {"<": "a.isLessThan(b)", "<=": "a.compareTo(b) <= 0", ">": "a.isGreaterThan(b)",
                    ">=": "a.compareTo(b) >= 0"}
_NO_OVERLOAD = re.compile(r"found no matching overload for '(_[<>=!]=?_|@in)' applied to '\((.*)\)'")

QUANTITY_FORMAT = ("a quantity is a number with an optional suffix: Ki, Mi, Gi, Ti, Pi, Ei (powers of 1024), "
                   "k, M, G, T, P, E (powers of 1000), m (thousandths) or an exponent such as 1e3; for example "
                   "quantity(\"40Gi\") or quantity(\"500m\")")
SEMVER_FORMAT = ("a version has three numbers, MAJOR.MINOR.PATCH, optionally with -prerelease and +build "
                 "(for example semver(\"1.2.3\") or semver(\"1.0.0-rc.1\")); semver(s, true) also accepts "
                 "\"v1.2\" and \"1.2\"")


def compile_hint(message: str) -> str | None:
    """Advice for a compile error of cel-go (``message`` is its text)."""
    m = _NO_OVERLOAD.search(message)
    if m:
        op = m.group(1)
        types = [t.strip() for t in m.group(2).split(",")]
        opaque = [t for t in types if t in (_QUANTITY, _SEMVER)]
        if op in _ORDERING and opaque:
            one, what, fn = ("quantity", "quantities", "quantity") if opaque[0] == _QUANTITY else \
                ("version", "versions", "semver")
            method = _COMPARE_METHODS[_ORDERING[op]]
            other = [t for t in types if t not in (_QUANTITY, _SEMVER)]
            wrap = ""
            if other:
                article = "an" if other[0][0] in "aeiou" else "a"
                wrap = f"; compare with another {one}: {fn}(\"...\"), not {article} {other[0]}"
            return (f"{what} are not ordered with {_ORDERING[op]}: use their methods, e.g. {method} "
                    f"(also isGreaterThan, isLessThan, compareTo){wrap}")
        if op in ("_==_", "_!=_") and opaque and len(set(types)) > 1:
            fn = "quantity" if _QUANTITY in types else "semver"
            return f"compare like with like: wrap the other side in {fn}(\"...\")"
    if "undefined field" in message:
        return ("the device has only driver, attributes and capacity (and allowMultipleAllocations with "
                "DRAConsumableCapacity): read an attribute as device.attributes[\"<domain>\"].<name>")
    return None


def runtime_hint(message: str, *, left: str | None = None, right: str | None = None,
                 names: list[str] | None = None, missing: str | None = None) -> str | None:
    """Advice for a runtime error. ``left``/``right`` are the CEL types of a failed comparison's operands;
    ``names`` what the devices publish where ``missing`` was looked up."""
    if "quantities must match the regular expression" in message:
        return QUANTITY_FORMAT
    if "No Major.Minor.Patch elements found" in message or "Invalid character(s) found in" in message:
        return SEMVER_FORMAT
    if "no such key:" in message:
        key = missing or message.split("no such key:", 1)[1].split(".", 1)[0].strip()
        close = difflib.get_close_matches(key, names or [], n=1, cutoff=0.6)
        if close:
            return f"did you mean \"{close[0]}\"? The devices here publish: {_listed(names)}"
        if names:
            return (f"no device here publishes \"{key}\" (they publish: {_listed(names)}); guard optional "
                    "attributes with has(...) or read them with .?name.orValue(default)")
        return "guard optional attributes with has(...) or read them with .?name.orValue(default)"
    if message.startswith("no such overload") and left and right:
        kinds = {left, right}
        if "version" in kinds and "string" in kinds:
            return ("a version attribute is not a string: wrap the string in semver(\"...\") and compare with "
                    "isGreaterThan, isLessThan or compareTo")
        if "quantity" in kinds and len(kinds) > 1:
            return "a capacity is a quantity: compare it with quantity(\"...\") and compareTo/isGreaterThan"
        if "version" in kinds:
            return "versions are not ordered with < or >: use isGreaterThan, isLessThan or compareTo"
        return f"CEL does not compare a {left} with a {right}"
    return None


def domain_hint(domain: str, domains: list[str]) -> str:
    close = difflib.get_close_matches(domain, domains, n=1, cutoff=0.6)
    if close:
        return f"no device publishes anything under {domain}; did you mean \"{close[0]}\"?"
    return f"no device publishes anything under {domain}; the domains here are: {_listed(domains)}"


def _listed(names: list[str] | None, limit: int = 12) -> str:
    names = sorted(set(names or []))
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")
