"""A slice of shared counters that names another node: in 1.35 and 1.36 every allocator implementation took
it for every node (v0.36.x GatherPools: "always include slices with SharedCounters"), so its pool, still
incomplete, stops an ``All`` request on any node; from 1.37 the incubating and experimental implementations
apply the node selection to it, and a node that does not reach the pool does not see it. Found by the
differential run (allocate-1.36-verdict-4358aa9d and two more)."""

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device_class, inventory, node, resource_slice

INVENTORY = inventory(
    node("node-a", hostname=False), node("node-b", hostname=False), device_class("gpu"),
    resource_slice("node-a", driver="gpu.example.com", node="node-a", devices=["gpu-0"]),
    # the other half of node-b's pool is missing
    resource_slice("node-b-counters", driver="gpu.example.com", node="node-b", pool_slices=2,
                   shared_counters={"memory-set": {"memory": "8Gi"}}))

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
