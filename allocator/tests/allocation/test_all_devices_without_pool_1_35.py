"""1.35's incubating and experimental allocators list an ``allocationMode: All`` request's devices without
their pool (k8s.io/dynamic-resource-allocation v0.35.x ``validateDeviceRequest``); checking the counters
of such a device then dereferences a nil pool and panics, which crashes kube-scheduler
(kubernetes/kubernetes#138882, fixed by #138885 after 1.35.4). The engine says so. 1.36 lists the pool;
1.34 counted counters by slice. Seen as the "not compared" cases of the 1.35 differential runs."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice

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
