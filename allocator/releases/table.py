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
  storage_resource.go`` installs per release, read again at v1.31.14 to
  v1.37.2: each version's resources are installed when the apiserver's
  resource config enables them, whatever ``DynamicResourceAllocation``
  says (kept "to allow cleaning them up" while the feature is off).
* Alpha and beta versions are off by default in the apiserver
  (``DefaultAPIResourceConfigSource``; KEP-3136: new beta APIs are off by
  default): a cluster serves them once ``--runtime-config`` enables them.
  We count them as served while DynamicResourceAllocation is on, since
  turning DRA on in 1.31 to 1.33 always means enabling them, and say "off
  by default" where it is shown; with the gate off only stable versions
  count (1.34's v1, on by default).

``Release.served(kind, gates)`` answers what the apiserver of that release
would serve for a kind with the given gate values.
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType

from allocator.reading.records import record

RELEASES = ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
CURRENT_RELEASE = RELEASES[-1]
GROUP = "resource.k8s.io"
DRA_GATE = "DynamicResourceAllocation"
CLASSIC_DRA_GATE = "DRAControlPlaneController"

ALPHA, BETA, GA = "Alpha", "Beta", "GA"


def release_key(release: str) -> tuple[int, int]:
    major, minor = release.split(".")
    return int(major), int(minor)


@record(frozen=True)
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
    # 1.37 names two defaults: on only when the components' minimum compatibility version is 1.37. That
    # version defaults to the binary's minus one, so a v1.37.2 kube-apiserver reports it off in its
    # kubernetes_feature_enabled metric (seen by kubectl_dra's live test against the real binary).
    "DRAFractionalCapacityRange": _specs(("1.37", False, BETA)),
    # DRA gates whose behaviour the engine does not simulate (``NOT_SIMULATED``):
    # known, so that setting them is not refused, and named where their fields appear.
    "DRASchedulerFilterTimeout": _specs(("1.34", True, BETA)),
    "DRANodeAllocatableResources": _specs(("1.36", False, ALPHA)),
    "DRAWorkloadResourceClaims": _specs(("1.36", False, ALPHA), ("1.37", False, BETA)),
    "DRADerivedAttributes": _specs(("1.37", False, ALPHA)),
    "DRADeviceCompatibilityGroups": _specs(("1.37", False, ALPHA)),
    "DRAOptionalNodeOperations": _specs(("1.37", False, ALPHA)),
    "DRAResourceClaimGranularStatusAuthorization": _specs(("1.36", True, BETA)),
    "DRAResourcePoolStatus": _specs(("1.36", False, ALPHA)),
    "DRAPartitionableDevicesType": _specs(("1.37", False, ALPHA)),
    # Not a DRA gate: nodes declaring their features, which DRAOptionalNodeOperations depends on.
    "NodeDeclaredFeatures": _specs(("1.35", False, ALPHA), ("1.36", True, BETA), ("1.37", True, GA, True)),
    # Not a DRA gate: the Workload and PodGroup API, which DRAWorkloadResourceClaims depends on.
    "GenericWorkload": _specs(("1.35", False, ALPHA), ("1.37", False, BETA)),
})

# Gates the engine knows but whose behaviour it does not simulate: what they
# change happens outside the allocator we model (the scheduler's filter
# timeout, the kubelet, the resource-claim controller for pod groups), or is
# alpha and out of reach. Their fields are accepted and named in a warning.
NOT_SIMULATED = MappingProxyType({
    "DRASchedulerFilterTimeout": "the scheduler's time limit per node filter",
    "DRANodeAllocatableResources": "node allocatable resources (cpu, memory) backed by devices",
    "DRAWorkloadResourceClaims": "claims reserved for a whole PodGroup",
    "DRADerivedAttributes": "derived device attributes",
    "DRADeviceCompatibilityGroups": "compatibility groups of shared counters",
    "DRAOptionalNodeOperations": "devices whose node preparation is optional",
    "DRAResourceClaimGranularStatusAuthorization": "the apiserver's finer authorization of claim status writes",
    "DRAResourcePoolStatus": "the ResourcePoolStatusRequest API",
    "DRAPartitionableDevicesType": "partition types of partitionable devices",
    "NodeDeclaredFeatures": "features a node declares",
    "GenericWorkload": "the Workload and PodGroup API",
})

# Gates deleted from kube_features.go: from this release on, they are unknown.
GATE_REMOVED_IN = MappingProxyType({CLASSIC_DRA_GATE: "1.32"})

# A gate that needs another one on (kube-apiserver refuses to start otherwise).
GATE_REQUIRES = MappingProxyType({CLASSIC_DRA_GATE: DRA_GATE})

