"""1.34's allocator takes a multi-allocatable device's counters for every share it gives out (v0.34.x
``allocateDevice`` has no skip); from 1.35 a device shared already does not take them again
(``skipCounterCheck``). Found by the differential run's stored objects on 1.34 (seed 1, case 166)."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice

CLUSTER = inventory(
    node("node-a", hostname=False), device_class("gpu"),
    resource_slice("node-a", driver="gpu.example.com", node="node-a", generation=None,
                   shared_counters={"mem": {"memory": "4Gi"}}, devices=[
                       device("shared", attributes={"kind": "shared"}, allow_multiple=True,
                              capacity={"memory": "{value: 8Gi, requestPolicy: {default: 1Gi, validRange: {min: 1Gi}}}"},
                              consumes={"mem": {"memory": "2Gi"}}),
                       # Devices the request does not select: 1.34 checks the capacity of the slice's device at
                       # the request's device index, which must exist (else it panics).
                       device("filler-1", attributes={"kind": "filler"}),
                       device("filler-2", attributes={"kind": "filler"})]))


def case(count: int) -> str:
    return CLUSTER + f"""---
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
