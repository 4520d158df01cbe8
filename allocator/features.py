"""DRA feature gates and their defaults per Kubernetes release.

Defaults follow kubernetes/kubernetes ``pkg/features/kube_features.go``
(versioned specs of mid-2026, the 1.37 development cycle). A gate that does
not exist yet in a release is off there and cannot be switched on.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

CURRENT_RELEASE = "1.37"
RELEASES = ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")

# gate -> ((release, default), ...) in increasing release order, as in
# kube_features.go: the entry with the highest release <= the chosen one wins.
_HISTORY: dict[str, tuple[tuple[str, bool], ...]] = {
    "DynamicResourceAllocation": (("1.26", False), ("1.32", False), ("1.34", True)),
    "DRAAdminAccess": (("1.32", False), ("1.34", True)),
    "DRAResourceClaimDeviceStatus": (("1.32", False), ("1.33", True)),
    "DRAPrioritizedList": (("1.33", False), ("1.34", True)),
    "DRAPartitionableDevices": (("1.33", False), ("1.36", True)),
    "DRADeviceTaints": (("1.33", False), ("1.36", True)),
    "DRAConsumableCapacity": (("1.34", False), ("1.36", True)),
    "DRADeviceBindingConditions": (("1.34", False), ("1.36", True)),
    "DRAExtendedResource": (("1.34", False), ("1.36", True)),
    "DRADeviceTaintRules": (("1.35", False), ("1.37", True)),
    "DRAListTypeAttributes": (("1.36", False),),
    "DRAFractionalCapacityRange": (("1.37", True),),
}

KNOWN_GATES = tuple(_HISTORY)


def _key(release: str) -> tuple[int, int]:
    major, minor = release.split(".")
    return int(major), int(minor)


class FeatureGateError(ValueError):
    """An unknown gate, a malformed value or an unknown release."""


@dataclass(frozen=True)
class FeatureGates:
    """An immutable set of gate values for one Kubernetes release."""

    release: str
    values: MappingProxyType

    def enabled(self, gate: str) -> bool:
        if gate not in self.values:
            raise FeatureGateError(f"unrecognized feature gate: {gate}")
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


def exists_in(gate: str, release: str) -> bool:
    return _key(_HISTORY[gate][0][0]) <= _key(release)


def defaults(release: str = CURRENT_RELEASE) -> dict[str, bool]:
    if release not in RELEASES:
        raise FeatureGateError(f"unsupported Kubernetes release {release!r}: choose one of {', '.join(RELEASES)}")
    out = {}
    for gate, history in _HISTORY.items():
        value = False
        for since, default in history:
            if _key(since) <= _key(release):
                value = default
        out[gate] = value
    return out


def make_gates(overrides: dict[str, bool] | None = None, release: str = CURRENT_RELEASE) -> FeatureGates:
    values = defaults(release)
    for gate, value in (overrides or {}).items():
        if gate not in values:
            raise FeatureGateError(f"unrecognized feature gate: {gate}")
        if not isinstance(value, bool):
            raise FeatureGateError(f"invalid value of {gate}={value!r}, must be true or false")
        if value and not exists_in(gate, release):
            raise FeatureGateError(f"feature gate {gate} does not exist in Kubernetes {release}")
        values[gate] = value
    return FeatureGates(release=release, values=MappingProxyType(values))


def stored_object_gates(release: str = CURRENT_RELEASE) -> FeatureGates:
    """Every gate of the release on: for checking objects that already exist.

    Fields of a disabled feature are dropped only when an object is created;
    objects stored while the gate was on keep them and the allocator sees
    them as they are.
    """
    return make_gates({g: True for g in _HISTORY if exists_in(g, release)}, release)


def parse_gate_list(text: str) -> dict[str, bool]:
    """Parse ``K=V,K2=V2`` the way kube components parse --feature-gates."""
    out: dict[str, bool] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        if "=" not in item:
            raise FeatureGateError(f"missing bool value for {item}")
        key, _, raw = item.partition("=")
        key, raw = key.strip(), raw.strip().lower()
        if raw not in ("true", "false"):
            raise FeatureGateError(f"invalid value of {key}={raw}, err: strconv.ParseBool: parsing {raw!r}: invalid syntax")
        if key not in _HISTORY:
            raise FeatureGateError(f"unrecognized feature gate: {key}")
        out[key] = raw == "true"
    return out
