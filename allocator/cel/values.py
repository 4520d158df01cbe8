"""Runtime values and static types of the CEL environment."""

from __future__ import annotations

import ipaddress

from allocator.kube.quantity import Quantity
from allocator.kube.semver import Version


class CELError(Exception):
    """A CEL evaluation error (a value in cel-go; an exception here)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Abort(CELError):
    """An error that ends the whole evaluation: logical operators and comprehensions do not absorb it."""


class CostExceeded(Abort):
    def __init__(self):
        super().__init__("operation cancelled: actual cost limit exceeded")


class EvalPanic(Abort):
    """What cel-go reports when evaluation panics: the program recovers it as an "internal error"."""

    def __init__(self, detail: str):
        super().__init__(f"internal error: runtime error: {detail}")


class UInt(int):
    """CEL uint (a distinct type from int)."""

    __slots__ = ()

    def __repr__(self):
        return f"{int(self)}u"


class Optional:
    __slots__ = ("value", "present")

    def __init__(self, value=None, present=False):
        self.value = value
        self.present = present

    def __eq__(self, other):
        return isinstance(other, Optional) and self.present == other.present and (
            not self.present or cel_equal(self.value, other.value))

    def __hash__(self):  # pragma: no cover - optionals are never map keys
        return hash(self.present)


NONE = Optional()


class TypeValue:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, TypeValue) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return self.name


class IP:
    __slots__ = ("addr",)

    def __init__(self, addr):
        self.addr = addr

    def __eq__(self, other):
        return isinstance(other, IP) and other.addr == self.addr

    def __hash__(self):
        return hash(self.addr)

    def __str__(self):
        return str(self.addr)


class CIDR:
    __slots__ = ("addr", "net")

    def __init__(self, addr, net):
        self.addr = addr  # the address as written (host bits kept)
        self.net = net

    def __eq__(self, other):
        return isinstance(other, CIDR) and other.addr == self.addr and other.net.prefixlen == self.net.prefixlen

    def __hash__(self):
        return hash((self.addr, self.net.prefixlen))

    def __str__(self):
        return f"{self.addr}/{self.net.prefixlen}"


class URL:
    __slots__ = ("raw", "scheme", "host", "hostname", "port", "path", "query")

    def __init__(self, raw, scheme, host, hostname, port, path, query):
        self.raw = raw
        self.scheme = scheme
        self.host = host
        self.hostname = hostname
        self.port = port
        self.path = path
        self.query = query

    def __eq__(self, other):
        return isinstance(other, URL) and other.raw == self.raw

    def __hash__(self):
        return hash(self.raw)


# --------------------------------------------------------------------------- type names

def type_name(v) -> str:
    """CEL type name of a runtime value (as cel-go's Type().TypeName())."""
    if v is None:
        return "null_type"
    t = type(v)
    if t is bool:
        return "bool"
    if t is UInt:
        return "uint"
    if t is int:
        return "int"
    if t is float:
        return "double"
    if t is str:
        return "string"
    if t is bytes:
        return "bytes"
    if t is list or t is tuple:
        return "list"
    if t is dict or isinstance(v, dict):
        return "map"
    if t is Quantity or t is QuantityRef:
        return "kubernetes.Quantity"
    if t is Version:
        return "kubernetes.Semver"
    if t is Optional:
        return "optional_type"
    if t is TypeValue:
        return "type"
    if t is IP:
        return "net.IP"
    if t is CIDR:
        return "net.IPNet"
    if t is URL:
        return "kubernetes.URL"
    return t.__name__


_GO_NAMES = {"bool": "types.Bool", "int": "types.Int", "uint": "types.Uint", "double": "types.Double",
             "string": "types.String", "bytes": "types.Bytes", "null_type": "types.Null",
             "kubernetes.Quantity": "cel.Quantity", "kubernetes.Semver": "cel.Semver",
             "optional_type": "*types.Optional", "type": "*types.Type", "net.IP": "cel.IP",
             "net.IPNet": "cel.CIDR", "kubernetes.URL": "cel.URL"}


def go_type_name(v) -> str:
    """The Go type name cel-go prints with %T for a value (used in a few messages)."""
    return _GO_NAMES.get(type_name(v), type_name(v))


# --------------------------------------------------------------------------- equality

def _num_kind(v):
    t = type(v)
    return t is int or t is UInt or t is float


class QuantityRef(Quantity):
    """A quantity made by ``add`` or ``sub``: the Kubernetes library returns those as a pointer.

    Its equality takes only a quantity held by value, so ``q == q.add(0)`` is "no such overload" in
    cel-go, while ``q.add(0) == q`` compares. Everything else treats it as a quantity.
    """

    __slots__ = ()

    @classmethod
    def of(cls, q: Quantity) -> QuantityRef:
        out = cls(q._m, q._e, q.format, int_form=q._int, cached=q._s)
        return out


_OPAQUE = (Quantity, QuantityRef, Version, IP, CIDR, URL)


def cel_equal(a, b) -> bool:
    """cel-go's ``types.Equal``: heterogeneous equality, dispatched on the left operand.

    The Kubernetes value types (quantity, semver, IP, CIDR, URL) only compare with their own type: on the
    left of ``==`` with anything else they are "no such overload" (a CELError), on the right they are just
    unequal. Lists and maps skip an element whose comparison fails, unless another element differs.
    """
    if a is None or b is None:
        return a is None and b is None
    ta, tb = type(a), type(b)
    if ta in _OPAQUE:
        if ta is QuantityRef:
            ta = Quantity  # the pointer's method set holds the value's Equal
        if ta is not tb:
            raise CELError("no such overload")
        return a == b
    if ta is tb:
        if ta is list or ta is tuple:
            return _lists_equal(a, b)
        if ta is dict:
            return _maps_equal(a, b)
        return a == b  # NaN != NaN for floats
    if ta is bool or tb is bool:
        return False
    if _num_kind(a) and _num_kind(b):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return _maps_equal(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return _lists_equal(a, b)
    return False


def _element_unequal(a, b) -> bool:
    """True only when the elements are certainly unequal: a failed comparison does not decide."""
    try:
        return not cel_equal(a, b)
    except CELError:
        return False


def _lists_equal(a, b) -> bool:
    return len(a) == len(b) and not any(_element_unequal(x, y) for x, y in zip(a, b, strict=True))


def _maps_equal(a, b) -> bool:
    if len(a) != len(b):
        return False
    for k, v in a.items():
        found, ov = map_lookup(b, k)
        if not found or _element_unequal(v, ov):
            return False
    return True


def equal_is_true(a, b) -> bool:
    """``Equal(a, b) == True`` as cel-go's containers and ``!=`` test it: a failed comparison is not equal."""
    try:
        return cel_equal(a, b)
    except CELError:
        return False


def map_lookup(m, key):
    """Look a key up in a CEL map with numeric key normalisation; returns (found, value)."""
    tk = type(key)
    if tk is bool:
        for k, v in m.items():
            if type(k) is bool and k == key:
                return True, v
        return False, None
    if tk is str:
        if key in m:
            return True, m[key]
        return False, None
    if tk is int or tk is UInt or tk is float:
        if tk is float and not key.is_integer():
            return False, None
        for k, v in m.items():
            if type(k) is not bool and type(k) is not str and k == key:
                return True, v
        return False, None
    return False, None


def format_key(key) -> str:
    if type(key) is bool:
        return "true" if key else "false"
    return str(key)


def ip_parse(s: str):
    return ipaddress.ip_address(s)
