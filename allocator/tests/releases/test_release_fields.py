"""The fields each resource.k8s.io version has per release: a field the release's types lack is an unknown field."""

from __future__ import annotations

import json

import pytest

from allocator.engine import analyze
from allocator.kube.convert import CLASSIC_FIELDS
from allocator.releases import fields as release_fields
from allocator.releases.gates import make_gates, stored_object_gates
from allocator.releases.table import RELEASES, Release, release_key
from allocator.tests.helpers import cli, read_uncached
from allocator.validation import validate_documents

DRA_ON = {"DynamicResourceAllocation": True}

FIRST_AVAILABLE = """\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata:
  name: big-or-any
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - name: any
        deviceClassName: gpu.example.com
"""
FIRST_AVAILABLE_AT = (9, 7)  # the key's line and column

ADMIN_ACCESS_V1ALPHA3 = """\
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: admin}
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
      adminAccess: true
"""

INVENTORY_V1ALPHA3 = """\
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
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


def diagnostics(text: str, release: str, gates=None, fast: bool = True):
    """Diagnostics of ``text`` on ``release`` with DRA on (or ``gates``: a FeatureGates)."""
    result = read_uncached(text, fast)
    return validate_documents(result, gates or make_gates(DRA_ON, release), text)


def unknown(found) -> list:
    return [d for d in found if "unknown field" in d.detail]


@pytest.mark.parametrize("fast", [True, False], ids=["fast reader", "positioned reader"])
def test_first_available_in_v1beta1_on_1_32_is_an_unknown_field_located_at_its_key(fast):
    (error,) = diagnostics(FIRST_AVAILABLE, "1.32", fast=fast)
    assert error.severity == "error" and error.type == "Parse error"
    assert error.field == "spec.devices.requests[0].firstAvailable"
    assert error.detail == ('unknown field "spec.devices.requests[0].firstAvailable": resource.k8s.io/v1beta1 '
                            "in Kubernetes 1.32 has no such field (added in 1.33)")
    assert (error.kind, error.name, error.line, error.column) == ("ResourceClaim", "big-or-any", *FIRST_AVAILABLE_AT)


def test_first_available_on_1_33_with_its_gate_off_is_dropped_not_unknown():
    found = diagnostics(FIRST_AVAILABLE, "1.33")
    assert unknown(found) == []
    assert [(d.field, d.detail) for d in found if d.severity == "warning"] == [
        ("spec.devices.requests[0].firstAvailable", "dropped by the apiserver: feature gate DRAPrioritizedList is disabled")]


def test_first_available_on_1_34_is_fine():
    assert diagnostics(FIRST_AVAILABLE, "1.34") == []


def test_admin_access_in_v1alpha3_on_1_31_is_accepted_and_honoured():
    assert diagnostics(ADMIN_ACCESS_V1ALPHA3, "1.31") == []  # no gate yet: neither unknown nor dropped
    report = analyze(ADMIN_ACCESS_V1ALPHA3, INVENTORY_V1ALPHA3, feature_gates=DRA_ON, kubernetes_version="1.31")
    assert report.valid and report.allocation.status == "allocated", report.allocation
    (result,) = report.allocation.claims[0].written["status"]["allocation"]["devices"]["results"]
    # 1.31's result has no adminAccess field (the next test), and its allocator writes none (checked against
    # the real 1.31 scheduler: release rule results_record_admin_access).
    assert "adminAccess" not in result and result["device"]


def test_a_v1alpha3_allocation_result_with_admin_access_is_unknown_on_1_31_and_known_on_1_32():
    allocated = ADMIN_ACCESS_V1ALPHA3 + """\
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: node-a, device: gpu-0, adminAccess: true}
"""
    (error,) = unknown(diagnostics(allocated, "1.31"))
    assert error.field == "status.allocation.devices.results[0].adminAccess"
    assert error.detail.endswith("resource.k8s.io/v1alpha3 in Kubernetes 1.31 has no such field (added in 1.32)")
    assert unknown(diagnostics(allocated, "1.32")) == []


# (apiVersion, kind, spec as YAML lines under spec:, the field path as written, first release with it)
FIELD_CASES = [
    ("v1beta1", "ResourceSlice", "  driver: d.example.com\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n"
     "  devices:\n  - name: d0\n    basic:\n      taints: [{key: k, effect: NoSchedule}]\n",
     "spec.devices[0].basic.taints", "1.33"),
    ("v1beta1", "ResourceSlice", "  driver: d.example.com\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n"
     "  devices:\n  - name: d0\n    basic:\n      bindsToNode: true\n",
     "spec.devices[0].basic.bindsToNode", "1.34"),
    ("v1beta1", "ResourceSlice", "  driver: d.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
     "  perDeviceNodeSelection: true\n  devices: []\n",
     "spec.perDeviceNodeSelection", "1.33"),
    ("v1beta2", "ResourceSlice", "  driver: d.example.com\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n"
     "  devices:\n  - name: d0\n    allowMultipleAllocations: true\n",
     "spec.devices[0].allowMultipleAllocations", "1.34"),
    ("v1beta2", "ResourceSlice", "  driver: d.example.com\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n"
     "  devices:\n  - name: d0\n    capacity:\n      mem:\n        value: 1Gi\n        requestPolicy: {default: 1Gi}\n",
     "spec.devices[0].capacity[mem].requestPolicy", "1.34"),
    ("v1", "ResourceSlice", "  driver: d.example.com\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n"
     "  devices:\n  - name: d0\n    attributes:\n      numa: {ints: [0, 1]}\n",
     "spec.devices[0].attributes[numa].ints", "1.36"),
    ("v1beta2", "DeviceClass", "  extendedResourceName: example.com/gpu\n", "spec.extendedResourceName", "1.34"),
    ("v1beta1", "ResourceClaim", "  devices:\n    requests:\n    - name: r\n      deviceClassName: c\n"
     "      tolerations: [{key: k, operator: Exists}]\n",
     "spec.devices.requests[0].tolerations", "1.33"),
    ("v1beta1", "ResourceClaim", "  devices:\n    requests:\n    - name: r\n      deviceClassName: c\n"
     "      capacity: {requests: {mem: 1Gi}}\n",
     "spec.devices.requests[0].capacity", "1.34"),
    ("v1beta2", "ResourceClaim", "  devices:\n    requests:\n    - name: r\n      exactly:\n"
     "        deviceClassName: c\n        capacity: {requests: {mem: 1Gi}}\n",
     "spec.devices.requests[0].exactly.capacity", "1.34"),
    ("v1beta2", "ResourceClaim", "  devices:\n    requests:\n    - name: r\n      exactly: {deviceClassName: c}\n"
     "    - name: s\n      exactly: {deviceClassName: c}\n    constraints:\n    - distinctAttribute: c/numa\n",
     "spec.devices.constraints[0].distinctAttribute", "1.34"),
    ("v1alpha3", "ResourceClaim", "  devices:\n    requests: [{name: r, deviceClassName: c}]\nstatus:\n  devices: []\n",
     "status.devices", "1.32"),
]


@pytest.mark.parametrize(("version", "kind", "spec", "path", "since"), FIELD_CASES,
                         ids=[f"{c[0]} {c[3]}" for c in FIELD_CASES])
def test_a_field_is_unknown_exactly_in_the_releases_before_it(version, kind, spec, path, since):
    text = f"apiVersion: resource.k8s.io/{version}\nkind: {kind}\nmetadata: {{name: x}}\nspec:\n{spec}"
    served = [r for r in RELEASES if version in Release(r).could_serve(kind)]
    assert served
    for release in served:
        # Every gate of the release on, so that nothing is dropped and only the field's existence decides.
        found = [d for d in unknown(diagnostics(text, release, stored_object_gates(release))) if d.field == path]
        if release_key(release) < release_key(since):
            assert len(found) == 1, (release, found)
            assert found[0].detail == (f'unknown field "{path}": resource.k8s.io/{version} in Kubernetes {release} '
                                       f"has no such field (added in {since})")
            key = path.rsplit(".", 1)[-1]
            assert text.splitlines()[found[0].line - 1][found[0].column - 1:].startswith(key)
        else:
            assert found == [], (release, found)


def test_the_table_agrees_with_the_classic_fields_and_answers_for_fields_it_does_not_list():
    removed = {("v1alpha3", t, f) for (t, f), s in release_fields.FIELDS["v1alpha3"].items() if s.removed == "1.32"}
    assert removed == set(CLASSIC_FIELDS)
    assert release_fields.missing("v1beta1", "DeviceRequest", "name", "1.32") is None
    assert release_fields.missing("v1alpha3", "DeviceRequest", "adminAccess", "1.31") is None
    assert release_fields.missing("v1beta2", "Device", "nodeAllocatableResourceMappings", "1.37") == \
        "resource.k8s.io/v1beta2 in Kubernetes 1.37 has no such field (removed in 1.37)"


def test_a_release_unknown_field_joins_the_other_unknown_fields_of_an_unreadable_object():
    text = FIRST_AVAILABLE.replace("    - name: gpu\n", "    - name: gpu\n      colour: red\n")
    found = diagnostics(text, "1.32")
    assert [d.field for d in found] == ["spec.devices.requests[0].colour", "spec.devices.requests[0].firstAvailable"]
    assert all(d.type == "Parse error" for d in found)


def test_an_object_with_a_field_its_release_lacks_is_not_validated_further():
    text = FIRST_AVAILABLE.replace("name: big-or-any", "name: Not_A_Name")
    assert [d.field for d in diagnostics(text, "1.32")] == ["spec.devices.requests[0].firstAvailable"]
    assert "metadata.name" in [d.field for d in diagnostics(text, "1.34")]


def test_an_inventory_slice_with_a_later_field_makes_the_report_invalid():
    slice_1_34 = """\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: n
  devices: [{name: d0, basic: {allowMultipleAllocations: true}}]
