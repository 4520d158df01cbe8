"""1.35's incubating and experimental allocators list an ``allocationMode: All`` request's devices without
their pool (k8s.io/dynamic-resource-allocation v0.35.x ``validateDeviceRequest``); checking the counters
of such a device then dereferences a nil pool and panics, which crashes kube-scheduler
(kubernetes/kubernetes#138882, fixed by #138885 after 1.35.4). The engine says so. 1.36 lists the pool;
1.34 counted counters by slice. Seen as the "not compared" cases of the 1.35 differential runs."""

import pytest

from allocator.engine import analyze

INPUT = """
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: counters}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, resourceSliceCount: 2}
  sharedCounters:
  - {name: mem, counters: {memory: {value: 8Gi}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: devices}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, resourceSliceCount: 2}
  devices:
  - {name: half, consumesCounters: [{counterSet: mem, counters: {memory: {value: 4Gi}}}]}
---
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
