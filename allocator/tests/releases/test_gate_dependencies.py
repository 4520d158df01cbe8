"""Gate dependencies as the components check them at start-up, from 1.35 on.

After kube_features.go's dependency map (v1.35.0 on) and component-base's
featuregate tests: an enabled gate whose dependency is disabled is refused
with "<gate> is enabled, but depends on features that are disabled: [<deps>]";
a disabled gate's dependencies do not matter; before 1.35 nothing is checked.
"""

import pytest

from allocator.releases.gates import RELEASES, FeatureGateError, defaults, make_gates
from allocator.releases.table import release


@pytest.mark.parametrize("name", ["1.35", "1.36", "1.37"])
def test_taint_rules_without_device_taints_are_refused(name):
    with pytest.raises(FeatureGateError) as caught:
        make_gates({"DRADeviceTaintRules": True, "DRADeviceTaints": False}, name)
    assert str(caught.value) == ("DRADeviceTaintRules is enabled, but depends on features that are disabled: "
                                 "[DRADeviceTaints]")
    assert caught.value.gate == "DRADeviceTaintRules"


def test_the_1_37_defaults_refuse_device_taints_off_alone():
    # DRADeviceTaintRules is on by default in 1.37: turning off only DRADeviceTaints is refused.
    with pytest.raises(FeatureGateError, match=r"^DRADeviceTaintRules is enabled, but depends on"):
        make_gates({"DRADeviceTaints": False}, "1.37")
    gates = make_gates({"DRADeviceTaints": False, "DRADeviceTaintRules": False}, "1.37")
    assert not gates["DRADeviceTaints"] and not gates["DRADeviceTaintRules"]
    # 1.36: the rules are off by default, so taints off alone is fine.
    assert not make_gates({"DRADeviceTaints": False}, "1.36")["DRADeviceTaints"]


@pytest.mark.parametrize("name", ["1.33", "1.34"])
def test_no_check_before_1_35(name):
    assert release(name).dependencies() == {}
    gates = make_gates({"DRADeviceBindingConditions": True, "DRAResourceClaimDeviceStatus": False}
                       if name == "1.34" else {"DRADeviceTaints": False}, name)
    assert gates.release == name


def test_binding_conditions_need_device_status():
    with pytest.raises(FeatureGateError) as caught:
        make_gates({"DRAResourceClaimDeviceStatus": False,  # binding conditions: beta, on
                    "DRAResourceClaimGranularStatusAuthorization": False}, "1.36")
    assert str(caught.value) == ("DRADeviceBindingConditions is enabled, but depends on features that are "
                                 "disabled: [DRAResourceClaimDeviceStatus]")
    assert not make_gates({"DRAResourceClaimDeviceStatus": False, "DRADeviceBindingConditions": False,
                           "DRAResourceClaimGranularStatusAuthorization": False}, "1.36")["DRAResourceClaimDeviceStatus"]


def test_granular_status_authorization_needs_device_status():
    # Found by the differential run (allocate-1.36-verdict-07b20c25): the gate is beta and on from 1.36
    # (and device status is locked on in 1.37).
    with pytest.raises(FeatureGateError) as caught:
        make_gates({"DRAResourceClaimDeviceStatus": False, "DRADeviceBindingConditions": False}, "1.36")
    assert str(caught.value) == ("DRAResourceClaimGranularStatusAuthorization is enabled, but depends on "
                                 "features that are disabled: [DRAResourceClaimDeviceStatus]")
    assert not make_gates({"DRAResourceClaimDeviceStatus": False}, "1.35")["DRAResourceClaimDeviceStatus"]


@pytest.mark.parametrize(("gates", "name", "gate", "missing"), [
    ({"DRAPartitionableDevicesType": True}, "1.37", "DRAPartitionableDevicesType", "DRAResourcePoolStatus"),
    ({"DRAFractionalCapacityRange": True, "DRAConsumableCapacity": False}, "1.37", "DRAFractionalCapacityRange",
     "DRAConsumableCapacity"),
    ({"DRAOptionalNodeOperations": True, "NodeDeclaredFeatures": False}, "1.37", "", ""),  # locked on in 1.37
])
def test_the_dependencies_of_the_1_36_and_1_37_maps(gates, name, gate, missing):
    if not gate:
        with pytest.raises(FeatureGateError, match="NodeDeclaredFeatures"):
            make_gates(gates, name)
        return
    with pytest.raises(FeatureGateError) as caught:
        make_gates(gates, name)
    assert str(caught.value) == f"{gate} is enabled, but depends on features that are disabled: [{missing}]"


def test_workload_claims_need_generic_workload():
    with pytest.raises(FeatureGateError, match=r"^DRAWorkloadResourceClaims is enabled, but depends on features "
                                               r"that are disabled: \[GenericWorkload\]$"):
        make_gates({"DRAWorkloadResourceClaims": True}, "1.37")
    assert make_gates({"DRAWorkloadResourceClaims": True, "GenericWorkload": True}, "1.36")[
        "DRAWorkloadResourceClaims"]


def test_several_refusals_are_listed_together_in_name_order():
    with pytest.raises(FeatureGateError) as caught:
        make_gates({"DRAResourceClaimDeviceStatus": False, "DRADeviceTaints": False, "DRADeviceTaintRules": True,
                    "DRAResourceClaimGranularStatusAuthorization": False}, "1.36")
    message = str(caught.value)
    assert message.startswith("[DRADeviceBindingConditions is enabled") and message.endswith("[DRADeviceTaints]]")
    assert ", DRADeviceTaintRules is enabled, but depends on features that are disabled: " in message
    # the error says which gate to look at: the first one refused
    assert caught.value.gate == "DRADeviceBindingConditions"


@pytest.mark.parametrize("name", RELEASES)
def test_every_release_default_is_a_valid_combination(name):
    assert make_gates({}, name).as_dict() == defaults(name)


def test_the_library_switches_are_not_checked():
    # Without a release named, the command line takes gates as the allocator library's switches.
    gates = make_gates({"DRADeviceTaints": False}, "1.37", locks=False)
    assert gates["DRADeviceTaintRules"] and not gates["DRADeviceTaints"]


def test_dependencies_only_name_gates_of_the_release():
    deps = release("1.35").dependencies()
    assert deps["DRADeviceTaintRules"] == ("DRADeviceTaints",)
    assert "DRAWorkloadResourceClaims" not in deps and "DRAListTypeAttributes" not in deps
    assert release("1.36").dependencies()["DRAWorkloadResourceClaims"] == ("DynamicResourceAllocation",
                                                                          "GenericWorkload")


def test_1_36_refuses_node_declared_features_off_for_the_gates_outside_the_table_that_need_it():
    # kube_features.go v1.36.3: four beta gates on by default depend on NodeDeclaredFeatures (beta, on), so
    # turning it off is refused once per such gate. Found by the differential run (create-1.36-gates-*).
    with pytest.raises(FeatureGateError) as refused:
        make_gates({"NodeDeclaredFeatures": False}, "1.36")
    message = str(refused.value)
    for other in ("ExtendWebSocketsToKubelet", "InPlacePodLevelResourcesVerticalScaling",
                  "InPlacePodVerticalScalingInitContainers", "RestartAllContainersOnContainerExits"):
        assert f"{other} is enabled, but depends on features that are disabled: [NodeDeclaredFeatures]" in message
    make_gates({"NodeDeclaredFeatures": False}, "1.35")  # off by default there: nothing depends on it