# From 1.35 on, every component checks the feature-gate dependencies declared
# in kube_features.go (``defaultKubernetesFeatureGateDependencies``) when its
# flags are parsed, and refuses to start when an enabled gate depends on a
# disabled one (k8s.io/component-base featuregate, v0.35.0 on). Before 1.35
# there is no such check. The DRA entries of the maps of v1.35, v1.36 and v1.37
# (a gate's entry applies where the gate exists; no entry changed between them).
# A dependency on DynamicResourceAllocation never fails from 1.35 on, since that
# gate is locked on.
DEPENDENCY_CHECK_SINCE = "1.35"
GATE_DEPENDENCIES = MappingProxyType({
    "DRAAdminAccess": (DRA_GATE,),
    "DRAConsumableCapacity": (DRA_GATE,),
    "DRADeviceBindingConditions": (DRA_GATE, "DRAResourceClaimDeviceStatus"),
    "DRADeviceTaintRules": ("DRADeviceTaints",),
    "DRADeviceTaints": (DRA_GATE,),
    "DRAExtendedResource": (DRA_GATE,),
    "DRAPartitionableDevices": (DRA_GATE,),
    "DRAPrioritizedList": (DRA_GATE,),
    "DRASchedulerFilterTimeout": (DRA_GATE,),
    "DRAListTypeAttributes": (DRA_GATE,),
    "DRANodeAllocatableResources": (DRA_GATE,),
    "DRAWorkloadResourceClaims": (DRA_GATE, "GenericWorkload"),
    "DRADeviceCompatibilityGroups": (DRA_GATE, "DRAPartitionableDevices"),
    "DRAResourceClaimGranularStatusAuthorization": (DRA_GATE, "DRAResourceClaimDeviceStatus"),
    "DRAResourcePoolStatus": (DRA_GATE,),
    "DRAPartitionableDevicesType": (DRA_GATE, "DRAPartitionableDevices", "DRAResourcePoolStatus"),
    "DRAFractionalCapacityRange": ("DRAConsumableCapacity",),
    "DRADerivedAttributes": (DRA_GATE,),
    "DRAOptionalNodeOperations": (DRA_GATE, "NodeDeclaredFeatures"),
})

# Gates outside the engine's table that are on by default and depend on a gate it knows: turning that gate
# off makes the components refuse the set, one refusal per such gate (read in kube_features.go of each
# release: ``defaultKubernetesFeatureGateDependencies`` and the gates' defaults). Only 1.36 has any: its beta
# NodeDeclaredFeatures (locked on in 1.37, off by default in 1.35).
DEFAULT_ON_DEPENDENTS = MappingProxyType({
    "1.36": MappingProxyType({"NodeDeclaredFeatures": (
        "ExtendWebSocketsToKubelet", "InPlacePodLevelResourcesVerticalScaling",
        "InPlacePodVerticalScalingInitContainers", "RestartAllContainersOnContainerExits")}),
})


@record(frozen=True)
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


@cache  # releases x gates, a few hundred entries; a keystroke asks several hundred times
@cache  # (asked hundreds of times by a command, of some twenty gates)
def _gate_spec(release: str, gate: str) -> GateSpec | None:
    removed = GATE_REMOVED_IN.get(gate)
    if removed is not None and release_key(release) >= release_key(removed):
        return None
    found = None
    for spec in GATE_SPECS[gate]:
        if release_key(spec.since) <= release_key(release):
            found = spec
    return found


@record(frozen=True)
class Release:
    """One Kubernetes minor release as far as DRA is concerned."""

    name: str

    def gate_spec(self, gate: str) -> GateSpec | None:
        """The spec of ``gate`` in this release, or None when the gate does not exist in it."""
        return _gate_spec(self.name, gate)

    def default(self, gate: str) -> bool:
        spec = self.gate_spec(gate)
        return spec.default if spec else False

    def locked(self, gate: str) -> bool:
        spec = self.gate_spec(gate)
        return bool(spec and spec.locked)

    def exists(self, gate: str) -> bool:
        return self.gate_spec(gate) is not None

    def dependencies(self) -> dict[str, tuple[str, ...]]:
        """The gates each gate of this release depends on, as its components check them (none before 1.35)."""
        if release_key(self.name) < release_key(DEPENDENCY_CHECK_SINCE):
            return {}
        return {gate: tuple(d for d in deps if self.exists(d))
                for gate, deps in GATE_DEPENDENCIES.items() if self.exists(gate)}

    def defaults(self) -> dict[str, bool]:
        return {gate: self.default(gate) for gate in GATE_SPECS}

    def served(self, kind: str, enabled=None) -> tuple[str, ...]:
        """Versions of ``kind`` served with the gates ``enabled`` (a predicate; default: the release defaults).

        The apiserver installs the resource.k8s.io storage whatever ``DynamicResourceAllocation`` says (so that
        objects can still be cleaned up); the gate only decides, in this model, whether the alpha and beta
        versions count as enabled with ``--runtime-config``. With it off, a stable version (v1 in 1.34) is
        still served, on by default.
        """
        is_on = enabled or self.default
        dra_on = is_on(DRA_GATE)
        found = {s.version for s in SERVING
                 if s.kind == kind and s.in_release(self.name) and (s.gate is None or is_on(s.gate))
                 and (dra_on or not off_by_default(s.version))}
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
