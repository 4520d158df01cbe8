"""A device turned down after its counters were taken (an untolerated taint, a broken constraint): from 1.36
on upstream's allocator gives the counters back (v0.36.x ``rollbackDevice``), so the devices after it still
fit; in 1.35 (v0.35.x) they stayed taken. Found by the differential run (allocate-1.37-verdict-b71b6c83)."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice

FOUR_GI = {"memory-set": {"memory": "4Gi"}}


def cluster(first: dict) -> str:
    """Three devices of 4Gi each on a counter set of 8Gi kept in a slice of its own (the 1.35+ form); the
    first device, with the fields ``first`` gives it, is the one the request cannot have."""
    return inventory(
        node("node-a", hostname=False), device_class("gpu"),
        resource_slice("node-a-devices", driver="gpu.example.com", node="node-a", pool_slices=2, devices=[
            device("dev-0", consumes=FOUR_GI, **first),
            device("dev-1", attributes={"model": "a100"}, consumes=FOUR_GI),
            device("dev-2", attributes={"model": "a100"}, consumes=FOUR_GI)]),
        resource_slice("node-a-counters", driver="gpu.example.com", node="node-a", pool_slices=2,
                       shared_counters={"memory-set": {"memory": "8Gi"}}))


TAINTED = {"more": {"taints": "[{key: example.com/broken, effect: NoSchedule}]"}}
OTHER_MODEL = {"attributes": {"model": "h100"}}

CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: c, namespace: default}}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {{deviceClassName: gpu, count: 2}}
    {constraints}
"""
SAME_MODEL = "constraints: [{matchAttribute: gpu.example.com/model}]"

GATES = {"1.35": {"DRADeviceTaints": True, "DRAPartitionableDevices": True}, "1.36": {"DRADeviceTaints": True},
         "1.37": None}


def allocate(release: str, first: dict, constraints: str = "") -> dict:
    report = analyze(CLAIM.format(constraints=constraints), cluster(first),
                     kubernetes_version=release, feature_gates=GATES[release]).to_dict()
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    return report["allocation"]


def granted(allocation: dict) -> list[str]:
    return [r["device"] for c in allocation["claims"] for r in c["status"]["allocation"]["devices"]["results"]]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
@pytest.mark.parametrize("first", [TAINTED, OTHER_MODEL], ids=["tainted", "breaks-constraint"])
def test_from_1_36_a_turned_down_device_gives_its_counters_back(release, first):
    assert granted(allocate(release, first, SAME_MODEL)) == ["dev-1", "dev-2"]


@pytest.mark.parametrize("first", [TAINTED, OTHER_MODEL], ids=["tainted", "breaks-constraint"])
def test_in_1_35_its_counters_stay_taken(first):
    assert allocate("1.35", first, SAME_MODEL)["status"] == "unsatisfiable"


def test_without_the_device_in_the_way_1_35_fits():
    assert granted(allocate("1.35", {"attributes": {"model": "a100"}})) == ["dev-0", "dev-1"]
