"""Runtime values and static types of the CEL environment."""

from __future__ import annotations

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

def type_name(value) -> str:
    """CEL type name of a runtime value (as cel-go's Type().TypeName())."""
    if value is None:
        return "null_type"
    t = type(value)
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
    if t is dict or isinstance(value, dict):
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


def go_type_name(value) -> str:
    """The Go type name cel-go prints with %T for a value (used in a few messages)."""
    return _GO_NAMES.get(type_name(value), type_name(value))


# --------------------------------------------------------------------------- equality

def _num_kind(value):
    t = type(value)
    return t is int or t is UInt or t is float


class QuantityRef(Quantity):
    """A quantity made by ``add`` or ``sub``: the Kubernetes library returns those as a pointer.

    Its equality takes only a quantity held by value, so ``q == q.add(0)`` is "no such overload" in
    cel-go, while ``q.add(0) == q`` compares. Everything else treats it as a quantity.
    """

    __slots__ = ()

    @classmethod
    def of(cls, quantity: Quantity) -> QuantityRef:
        out = cls(quantity._m, quantity._e, quantity.format, int_form=quantity._int, cached=quantity._s)
        return out


_OPAQUE = (Quantity, QuantityRef, Version, IP, CIDR, URL)


def cel_equal(left, right) -> bool:
    """cel-go's ``types.Equal``: heterogeneous equality, dispatched on the left operand.

    The Kubernetes value types (quantity, semver, IP, CIDR, URL) only compare with their own type: on the
    left of ``==`` with anything else they are "no such overload" (a CELError), on the right they are just
    unequal. Lists and maps skip an element whose comparison fails, unless another element differs.
    """
    if left is None or right is None:
        return left is None and right is None
    ta, tb = type(left), type(right)
    if ta in _OPAQUE:
        if ta is QuantityRef:
            ta = Quantity  # the pointer's method set holds the value's Equal
        if ta is not tb:
            raise CELError("no such overload")
        return left == right
    if ta is tb:
        if ta is list or ta is tuple:
            return _lists_equal(left, right)
        if ta is dict:
            return _maps_equal(left, right)
        return left == right  # NaN != NaN for floats
    if ta is bool or tb is bool:
        return False
    if _num_kind(left) and _num_kind(right):
        return left == right
    if isinstance(left, dict) and isinstance(right, dict):
        return _maps_equal(left, right)
    if isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
        return _lists_equal(left, right)
    return False


def _element_unequal(left, right) -> bool:
    """True only when the elements are certainly unequal: a failed comparison does not decide."""
    try:
        return not cel_equal(left, right)
    except CELError:
        return False


def _lists_equal(left, right) -> bool:
    return len(left) == len(right) and not any(_element_unequal(x, y) for x, y in zip(left, right, strict=True))


def _maps_equal(left, right) -> bool:
    if len(left) != len(right):
        return False
    for k, v in left.items():
        found, ov = map_lookup(right, k)
        if not found or _element_unequal(v, ov):
            return False
    return True


def equal_is_true(left, right) -> bool:
    """``Equal(a, b) == True`` as cel-go's containers and ``!=`` test it: a failed comparison is not equal."""
    try:
        return cel_equal(left, right)
    except CELError:
        return False


def map_lookup(mapping, key):
    """Look a key up in a CEL map with numeric key normalisation; returns (found, value)."""
    tk = type(key)
    if tk is bool:
        for k, v in mapping.items():
            if type(k) is bool and k == key:
                return True, v
        return False, None
    if tk is str:
        if key in mapping:
            return True, mapping[key]
        return False, None
    if tk is int or tk is UInt or tk is float:
        if tk is float and not key.is_integer():
            return False, None
        for k, v in mapping.items():
            if type(k) is not bool and type(k) is not str and k == key:
                return True, v
        return False, None
    return False, None


def format_key(key) -> str:
    if type(key) is bool:
        return "true" if key else "false"
    return str(key)


def ip_parse(text: str):
    import ipaddress  # here: a selector without IPs does not import it (start-up)

    return ipaddress.ip_address(text)
