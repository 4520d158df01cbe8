"""What each release serves, through the engine and the command line: refusals, DRA off, locked gates."""

from __future__ import annotations

import json

import pytest

from allocator.engine import analyze
from allocator.reading.diagnostics import NOT_SERVED
from allocator.releases.gates import FeatureGateError
from allocator.releases.table import RELEASES
from allocator.tests.helpers import cli
from allocator.tests.helpers.inventory import device_class

# The same cluster and claim in the shape every version writes them.
V1 = "\n" + device_class('gpu', 'device.driver == "gpu.example.com"') + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-gpus}
spec:
  driver: gpu.example.com
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  nodeName: node-a
  devices: [{name: gpu-0, capacity: {memory: {value: 40Gi}}}]
"""
V1_CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: one-gpu}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
"""


def older(version: str) -> str:
    """V1 in v1alpha3 / v1beta1 (devices under ``basic``; alpha capacities are bare quantities)."""
    capacity = "{memory: 40Gi}" if version == "v1alpha3" else "{memory: {value: 40Gi}}"
    return V1.replace("resource.k8s.io/v1", f"resource.k8s.io/{version}").replace(
        "{name: gpu-0, capacity: {memory: {value: 40Gi}}}", f"{{name: gpu-0, basic: {{capacity: {capacity}}}}}")


def older_claim(version: str) -> str:
    return V1_CLAIM.replace("resource.k8s.io/v1", f"resource.k8s.io/{version}").replace(
        "{name: gpu, exactly: {deviceClassName: gpu}}", "{name: gpu, deviceClassName: gpu}")


def refusals(report) -> list[str]:
    return [d.message() for d in report.errors if d.type == NOT_SERVED]


def test_v1_objects_on_1_31_with_dra_on_are_refused_with_the_served_version_named():
    report = analyze(V1_CLAIM, V1, feature_gates={"DynamicResourceAllocation": True}, kubernetes_version="1.31")
    assert not report.valid and report.allocation.status == "skipped"
    found = refusals(report)
    assert len(found) == 3  # the claim, the class, the slice
    assert found[0] == ('apiVersion: Not served: no matches for kind "ResourceClaim" in version '
                        '"resource.k8s.io/v1": not served by Kubernetes 1.31, which serves ResourceClaim in '
                        'resource.k8s.io/v1alpha3')
    claim_error = report.errors[0]
    assert (claim_error.line, claim_error.column) == (2, 1)
    assert "--runtime-config=resource.k8s.io/v1alpha3=true" in claim_error.hint


def test_v1alpha3_objects_on_1_31_with_dra_on_allocate():
    report = analyze(older_claim("v1alpha3"), older("v1alpha3"),
                     feature_gates={"DynamicResourceAllocation": True}, kubernetes_version="1.31")
    assert report.valid, [str(d) for d in report.errors]
    assert report.dra_off is None
    assert report.allocation.status == "allocated"


@pytest.mark.parametrize("release", ["1.31", "1.32", "1.33"])
def test_dra_is_off_by_default_before_1_34_and_the_answer_names_the_gate(release):
    report = analyze(V1_CLAIM, V1, kubernetes_version=release)
    stage = "alpha" if release == "1.31" else "beta"
    assert report.dra_off.startswith(
        f"Dynamic Resource Allocation is off: the feature gate DynamicResourceAllocation is {stage} and off by "
        f"default in Kubernetes {release}")
    assert "Turn on DynamicResourceAllocation" in report.dra_off
    assert report.allocation.reasons == [report.dra_off]
    assert all("while DynamicResourceAllocation is off" in m for m in refusals(report))
    assert report.to_dict()["draOff"] == report.dra_off


