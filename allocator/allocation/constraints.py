"""Claim constraints: matchAttribute and distinctAttribute.

Both track the devices picked so far for the requests they name (all
requests when they name none) and are asked, device by device, whether one
more fits. They keep upstream's bookkeeping on purpose, including its
quirks, because the search depends on it. Before 1.37 (``per_device`` off)
``MatchAttribute`` does not widen its value set again when a device is taken
back, and ``DistinctAttribute`` remembers one value per request name, not per
device (a request's second device replaces its first); from 1.37 on both keep
one entry per device taken, undone in turn. In 1.34 (``by_identity``)
``DistinctAttribute`` compares the attribute objects, not their values, as
upstream compared pointers: only the same device taken twice clashes.

With DRAListTypeAttributes (experimental implementation) values are sets:
scalars are one-element sets, match means a common element, distinct means
pairwise disjoint.
"""

from __future__ import annotations

from allocator.kube import model

# (kind, frozenset of values): kind tells ints from strings from versions.
ValueSet = tuple[str, frozenset]


def lookup_attribute(device: model.Device, driver: str, name: str) -> model.DeviceAttribute | None:
    """A fully qualified attribute of the device; ``driver/x`` also finds a plain ``x``."""
    attr = device.attributes.get(name)
    if attr is not None:
        return attr
    domain, slash, ident = name.partition("/")
    if not slash or domain != driver:
        return None
    return device.attributes.get(ident)


def as_value_set(attr: model.DeviceAttribute) -> ValueSet | None:
    """The attribute as a set of values; list fields win over scalar ones."""
    for kind in ("ints", "bools", "strings", "versions"):
        values = getattr(attr, kind)
        if values:
            return kind, frozenset(values)
    for kind, plural in (("int", "ints"), ("bool", "bools"), ("string", "strings"), ("version", "versions")):
        value = getattr(attr, kind)
        if value is not None:
            return plural, frozenset((value,))
    return None


def values_intersect(a: ValueSet | None, b: ValueSet | None) -> bool:
    return a is not None and b is not None and a[0] == b[0] and bool(a[1] & b[1])


def scalar_kind(attr: model.DeviceAttribute) -> str | None:
    for kind in ("string", "int", "bool", "version"):
        if getattr(attr, kind) is not None:
            return kind
    return None


class Constraint:
    """Common part: which requests a constraint applies to."""

    kind = ""

    def __init__(self, requests: list[str], attribute: str, list_values: bool, per_device: bool = True):
        self.requests = frozenset(requests)
        self.attribute = attribute
        self.list_values = list_values
        self.per_device = per_device
        self.count = 0

    def applies_to(self, request: str, subrequest: str) -> bool:
        if not self.requests:
            return True
        if request in self.requests:
            return True
        return bool(subrequest) and f"{request}/{subrequest}" in self.requests

    def add(self, request: str, subrequest: str, device: model.Device, driver: str) -> bool:
        raise NotImplementedError

    def remove(self, request: str, subrequest: str) -> None:
        raise NotImplementedError


class MatchAttribute(Constraint):
    kind = "matchAttribute"

    def __init__(self, requests, attribute, list_values, per_device=True):
        super().__init__(requests, attribute, list_values, per_device)
        self.value: model.DeviceAttribute | None = None
        self.common: ValueSet | None = None
        self.narrowed: list[ValueSet | None] = []  # per_device: the common values before each later device

    def add(self, request, subrequest, device, driver) -> bool:
        if not self.applies_to(request, subrequest):
            return True
        attr = lookup_attribute(device, driver, self.attribute)
        if attr is None:
            return False
        if self.count == 0:
            if self.list_values:
                self.common = as_value_set(attr)
                self.narrowed = []
                if self.common is None:
                    return False
            else:
                self.value = attr
            self.count = 1
            return True
        if self.list_values:
            values = as_value_set(attr)
            if values is None or not values_intersect(self.common, values):
                return False
            if self.per_device:
                self.narrowed.append(self.common)
            self.common = (self.common[0], self.common[1] & values[1])
        else:
            kind = scalar_kind(attr)
            if kind is None or getattr(self.value, kind) is None or getattr(attr, kind) != getattr(self.value, kind):
                return False
        self.count += 1
        return True

    def remove(self, request, subrequest) -> None:
        if self.applies_to(request, subrequest):
            self.count -= 1
            if self.narrowed and self.count:  # per_device: back to the values common before this device
                self.common = self.narrowed.pop()


class DistinctAttribute(Constraint):
    kind = "distinctAttribute"

    def __init__(self, requests, attribute, list_values, per_device=True, by_identity=False):
        super().__init__(requests, attribute, list_values, per_device)
        self.by_identity = by_identity
        # per_device: every device with its value, in the order taken; else one per request name.
        self.taken: list[tuple[model.Device, model.DeviceAttribute]] = []
        self.seen: dict[str, tuple[model.Device, model.DeviceAttribute]] = {}

    def add(self, request, subrequest, device, driver) -> bool:
        if not self.applies_to(request, subrequest):
            return True
        attr = lookup_attribute(device, driver, self.attribute)
        if attr is None:
            return False
        if self.count and not self._distinct(device, attr):
            return False
        if self.per_device:
            self.taken.append((device, attr))
        else:
            self.seen[request] = (device, attr)
        self.count += 1
        return True

    def _taken(self) -> list[tuple[model.Device, model.DeviceAttribute]]:
        return self.taken if self.per_device else list(self.seen.values())

    def _distinct(self, device: model.Device, attr: model.DeviceAttribute) -> bool:
        if self.list_values:
            values = as_value_set(attr)
            if values is None:
                return False
            return not any(values_intersect(values, as_value_set(other)) for _, other in self._taken())
        kind = scalar_kind(attr)
        for other_device, other in self._taken():
            if kind is None:
                return False
            theirs = getattr(other, kind)
            # Equal decoded values may share one object, so "the same pointer" is the same device here.
            if theirs is not None and (other_device is device if self.by_identity else theirs == getattr(attr, kind)):
                return False
        return True

    def remove(self, request, subrequest) -> None:
        if self.applies_to(request, subrequest):
            if self.per_device:
                self.taken.pop()
            else:
                self.seen.pop(request, None)
            self.count -= 1


def make_constraint(c: model.DeviceConstraint, list_values: bool, distinct: bool,
                    per_device: bool = True, by_identity: bool = False) -> Constraint | None:
    """The constraint object; None for a kind this implementation does not know.

    ``distinct`` says whether the implementation knows distinctAttribute
    (the stable one does not); ``per_device``, whether the constraints keep an entry per device
    (``ReleaseRules.constraints_per_device``); ``by_identity``, whether distinctAttribute compares the
    attribute objects instead of their values (``ReleaseRules.distinct_compares_pointers``).
    """
    if c.match_attribute is not None:
        return MatchAttribute(c.requests, c.match_attribute, list_values, per_device)
    if distinct and c.distinct_attribute is not None:
        return DistinctAttribute(c.requests, c.distinct_attribute, list_values, per_device, by_identity)
    return None
