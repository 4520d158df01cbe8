"""kube-scheduler schedules a pod by the claims its ``spec.resourceClaims`` names. A pending claim beside
the pod that it does not name is not the pod's: nothing allocates it, and it cannot keep the pod from a
node. Found by the differential run (schedule-1.32-verdict-223c0ce5: the real scheduler binds the pod,
and the same input was bound by it on 1.33, 1.34 and 1.37 too)."""

import pytest

from allocator.engine import analyze
from allocator.kube.objects import read_documents
from allocator.tests.helpers.inventory import device_class, inventory, node, resource_slice
from allocator.workload.claims import build_workload

INVENTORY = inventory(
    node("node-a"),
    device_class("gpu"),
    resource_slice("node-a", driver="gpu.example.com", node="node-a", devices=["gpu-0"]),
)

CLAIMS = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: mine}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: other}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu, count: 5}}]}}
"""


def pod(*claims: str) -> str:
    named = ", ".join(f"{{name: c{i}, resourceClaimName: {name}}}" for i, name in enumerate(claims))
    return f"""---
apiVersion: v1
kind: Pod
metadata: {{name: web}}
spec:
  resourceClaims: [{named}]
  containers: [{{name: main, image: busybox}}]
"""


def workload(text: str):
    read = read_documents(text)
    return build_workload(read.of_kind("ResourceClaim"), read.of_kind("ResourceClaimTemplate"), read.of_kind("Pod"))


def test_beside_a_pod_only_the_claims_it_names_are_pending():
    work = workload(CLAIMS + pod("mine"))
    assert [c.metadata.name for c in work.pending] == ["mine"]
    assert [c.metadata.name for c in work.unnamed] == ["other"]


def test_without_a_pod_every_pending_claim_is_allocated_together():
    work = workload(CLAIMS)
    assert [c.metadata.name for c in work.pending] == ["mine", "other"]
    assert work.unnamed == []


@pytest.mark.parametrize("release", ["1.34", "1.37"])
def test_an_unnamed_claim_that_cannot_fit_does_not_keep_the_pod_from_the_node(release):
    # "other" asks for five devices of one: were it the pod's, no node would fit.
    data = analyze(CLAIMS + pod("mine"), INVENTORY, kubernetes_version=release).to_dict()
    assert data["allocation"]["status"] == "allocated" and data["allocation"]["node"] == "node-a"
    assert [c["metadata"]["name"] for c in data["allocation"]["claims"]] == ["mine"]


def test_a_pod_naming_no_claim_leaves_the_pending_ones_and_says_so():
    data = analyze(CLAIMS + pod(), INVENTORY).to_dict()
    assert data["allocation"]["status"] == "skipped"
    assert data["allocation"]["reasons"] == [
        "no pending ResourceClaim that a pod names: nothing to allocate (kube-scheduler schedules a pod by "
        "its own claims and leaves default/mine, default/other pending)"]
