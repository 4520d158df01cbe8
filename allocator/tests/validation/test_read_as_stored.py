"""Objects read from a cluster are stored objects (issue 33 item 4).

A claim carrying ``metadata.uid`` or ``metadata.resourceVersion``, as ``kubectl get -o yaml`` prints it,
already passed the apiserver: the fields of a feature gate that is off now stay (the registry strategies
drop them in PrepareForCreate only), and the scheduler's allocator then refuses them with upstream's words.
The words were read in k8s.io/dynamic-resource-allocation/structured at v0.32.13, v0.33.13, v0.34.9,
v0.35.6 and v0.36.2: the same in every release that has the check.
"""

from __future__ import annotations

import pytest

from allocator.engine import analyze
from allocator.tests.helpers import read_uncached
from allocator.tests.helpers.stored_objects import CREATED, STORED, claim, first_available, inventory

SUBREQUESTS = "claim default/c, request r: has subrequests, but the DRAPrioritizedList feature is disabled"
ADMIN = "claim default/c, request r: admin access is requested, but the feature is disabled"
CAPACITY = "claim default/c, request r: has capacity requests, but the DRAConsumableCapacity feature is disabled"


def admin_access(version: str) -> str:
    if version == "v1beta1":
        return "      deviceClassName: gpu\n      adminAccess: true\n"
    return "      exactly: {deviceClassName: gpu, adminAccess: true}\n"


def capacity(version: str) -> str:
    return "      exactly: {deviceClassName: gpu, capacity: {requests: {memory: 1Gi}}}\n"


def run(release: str, gates: dict, text: str, version: str):
    if release in ("1.32", "1.33"):  # DRA was off by default before 1.34
        gates = {"DynamicResourceAllocation": True, **gates}
    return analyze(text, inventory(version), feature_gates=gates, kubernetes_version=release)


# (release, gates, the resource.k8s.io version that release serves, the request, upstream's refusal)
REFUSALS = [
    *[(release, {"DRAPrioritizedList": False}, version, first_available, SUBREQUESTS)
      for release, version in (("1.33", "v1beta1"), ("1.34", "v1"), ("1.35", "v1"), ("1.36", "v1"))],
    *[(release, {"DRAAdminAccess": False}, version, admin_access, ADMIN)
      for release, version in (("1.32", "v1beta1"), ("1.33", "v1beta1"), ("1.34", "v1"), ("1.35", "v1"))],
    # 1.34's DRAResourceClaimDeviceStatus (on by default) picks the experimental implementation, which checks.
    ("1.34", {}, "v1", capacity, CAPACITY),
    # From 1.35 the implementations that check are chosen with binding conditions and device status on.
    *[(release, {"DRAConsumableCapacity": False, "DRADeviceBindingConditions": True,
                 "DRAResourceClaimDeviceStatus": True}, "v1", capacity, CAPACITY)
      for release in ("1.35", "1.36", "1.37")],
]


@pytest.mark.parametrize(("release", "gates", "version", "request_body", "refusal"), REFUSALS,
                         ids=[f"{r[0]}-{r[3].__name__}" for r in REFUSALS])
def test_a_stored_claim_keeps_the_fields_of_a_disabled_feature_and_the_allocator_refuses_them(
        release, gates, version, request_body, refusal):
    report = run(release, gates, claim(version, STORED, request_body(version)), version)
    assert not report.errors
    assert not [d for d in report.warnings if "dropped by the apiserver" in d.detail]
    assert report.allocation.status == "error"
    assert report.allocation.error == refusal
    assert report.to_dict()["storedObjects"] == [{"kind": "ResourceClaim", "namespace": "default", "name": "c"}]


@pytest.mark.parametrize(("release", "gates", "version", "request_body", "refusal"), REFUSALS,
                         ids=[f"{r[0]}-{r[3].__name__}" for r in REFUSALS])
