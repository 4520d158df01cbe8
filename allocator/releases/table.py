"""Kubernetes 1.31 to 1.37 as data: DRA feature gates and the resource.k8s.io versions served.

This is the one table the engine, the page, the API and the command line
read; ``features`` builds gate values from it and nothing else keeps a copy.

Sources (read, not copied):

* Gates: the versioned specs of the DRA gates in kubernetes/kubernetes
  ``pkg/features/kube_features.go`` (master of mid-2026, the 1.37 cycle:
  every spec since the gate's introduction, with ``PreRelease`` and
  ``LockToDefault``). ``DRAControlPlaneController`` (classic DRA, alpha
  since 1.26, off) is from the v1.31.0 tag; it was removed in 1.32.
  kube-apiserver's options validation in 1.31 requires
  ``DynamicResourceAllocation`` for it.
* Served versions: which types each version registers and their
  prerelease lifecycle (``+k8s:prerelease-lifecycle-gen`` introduced /
  deprecated / removed) in kubernetes/api ``resource/*/register.go`` and
  ``resource/*/zz_generated.prerelease-lifecycle.go`` at the tags v0.31.0
  to v0.36.0 and master (2026-07-24, commit 10b39a39), which follow the
  storage that kubernetes/kubernetes ``pkg/registry/resource/rest/
  storage_resource.go`` installs per release: every resource there is
  installed only while ``DynamicResourceAllocation`` is on ("... is
  disabled because the DynamicResourceAllocation feature is disabled").
* Alpha and beta versions are off by default in the apiserver
  (``DefaultAPIResourceConfigSource``; KEP-3136: new beta APIs are off by
  default): a cluster serves them once ``--runtime-config`` enables them.
  We count them as served, since turning DRA on in 1.31 to 1.33 always
  means enabling them, and say "off by default" where it is shown.

``Release.served(kind, gates)`` answers what the apiserver of that release
would serve for a kind with the given gate values.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

RELEASES = ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
CURRENT_RELEASE = RELEASES[-1]
GROUP = "resource.k8s.io"
DRA_GATE = "DynamicResourceAllocation"
CLASSIC_DRA_GATE = "DRAControlPlaneController"

ALPHA, BETA, GA = "Alpha", "Beta", "GA"


def release_key(release: str) -> tuple[int, int]:
    major, minor = release.split(".")
    return int(major), int(minor)


@dataclass(frozen=True)
class GateSpec:
    """One versioned spec of a gate: from ``since`` on, this default, stage and lock."""

    since: str
    default: bool
    stage: str
    locked: bool = False


def _specs(*rows: tuple) -> tuple[GateSpec, ...]:
    return tuple(GateSpec(*row) for row in rows)


# gate -> versioned specs in increasing release order (the last one at or
# before a release applies), as in kube_features.go.
GATE_SPECS: MappingProxyType = MappingProxyType({
    DRA_GATE: _specs(("1.26", False, ALPHA), ("1.32", False, BETA), ("1.34", True, GA),
                     ("1.35", True, GA, True)),
    CLASSIC_DRA_GATE: _specs(("1.26", False, ALPHA)),
    "DRAAdminAccess": _specs(("1.32", False, ALPHA), ("1.34", True, BETA), ("1.36", True, GA, True)),
    "DRAResourceClaimDeviceStatus": _specs(("1.32", False, ALPHA), ("1.33", True, BETA), ("1.37", True, GA, True)),
    "DRAPrioritizedList": _specs(("1.33", False, ALPHA), ("1.34", True, BETA), ("1.36", True, GA),
                                 ("1.37", True, GA, True)),
    "DRAPartitionableDevices": _specs(("1.33", False, ALPHA), ("1.36", True, BETA)),
    "DRADeviceTaints": _specs(("1.33", False, ALPHA), ("1.36", True, BETA), ("1.37", True, GA)),
    "DRAConsumableCapacity": _specs(("1.34", False, ALPHA), ("1.36", True, BETA)),
    "DRADeviceBindingConditions": _specs(("1.34", False, ALPHA), ("1.36", True, BETA)),
    "DRAExtendedResource": _specs(("1.34", False, ALPHA), ("1.36", True, BETA), ("1.37", True, GA, True)),
    "DRADeviceTaintRules": _specs(("1.35", False, ALPHA), ("1.36", False, BETA), ("1.37", True, GA)),
    "DRAListTypeAttributes": _specs(("1.36", False, ALPHA)),
    # 1.37 has it off for emulated versions below 1.37 and on otherwise.
    "DRAFractionalCapacityRange": _specs(("1.37", True, BETA)),
})

# Gates deleted from kube_features.go: from this release on, they are unknown.
GATE_REMOVED_IN = MappingProxyType({CLASSIC_DRA_GATE: "1.32"})

# A gate that needs another one on (kube-apiserver refuses to start otherwise).
GATE_REQUIRES = MappingProxyType({CLASSIC_DRA_GATE: DRA_GATE})


@dataclass(frozen=True)
class Serving:
    """A kind served in one version over a range of releases."""

    kind: str
    version: str
    since: str
    until: str | None = None  # first release without it
    gate: str | None = None  # needed besides DynamicResourceAllocation

    def in_release(self, release: str) -> bool:
        key = release_key(release)
        return release_key(self.since) <= key and (self.until is None or key < release_key(self.until))


_CORE_KINDS = ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")

SERVING: tuple[Serving, ...] = (
    *(Serving(kind, "v1", "1.34") for kind in _CORE_KINDS),
    *(Serving(kind, "v1beta2", "1.33") for kind in _CORE_KINDS),
    *(Serving(kind, "v1beta1", "1.32") for kind in _CORE_KINDS),  # removed in 1.38
    *(Serving(kind, "v1alpha3", "1.31", "1.34") for kind in _CORE_KINDS),
    Serving("PodSchedulingContext", "v1alpha3", "1.31", "1.32", gate=CLASSIC_DRA_GATE),
    Serving("DeviceTaintRule", "v1", "1.37", gate="DRADeviceTaintRules"),
    Serving("DeviceTaintRule", "v1beta2", "1.36", gate="DRADeviceTaintRules"),
    Serving("DeviceTaintRule", "v1alpha3", "1.33", "1.35", gate="DRADeviceTaints"),
    Serving("DeviceTaintRule", "v1alpha3", "1.35", gate="DRADeviceTaintRules"),
)

VERSION_ORDER = ("v1", "v1beta2", "v1beta1", "v1alpha3")  # kubectl's preference: stable first


def off_by_default(version: str) -> bool:
    """Alpha and beta API versions need ``--runtime-config`` to be served."""
    return "alpha" in version or "beta" in version


@dataclass(frozen=True)
class Release:
    """One Kubernetes minor release as far as DRA is concerned."""

    name: str

    def gate_spec(self, gate: str) -> GateSpec | None:
        """The spec of ``gate`` in this release, or None when the gate does not exist in it."""
        removed = GATE_REMOVED_IN.get(gate)
        if removed is not None and release_key(self.name) >= release_key(removed):
            return None
        found = None
        for spec in GATE_SPECS[gate]:
            if release_key(spec.since) <= release_key(self.name):
                found = spec
        return found

    def default(self, gate: str) -> bool:
        spec = self.gate_spec(gate)
        return spec.default if spec else False

    def locked(self, gate: str) -> bool:
        spec = self.gate_spec(gate)
        return bool(spec and spec.locked)

    def exists(self, gate: str) -> bool:
        return self.gate_spec(gate) is not None

    def defaults(self) -> dict[str, bool]:
        return {gate: self.default(gate) for gate in GATE_SPECS}

    def served(self, kind: str, enabled=None) -> tuple[str, ...]:
        """Versions of ``kind`` served with the gates ``enabled`` (a predicate; default: the release defaults)."""
        is_on = enabled or self.default
        if not is_on(DRA_GATE):
            return ()
        found = {s.version for s in SERVING
                 if s.kind == kind and s.in_release(self.name) and (s.gate is None or is_on(s.gate))}
        return tuple(v for v in VERSION_ORDER if v in found)

    def could_serve(self, kind: str) -> tuple[str, ...]:
        """Versions of ``kind`` this release has at all, whatever the gates."""
        found = {s.version for s in SERVING if s.kind == kind and s.in_release(self.name)}
        return tuple(v for v in VERSION_ORDER if v in found)

    def kinds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.kind for s in SERVING if s.in_release(self.name)))


def release(name: str) -> Release:
    """The release called ``name``; ValueError for one we do not model."""
    if name not in RELEASES:
        raise ValueError(f"unsupported Kubernetes release {name!r}: choose one of {', '.join(RELEASES)}")
    return Release(name)
