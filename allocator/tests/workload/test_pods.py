"""Pod claims: template instantiation like the resource-claim controller, and per-container devices."""

import pytest

from allocator.kube import model
from allocator.kube.objects import read_documents
from allocator.workload.pods import (
    POD_CLAIM_NAME_ANNOTATION,
    PodClaimError,
    claims_for_pod,
    container_devices,
    generated_claim_base,
)

POD_AND_TEMPLATE = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus}
spec:
  metadata:
    labels: {team: ml}
    annotations: {note: kept}
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com, count: 2}
      - name: nic
        firstAvailable:
        - {name: fast, deviceClassName: nic.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared}
spec:
  devices:
    requests:
    - name: any
      exactly: {deviceClassName: gpu.example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  resourceClaims:
  - {name: gpus, resourceClaimTemplateName: two-gpus}
  - {name: common, resourceClaimName: shared}
  initContainers:
  - name: setup
    image: busybox
    resources: {claims: [{name: common}]}
  containers:
  - name: main
    image: trainer
    resources:
      claims: [{name: gpus, request: gpu}, {name: common}]
  - name: net
    image: sidecar
    resources:
      claims: [{name: gpus, request: nic}]
"""


def _read():
    result = read_documents(POD_AND_TEMPLATE)
    assert result.errors == []
    return (result.of_kind("Pod")[0], result.of_kind("ResourceClaim"), result.of_kind("ResourceClaimTemplate"))


def test_template_claim_is_generated_like_the_controller():
    pod, claims, templates = _read()
    resolved = claims_for_pod(pod, claims, templates)
    generated = resolved[0]
    assert generated.template_name == "two-gpus"
    meta = generated.claim.metadata
    assert meta.generate_name == "trainer-gpus-"
    assert meta.name.startswith("trainer-gpus-") and len(meta.name) == len("trainer-gpus-") + 5
    assert meta.namespace == "default"
    assert meta.labels == {"team": "ml"}
    assert meta.annotations == {"note": "kept", POD_CLAIM_NAME_ANNOTATION: "gpus"}
    assert [r.name for r in generated.claim.spec.devices.requests] == ["gpu", "nic"]
    # The same input gives the same name, so links and tests are stable.
    assert claims_for_pod(pod, claims, templates)[0].claim.metadata.name == meta.name
    assert resolved[1].claim.metadata.name == "shared" and resolved[1].template_name is None


def test_generated_name_base_truncates_both_parts_proportionally():
    base = generated_claim_base("p" * 60, "c" * 20)
    assert len(base) <= 57
    pod_part, claim_part = base.split("-")
    assert len(pod_part) == 60 * 57 // 82 and len(claim_part) == 20 * 57 // 82


def test_missing_template_or_claim_is_an_error():
    pod, claims, _ = _read()
    with pytest.raises(PodClaimError, match='resource claim template "two-gpus" not found'):
        claims_for_pod(pod, claims, [])
    pod2, _, templates = _read()
    with pytest.raises(PodClaimError, match='resourceclaim "shared" not found'):
        claims_for_pod(pod2, [], templates)


def _result(request, device):
    return model.DeviceRequestAllocationResult(request=request, driver="d", pool="p", device=device)


def test_container_gets_whole_claim_or_only_its_request():
    pod, claims, templates = _read()
    resolved = claims_for_pod(pod, claims, templates)
    generated_name = resolved[0].claim.metadata.name
    allocations = {
        generated_name: model.AllocationResult(devices=model.DeviceAllocationResult(results=[
            _result("gpu", "gpu-0"), _result("gpu", "gpu-1"), _result("nic/fast", "nic-0")])),
        "shared": model.AllocationResult(devices=model.DeviceAllocationResult(results=[_result("any", "gpu-7")])),
    }
    view = container_devices(pod, resolved, allocations)
    got = [(v.container, v.init, v.pod_claim, v.request, [d.device for d in v.devices]) for v in view]
    assert got == [
        ("setup", True, "common", "", ["gpu-7"]),
        ("main", False, "gpus", "gpu", ["gpu-0", "gpu-1"]),
        ("main", False, "common", "", ["gpu-7"]),
        # A subrequest's result belongs to its parent request.
        ("net", False, "gpus", "nic", ["nic-0"]),
    ]


def test_unallocated_claim_gives_no_devices():
    pod, claims, templates = _read()
    view = container_devices(pod, claims_for_pod(pod, claims, templates), {})
    assert all(v.devices == [] for v in view) and len(view) == 4
