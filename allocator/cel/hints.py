"""Hints for the usual CEL mistakes in DRA selectors, shown beside the upstream message (never instead).

A separate pass over what went wrong: the compile error's message, or a runtime error with the values
involved and the names the inventory publishes. Each function returns a short sentence or None.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from allocator.cel.fixes import ExprFix, has_guard, rename, semver_literal
from allocator.cel.guards import GUARDED, MISPLACED, Read, guard_state, reads_of, string_comparisons
from allocator.kube.semver import Version

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


def no_overload(message: str) -> tuple[str, list[str]] | None:
    """(cel-go's operator function, the operand types) of a "found no matching overload" error."""
    match = _NO_OVERLOAD.search(message)
    return (match.group(1), [t.strip() for t in match.group(2).split(",")]) if match else None


def compile_hint(message: str) -> str | None:
    """Advice for a compile error of cel-go (``message`` is its text)."""
    match = _NO_OVERLOAD.search(message)
    if match:
        op = match.group(1)
        types = [t.strip() for t in match.group(2).split(",")]
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
        key = missing or missing_key(message)
        return missing_key_hint(key, names)
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


GUARD_ADVICE = "guard optional attributes with has(...) or read them with .?name.orValue(default)"


def missing_key(message: str) -> str:
    """The key of cel-go's ``no such key: <key>`` message."""
    return message.split("no such key:", 1)[1].split(".", 1)[0].strip()


def missing_key_hint(key: str, names: list[str] | None = None, guard: str | None = None) -> str | None:
    """Advice for ``no such key: <key>``. ``names``: what the devices in reach publish where the selector
    looked (None: not known); ``guard``: what the expression already does (``guards.guard_state``).

    A name no device publishes is a typo first (did you mean), never a reason to add has(): a guard would
    only make the selector silently false. has() is advised for a name some devices publish, and never
    when the expression already guards the read."""
    if guard == GUARDED:
        return None
    if names is not None and key not in names:
        close = close_name(key, names)
        if close:
            return f"did you mean \"{close}\"? The devices here publish: {_listed(names)}"
        if names:
            return (f"no device here publishes \"{key}\" (they publish: {_listed(names)}): check the name and its "
                    "domain; a has() guard would only hide that no device has it")
        return f"no device here publishes anything where \"{key}\" is read: check the domain"
    if guard == MISPLACED:
        return (f"has(...) of \"{key}\" is in the expression but does not guard this read: a read is safe "
                "only beside has() in an && (or beside !has() in an ||), or in the branch of ? : that has() picks")
    if names is None:
        return GUARD_ADVICE
    return (f"some devices here publish \"{key}\" and others do not: guard the read with has(...) && ... "
            f"or read it with .?{key}.orValue(default)")


def typo_first(hints: list[str]) -> list[str]:
    """``hints`` without repeats, a did-you-mean (of a name or a domain) before any other advice: a name no
    device publishes is a typo first, and a guard around it would only make the selector silently false."""
    unique = list(dict.fromkeys(hints))
    return sorted(unique, key=lambda h: 0 if "did you mean" in h else 1)


def close_name(name: str, names: list[str] | set[str]) -> str | None:
    """The published name ``name`` is most likely a typo of (never ``name`` itself), or None."""
    others = sorted(n for n in names if n != name)
    same_case = [n for n in others if n.lower() == name.lower()]
    if same_case:
        return same_case[0]
    close = difflib.get_close_matches(name, others, n=1, cutoff=0.6)
    return close[0] if close else None


def version_string_hint(literal: str, operator: str, literal_first: bool, read: str = "x") -> str:
    """Advice for a version attribute compared with a string literal (``read`` is the attribute as written).

    What CEL makes of it, as cel-go does: ``"1.2.3" == v`` is false, ``"1.2.3" != v`` and ``v != "1.2.3"``
    are true, ``v == "1.2.3"`` fails (no such overload)."""
    wrapped = semver_wrapped(literal)
    return (f"a version is not a string: {version_string_outcome(operator, literal_first)}; compare versions, "
            f"{read} {operator} {wrapped} or {read}.compareTo({wrapped}) {operator} 0")


def semver_wrapped(literal: str) -> str:
    """``literal`` as a version: semver("1.2.3"), semver("v1.2", true), or a placeholder when it is none."""
    if _parses(literal, False):
        return f"semver({_quoted(literal)})"
    return f"semver({_quoted(literal)}, true)" if _parses(literal, True) else 'semver("MAJOR.MINOR.PATCH")'


def version_string_outcome(operator: str, literal_first: bool) -> str:
    if operator == "!=":
        return "!= between them is always true"
    if literal_first:
        return "a string == a version is always false"
    return "a version == a string fails at runtime (no such overload)"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _parses(text: str, normalize: bool) -> bool:
    try:
        Version.parse(text, normalize)
    except ValueError:
        return False
    return True


def fitted_parts(expression: str, parts: list[dict], published: dict[str, dict[str, set[str]]],
                 is_version: Callable[[Read], bool], selector_failed: bool = True) -> list[dict]:
    """The explanation's parts (``explain.Part.to_dict``) with hints that fit what the expression does and
    what the devices in reach publish (``published``: "attributes"/"capacity" -> domain -> names);
    ``is_version`` says whether a read is a version attribute of the device explained.

    ``selector_failed`` is False when the selector was false on the device, not an error: then an error
    of a part did not reach the result, and has() advice for it would teach something false (a typo is
    still a typo). ``parts`` is not changed: a part whose hint changes is copied."""
    out = parts
    for i, part in enumerate(parts):
        hint = _fitted_hint(expression, part, published, is_version, selector_failed)
        fix = _fitted_fix(expression, part, hint, published, is_version) if hint else None
        # ``fixes`` in offsets of ``expression`` here; the engine maps them into the YAML text (or drops them).
        fixes = [{"title": fix.title, "start": fix.start, "end": fix.end, "replacement": fix.replacement,
                  "expression": expression}] if fix else []
        if hint != part.get("hint") or fixes != part.get("fixes", []):
            if out is parts:
                out = list(parts)
            out[i] = {**part, "hint": hint, "fixes": fixes}
    return out


def _fitted_fix(expression: str, part: dict, hint: str, published: dict,
                is_version: Callable[[Read], bool]) -> ExprFix | None:
    """The edit that does what the fitted ``hint`` of ``part`` says: a did-you-mean of a name or a domain,
    semver() around a string compared with a version, or a has() guard."""
    span = (part["start"], part["end"])
    if hint.startswith("a version is not a string"):
        for node, _operator, read, first in string_comparisons(expression, span):
            if is_version(read):
                literal = node.args[0] if first else node.args[1]
                wrapped = semver_wrapped(literal.value)
                return None if "MAJOR.MINOR.PATCH" in wrapped else semver_literal(literal, wrapped)
        return None
    error = part.get("error") or ""
    if "no such key:" not in error:
        return None
    key = missing_key(error)
    reads = reads_of(expression, key, span)
    close = re.search(r'did you mean "([^"]+)"\?', hint)
    if close and reads:
        read = reads[0]
        if hint.startswith("no device publishes anything under"):
            domain = _domain_literal(read)
            return rename(f"Use {close.group(1)}", domain.start + 1, domain.end - 1, close.group(1)) \
                if domain is not None else None
        at = _name_span(expression, read)
        return rename(f"Use {close.group(1)}", at[0], at[1], close.group(1)) if at else None
    if hint.startswith("some devices here publish"):
        return has_guard(expression, key)
    return None


def _domain_literal(read: Read):
    """The string literal of the domain in ``device.attributes["<domain>"]`` of ``read``, or None."""
    operand = read.node.operand if read.node.kind == "select" else (read.node.args[0] if read.node.args else None)
    if operand is not None and operand.kind == "call" and operand.function == "_[_]" and len(operand.args) == 2:
        literal = operand.args[1]
        if literal.kind == "lit" and isinstance(literal.value, str) and literal.end - literal.start == len(literal.value) + 2:
            return literal
    return None


def _name_span(expression: str, read: Read) -> tuple[int, int] | None:
    """Where the name ``read`` reads is written: ``.name`` or the inside of ``["name"]``."""
    node = read.node
    if node.kind == "select" and expression[node.end - len(read.name):node.end] == read.name:
        return node.end - len(read.name), node.end
    if node.kind == "call" and node.args and len(node.args) == 2:
        literal = node.args[1]
        if literal.kind == "lit" and literal.end - literal.start == len(read.name) + 2:
            return literal.start + 1, literal.end - 1
    return None


def _fitted_hint(expression: str, part: dict, published: dict, is_version: Callable[[Read], bool],
                 selector_failed: bool) -> str | None:
    span = (part["start"], part["end"])
    for node, operator, read, first in string_comparisons(expression, span):
        if is_version(read):
            literal = (node.args[0] if first else node.args[1]).value
            return version_string_hint(literal, operator, first, expression[read.node.start:read.node.end])
    error = part.get("error") or ""
    if part.get("verdict") != "error" or "no such key:" not in error:
        return part.get("hint")
    key = missing_key(error)
    reads = reads_of(expression, key, span)
    domains = [r.domain for r in reads]
    if domains and all(d is not None and d[1] not in published.get(d[0], {}) for d in domains):
        what, domain = domains[0]
        known = sorted(published.get(what, {}))
        return domain_hint(domain, known) if known else None
    names = _names(domains, published) if reads else None
    if not selector_failed:
        close = close_name(key, names or []) if names and key not in names else None
        return missing_key_hint(key, names) if close else None
    return missing_key_hint(key, names, guard_state(expression, key, span))


def _names(domains: list, published: dict) -> list[str]:
    """The names published where the reads look; everywhere when a read's domain is not known."""
    if any(d is None for d in domains):
        return sorted({n for by_domain in published.values() for names in by_domain.values() for n in names})
    return sorted({n for what, domain in domains for n in published.get(what, {}).get(domain, ())})


def domain_hint(domain: str, domains: list[str]) -> str:
    # Domains of different vendors look alike (gpu.amd.com, gpu.nvidia.com): only a near spelling is a typo.
    close = difflib.get_close_matches(domain, [d for d in domains if d != domain], n=1, cutoff=0.8)
    if close:
        return f"no device publishes anything under {domain}; did you mean \"{close[0]}\"?"
    return f"no device publishes anything under {domain}; the domains here are: {_listed(domains)}"


def _listed(names: list[str] | None, limit: int = 12) -> str:
    names = sorted(set(names or []))
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")
