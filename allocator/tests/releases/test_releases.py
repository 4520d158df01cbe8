"""The release table: served versions per kind, gate defaults, stages and locks per release.

Expected values are written out per release from the upstream sources the
module cites, so a change to the table has to change a line here too.
"""

import pytest

from allocator.releases.gates import FeatureGateError, defaults, exists_in, locked_in, make_gates
from allocator.releases.table import RELEASES, off_by_default, release

CORE = ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")

# Served with DynamicResourceAllocation on, per release, for the four core kinds.
SERVED_WITH_DRA_ON = {
    "1.31": ("v1alpha3",),
    "1.32": ("v1beta1", "v1alpha3"),
    "1.33": ("v1beta2", "v1beta1", "v1alpha3"),
    "1.34": ("v1", "v1beta2", "v1beta1"),
    "1.35": ("v1", "v1beta2", "v1beta1"),
    "1.36": ("v1", "v1beta2", "v1beta1"),
    "1.37": ("v1", "v1beta2", "v1beta1"),
}


def all_on(name):
    rel = release(name)
    return lambda gate: rel.exists(gate)


@pytest.mark.parametrize("name", RELEASES)
@pytest.mark.parametrize("kind", CORE)
def test_core_kinds_are_served_in_the_versions_of_their_release(name, kind):
    assert release(name).served(kind, all_on(name)) == SERVED_WITH_DRA_ON[name]
    assert release(name).could_serve(kind) == SERVED_WITH_DRA_ON[name]


@pytest.mark.parametrize("name, by_default, with_dra_off", [
    # DynamicResourceAllocation off by default and every version alpha or beta: nothing served
    ("1.31", (), ()), ("1.32", (), ()), ("1.33", (), ()),
    # 1.34's storage does not read the gate: set off, the stable v1 is still served (the betas need
    # --runtime-config, which the model ties to the gate)
    ("1.34", ("v1", "v1beta2", "v1beta1"), ("v1",)), ("1.37", ("v1", "v1beta2", "v1beta1"), None),
])
def test_only_stable_versions_are_served_while_dynamic_resource_allocation_is_off(name, by_default, with_dra_off):
    assert release(name).served("ResourceClaim") == by_default
    if with_dra_off is not None:
        off = make_gates({"DynamicResourceAllocation": False}, name)
        assert release(name).served("ResourceClaim", off.enabled) == with_dra_off


@pytest.mark.parametrize("name, versions", [
    ("1.32", ()), ("1.33", ("v1alpha3",)), ("1.34", ("v1alpha3",)), ("1.35", ("v1alpha3",)),
    ("1.36", ("v1beta2", "v1alpha3")), ("1.37", ("v1", "v1beta2", "v1alpha3")),
])
def test_device_taint_rules_follow_their_own_gates(name, versions):
    assert release(name).served("DeviceTaintRule", all_on(name)) == versions
    if versions:
        gate = "DRADeviceTaintRules" if name >= "1.35" else "DRADeviceTaints"
        rel = release(name)
        assert rel.served("DeviceTaintRule", lambda g: g != gate and rel.exists(g)) == ()


def test_pod_scheduling_context_is_classic_dra_of_1_31():
    assert release("1.31").served("PodSchedulingContext", all_on("1.31")) == ("v1alpha3",)
    assert release("1.31").served("PodSchedulingContext", lambda g: g == "DynamicResourceAllocation") == ()
    assert release("1.32").could_serve("PodSchedulingContext") == ()


def test_alpha_and_beta_versions_are_off_by_default():
    assert [v for v in ("v1", "v1beta2", "v1beta1", "v1alpha3") if off_by_default(v)] == ["v1beta2", "v1beta1",
                                                                                            "v1alpha3"]


