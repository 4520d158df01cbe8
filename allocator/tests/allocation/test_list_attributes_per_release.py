"""DRAListTypeAttributes reaches the allocator only from 1.37: 1.36's scheduler gave the gate to its CEL cache
but left it out of the allocator's features (``AllocatorFeatures``), so matchAttribute compared values as
scalars there, and a list attribute matched no other device. Found by the differential run
(allocate-1.36-devices-94e014ec)."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device_class, inventory, node, resource_slice

INVENTORY = inventory(
    node("node-a"),
    device_class("gpu"),
    resource_slice("node-a", driver="gpu.example.com", node="node-a", devices=[
        "{name: on-two-numa-nodes, attributes: {numa: {ints: [0, 1]}}}",
        "{name: numa-1-a, attributes: {numa: {int: 1}}}",
        "{name: numa-1-b, attributes: {numa: {int: 1}}}"]),
)

SAME_NUMA = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu, count: 2}
    constraints: [{matchAttribute: gpu.example.com/numa}]
"""

INCLUDES_ZERO = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].numa.includes(0)'}}]
"""


def granted(release: str, claim: str) -> list[str]:
    report = analyze(claim, INVENTORY, kubernetes_version=release,
                     feature_gates={"DRAListTypeAttributes": True}).to_dict()
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    return [r["device"] for c in report["allocation"]["claims"]
            for r in c["status"]["allocation"]["devices"]["results"]]


def test_in_1_36_the_allocator_compares_a_list_attribute_as_a_scalar():
    # The list device, tried first, matches neither int device: the two int devices are taken.
    assert granted("1.36", SAME_NUMA) == ["numa-1-a", "numa-1-b"]


def test_from_1_37_a_list_attribute_matches_by_a_common_value():
    assert granted("1.37", SAME_NUMA) == ["on-two-numa-nodes", "numa-1-a"]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_selectors_see_list_attributes_in_both_releases(release):
    assert granted(release, INCLUDES_ZERO) == ["on-two-numa-nodes"]
