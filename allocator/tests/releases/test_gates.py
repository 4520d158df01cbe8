"""Feature gates: per-release defaults and kube-style parsing."""

import subprocess
import sys

import pytest

from allocator.releases.gates import (
    CURRENT_RELEASE,
    KNOWN_GATES,
    FeatureGateError,
    defaults,
    exists_in,
    make_gates,
    parse_gate_list,
)
from allocator.tests.helpers import ROOT


def test_current_release_enables_every_dra_gate_but_the_alpha_ones_workload_claims_and_fractional_ranges():
    values = defaults(CURRENT_RELEASE)
    assert values["DRAListTypeAttributes"] is False
    off = {g for g, on in values.items() if not on and exists_in(g, CURRENT_RELEASE)}
    assert off == {"DRAListTypeAttributes", "DRANodeAllocatableResources", "DRAWorkloadResourceClaims",
                   "DRADerivedAttributes", "DRADeviceCompatibilityGroups", "DRAOptionalNodeOperations",
                   "GenericWorkload", "DRAResourcePoolStatus", "DRAPartitionableDevicesType",
                   # on only with the components' minimum compatibility version at 1.37; a v1.37.2
                   # kube-apiserver's kubernetes_feature_enabled metric reports it off by default
                   "DRAFractionalCapacityRange"}
    assert not exists_in("DRAControlPlaneController", CURRENT_RELEASE)  # classic DRA: 1.31 only


@pytest.mark.parametrize("release, gate, expected", [
    ("1.31", "DRAAdminAccess", False),       # did not exist yet
    ("1.33", "DRAPrioritizedList", False),   # alpha
    ("1.34", "DRAPrioritizedList", True),    # beta, on by default
    ("1.35", "DRAPartitionableDevices", False),
    ("1.36", "DRAPartitionableDevices", True),
    ("1.34", "DRAConsumableCapacity", False),
    ("1.36", "DRAConsumableCapacity", True),
    ("1.33", "DRAResourceClaimDeviceStatus", True),
    ("1.36", "DRADeviceTaintRules", False),
])
def test_defaults_follow_the_release_history(release, gate, expected):
    assert defaults(release)[gate] is expected


def test_overrides_apply_and_are_reported():
    gates = make_gates({"DRAListTypeAttributes": True, "DRAConsumableCapacity": False})
    assert gates.enabled("DRAListTypeAttributes") and not gates["DRAConsumableCapacity"]
    assert gates.overrides() == {"DRAListTypeAttributes": True, "DRAConsumableCapacity": False}
    assert "DRAListTypeAttributes" in gates.enabled_set()


def test_a_gate_the_release_lacks_is_unrecognized_whatever_its_value():
    # A release's components register only the gates of its own kube_features.go (component-base's words;
    # checked against the 1.36 and 1.37 components with the harness's gates mode).
    for value in (True, False):
        with pytest.raises(FeatureGateError, match="^unrecognized feature gate: DRAConsumableCapacity$") as err:
            make_gates({"DRAConsumableCapacity": value}, release="1.32")
        assert err.value.with_hint() == ("unrecognized feature gate: DRAConsumableCapacity "
                                         "(a gate of Kubernetes 1.34 to 1.37)")
        with pytest.raises(FeatureGateError, match="^unrecognized feature gate: DRAControlPlaneController$"):
            make_gates({"DRAControlPlaneController": value}, release="1.37")
    # The allocator library's plain switches (no release's components): switching one off stays harmless.
    assert make_gates({"DRAConsumableCapacity": False}, release="1.32", locks=False)["DRAConsumableCapacity"] is False


def test_unknown_release_and_gate_are_errors():
    with pytest.raises(FeatureGateError, match="unsupported Kubernetes release"):
        defaults("1.30")
    with pytest.raises(FeatureGateError, match="unrecognized feature gate: Nope"):
        make_gates({"Nope": True})
    with pytest.raises(FeatureGateError, match="unrecognized feature gate"):
        make_gates().enabled("Nope")


def test_parse_gate_list_like_kube_components():
    assert parse_gate_list("DRAAdminAccess=false, DRAListTypeAttributes=TRUE,") == {
        "DRAAdminAccess": False, "DRAListTypeAttributes": True}
    assert parse_gate_list("") == {}
    for bad, message in [("DRAAdminAccess", "missing bool value"), ("DRAAdminAccess=yes", "invalid value"),
                         ("Bogus=true", "unrecognized feature gate: Bogus")]:
        with pytest.raises(FeatureGateError, match=message):
            parse_gate_list(bad)


def test_known_gates_are_all_dra_related():
    # GenericWorkload and NodeDeclaredFeatures are known only because DRAWorkloadResourceClaims and
    # DRAOptionalNodeOperations depend on them.
    assert all(g.startswith("DRA") or g in ("DynamicResourceAllocation", "GenericWorkload", "NodeDeclaredFeatures")
               for g in KNOWN_GATES)


def test_stored_objects_are_checked_with_every_gate_of_their_release():
    from allocator.releases.gates import stored_object_gates

    gates = stored_object_gates("1.34")
    assert gates.release == "1.34" and gates["DRAConsumableCapacity"] and gates["DRAPartitionableDevices"]
    assert not gates["DRAListTypeAttributes"]  # did not exist in 1.34


@pytest.mark.parametrize("text, hint", [
    ("DRAPrioritzedList=true", 'did you mean "DRAPrioritizedList"?'),
    ("draadminaccess=false", 'did you mean "DRAAdminAccess"?'),
    ("DRANoSuchGate=true", None),
])
def test_an_unknown_gate_gets_a_did_you_mean_beside_the_components_words(text, hint):
    with pytest.raises(FeatureGateError) as caught:
        parse_gate_list(text)
    gate = text.split("=")[0]
    assert str(caught.value) == f"unrecognized feature gate: {gate}"  # the components' words, unchanged
    assert caught.value.hint == hint
    assert caught.value.with_hint() == (f"unrecognized feature gate: {gate} ({hint})" if hint else str(caught.value))


def test_the_command_line_says_which_gate_was_meant(tmp_path):
    path = tmp_path / "claim.yaml"
    path.write_text("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
                    "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}\n")
    proc = subprocess.run([sys.executable, "-m", "allocator", "allocate", "--feature-gates=DRAPrioritzedList=true",
                           str(path)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ('error: unrecognized feature gate: DRAPrioritzedList '
                                   '(did you mean "DRAPrioritizedList"?)')


def test_every_locked_gate_of_a_set_is_refused_together():
    # component-base walks the whole set (an unknown gate ends the walk) and aggregates the errors; checked
    # against the 1.36 and 1.37 components, which list them in Go's map order (here by name).
    with pytest.raises(FeatureGateError) as err:
        make_gates({"DynamicResourceAllocation": False, "DRAPrioritizedList": False}, "1.37")
    assert str(err.value) == ("[cannot set feature gate DRAPrioritizedList to false, feature is locked to true, "
                              "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true]")
    with pytest.raises(FeatureGateError, match="^cannot set feature gate DRAAdminAccess to false, feature is locked"):
        make_gates({"DRAAdminAccess": False, "DRADeviceTaints": False}, "1.37")  # no dependency check then
