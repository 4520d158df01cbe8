"""1.34's allocator takes a multi-allocatable device's counters for every share it gives out (v0.34.x
``allocateDevice`` has no skip); from 1.35 a device shared already does not take them again
(``skipCounterCheck``). Found by the differential run's stored objects on 1.34 (seed 1, case 166)."""

import pytest

from allocator.engine import analyze


def case(count: int) -> str:
    return f"""
apiVersion: v1
kind: Node
metadata: {{name: node-a}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {{name: gpu}}
spec: {{}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: node-a}}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {{name: node-a, resourceSliceCount: 1}}
  sharedCounters: [{{name: mem, counters: {{memory: {{value: 4Gi}}}}}}]
  devices:
  - name: shared
    attributes: {{kind: {{string: shared}}}}
    allowMultipleAllocations: true
    capacity: {{memory: {{value: 8Gi, requestPolicy: {{default: 1Gi, validRange: {{min: 1Gi}}}}}}}}
    consumesCounters: [{{counterSet: mem, counters: {{memory: {{value: 2Gi}}}}}}]
  # Devices the request does not select: 1.34 checks the capacity of the slice's device at the request's
  # device index, which must exist (else it panics).
  - {{name: filler-1, attributes: {{kind: {{string: filler}}}}}}
  - {{name: filler-2, attributes: {{kind: {{string: filler}}}}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: c, namespace: default}}
spec:
  devices:
    requests:
    - name: shares
      exactly:
        deviceClassName: gpu
        count: {count}
        selectors: [{{cel: {{expression: 'device.attributes["gpu.example.com"].kind == "shared"'}}}}]
"""


# The expected answers are 1.34's own allocator's (the upstream harness), asked on these inputs.
@pytest.mark.parametrize("count, status", [(2, "allocated"), (3, "unsatisfiable")])
def test_in_1_34_every_share_takes_the_device_s_counters(count, status):
    allocation = analyze(case(count), kubernetes_version="1.34", node="node-a",
                         feature_gates={"DRAConsumableCapacity": True, "DRAPartitionableDevices": True}).to_dict()
    assert allocation["allocation"]["status"] == status
