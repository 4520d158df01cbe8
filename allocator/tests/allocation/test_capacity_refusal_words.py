"""A stored claim whose subrequest requests capacity while DRAConsumableCapacity is off: 1.34's allocator
(v0.34.x) checks a request and its subrequests in one pass and names the request; from 1.35 the subrequest
is named (1.35's default implementation, incubating, does not check at all). Found by the differential run's stored objects on 1.34 (seed 1, case 4)."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice

INPUT = inventory(
    node("node-a", hostname=False), device_class("gpu"),
    resource_slice("node-a", driver="gpu.example.com", node="node-a", generation=None,
                   devices=[device("one", capacity={"memory": "4Gi"})]),
) + """---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default, uid: 0d3c2a51-0000-4000-8000-000000000001, resourceVersion: "7"}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - {name: plain, deviceClassName: gpu}
      - {name: sized, deviceClassName: gpu, capacity: {requests: {memory: 1Gi}}}
"""


@pytest.mark.parametrize("release, named", [("1.34", "request gpu"), ("1.35", None), ("1.36", "subrequest sized")])
def test_the_refusal_names_the_request_in_1_34_and_the_subrequest_after(release, named):
    allocation = analyze(INPUT, kubernetes_version=release, node="node-a",
                         feature_gates={"DRAConsumableCapacity": False}).to_dict()["allocation"]
    assert allocation["error"] == (named and f"claim default/c, {named}: has capacity requests, but the "
                                   "DRAConsumableCapacity feature is disabled")
