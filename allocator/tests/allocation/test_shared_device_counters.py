"""Counters of devices that allow multiple allocations (DRAConsumableCapacity), per release.

- From 1.36 a share the search takes back gives back the counters it took (v0.36.x ``rollbackDevice``); in
  1.35 (v0.35.x) they stayed taken until the search ended. Found by the differential run
  (allocate-1.37-verdict cases of seed 1, 1327 and 1897).
- From 1.37 a device that allocated claims hold a share of has its counters taken already even when the
  share consumed no capacity (v0.37.x ``deviceCapacityInUse`` reads the shared device IDs too), so a new
  share does not check them again; before, only a share with consumed capacity counted.
- From 1.36 a device that allocated claims hold a share of has its counters counted as taken when the pool's
  counters left are worked out (v0.36.x ``IsDeviceAllocated``); in 1.35 only devices allocated whole counted,
  so another device could take the shared one's counters. Found by the differential run's stored objects on
  1.35 (seed 2, cases 1559 and 1647).
"""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice

EVERY_LANE = {"ports": {"lanes": "4"}}


def cluster(*devices: str) -> str:
    """The ``devices`` on node-a, with a counter set of 4 lanes in a slice of its own."""
    return inventory(
        node("node-a", hostname=False), device_class("nic"),
        resource_slice("node-a-devices", driver="nic.example.com", node="node-a", pool_slices=2, devices=devices),
        resource_slice("node-a-counters", driver="nic.example.com", node="node-a", pool_slices=2,
                       shared_counters={"ports": {"lanes": "4"}}))


# "shared" comes first and takes every lane; "whole" needs every lane too; "plain" needs none.
BACKTRACK_DEVICES = (
    device("shared", allow_multiple=True, attributes={"kind": "uplink", "numa": 0}, consumes=EVERY_LANE),
    device("whole", attributes={"kind": "uplink", "numa": 1}, consumes=EVERY_LANE),
    device("plain", attributes={"kind": "local", "numa": 1}),
)

SAME_NUMA = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: uplink
      exactly:
        deviceClassName: nic
        selectors: [{cel: {expression: 'device.attributes["nic.example.com"].kind == "uplink"'}}]
    - name: local
      exactly:
        deviceClassName: nic
        selectors: [{cel: {expression: 'device.attributes["nic.example.com"].kind == "local"'}}]
    constraints: [{matchAttribute: nic.example.com/numa}]
"""

GATES = {"1.35": {"DRAConsumableCapacity": True, "DRAPartitionableDevices": True}, "1.36": None, "1.37": None}


def allocate(release: str, claims: str, inventory: str) -> dict:
    report = analyze(claims, inventory, kubernetes_version=release, feature_gates=GATES[release]).to_dict()
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    return report["allocation"]


def granted(allocation: dict, claim: str = "c") -> list[str]:
    return [r["device"] for c in allocation["claims"] if c["metadata"]["name"] == claim
            for r in c["status"]["allocation"]["devices"]["results"]]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_from_1_36_a_share_taken_back_gives_its_counters_back(release):
    # "shared" is taken first, "plain" is on another NUMA node, so "shared" is taken back: its lanes come
    # back and "whole" fits.
    found = allocate(release, SAME_NUMA, cluster(*BACKTRACK_DEVICES))
    assert granted(found) == ["whole", "plain"]


def test_in_1_35_the_shares_counters_stayed_taken():
    assert allocate("1.35", SAME_NUMA, cluster(*BACKTRACK_DEVICES))["status"] == "unsatisfiable"


ONE_SHARED = device("shared", allow_multiple=True, consumes=EVERY_LANE)

HELD = """
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held, namespace: default}
spec:
  devices:
    requests:
    - {name: nic, exactly: {deviceClassName: nic}}
status:
  allocation:
    devices:
      results:
      - {request: nic, driver: nic.example.com, pool: node-a, device: shared,
         shareID: 0b5a8f0e-3f4c-4d0a-9c63-2f1e7d6b9a10}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [node-a]}]
"""

ANOTHER_SHARE = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: nic, exactly: {deviceClassName: nic}}
"""


def test_from_1_37_a_share_without_capacity_marks_the_device_shared():
    found = allocate("1.37", ANOTHER_SHARE, cluster(ONE_SHARED) + HELD)
    assert granted(found) == ["shared"]


def test_in_1_36_only_a_share_with_capacity_did_so_the_lanes_were_checked_again():
    assert allocate("1.36", ANOTHER_SHARE, cluster(ONE_SHARED) + HELD)["status"] == "unsatisfiable"


# A whole device that needs every lane, beside the shared one an allocated claim holds a share of.
SHARED_AND_WHOLE = (
    device("shared", allow_multiple=True, attributes={"kind": "shared"}, consumes=EVERY_LANE,
           capacity={"bandwidth": "{value: 10G, requestPolicy: {default: 1G}}"}),
    device("whole", attributes={"kind": "whole"}, consumes=EVERY_LANE),
)

WHOLE_ONE = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: nic
      exactly:
        deviceClassName: nic
        selectors: [{cel: {expression: 'device.attributes["nic.example.com"].kind == "whole"'}}]
"""

HELD_WITH_CAPACITY = HELD.replace("shareID: 0b5a8f0e-3f4c-4d0a-9c63-2f1e7d6b9a10}",
                                  "shareID: 0b5a8f0e-3f4c-4d0a-9c63-2f1e7d6b9a10,\n"
                                  "         consumedCapacity: {bandwidth: 1G}}")
assert HELD_WITH_CAPACITY != HELD  # the share above, with what it consumed


# The harness of 1.35.4, 1.36.3 and 1.37.2, asked on these inputs, answers as the two tests below expect.
@pytest.mark.parametrize("held", [HELD, HELD_WITH_CAPACITY], ids=["share", "share-with-capacity"])
def test_in_1_35_a_held_share_left_the_device_s_counters_free(held):
    # v0.35.x works out a pool's counters left from the devices allocated whole only: the lanes of "shared"
    # look free, so "whole" gets them all (kubernetes/kubernetes#139034).
    found = allocate("1.35", WHOLE_ONE, cluster(*SHARED_AND_WHOLE) + held)
    assert granted(found) == ["whole"]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
@pytest.mark.parametrize("held", [HELD, HELD_WITH_CAPACITY], ids=["share", "share-with-capacity"])
def test_from_1_36_a_held_share_keeps_the_device_s_counters_taken(release, held):
    found = allocate(release, WHOLE_ONE, cluster(*SHARED_AND_WHOLE) + held)
    assert found["status"] == "unsatisfiable"