def test_the_same_claim_created_now_loses_the_fields_first(release, gates, version, request_body, refusal):
    report = run(release, gates, claim(version, CREATED, request_body(version)), version)
    assert [d.detail for d in report.warnings if "dropped by the apiserver" in d.detail]
    assert "storedObjects" not in report.to_dict()
    if request_body is first_available:
        # Nothing is left of the request: the apiserver refuses the create.
        assert [d.detail for d in report.errors] == ["exactly one of `exactly` or `firstAvailable` is required"]
    else:
        assert report.allocation.status == "allocated", report.allocation
        [granted] = [grant.written for grant in report.allocation.claims]
        assert granted["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-0"


def test_resource_version_alone_makes_a_claim_stored():
    text = claim("v1", 'metadata: {name: c, resourceVersion: "5"}', first_available("v1"))
    report = run("1.34", {"DRAPrioritizedList": False}, text, "v1")
    assert report.allocation.error == SUBREQUESTS


def test_with_the_gate_on_a_stored_claim_is_allocated_and_still_listed():
    report = run("1.34", {}, claim("v1", STORED, first_available("v1")), "v1")
    assert report.allocation.status == "allocated"
    assert report.to_dict()["storedObjects"] == [{"kind": "ResourceClaim", "namespace": "default", "name": "c"}]


POD = """\
apiVersion: v1
kind: Pod
metadata: {name: p, uid: 0d8e6f4a-1b2c-4d3e-9f00-112233445566}
spec:
  containers: [{name: main, image: busybox, resources: {claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]
"""
TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: t, uid: 7a7b7c7d-0000-4000-8000-000000000001}
spec:
  spec:
    devices:
      requests:
      - name: r
        firstAvailable:
        - {name: a, deviceClassName: gpu}
"""


def test_a_template_is_checked_as_a_create_since_its_claims_are_created_now():
    # The resource-claim controller creates the pod's claim through the apiserver, which drops firstAvailable
    # with DRAPrioritizedList off: the claim it would make is invalid, whenever the template was stored.
    report = run("1.34", {"DRAPrioritizedList": False}, POD + "---\n" + TEMPLATE, "v1")
    assert [(d.kind, d.field, d.detail) for d in report.errors] == [
        ("ResourceClaimTemplate", "spec.spec.devices.requests[0]",
         "exactly one of `exactly` or `firstAvailable` is required")]
    # Only pending claims are listed: a pod's checks do not depend on the gates.
    assert "storedObjects" not in report.to_dict()


def test_a_stored_template_s_claim_is_created_without_the_fields_of_a_disabled_feature():
    template = TEMPLATE.replace("        firstAvailable:\n        - {name: a, deviceClassName: gpu}\n",
                                "        exactly: {deviceClassName: gpu, adminAccess: true}\n")
    report = run("1.34", {"DRAAdminAccess": False}, POD + "---\n" + template, "v1")
    assert report.allocation.status == "allocated", report.allocation
    [granted] = [grant.written for grant in report.allocation.claims]
    assert "adminAccess" not in granted["spec"]["devices"]["requests"][0]["exactly"]


def test_an_allocated_claim_is_stored_anyway_and_not_listed():
    allocated = claim("v1", STORED, capacity("v1")).replace("metadata: {name: c,", "metadata: {name: held,") + """\
status:
  allocation:
    devices:
      results: [{request: r, driver: gpu.example.com, pool: n1, device: gpu-0}]
"""
    assert "storedObjects" not in run("1.34", {}, allocated, "v1").to_dict()


@pytest.mark.parametrize("fast", [True, False])
def test_both_readers_see_where_an_object_comes_from(fast):
    read = read_uncached(claim("v1", STORED, first_available("v1")) + "---\n"
                         + claim("v1", CREATED, first_available("v1")).replace("name: c", "name: d"), fast=fast)
    assert [d.from_cluster for d in read.documents] == [True, False]
