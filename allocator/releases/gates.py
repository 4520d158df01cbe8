"""Feature-gate values for one Kubernetes release, built from ``releases``.

The defaults, stages and locks per release live in ``releases.GATE_SPECS``;
this module turns a release plus the user's overrides into the values the
engine reads, refusing what a kube component would refuse: an unknown gate,
a gate the release does not have yet, a locked gate set away from its
default, and a gate whose required gate is off.
"""

from __future__ import annotations

from types import MappingProxyType

from allocator.reading.records import record
from allocator.releases import table as _releases
from allocator.releases.rules import ReleaseRules, rules_of
from allocator.releases.table import CURRENT_RELEASE, GATE_REQUIRES, GATE_SPECS, RELEASES

__all__ = ["CURRENT_RELEASE", "RELEASES", "KNOWN_GATES", "FeatureGateError", "FeatureGates", "defaults",
           "dependency_errors", "exists_in", "locked_in", "make_gates", "parse_gate_list", "stored_object_gates"]

KNOWN_GATES = tuple(GATE_SPECS)


class FeatureGateError(ValueError):
    """An unknown gate, a malformed or refused value, or an unknown release.

    ``gate`` names the gate at fault, when there is one.
    """

    def __init__(self, message: str, gate: str | None = None):
        super().__init__(message)
        self.gate = gate

    @property
    def hint(self) -> str | None:
        """A did-you-mean for an unknown gate's name, or the releases that have a known gate the release at
        fault lacks (the components only say that it is unknown)."""
        if self.gate is None or not str(self).startswith("unrecognized feature gate"):
            return None
        if self.gate in GATE_SPECS:
            return _span(self.gate)
        import difflib  # deferred: only a misspelt name needs it (start-up)

        close = difflib.get_close_matches(self.gate, KNOWN_GATES, n=1, cutoff=0.75) or \
            [g for g in KNOWN_GATES if g.lower() == self.gate.lower()]
        return f'did you mean "{close[0]}"?' if close else None

    def with_hint(self) -> str:
        """The message, followed by the did-you-mean when there is one."""
        return f"{self} ({self.hint})" if self.hint else str(self)


def _span(gate: str) -> str:
    """The releases that have ``gate``, e.g. "a gate of Kubernetes 1.26 to 1.31"."""
    have = [name for name in RELEASES if _releases.release(name).exists(gate)]
    if not have:
        return "a gate of no release the playground offers"
    return f"a gate of Kubernetes {have[0]}" + (f" to {have[-1]}" if len(have) > 1 else "")


def _release(name: str) -> _releases.Release:
    try:
        return _releases.release(name)
    except ValueError as err:
        raise FeatureGateError(str(err)) from None


@record(frozen=True)
class FeatureGates:
    """An immutable set of gate values for one Kubernetes release."""

    release: str
    values: MappingProxyType

    @property
    def release_rules(self) -> ReleaseRules:
        """What this release does differently from the others (``releases.rules``), asked by name."""
        return rules_of(self.release)

    def enabled(self, gate: str) -> bool:
        if gate not in self.values:
            raise FeatureGateError(f"unrecognized feature gate: {gate}", gate)
        return self.values[gate]

    def __getitem__(self, gate: str) -> bool:
        return self.enabled(gate)

    def enabled_set(self) -> frozenset[str]:
        return frozenset(g for g, on in self.values.items() if on)

    def overrides(self) -> dict[str, bool]:
        """The gates whose value differs from the release default."""
        base = defaults(self.release)
        return {g: v for g, v in self.values.items() if base.get(g) != v}

    def as_dict(self) -> dict[str, bool]:
        return dict(self.values)


def exists_in(gate: str, release_name: str) -> bool:
    return _release(release_name).exists(gate)


def locked_in(gate: str, release_name: str) -> bool:
    """Whether the release refuses any value of ``gate`` but its default (``LockToDefault``)."""
    return _release(release_name).locked(gate)


def defaults(release_name: str = CURRENT_RELEASE) -> dict[str, bool]:
    return _release(release_name).defaults()