def test_dra_set_off_on_1_34_says_it_was_set_and_v1_is_still_served():
    # 1.34's apiserver installs the resource.k8s.io storage whatever the gate says, and v1 is GA (on by
    # default): the claim is stored; only the scheduler leaves it alone.
    report = analyze(V1_CLAIM, V1, feature_gates={"DynamicResourceAllocation": False}, kubernetes_version="1.34")
    assert "DynamicResourceAllocation is set to false" in report.dra_off
    assert "still serves resource.k8s.io/v1" in report.dra_off
    assert report.valid and refusals(report) == []
    assert report.allocation.status == "skipped" and report.allocation.reasons == [report.dra_off]


def test_dra_set_off_on_1_34_the_beta_versions_count_as_not_enabled():
    # Beta versions need --runtime-config; the model enables them only together with the gate.
    report = analyze(older_claim("v1beta1"), V1, feature_gates={"DynamicResourceAllocation": False},
                     kubernetes_version="1.34")
    assert refusals(report) == ['apiVersion: Not served: no matches for kind "ResourceClaim" in version '
                                '"resource.k8s.io/v1beta1": not served by Kubernetes 1.34, which serves '
                                'ResourceClaim in resource.k8s.io/v1']


POD_WITH_CLAIM = """
apiVersion: v1
kind: Pod
metadata: {name: worker}
spec:
  containers: [{name: main, image: busybox, resources: {claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimName: one-gpu}]
"""
NODES = "".join(f"---\napiVersion: v1\nkind: Node\nmetadata: {{name: {n}}}\n" for n in ("node-a", "node-b"))


def test_cli_with_dra_off_on_1_34_schedules_the_pod_without_its_claims():
    proc = cli("allocate", "--kubernetes-version", "1.34", "--feature-gates", "DynamicResourceAllocation=false", "-",
               stdin=V1 + NODES + "---" + V1_CLAIM + "---" + POD_WITH_CLAIM)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    # Both nodes fit (node-b has no GPU): the claim was dropped from the pod and nothing is allocated.
    assert out["claims"] == [] and [(n["name"], n["fits"]) for n in out["nodes"]] == [("node-a", True),
                                                                                      ("node-b", True)]
    assert "note: Dynamic Resource Allocation is off" in proc.stderr
    # With the gate on, only node-a fits.
    proc = cli("allocate", "--kubernetes-version", "1.34", "-", stdin=V1 + NODES + "---" + V1_CLAIM + "---" + POD_WITH_CLAIM)
    assert proc.returncode == 0 and [n["fits"] for n in json.loads(proc.stdout)["nodes"]] == [True, False]


@pytest.mark.parametrize("release", ["1.35", "1.36", "1.37"])
def test_dynamic_resource_allocation_is_locked_on_from_1_35(release):
    with pytest.raises(FeatureGateError, match="^cannot set feature gate DynamicResourceAllocation to false, "
                                               "feature is locked to true$"):
        analyze(V1_CLAIM, V1, feature_gates={"DynamicResourceAllocation": False}, kubernetes_version=release)


@pytest.mark.parametrize("release", RELEASES[3:])
def test_v1_allocates_from_1_34_on(release):
    report = analyze(V1_CLAIM, V1, kubernetes_version=release)
    assert report.valid and report.allocation.status == "allocated" and report.dra_off is None


@pytest.mark.parametrize("release, version, served", [
    ("1.32", "v1", True), ("1.32", "v1beta1", True), ("1.33", "v1beta1", True), ("1.34", "v1alpha3", False),
    ("1.37", "v1alpha3", False), ("1.37", "v1beta1", True), ("1.31", "v1beta1", False),
])
def test_each_release_serves_its_versions(release, version, served):
    claim = V1_CLAIM if version == "v1" else older_claim(version)
    inventory = V1 if version == "v1" else older(version)
    report = analyze(claim, inventory, feature_gates={"DynamicResourceAllocation": True} if release < "1.34" else None,
                     kubernetes_version=release)
    if release == "1.32" and version == "v1":
        served = False  # v1 arrived in 1.34
    assert bool(refusals(report)) is not served, refusals(report)
    assert (report.allocation.status == "allocated") is served