# gate -> the default in 1.31 .. 1.37 (None: the gate does not exist in that release)
DEFAULTS = {
    "DynamicResourceAllocation": (False, False, False, True, True, True, True),
    "DRAControlPlaneController": (False, None, None, None, None, None, None),
    "DRAAdminAccess": (None, False, False, True, True, True, True),
    "DRAResourceClaimDeviceStatus": (None, False, True, True, True, True, True),
    "DRAPrioritizedList": (None, None, False, True, True, True, True),
    "DRAPartitionableDevices": (None, None, False, False, False, True, True),
    "DRADeviceTaints": (None, None, False, False, False, True, True),
    "DRAConsumableCapacity": (None, None, None, False, False, True, True),
    "DRADeviceBindingConditions": (None, None, None, False, False, True, True),
    "DRAExtendedResource": (None, None, None, False, False, True, True),
    "DRADeviceTaintRules": (None, None, None, None, False, False, True),
    "DRAListTypeAttributes": (None, None, None, None, None, False, False),
    "DRAFractionalCapacityRange": (None, None, None, None, None, None, False),
    "DRASchedulerFilterTimeout": (None, None, None, True, True, True, True),
    "DRANodeAllocatableResources": (None, None, None, None, None, False, False),
    "DRAWorkloadResourceClaims": (None, None, None, None, None, False, False),
    "DRADerivedAttributes": (None, None, None, None, None, None, False),
    "DRADeviceCompatibilityGroups": (None, None, None, None, None, None, False),
    "DRAOptionalNodeOperations": (None, None, None, None, None, None, False),
    "GenericWorkload": (None, None, None, None, False, False, False),
    "DRAResourceClaimGranularStatusAuthorization": (None, None, None, None, None, True, True),
    "DRAResourcePoolStatus": (None, None, None, None, None, False, False),
    "DRAPartitionableDevicesType": (None, None, None, None, None, None, False),
    "NodeDeclaredFeatures": (None, None, None, None, False, True, True),
}

# gate -> the first release where it is locked to its default
LOCKED_FROM = {
    "DynamicResourceAllocation": "1.35",
    "DRAAdminAccess": "1.36",
    "DRAPrioritizedList": "1.37",
    "DRAResourceClaimDeviceStatus": "1.37",
    "DRAExtendedResource": "1.37",
    "NodeDeclaredFeatures": "1.37",
}


def test_the_table_covers_every_gate():
    assert set(DEFAULTS) == set(defaults("1.37"))


@pytest.mark.parametrize("gate", sorted(DEFAULTS))
def test_gate_defaults_and_existence_per_release(gate):
    for name, expected in zip(RELEASES, DEFAULTS[gate], strict=True):
        assert exists_in(gate, name) is (expected is not None), (gate, name)
        assert defaults(name)[gate] is bool(expected), (gate, name)


@pytest.mark.parametrize("gate", sorted(DEFAULTS))
def test_gate_locks_per_release(gate):
    since = LOCKED_FROM.get(gate)
    for name in RELEASES:
        expected = since is not None and tuple(map(int, name.split("."))) >= tuple(map(int, since.split(".")))
        assert locked_in(gate, name) is expected, (gate, name)


def test_stages_per_release():
    assert [release(n).gate_spec("DynamicResourceAllocation").stage for n in RELEASES] == [
        "Alpha", "Beta", "Beta", "GA", "GA", "GA", "GA"]
    assert release("1.37").gate_spec("DRADeviceTaints").stage == "GA"
    assert not release("1.37").locked("DRADeviceTaints")  # GA in 1.37, locked only from 1.38
    assert [release(n).gate_spec("DRAWorkloadResourceClaims").stage for n in ("1.36", "1.37")] == ["Alpha", "Beta"]
    assert release("1.37").gate_spec("DRANodeAllocatableResources").stage == "Alpha"


def test_a_locked_gate_cannot_be_set_away_from_its_default():
    with pytest.raises(FeatureGateError) as caught:
        make_gates({"DynamicResourceAllocation": False}, "1.35")
    assert str(caught.value) == ("cannot set feature gate DynamicResourceAllocation to false, "
                                 "feature is locked to true")
    assert caught.value.gate == "DynamicResourceAllocation"
    # Setting it to its locked value is allowed, as kube's featuregate does.
    assert make_gates({"DynamicResourceAllocation": True}, "1.37")["DynamicResourceAllocation"]
    # 1.34: GA but not locked yet.
    assert not make_gates({"DynamicResourceAllocation": False}, "1.34")["DynamicResourceAllocation"]


def test_classic_dra_needs_dynamic_resource_allocation():
    with pytest.raises(FeatureGateError, match="DRAControlPlaneController feature requires "
                                               "DynamicResourceAllocation feature to be enabled"):
        make_gates({"DRAControlPlaneController": True}, "1.31")
    gates = make_gates({"DRAControlPlaneController": True, "DynamicResourceAllocation": True}, "1.31")
    assert gates["DRAControlPlaneController"]
    with pytest.raises(FeatureGateError, match="unrecognized feature gate: DRAControlPlaneController"):
        make_gates({"DRAControlPlaneController": True}, "1.32")


def test_unknown_release():
    with pytest.raises(ValueError, match="unsupported Kubernetes release '1.30'"):
        release("1.30")
