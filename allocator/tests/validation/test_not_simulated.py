"""DRA features of 1.36 and 1.37 the engine does not simulate: their fields are accepted where the release
has them and named in a warning; in releases without them they stay unknown fields."""

from __future__ import annotations

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.not_simulated import CLAIM, CLASS, NODE, POD_GROUP, SLICE_1_37

SLICE_1_36 = SLICE_1_37.replace("  skipNodeOperations: [\"*\"]\n", "").replace(
    "nodeAllocatableResources:", "nodeAllocatableResourceMappings:")


def diagnostics(documents: str, inventory: str, release: str, gates: dict | None = None) -> list[dict]:
    report = analyze(documents, inventory, kubernetes_version=release, feature_gates=gates).to_dict()
    return [{k: d[k] for k in ("severity", "source", "field", "type", "detail", "line")}
            for d in report["diagnostics"]]


def test_1_37_accepts_the_device_and_slice_fields_and_allocates_as_without_them():
    report = analyze(CLAIM, NODE + SLICE_1_37 + CLASS, kubernetes_version="1.37").to_dict()
    assert report["valid"] and report["allocation"]["status"] == "allocated"
    warned = {(d["field"], d["line"]): d["detail"] for d in report["diagnostics"]}
    assert set(warned) == {("spec.skipNodeOperations", 13), ("spec.devices[0].nodeAllocatableResources", 16)}
    assert warned[("spec.devices[0].nodeAllocatableResources", 16)] == (
        "DRANodeAllocatableResources (node allocatable resources (cpu, memory) backed by devices) is not "
        "simulated: the allocation is computed as if it were not set (DRANodeAllocatableResources is off in "
        "Kubernetes 1.37)")
    assert warned[("spec.skipNodeOperations", 13)].startswith("DRAOptionalNodeOperations (devices whose node "
                                                               "preparation is optional) is not simulated")
    assert all(d["severity"] == "warning" and d["type"] == "Not simulated" and d["source"] == "inventory"
               for d in report["diagnostics"])


def test_the_warning_says_when_the_gate_is_on():
    found = diagnostics("", NODE + SLICE_1_37, "1.37", {"DRANodeAllocatableResources": True})
    assert any(d["detail"].endswith("(DRANodeAllocatableResources is on in Kubernetes 1.37)") for d in found)


def test_1_36_has_the_first_name_of_the_field_only():
    found = diagnostics("", NODE + SLICE_1_36, "1.36")
    assert [(d["severity"], d["field"]) for d in found] == [
        ("warning", "spec.devices[0].nodeAllocatableResourceMappings")]
    found = diagnostics("", NODE + SLICE_1_37, "1.36")
    assert [(d["severity"], d["type"]) for d in found] == [("error", "Parse error")] * 2
    assert 'unknown field "spec.devices[0].nodeAllocatableResources": resource.k8s.io/v1 in Kubernetes 1.36 ' \
           "has no such field (added in 1.37)" in [d["detail"] for d in found]


@pytest.mark.parametrize("release", ["1.34", "1.35"])
def test_before_1_36_the_fields_are_unknown(release):
    found = diagnostics("", NODE + SLICE_1_36, release)
    assert [(d["severity"], d["type"]) for d in found] == [("error", "Parse error")]


@pytest.mark.parametrize("release, gates", [("1.36", None), ("1.37", None),
                                            ("1.37", {"DRAWorkloadResourceClaims": True, "GenericWorkload": True})])
def test_a_pod_group_and_a_pods_scheduling_group_are_named_as_not_simulated(release, gates):
    found = diagnostics(POD_GROUP, "", release, gates)
    assert [(d["severity"], d["field"]) for d in found] == [("warning", "spec.schedulingGroup"), ("warning", "")]
    assert found[0]["line"] == 12
    assert found[0]["detail"].startswith("DRAWorkloadResourceClaims (claims reserved for a whole PodGroup) is not "
                                         "simulated: the pod is placed alone, with its own claims only")
    assert found[1]["detail"].startswith("DRAWorkloadResourceClaims (claims reserved for a whole PodGroup) is not "
                                         "simulated: the PodGroup's resourceClaims are not allocated")
    on = bool(gates)
    assert found[0]["detail"].endswith(f"(DRAWorkloadResourceClaims is {'on' if on else 'off'} in Kubernetes "
                                       f"{release})")


def test_1_35_has_no_scheduling_group():
    found = diagnostics(POD_GROUP, "", "1.35")
    assert [(d["severity"], d["field"], d["detail"]) for d in found] == [
        ("error", "spec.schedulingGroup",
         'unknown field "spec.schedulingGroup": v1 Pod in Kubernetes 1.35 has no such field (added in 1.36)')]


def test_validate_on_the_command_line_lists_them_as_warnings(tmp_path):
    import json

    from allocator.tests.helpers import cli, write_files

    paths = write_files(tmp_path, inventory=NODE + SLICE_1_37, pods=POD_GROUP)
    p = cli("validate", *paths)
    assert p.returncode == 0, p.stderr
    body = json.loads(p.stdout)
    assert body["valid"] and body["errors"] == []
    assert [(w["kind"], w["field"], w["type"]) for w in body["warnings"]] == [
        ("ResourceSlice", "spec.skipNodeOperations", "Not simulated"),
        ("ResourceSlice", "spec.devices[0].nodeAllocatableResources", "Not simulated"),
        ("Pod", "spec.schedulingGroup", "Not simulated"),
        ("PodGroup", "", "Not simulated")]
    p = cli("validate", "--kubernetes-version", "1.35", *paths)
    assert p.returncode == 1
    assert {e["type"] for e in json.loads(p.stdout)["errors"]} == {"Parse error"}