"""
    report = analyze("", slice_1_34, feature_gates=DRA_ON, kubernetes_version="1.33")
    assert not report.valid
    (source, error), = [(s, d) for s, d in report.diagnostics if d.severity == "error"]
    assert source == "inventory" and error.field == "spec.devices[0].basic.allowMultipleAllocations"
    assert analyze("", slice_1_34, kubernetes_version="1.34").valid


def test_cli_validate_refuses_first_available_on_1_32_as_invalid_input():
    proc = cli("validate", "--kubernetes-version", "1.32", "--feature-gates", "DynamicResourceAllocation=true",
               "-o", "json", "-", stdin=FIRST_AVAILABLE)
    assert proc.returncode == 1, proc.stderr
    printed = json.loads(proc.stdout)
    assert printed["valid"] is False
    (error,) = printed["errors"]
    assert (error["field"], error["type"], error["line"], error["column"]) == (
        "spec.devices.requests[0].firstAvailable", "Parse error", *FIRST_AVAILABLE_AT)
    assert "has no such field (added in 1.33)" in error["detail"]
    proc = cli("validate", "--kubernetes-version", "1.34", "-", stdin=FIRST_AVAILABLE)
    assert proc.returncode == 0, proc.stdout


def test_cli_allocate_refuses_it_like_any_invalid_input():
    proc = cli("allocate", "--kubernetes-version", "1.32", "--feature-gates", "DynamicResourceAllocation=true", "-",
               stdin=FIRST_AVAILABLE)
    assert proc.returncode == 2
    assert 'unknown field "spec.devices.requests[0].firstAvailable"' in proc.stderr and proc.stdout == ""
