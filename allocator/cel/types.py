"""Static CEL types as small tuples, with formatting like cel-go and assignability."""

from __future__ import annotations

INT = ("int",)
UINT = ("uint",)
DOUBLE = ("double",)
BOOL = ("bool",)
STRING = ("string",)
BYTES = ("bytes",)
NULL = ("null_type",)
DYN = ("dyn",)
# A type parameter nothing bound (the element of `[]`, the value of `optional.none()`): cel-go keeps it a
# variable that a later use can still bind; here it is a dyn that literal checks treat as a wildcard.
FREE = ("dyn", "free")
ANY = ("any",)
ERROR = ("error",)
QUANTITY = ("obj", "kubernetes.Quantity")
SEMVER = ("obj", "kubernetes.Semver")
IPT = ("obj", "net.IP")
CIDRT = ("obj", "net.CIDR")
URLT = ("obj", "kubernetes.URL")
DEVICE = ("obj", "kubernetes.DRADevice")


def list_of(t):
    return ("list", t)


def map_of(k, v):
    return ("map", k, v)


def opt_of(t):
    return ("opt", t)


def type_of(t):
    return ("type", t)


def fmt(t) -> str:
    k = t[0]
    if k == "list":
        return f"list({fmt(t[1])})"
    if k == "map":
        return f"map({fmt(t[1])}, {fmt(t[2])})"
    if k == "opt":
        return f"optional_type({fmt(t[1])})"
    if k == "type":
        return f"type({fmt(t[1])})"
    if k in ("obj", "param"):
        return t[1]
    if k == "error":
        return "*error*"
    return k


def parse_type(s: str):
    """Parse a type written like 'map(K, list(string))'. Single capital letters are type parameters."""
    s = s.strip()
    for prefix, kind in (("list(", "list"), ("map(", "map"), ("optional_type(", "opt"), ("type(", "type")):
        if s.startswith(prefix) and s.endswith(")"):
            inner = s[len(prefix):-1]
            parts = _split_top(inner)
            return (kind, *[parse_type(p) for p in parts])
    if len(s) == 1 and s.isupper():
        return ("param", s)
    if "." in s:
        return ("obj", s)
    return (s,)


def _split_top(s):
    parts, depth, cur = [], 0, ""
    for c in s:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += c == "("
        depth -= c == ")"
        cur += c
    parts.append(cur)
    return parts


def is_dyn(t):
    return t[0] in ("dyn", "any", "error")


def substitute(t, b):
    k = t[0]
    if k == "param":
        r = b.get(t[1])
        return substitute(r, b) if r is not None else FREE
    if k in ("list", "opt", "type"):
        return (k, substitute(t[1], b))
    if k == "map":
        return (k, substitute(t[1], b), substitute(t[2], b))
    return t


def assignable(formal, actual, b) -> bool:
    """Can a value of static type ``actual`` be passed where ``formal`` is expected (binding params in b)?

    As cel-go's checker: a type parameter is bound to the first type it meets; a later argument must be
    assignable to that binding, which then widens to the more general of the two (``dyn`` stays ``dyn``).
    """
    fk = formal[0]
    if fk == "param":
        name = formal[1]
        bound = b.get(name)
        if bound is None:
            b[name] = actual
            return True
        if bound == actual:
            return True
        trial = dict(b)
        if assignable(bound, actual, trial):
            b.update(trial)
            b[name] = most_general(actual, bound)
            return True
        return False
    ak = actual[0]
    if ak in ("dyn", "any", "error") or fk in ("dyn", "any"):
        if fk in ("list", "map", "opt", "type"):
            # bind nested params to dyn
            for sub in formal[1:]:
                assignable(sub, DYN, b)
        return True
    if ak == "param":
        return True
    if fk != ak:
        return False
    if fk in ("list", "opt", "type"):
        return assignable(formal[1], actual[1], b)
    if fk == "map":
        return assignable(formal[1], actual[1], b) and assignable(formal[2], actual[2], b)
    if fk == "obj":
        return formal[1] == actual[1]
    return True


def less_specific(t1, t2) -> bool:
    """cel-go's isEqualOrLessSpecific: is t1 at most as specific as t2?"""
    if t1[0] in ("dyn", "any", "param"):
        return True
    if t2[0] in ("dyn", "any", "param"):
        return False
    if t1[0] != t2[0]:
        return False
    if t1[0] in ("list", "opt"):
        return less_specific(t1[1], t2[1])
    if t1[0] == "map":
        return less_specific(t1[1], t2[1]) and less_specific(t1[2], t2[2])
    if t1[0] == "type":
        return True
    return t1 == t2


def most_general(t1, t2):
    return t1 if less_specific(t1, t2) else t2


def has_free(t) -> bool:
    return t == FREE or (t[0] in ("list", "map", "opt", "type") and any(has_free(p) for p in t[1:]))


def join(a, b):
    """Least common type of two branches (for ternaries, list and map literals), or None if they clash."""
    if a == b:
        return a
    if has_free(a) and assignable(a, b, {}):
        return b
    if has_free(b) and assignable(b, a, {}):
        return a
    if a[0] == "error":
        return b
    if b[0] == "error":
        return a
    if assignable(a, b, {}):
        return most_general(a, b)
    return None
