"""A device turned down after its counters were taken (an untolerated taint, a broken constraint): from 1.36
on upstream's allocator gives the counters back (v0.36.x ``rollbackDevice``), so the devices after it still
fit; in 1.35 (v0.35.x) they stayed taken. Found by the differential run (allocate-1.37-verdict-b71b6c83)."""

import pytest

from allocator.engine import analyze

# Three devices of 4Gi each on a counter set of 8Gi kept in a slice of its own (the 1.35+ form); the first
# device is the one the request cannot have.
INVENTORY = """
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
metadata: {{name: node-a-devices}}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {{name: node-a, generation: 1, resourceSliceCount: 2}}
  devices:
  - name: dev-0
    {first}
    consumesCounters: [{{counterSet: memory-set, counters: {{memory: {{value: 4Gi}}}}}}]
  - name: dev-1
    attributes: {{model: {{string: a100}}}}
    consumesCounters: [{{counterSet: memory-set, counters: {{memory: {{value: 4Gi}}}}}}]
  - name: dev-2
    attributes: {{model: {{string: a100}}}}
    consumesCounters: [{{counterSet: memory-set, counters: {{memory: {{value: 4Gi}}}}}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: node-a-counters}}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {{name: node-a, generation: 1, resourceSliceCount: 2}}
  sharedCounters: [{{name: memory-set, counters: {{memory: {{value: 8Gi}}}}}}]
"""

TAINTED = "taints: [{key: example.com/broken, effect: NoSchedule}]"
OTHER_MODEL = "attributes: {model: {string: h100}}"

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


def allocate(release: str, first: str, constraints: str = "") -> dict:
    report = analyze(CLAIM.format(constraints=constraints), INVENTORY.format(first=first),
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
    assert granted(allocate("1.35", "attributes: {model: {string: a100}}")) == ["dev-0", "dev-1"]
