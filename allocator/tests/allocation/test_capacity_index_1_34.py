"""1.34's allocateDevice checks the capacity of the wrong device: with DRAConsumableCapacity it passes the
request's device index (``r.deviceIndex``: 0 for the request's first device) where the device's index in
its slice belongs, so the capacity of the slice's device at that index is checked (v0.34.x experimental
``allocateDevice``; past the slice's end it panics). 1.35 passes the device itself
(kubernetes/kubernetes#133705, fixed by #133706). Found by the
differential run (allocate-1.34-devices-b98d705a)."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice

INPUT = inventory(
    node("node-a", hostname=False), device_class("gpu"),
    resource_slice("node-a", driver="gpu.example.com", node="node-a", generation=None, devices=[
        device("sized", allow_multiple=True, capacity={"memory": "4Gi"}),
        device("plain", allow_multiple=True)]),
) + """---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: first, exactly: {deviceClassName: gpu}}
    - {name: second, exactly: {deviceClassName: gpu}}
"""


def granted(release: str) -> list[tuple[str, str, dict | None]]:
    allocation = analyze(INPUT, "", kubernetes_version=release,
                         feature_gates={"DRAConsumableCapacity": True}).to_dict()["allocation"]
    return [(r["request"], r["device"], r.get("consumedCapacity")) for c in allocation["claims"]
            for r in c["status"]["allocation"]["devices"]["results"]]


# The expected answers are those of each release's own allocator (the upstream harness), asked on this input.

def test_in_1_34_each_request_s_first_device_is_checked_as_the_slice_s_first():
    # "first" takes "sized" whole (4Gi); "second" is then checked against "sized" whatever it tries, so
    # nothing fits it and the search backtracks: "first" takes "plain", and "second" takes "sized".
    assert granted("1.34") == [("first", "plain", None), ("second", "sized", {"memory": "4Gi"})]


@pytest.mark.parametrize("release", ["1.35", "1.36"])
def test_from_1_35_the_device_itself_is_checked(release):
    assert granted(release) == [("first", "sized", {"memory": "4Gi"}), ("second", "plain", None)]


TWO_SLICES = inventory(
    device_class("gpu"),
    *(resource_slice(f"node-a-{i}", driver="gpu.example.com", node="node-a", pool_slices=2, generation=None,
                     devices=[name]) for i, name in enumerate(("one", "two"))),
) + """---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: pair, exactly: {deviceClassName: gpu, count: 2}}
"""


def test_in_1_34_a_request_s_second_device_in_a_slice_of_one_crashes_the_scheduler():
    # The second device (index 1) is looked up in a slice of one device: 1.34's harness panics with
    # "index out of range [1] with length 1", which crashes kube-scheduler; the engine says so.
    allocation = analyze(TWO_SLICES, "", kubernetes_version="1.34", node="node-a",
                         feature_gates={"DRAConsumableCapacity": True}).to_dict()["allocation"]
    assert allocation["status"] == "error"
    assert "kube-scheduler 1.34 crashes here" in allocation["error"]
    assert "index out of range [1] with length 1" in allocation["error"]
    assert "kubernetes/kubernetes#133705" in allocation["error"]


def test_from_1_35_the_pair_is_allocated():
    allocation = analyze(TWO_SLICES, "", kubernetes_version="1.35", node="node-a",
                         feature_gates={"DRAConsumableCapacity": True}).to_dict()["allocation"]
    assert allocation["status"] == "allocated"
