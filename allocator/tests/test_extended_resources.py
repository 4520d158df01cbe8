"""Extended resources backed by DRA through the engine and the command line (workload.extended)."""

import json
import subprocess
import sys

import pytest

from allocator.engine import analyze

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: a-device-plugin}
status: {allocatable: {cpu: "8", example.com/gpu: "1"}}
---
apiVersion: v1
kind: Node
metadata: {name: b-dra}
status: {allocatable: {cpu: "8"}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  extendedResourceName: example.com/gpu
  selectors:
  - cel: {expression: device.driver == "gpu.example.com"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: b-dra-gpus}
spec:
  driver: gpu.example.com
  nodeName: b-dra
  pool: {name: b-dra, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}, {name: gpu-2}]
"""

POD = """
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  containers:
  - name: main
    resources:
      limits: {example.com/gpu: 2}
"""

POD_WITH_CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: own}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com, count: %d}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  resourceClaims: [{name: own, resourceClaimName: own}]
  containers:
  - name: main
    resources:
      claims: [{name: own}]
      limits: {example.com/gpu: 2}
"""


def test_the_generated_claim_is_allocated_on_the_dra_node():
    report = analyze(POD, INVENTORY).to_dict()
    alloc = report["allocation"]
    assert alloc["status"] == "allocated" and alloc["node"] == "b-dra"
    [claim] = alloc["claims"]
    assert claim["metadata"]["generateName"] == "trainer-extended-resources-"
    assert claim["metadata"]["annotations"] == {"resource.kubernetes.io/extended-resource-claim": "true"}
    assert claim["spec"]["devices"]["requests"] == [{"name": "container-0-request-0", "exactly": {
        "deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": 2}}]
    assert [r["device"] for r in claim["status"]["allocation"]["devices"]["results"]] == ["gpu-0", "gpu-1"]
    nodes = {n["name"]: n for n in report["nodes"]}
    assert nodes["a-device-plugin"]["fits"] is False
    assert "Insufficient example.com/gpu" in nodes["a-device-plugin"]["reason"]
    assert nodes["b-dra"]["extendedResources"] == [{"pod": "trainer", "dra": {"example.com/gpu": 2}, "devicePlugin": {}}]
    [entry] = alloc["extendedResources"]
    assert entry["status"] == {"extendedResourceClaimStatus": {
        "requestMappings": [{"containerName": "main", "resourceName": "example.com/gpu",
                             "requestName": "container-0-request-0"}],
        "resourceClaimName": claim["metadata"]["name"]}}
    [row] = report["containers"]
    assert row["extendedResource"] == "example.com/gpu" and [d["device"] for d in row["devices"]] == ["gpu-0", "gpu-1"]


def test_the_device_plugin_node_serves_a_small_enough_request():
    report = analyze(POD.replace("example.com/gpu: 2", "example.com/gpu: 1"), INVENTORY).to_dict()
    alloc = report["allocation"]
    assert alloc["status"] == "allocated" and alloc["node"] == "a-device-plugin"
    assert alloc["claims"] == []
    assert alloc["extendedResources"][0]["devicePlugin"] == {"example.com/gpu": 1}
    assert alloc["extendedResources"][0]["claim"] is None


@pytest.mark.parametrize(("own", "fits"), [(1, True), (2, False)])
def test_the_generated_claim_competes_with_the_pods_claims_and_comes_last(own, fits):
    alloc = analyze(POD_WITH_CLAIM % own, INVENTORY).to_dict()["allocation"]
    if not fits:  # 2 + 2 devices, 3 on the node: upstream finds no node
        assert alloc["status"] == "unsatisfiable"
        return
    assert alloc["node"] == "b-dra"
    assert [c["metadata"].get("generateName") or c["metadata"]["name"] for c in alloc["claims"]] == [
        "own", "trainer-extended-resources-"]
    own_claim, generated = alloc["claims"]
    assert [r["device"] for r in own_claim["status"]["allocation"]["devices"]["results"]] == ["gpu-0"]
    assert [r["device"] for r in generated["status"]["allocation"]["devices"]["results"]] == ["gpu-1", "gpu-2"]


def test_gate_off_leaves_the_resource_to_the_device_plugin():
    report = analyze(POD, INVENTORY, kubernetes_version="1.35").to_dict()
    assert report["allocation"]["status"] == "unsatisfiable"
    assert any("DRAExtendedResource is off" in r for r in report["allocation"]["reasons"])
    on = analyze(POD, INVENTORY, kubernetes_version="1.35", feature_gates={"DRAExtendedResource": True}).to_dict()
    assert on["allocation"]["node"] == "b-dra"


