"""Static CEL types (``CelType``), with formatting like cel-go and assignability."""

from __future__ import annotations

from allocator.reading.records import NamedTuple


class CelType(NamedTuple):
    """A static type: ``kind`` is int, uint, double, bool, string, bytes, null_type, dyn, any, error, or
    list, map, opt (optional_type), type (a type value) with their ``params`` (list(E): (E,), map(K, V):
    (K, V)), or obj (a named object type) and param (a type parameter such as ``A`` in a signature)
    with their ``name``. A tuple underneath: equal, hashable and cheap to compare."""

    kind: str
    params: tuple[CelType, ...] = ()
    name: str = ""

    @property
    def elem(self) -> CelType:
        """The element of a list, the value of an optional, the type a type value denotes."""
        return self.params[0]

    @property
    def key(self) -> CelType:
        return self.params[0]

    @property
    def value(self) -> CelType:
        """A map's value type."""
        return self.params[1]


INT = CelType("int")
UINT = CelType("uint")
DOUBLE = CelType("double")
BOOL = CelType("bool")
STRING = CelType("string")
BYTES = CelType("bytes")
NULL = CelType("null_type")
DYN = CelType("dyn")
# A type parameter nothing bound (the element of `[]`, the value of `optional.none()`): cel-go keeps it a
# variable that a later use can still bind; here it is a dyn that literal checks treat as a wildcard.
FREE = CelType("dyn", name="free")
ANY = CelType("any")
ERROR = CelType("error")
QUANTITY = CelType("obj", name="kubernetes.Quantity")
SEMVER = CelType("obj", name="kubernetes.Semver")
IP = CelType("obj", name="net.IP")
CIDR = CelType("obj", name="net.CIDR")
URL = CelType("obj", name="kubernetes.URL")
DEVICE = CelType("obj", name="kubernetes.DRADevice")


def list_of(elem: CelType) -> CelType:
    return CelType("list", (elem,))


def map_of(key: CelType, value: CelType) -> CelType:
    return CelType("map", (key, value))


def opt_of(value: CelType) -> CelType:
    return CelType("opt", (value,))


def type_of(denoted: CelType) -> CelType:
    return CelType("type", (denoted,))


def fmt(cel_type: CelType) -> str:
    kind = cel_type.kind
    if kind == "list":
        return f"list({fmt(cel_type.elem)})"
    if kind == "map":
        return f"map({fmt(cel_type.key)}, {fmt(cel_type.value)})"
    if kind == "opt":
        return f"optional_type({fmt(cel_type.elem)})"
    if kind == "type":
        return f"type({fmt(cel_type.elem)})"
    if kind in ("obj", "param"):
        return cel_type.name
    if kind == "error":
        return "*error*"
    return kind


def parse_type(text: str) -> CelType:
    """Parse a type written like 'map(K, list(string))'. Single capital letters are type parameters."""
    text = text.strip()
    for prefix, kind in (("list(", "list"), ("map(", "map"), ("optional_type(", "opt"), ("type(", "type")):
        if text.startswith(prefix) and text.endswith(")"):
            inner = text[len(prefix):-1]
            return CelType(kind, tuple(parse_type(part) for part in _split_top(inner)))
    if len(text) == 1 and text.isupper():
        return CelType("param", name=text)
    if "." in text:
        return CelType("obj", name=text)
    return CelType(text)


def _split_top(text: str) -> list[str]:
    """``text`` split at its commas outside parentheses."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += char == "("
        depth -= char == ")"
        current += char
    parts.append(current)
    return parts


def is_dyn(cel_type: CelType) -> bool:
    return cel_type.kind in ("dyn", "any", "error")


def substitute(cel_type: CelType, bindings: dict) -> CelType:
    """``t`` with its type parameters replaced by their ``bindings`` (an unbound one by ``FREE``)."""
    if cel_type.kind == "param":
        bound = bindings.get(cel_type.name)
        return substitute(bound, bindings) if bound is not None else FREE
    if cel_type.params:
        return CelType(cel_type.kind, tuple(substitute(param, bindings) for param in cel_type.params))
    return cel_type


def assignable(formal: CelType, actual: CelType, bindings: dict) -> bool:
    """Can a value of static type ``actual`` be passed where ``formal`` is expected (binding params in
    ``bindings``)?

    As cel-go's checker: a type parameter is bound to the first type it meets; a later argument must be
    assignable to that binding, which then widens to the more general of the two (``dyn`` stays ``dyn``).
    """
    formal_kind = formal.kind
    if formal_kind == "param":
        name = formal.name
        bound = bindings.get(name)
        if bound is None:
            bindings[name] = actual
            return True
        if bound == actual:
            return True
        trial = dict(bindings)
        if assignable(bound, actual, trial):
            bindings.update(trial)
            bindings[name] = most_general(actual, bound)
            return True
        return False
    actual_kind = actual.kind
    if actual_kind in ("dyn", "any", "error") or formal_kind in ("dyn", "any"):
        # bind nested params to dyn
        for param in formal.params:
            assignable(param, DYN, bindings)
        return True
    if actual_kind == "param":
        return True
    if formal_kind != actual_kind:
        return False
    if formal_kind == "obj":
        return formal.name == actual.name
    return all(assignable(param, actual_param, bindings)
               for param, actual_param in zip(formal.params, actual.params, strict=True))


def less_specific(first: CelType, second: CelType) -> bool:
    """cel-go's isEqualOrLessSpecific: is ``first`` at most as specific as ``second``?"""
    if first.kind in ("dyn", "any", "param"):
        return True
    if second.kind in ("dyn", "any", "param"):
        return False
    if first.kind != second.kind:
        return False
    if first.kind == "type":
        return True
    if first.params:
        return all(less_specific(mine, theirs) for mine, theirs in zip(first.params, second.params, strict=True))
    return first == second


def most_general(first: CelType, second: CelType) -> CelType:
    return first if less_specific(first, second) else second


def has_free(cel_type: CelType) -> bool:
    return cel_type == FREE or any(has_free(param) for param in cel_type.params)


def join(first: CelType, second: CelType) -> CelType | None:
    """Least common type of two branches (for ternaries, list and map literals), or None if they clash."""
    if first == second:
        return first
    if has_free(first) and assignable(first, second, {}):
        return second
    if has_free(second) and assignable(second, first, {}):
        return first
    if first.kind == "error":
        return second
    if second.kind == "error":
        return first
    if assignable(first, second, {}):
        return most_general(first, second)
    return None
