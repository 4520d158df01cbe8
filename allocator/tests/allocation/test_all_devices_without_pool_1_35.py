"""1.35's incubating and experimental allocators list an ``allocationMode: All`` request's devices without
their pool (k8s.io/dynamic-resource-allocation v0.35.x ``validateDeviceRequest``); checking the counters
of such a device then dereferences a nil pool and panics, which crashes kube-scheduler
(kubernetes/kubernetes#138882, fixed by #138885 after 1.35.4). The engine says so. 1.36 lists the pool;
1.34 counted counters by slice. Seen as the "not compared" cases of the 1.35 differential runs."""

import pytest

from allocator.allocation.allocator import Allocator
from allocator.allocation.inputs import UNBOUNDED, SearchInputs, SearchOptions
from allocator.engine import analyze
from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice
from allocator.tests.helpers.proofs import CLASSES, NODE, claim, exact, gpus

INPUT = inventory(
    node("node-a", hostname=False), device_class("gpu"),
    resource_slice("counters", driver="gpu.example.com", node="node-a", pool="node-a", pool_slices=2,
                   generation=None, shared_counters={"mem": {"memory": "8Gi"}}),
    resource_slice("devices", driver="gpu.example.com", node="node-a", pool="node-a", pool_slices=2,
                   generation=None, devices=[device("half", consumes={"mem": {"memory": "4Gi"}})]),
) + """---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: every, exactly: {deviceClassName: gpu, allocationMode: All}}
"""


def allocation(release: str) -> dict:
    return analyze(INPUT, kubernetes_version=release, node="node-a",
                   feature_gates={"DRAPartitionableDevices": True}).to_dict()["allocation"]


def test_in_1_35_an_all_request_over_a_device_with_counters_crashes_the_scheduler():
    found = allocation("1.35")
    assert found["status"] == "error"
    assert "kube-scheduler 1.35 crashes here" in found["error"]
    assert "nil pointer dereference (kubernetes/kubernetes#138882" in found["error"]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_from_1_36_the_device_is_allocated(release):
    found = allocation(release)
    assert found["status"] == "allocated"


# Eight GPUs, none consuming counters. Claim "three" takes three of them one by one; claim "rest" asks for two
# more and the four on NUMA node 0 (All): nine devices in all, so no allocation exists. Walked plainly, the
# search tries every pair for "rest" after every ordered choice of "three" (8 x 7 x 6) before it says so; the
# memo of failed states searches "rest" once for each set of three devices taken.
TOO_MANY = gpus(8) + claim("three", exact("a", "gpu") + exact("b", "gpu") + exact("c", "gpu")) + claim(
    "rest", exact("two", "gpu", 2) + "    - {name: numa0, exactly: {deviceClassName: gpu, allocationMode: All, "
            "selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].numa == 0'}}]}}\n")


def outcomes(text: str, release: str):
    """(plain, with proofs) outcomes of every claim of ``text`` on node-0 under ``release``."""
    docs = read_documents(CLASSES + text).documents
    of = lambda kind: [d.obj for d in docs if d.kind == kind]  # noqa: E731
    node = next(n for n in of("Node") if n.metadata.name == NODE)
    return [Allocator(SearchInputs(of("DeviceClass"), of("ResourceSlice")), make_gates(release=release),
                      limits=UNBOUNDED, options=SearchOptions(prove=prove)).allocate(node, of("ResourceClaim"))
            for prove in (False, True)]


@pytest.mark.parametrize("release", ["1.34", "1.35", "1.36"])
def test_an_all_request_without_counters_leaves_the_proofs_at_work(release):
    # 1.35 crashes only on the counters of an All request's device: without them the search cannot reach the
    # crash, and the memo of failed states cuts the search short as in the other releases (the 1.35 scheduler
    # case of seed 2 that hit the step limit: allocator/tests/data/upstream/).
    plain, proved = outcomes(TOO_MANY, release)
    assert not plain.allocated and not proved.allocated
    assert plain.steps > 1000
    assert proved.steps < plain.steps // 2