def test_node_listing_zero_is_dra_from_135_device_plugin_on_134():
    inventory = INVENTORY.replace('allocatable: {cpu: "8"}}', 'allocatable: {cpu: "8", example.com/gpu: "0"}}')
    gates = {"DRAExtendedResource": True}
    assert analyze(POD, inventory, kubernetes_version="1.35", feature_gates=gates).to_dict()["allocation"]["node"] == "b-dra"
    old = analyze(POD, inventory, kubernetes_version="1.34", feature_gates=gates).to_dict()["allocation"]
    assert old["status"] == "unsatisfiable"


def _cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "allocator", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_command_line_prints_the_generated_claim_and_the_mapping(tmp_path):
    (tmp_path / "inv.yaml").write_text(INVENTORY)
    (tmp_path / "pod.yaml").write_text(POD)
    proc = _cli("allocate", str(tmp_path / "inv.yaml"), str(tmp_path / "pod.yaml"))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["node"] == "b-dra"
    assert out["claims"][0]["metadata"]["generateName"] == "trainer-extended-resources-"
    assert out["extendedResources"][0]["requestMappings"] == [
        {"containerName": "main", "resourceName": "example.com/gpu", "requestName": "container-0-request-0"}]
    proc = _cli("allocate", "--node", "a-device-plugin", str(tmp_path / "inv.yaml"), str(tmp_path / "pod.yaml"))
    assert proc.returncode == 1
    assert "Insufficient example.com/gpu" in proc.stderr


TWO_CLASSES = """
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: a-old, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  extendedResourceName: example.com/gpu
  selectors:
  - cel:
      expression: device.attributes["gpu.example.com"].model == "old"
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: b-new, creationTimestamp: "2026-02-01T00:00:00Z"}
spec:
  extendedResourceName: example.com/gpu
  selectors:
  - cel:
      expression: device.attributes["gpu.example.com"].model == "new"
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gpus}
spec:
  driver: gpu.example.com
  nodeName: node
  pool: {name: node, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: old-0, attributes: {model: {string: old}}}
  - {name: new-0, attributes: {model: {string: new}}}
"""


@pytest.mark.parametrize(("release", "klass", "device", "note"), [
    ("1.34", "a-old", "old-0", "unspecified"), ("1.35", "b-new", "new-0", "newest creationTimestamp")])
def test_two_classes_with_one_name_per_release(release, klass, device, note):
    pod = POD.replace("example.com/gpu: 2", "example.com/gpu: 1")
    alloc = analyze(pod, TWO_CLASSES, kubernetes_version=release,
                    feature_gates={"DRAExtendedResource": True}).to_dict()["allocation"]
    [claim] = alloc["claims"]
    assert claim["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"] == klass
    assert [r["device"] for r in claim["status"]["allocation"]["devices"]["results"]] == [device]
    assert note in alloc["extendedResources"][0]["notes"][0]


def test_init_containers_per_release():
    pod = """
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  initContainers:
  - name: warmup
    resources: {limits: {example.com/gpu: 2}}
  containers:
  - name: main
    resources: {limits: {example.com/gpu: 2}}
"""
    gates = {"DRAExtendedResource": True}
    new = analyze(pod, INVENTORY, node="b-dra", kubernetes_version="1.35", feature_gates=gates).to_dict()
    [claim] = new["allocation"]["claims"]
    assert [r["name"] for r in claim["spec"]["devices"]["requests"]] == ["container-1-request-0"]
    warmup = [c for c in new["containers"] if c["container"] == "warmup"]
    assert [(c["request"], [d["device"] for d in c["devices"]]) for c in warmup] == [
        ("container-1-request-0", ["gpu-0", "gpu-1"])]
    old = analyze(pod, INVENTORY, node="b-dra", kubernetes_version="1.34", feature_gates=gates).to_dict()
    assert old["allocation"]["status"] == "unsatisfiable"  # 2 + 2 of 3 devices: each container its own request


def test_capacity_counts_the_device_plugin_and_the_generated_claims():
    from allocator.releases.gates import make_gates
    from allocator.workload.planning import plan_texts

    one = POD.replace("example.com/gpu: 2", "example.com/gpu: 1")
    report, diagnostics = plan_texts(one, INVENTORY, make_gates())
    assert diagnostics == []
    # the device plugin node's one GPU, then the DRA node's three devices, one generated claim each
    assert [(s.node, [c["name"].rsplit("-", 1)[0] for c in s.claims]) for s in report.steps] == [
        ("a-device-plugin", []), ("b-dra", ["trainer-2-extended-resources"]),
        ("b-dra", ["trainer-3-extended-resources"]), ("b-dra", ["trainer-4-extended-resources"])]
    reasons = {n["name"]: n["reason"] for n in report.next["nodes"]}
    assert reasons["a-device-plugin"] == ("Insufficient example.com/gpu: the pod asks for 1, the node's allocatable "
                                          "has 1 of which 1 in use (device plugin)")
