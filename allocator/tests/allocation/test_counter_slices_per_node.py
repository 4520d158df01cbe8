"""A slice of shared counters that names another node: in 1.35 and 1.36 every allocator implementation took
it for every node (v0.36.x GatherPools: "always include slices with SharedCounters"), so its pool, still
incomplete, stops an ``All`` request on any node; from 1.37 the incubating and experimental implementations
apply the node selection to it, and a node that does not reach the pool does not see it. Found by the
differential run (allocate-1.36-verdict-4358aa9d and two more)."""

from allocator.engine import analyze

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
apiVersion: v1
kind: Node
metadata: {name: node-b}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-b-counters}
spec:
  driver: gpu.example.com
  nodeName: node-b
  pool: {name: node-b, generation: 1, resourceSliceCount: 2}
  sharedCounters: [{name: memory-set, counters: {memory: {value: 8Gi}}}]
"""

ALL = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu, allocationMode: All}
"""


def allocate(release: str) -> dict:
    return analyze(ALL, INVENTORY, kubernetes_version=release, node="node-a").to_dict()


def test_in_1_36_the_other_nodes_incomplete_counter_pool_stops_all():
    allocation = allocate("1.36")["allocation"]
    assert allocation["status"] == "error"
    assert allocation["error"] == ("claim default/c, request gpu: asks for all devices, "
                                   "but resource pool gpu.example.com/node-b is currently being updated")


def test_from_1_37_node_a_does_not_see_it():
    report = allocate("1.37")
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    results = report["allocation"]["claims"][0]["status"]["allocation"]["devices"]["results"]
    assert [r["device"] for r in results] == ["gpu-0"]