def make_gates(overrides: dict[str, bool] | None = None, release: str = CURRENT_RELEASE, *,
               locks: bool = True) -> FeatureGates:
    """The gate values of ``release`` with ``overrides``.

    ``locks=False`` accepts a locked gate away from its default, and skips the
    dependency check of 1.35 on (``dependency_errors``): the allocator
    library (k8s.io/dynamic-resource-allocation) takes its features as plain
    switches, and upstream's allocator tests and the shared conformance cases
    set them so; the command line does so when no release was named.
    """
    rel = _release(release)
    values = rel.defaults()
    # component-base goes through the whole set: each gate locked away from its default is one error, an
    # unknown gate ends the walk; several errors are given together (in Go's map order; here by name).
    refused: list[tuple[str, str]] = []
    for gate, value in sorted((overrides or {}).items()):
        if gate not in values:
            refused.append((gate, f"unrecognized feature gate: {gate}"))
            break
        if not isinstance(value, bool):
            raise FeatureGateError(f"invalid value of {gate}={value!r}, must be true or false", gate)
        if (locks or value) and not rel.exists(gate):
            # A release's components register only the gates of its own kube_features.go: one added later
            # or removed earlier is unknown to them, whatever its value.
            refused.append((gate, f"unrecognized feature gate: {gate}"))
            break
        if locks and rel.locked(gate) and value != rel.default(gate):
            refused.append((gate, f"cannot set feature gate {gate} to {str(value).lower()}, "
                                  f"feature is locked to {str(rel.default(gate)).lower()}"))
            continue
        values[gate] = value
    if refused:
        raise FeatureGateError(_aggregate(refused), refused[0][0])
    for gate, needed in GATE_REQUIRES.items():
        if values[gate] and not values[needed]:
            # kube-apiserver's options validation (1.31)
            raise FeatureGateError(f"{gate} feature requires {needed} feature to be enabled", gate)
    if locks:
        refused = dependency_errors(values, rel)
        if refused:
            raise FeatureGateError(_aggregate(refused), refused[0][0])
    return FeatureGates(release=rel.name, values=MappingProxyType(values))


def _aggregate(refused: list[tuple[str, str]]) -> str:
    """component-base's aggregate of errors: one alone is its message, several are listed in brackets."""
    return refused[0][1] if len(refused) == 1 else "[" + ", ".join(m for _, m in refused) + "]"


def dependency_errors(values: dict[str, bool], rel: _releases.Release) -> list[tuple[str, str]]:
    """(gate, message) for each enabled gate of ``rel`` that depends on a disabled one, by gate name.

    The words are component-base's; it goes through its dependency map in
    Go's random map order, we in the order of the gates' names.
    """
    found = []
    for gate, deps in sorted(rel.dependencies().items()):
        if not values.get(gate):
            continue
        off = [dep for dep in deps if not values.get(dep)]
        if off:
            found.append((gate, f"{gate} is enabled, but depends on features that are disabled: [{' '.join(off)}]"))
    if rel.dependencies():  # the same check covers gates outside the table, at their defaults
        for gate, dependents in sorted(_releases.DEFAULT_ON_DEPENDENTS.get(rel.name, {}).items()):
            if not values.get(gate, True):
                found += [(gate, f"{other} is enabled, but depends on features that are disabled: [{gate}]")
                          for other in dependents]
    return found


def stored_object_gates(release_name: str = CURRENT_RELEASE) -> FeatureGates:
    """Every gate of the release on: for checking objects that already exist.

    Fields of a disabled feature are dropped only when an object is created;
    objects stored while the gate was on keep them and the allocator sees
    them as they are.
    """
    rel = _release(release_name)
    return make_gates({g: True for g in GATE_SPECS if rel.exists(g)}, rel.name)


def parse_gate_list(text: str) -> dict[str, bool]:
    """Parse ``K=V,K2=V2`` the way kube components parse --feature-gates."""
    out: dict[str, bool] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        if "=" not in item:
            raise FeatureGateError(f"missing bool value for {item}", item)
        key, _, raw = item.partition("=")
        key, raw = key.strip(), raw.strip().lower()
        if raw not in ("true", "false"):
            raise FeatureGateError(f"invalid value of {key}={raw}, err: strconv.ParseBool: parsing {raw!r}: invalid "
                                   "syntax", key)
        if key not in GATE_SPECS:
            raise FeatureGateError(f"unrecognized feature gate: {key}", key)
        out[key] = raw == "true"
    return out
