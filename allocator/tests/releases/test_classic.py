"""Classic DRA in Kubernetes 1.31 (DRAControlPlaneController): valid with the gate, dropped without, unknown later."""

from __future__ import annotations

import pytest

from allocator.engine import analyze
from allocator.kube.objects import read_documents
from allocator.releases.gates import FeatureGateError, make_gates
from allocator.tests.helpers import cli
from allocator.validation import validate_documents

DRA_ON = {"DynamicResourceAllocation": True}
CLASSIC_ON = {**DRA_ON, "DRAControlPlaneController": True}

INVENTORY = """\
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
  suitableNodes:
    nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists}]}]
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: node-a-gpus}
spec:
  driver: gpu.example.com
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  nodeName: node-a
  devices: [{name: gpu-0, basic: {}}]
"""

CLAIM = """\
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: classic}
spec:
  controller: CONTROLLER
  devices:
    requests: [{name: gpu, deviceClassName: gpu}]
"""

TEMPLATE_AND_POD = """\
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaimTemplate
metadata: {name: classic-template}
spec:
  spec:
    controller: gpu.example.com
    devices:
      requests: [{name: gpu, deviceClassName: gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  containers: [{name: main, image: busybox, resources: {claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: classic-template}]
"""


def claim(controller: str = "gpu.example.com") -> str:
    return CLAIM.replace("CONTROLLER", controller)


def messages(report, severity="error"):
    return [(d.field, d.message()) for _, d in report.diagnostics if d.severity == severity]


def test_with_the_gate_the_fields_are_valid_and_the_controller_allocates_not_the_scheduler():
    report = analyze(claim(), INVENTORY, feature_gates=CLASSIC_ON, kubernetes_version="1.31")
    assert report.valid and messages(report, "warning") == []
    assert report.allocation.status == "controller"
    (reason,) = report.allocation.reasons
    assert reason.startswith("claim default/classic has spec.controller gpu.example.com: in Kubernetes 1.31 with "
                             "DRAControlPlaneController the control-plane controller of that driver allocates it")
    assert report.allocation.claims == []


def test_claims_from_a_classic_template_are_the_controllers_too():
    report = analyze(TEMPLATE_AND_POD, INVENTORY, feature_gates=CLASSIC_ON, kubernetes_version="1.31")
    assert report.valid and report.allocation.status == "controller"
    assert "claim default/trainer-gpu-" in report.allocation.reasons[0]


def test_the_controller_must_be_a_driver_name():
    report = analyze(claim("Not_A_Driver"), INVENTORY, feature_gates=CLASSIC_ON, kubernetes_version="1.31")
    ((field, message),) = messages(report)
    assert field == "spec.controller" and message.startswith('spec.controller: Invalid value: "Not_A_Driver": ')
    error = report.errors[0]
    assert (error.line, error.column) == (5, 3)


def test_without_the_gate_the_apiserver_drops_the_fields_and_the_scheduler_allocates():
    report = analyze(claim(), INVENTORY, feature_gates=DRA_ON, kubernetes_version="1.31")
    assert report.valid
    assert [f for f, _ in messages(report, "warning")] == ["spec.controller"]
    assert "dropped on create: the feature gate DRAControlPlaneController is off" in messages(report, "warning")[0][1]
    assert report.allocation.status == "allocated"


@pytest.mark.parametrize("release", ["1.32", "1.33"])
def test_from_1_32_on_the_fields_are_unknown(release):
    gates = make_gates(DRA_ON, release)
    found = validate_documents(read_documents(claim() + "---\n" + INVENTORY), gates)
    assert [(d.field, d.type, d.line) for d in found if d.severity == "error"] == [
        ("spec.controller", "Parse error", 5), ("spec.suitableNodes", "Parse error", 14)]
    assert 'unknown field "spec.controller": classic DRA with a control-plane controller was removed in ' \
           "Kubernetes 1.32" in str(found[0])
    with pytest.raises(FeatureGateError, match="^unrecognized feature gate: DRAControlPlaneController$"):
        make_gates(CLASSIC_ON, release)


def test_the_gate_needs_dynamic_resource_allocation():
    with pytest.raises(FeatureGateError, match="^DRAControlPlaneController feature requires DynamicResourceAllocation "
                                               "feature to be enabled$"):
        make_gates({"DRAControlPlaneController": True}, "1.31")


def test_cli_allocate_exits_1_for_a_classic_claim_and_0_without_the_gate():
    text = INVENTORY + "---\n" + claim()
    proc = cli("allocate", "--kubernetes-version", "1.31", "--feature-gates",
               "DynamicResourceAllocation=true,DRAControlPlaneController=true", "-", stdin=text)
    assert proc.returncode == 1, proc.stderr
    assert "the control-plane controller of that driver allocates it" in proc.stderr and proc.stdout == ""
    proc = cli("allocate", "--kubernetes-version", "1.31", "--feature-gates", "DynamicResourceAllocation=true", "-",
               stdin=text)
    assert proc.returncode == 0, proc.stderr
    proc = cli("allocate", "--kubernetes-version", "1.32", "--feature-gates", "DynamicResourceAllocation=true", "-",
               stdin=text)
    assert proc.returncode == 2 and 'unknown field "spec.controller"' in proc.stderr
