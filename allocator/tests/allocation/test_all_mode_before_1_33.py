"""Two ways the allocator of 1.31 and 1.32 (k8s.io/dynamic-resource-allocation v0.31, v0.32) treats an
``allocationMode: All`` request differently from 1.33 on, both found by the differential run against the
real 1.32 scheduler (allocate-1.32-verdict-ab8c1adb, allocate-1.32-verdict-aeec0352 and eight more):

* an All request whose selectors match no device is done at once, with no device, and the rest of the
  claim is still allocated; from 1.33 such a request does not fit;
* when a device an All request needs is already taken by an earlier request, the whole search ends
  there with no allocation (``errStop``); from 1.33 the search backtracks and the earlier request can
  take another device.
"""

import pytest

from allocator.engine import analyze

DRA_ON = {"DynamicResourceAllocation": True}

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
---
apiVersion: resource.k8s.io/v1beta1
kind: DeviceClass
metadata: {name: gpu}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: node-a-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: first, basic: {attributes: {numa: {int: 1}}}}
  - {name: second, basic: {}}
"""


def claim(*requests: str) -> str:
    return """
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
""" + "".join(f"    - {r}\n" for r in requests)


def outcome(release: str, documents: str):
    allocation = analyze(documents, INVENTORY, feature_gates=DRA_ON, kubernetes_version=release).to_dict()["allocation"]
    results = [(r["request"], r["device"]) for c in allocation.get("claims") or []
               for r in c["status"]["allocation"]["devices"]["results"]]
    return allocation["status"], results


# A request for every device of another driver: there is none on the node.
NOTHING_MATCHES = claim(
    "{name: none, deviceClassName: gpu, allocationMode: All, "
    "selectors: [{cel: {expression: 'device.driver == \"nic.example.com\"'}}]}",
    "{name: one, deviceClassName: gpu}")


@pytest.mark.parametrize("release", ["1.32"])
def test_up_to_1_32_an_all_request_matching_nothing_is_done_with_no_device(release):
    assert outcome(release, NOTHING_MATCHES) == ("allocated", [("one", "first")])


@pytest.mark.parametrize("release", ["1.33", "1.37"])
def test_from_1_33_an_all_request_matching_nothing_does_not_fit(release):
    status, results = outcome(release, NOTHING_MATCHES)
    assert (status, results) == ("unsatisfiable", [])


# "one" takes "first" (the first device in the slice); "numa" wants every device with a numa
# attribute, which is "first" alone: it finds it in use.
TAKEN_FIRST = claim(
    "{name: one, deviceClassName: gpu}",
    "{name: numa, deviceClassName: gpu, allocationMode: All, "
    "selectors: [{cel: {expression: 'has(device.attributes[\"gpu.example.com\"].numa)'}}]}")


@pytest.mark.parametrize("release", ["1.32"])
def test_up_to_1_32_an_all_request_meeting_a_device_in_use_ends_the_search(release):
    assert outcome(release, TAKEN_FIRST) == ("unsatisfiable", [])


@pytest.mark.parametrize("release", ["1.33", "1.37"])
def test_from_1_33_the_search_backtracks_and_the_earlier_request_moves(release):
    assert outcome(release, TAKEN_FIRST) == ("allocated", [("one", "second"), ("numa", "first")])


def test_up_to_1_32_the_stop_also_ends_the_search_for_later_claims():
    # The stop is not the claim's alone: a second claim that would fit is not allocated either.
    other = """---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: d, namespace: default}
spec: {devices: {requests: [{name: any, deviceClassName: gpu}]}}
"""
    assert outcome("1.32", TAKEN_FIRST + other)[0] == "unsatisfiable"