def test_the_inventory_is_refused_too_and_says_where():
    report = analyze(older_claim("v1beta1"), V1, feature_gates={"DynamicResourceAllocation": True},
                     kubernetes_version="1.33")
    sources = {source for source, d in report.diagnostics if d.type == NOT_SERVED}
    assert sources == {"inventory"}


# ----------------------------------------------------------------------------------------------- command line


def test_cli_refuses_what_the_release_does_not_serve_with_exit_2():
    proc = cli("allocate", "--kubernetes-version", "1.31", "--feature-gates", "DynamicResourceAllocation=true", "-",
               stdin=V1 + "---" + V1_CLAIM)
    assert proc.returncode == 2
    assert "not served by Kubernetes 1.31, which serves ResourceClaim in resource.k8s.io/v1alpha3" in proc.stderr
    proc = cli("validate", "--kubernetes-version", "1.31", "-o", "json", "-", stdin=V1_CLAIM)
    assert proc.returncode == 2
    (error,) = json.loads(proc.stdout)["errors"]
    assert error["type"] == "Not served" and error["field"] == "apiVersion"
    assert "while DynamicResourceAllocation is off" in error["detail"]


def test_cli_allocates_v1alpha3_on_1_31_and_v1_by_default():
    proc = cli("allocate", "--kubernetes-version", "1.31", "--feature-gates", "DynamicResourceAllocation=true", "-",
               stdin=older("v1alpha3") + "---" + older_claim("v1alpha3"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["node"] == "node-a"
    assert cli("allocate", "-", stdin=V1 + "---" + V1_CLAIM).returncode == 0
    # 1.37 (the default) no longer serves v1alpha3
    proc = cli("allocate", "-", stdin=older("v1alpha3") + "---" + older_claim("v1alpha3"))
    assert proc.returncode == 2 and "which serves ResourceClaim in resource.k8s.io/v1, " in proc.stderr


@pytest.mark.parametrize("command", ["allocate", "validate"])
def test_cli_refuses_unknown_releases_and_locked_gates_of_a_named_release(command):
    proc = cli(command, "--kubernetes-version", "1.30", "-", stdin=V1_CLAIM)
    assert proc.returncode == 2 and "unsupported Kubernetes release '1.30'" in proc.stderr
    proc = cli(command, "--kubernetes-version", "1.37", "--feature-gates", "DRAPrioritizedList=false", "-",
               stdin=V1 + "---" + V1_CLAIM)
    assert proc.returncode == 2
    assert "cannot set feature gate DRAPrioritizedList to false, feature is locked to true" in proc.stderr
    # 1.36: GA but not locked yet
    proc = cli(command, "--kubernetes-version", "1.36", "--feature-gates", "DRAPrioritizedList=false", "-",
               stdin=V1 + "---" + V1_CLAIM)
    assert proc.returncode == 0, proc.stderr


def test_an_unserved_object_is_refused_as_such_even_when_its_fields_are_of_another_version():
    # v1's `exactly` in a v1alpha3 claim: on 1.37 the apiserver answers 404 before decoding anything.
    claim = V1_CLAIM.replace("resource.k8s.io/v1", "resource.k8s.io/v1alpha3")
    report = analyze(claim, V1)
    assert [d.type for d in report.errors] == [NOT_SERVED]
    assert "which serves ResourceClaim in resource.k8s.io/v1, " in report.errors[0].message()
    # Where the version is served, the same object gets its unknown field.
    report = analyze(claim, older("v1alpha3"), feature_gates={"DynamicResourceAllocation": True},
                     kubernetes_version="1.33")
    assert [(d.type, d.field) for d in report.errors] == [("Parse error", "spec.devices.requests[0].exactly")]
    proc = cli("allocate", "-", stdin=V1 + "---" + claim)
    assert proc.returncode == 2 and "Not served" in proc.stderr and "exactly" not in proc.stderr
