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
        return substitute(r, b) if r is not None else DYN
    if k in ("list", "opt", "type"):
        return (k, substitute(t[1], b))
    if k == "map":
        return (k, substitute(t[1], b), substitute(t[2], b))
    return t


def assignable(formal, actual, b) -> bool:
    """Can a value of static type ``actual`` be passed where ``formal`` is expected (binding params in b)?"""
    fk = formal[0]
    if fk == "param":
        name = formal[1]
        bound = b.get(name)
        if bound is None:
            b[name] = actual
            return True
        if is_dyn(bound) and not is_dyn(actual):
            b[name] = actual if bound[0] != "error" else bound
            return True
        trial = dict(b)
        if assignable(bound, actual, trial):
            b.update(trial)
            return True
        trial = dict(b)
        if assignable(actual, bound, trial):
            b.update(trial)
            b[name] = actual
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
        # null is assignable to optional-free wrapper-like types only; keep strict
        return False
    if fk in ("list", "opt", "type"):
        return assignable(formal[1], actual[1], b)
    if fk == "map":
        return assignable(formal[1], actual[1], b) and assignable(formal[2], actual[2], b)
    if fk == "obj":
        return formal[1] == actual[1]
    return True


def join(a, b):
    """Least common type of two branches (for ternaries, list literals)."""
    if a == b:
        return a
    if is_dyn(a):
        return a if a[0] != "error" else b
    if is_dyn(b):
        return b if b[0] != "error" else a
    return None
