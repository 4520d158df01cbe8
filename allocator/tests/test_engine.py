"""The engine facade: documents + inventory in, the whole report out."""


import pytest
import yaml

from allocator.engine import analyze
from allocator.reading.limits import Limits
from allocator.releases.gates import FeatureGateError
from allocator.tests.helpers import SAMPLES
from allocator.tests.helpers.inventory import device_class

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {zone: a}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {zone: b}}
---
""" + device_class('gpu', "device.driver == 'gpu.example.com'") + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-b-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-b
  pool: {name: node-b, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes: {model: {string: a100}}
  - name: gpu-1
    attributes: {model: {string: h100}}
"""

POD = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-h100}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu
          selectors: [{cel: {expression: "device.attributes['gpu.example.com'].model == 'h100'"}}]
---
apiVersion: v1
kind: Pod
metadata: {name: job}
spec:
  resourceClaims: [{name: accel, resourceClaimTemplateName: one-h100}]
  containers:
  - name: main
    image: busybox
    resources: {claims: [{name: accel}]}
"""


def test_it_allocates_a_pod_from_a_template_on_the_node_that_fits():
    report = analyze(POD, INVENTORY)
    data = report.to_dict()
    assert data["valid"] is True and data["diagnostics"] == []
    assert data["allocation"]["status"] == "allocated"
    assert data["allocation"]["node"] == "node-b"
    node_a, node_b = data["nodes"]
    assert node_a["name"] == "node-a" and node_a["fits"] is False
    assert "request gpu: needs 1 device(s), but no device is in reach of the node" in node_a["reason"]
    assert node_b == {"name": "node-b", "fits": True, "reason": None, "error": False, "schedulerReason": None}
    (claim,) = data["allocation"]["claims"]
    assert claim["metadata"]["name"].startswith("job-accel-")
    assert [r["device"] for r in claim["status"]["allocation"]["devices"]["results"]] == ["gpu-1"]
    (container,) = data["containers"]
    assert container["container"] == "main" and [d["device"] for d in container["devices"]] == ["gpu-1"]
    kinds = sorted((o["source"], o["kind"]) for o in data["objects"])
    assert ("documents", "Pod") in kinds and ("inventory", "ResourceSlice") in kinds


def test_allocated_claims_come_back_in_the_version_they_were_written_in():
    template_v1beta1 = POD.replace("apiVersion: resource.k8s.io/v1\n", "apiVersion: resource.k8s.io/v1beta1\n").replace(
        "        exactly:\n          deviceClassName: gpu\n          selectors:",
        "        deviceClassName: gpu\n        selectors:")
    # The pod names the plain claim too: kube-scheduler allocates only the claims a pod names.
    template_v1beta1 = template_v1beta1.replace(
        "resourceClaims: [{name: accel, resourceClaimTemplateName: one-h100}]",
        "resourceClaims: [{name: accel, resourceClaimTemplateName: one-h100}, {name: plain, resourceClaimName: any-gpu}]")
    # v1alpha3 is not served beside v1 (the inventory's version) by any release: see the CLI's test for it.
    claim_v1beta2 = """
apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: {name: any-gpu}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
"""
    data = analyze(template_v1beta1 + "---" + claim_v1beta2, INVENTORY).to_dict()
    assert data["diagnostics"] == [] and data["allocation"]["status"] == "allocated"
    generated, plain = data["allocation"]["claims"]
    assert generated["apiVersion"] == "resource.k8s.io/v1beta1"  # the template's version
    assert generated["spec"]["devices"]["requests"][0]["deviceClassName"] == "gpu"
    assert plain["apiVersion"] == "resource.k8s.io/v1beta2"
    assert plain["spec"]["devices"]["requests"] == [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]
    assert [r["device"] for c in (generated, plain) for r in c["status"]["allocation"]["devices"]["results"]] == [
        "gpu-1", "gpu-0"]
    assert [d["device"] for d in data["containers"][0]["devices"]] == ["gpu-1"]


def test_it_reports_a_chosen_node_that_does_not_fit():
    data = analyze(POD, INVENTORY, node="node-a").to_dict()
    assert data["allocation"]["status"] == "unsatisfiable"
    (reason,) = data["allocation"]["reasons"]
    assert reason.startswith("node-a: claim default/job-accel-") and "no device is in reach" in reason
    assert data["containers"] == []


def test_it_turns_bad_yaml_into_located_diagnostics():
    data = analyze("kind: ResourceClaim\napiVersion: resource.k8s.io/v1\nmetadata: {name: [}\n", INVENTORY).to_dict()
    assert data["valid"] is False
    (diag,) = data["diagnostics"]
    assert diag["source"] == "documents" and diag["line"] == 3
    assert data["allocation"]["status"] == "skipped"


def test_it_reads_each_text_within_the_callers_limits():
    limits = Limits(max_values=60, advice={"max_values": "raise SETTING_X"})
    data = analyze(POD, INVENTORY, limits=limits).to_dict()
    assert sorted(d["source"] for d in data["diagnostics"]) == ["documents", "inventory"]
    for diag in data["diagnostics"]:
        assert diag["line"] is not None
        assert diag["detail"] == "document too large: more than 60 values; raise SETTING_X"
    assert data["allocation"]["status"] == "skipped"
    assert analyze(POD, INVENTORY, limits=Limits(max_values=1000)).to_dict()["valid"] is True


def test_it_does_not_allocate_invalid_objects():
    claim = POD.replace("name: gpu\n", "name: GPU_bad\n", 1)
    data = analyze(claim, INVENTORY).to_dict()
    assert data["valid"] is False
    assert any(d["field"] == "spec.spec.devices.requests[0].name" for d in data["diagnostics"])
    assert data["allocation"]["status"] == "skipped"


def test_a_selector_runtime_error_aborts_like_the_scheduler():
    broken = POD.replace("['gpu.example.com'].model == 'h100'", "['gpu.example.com'].memory == 1")
    data = analyze(broken, INVENTORY).to_dict()
    assert data["allocation"]["status"] == "error"
    assert "CEL runtime error: no such key: memory" in data["allocation"]["error"]


def test_a_missing_template_is_reported_on_the_pod():
    data = analyze(POD.split("---")[1], INVENTORY).to_dict()
    assert data["valid"] is False
    assert any(d["kind"] == "Pod" and "one-h100" in d["message"] for d in data["diagnostics"])


def test_it_rejects_unknown_gates_and_releases():
    with pytest.raises(FeatureGateError):
        analyze(POD, INVENTORY, feature_gates={"Bogus": True})
    with pytest.raises(FeatureGateError):
        analyze(POD, INVENTORY, kubernetes_version="1.20")


def test_it_says_which_version_and_gates_it_assumed():
    # DRAAdminAccess is GA and locked from 1.36 on: 1.36 refuses to turn it off, DRADeviceTaints (beta) can be.
    data = analyze(POD, INVENTORY, feature_gates={"DRADeviceTaints": False}, kubernetes_version="1.36").to_dict()
    assert data["kubernetesVersion"] == "1.36"
    assert data["gateOverrides"] == {"DRADeviceTaints": False}
    assert data["featureGates"]["DRAPartitionableDevices"] is True


def test_it_explains_each_device_per_request_from_the_chosen_node():
    data = analyze(POD, INVENTORY).to_dict()
    assert data["explainedNode"] == "node-b"
    (request,) = data["requests"]
    assert request["request"] == "gpu" and request["deviceClass"] == "gpu"
    verdicts = {d["device"]: (d["matches"], d["chosen"], d["reasonCode"], d["node"]) for d in request["devices"]}
    assert verdicts == {"gpu-0": (False, False, "request-selector", "node-b"),
                        "gpu-1": (True, True, None, "node-b")}
    assert request["devices"][0]["reason"] == (
        "request selector #0 is false: `device.attributes['gpu.example.com'].model == 'h100'` is false "
        '(model = "a100")')


def test_an_aborting_selector_is_explained_on_the_node_where_it_failed():
    broken = POD.replace("['gpu.example.com'].model == 'h100'", "['gpu.example.com'].memory == 1")
    data = analyze(broken, INVENTORY).to_dict()
    assert data["explainedNode"] == "node-b"
    codes = {d["device"]: d["reasonCode"] for d in data["requests"][0]["devices"]}
    assert codes == {"gpu-0": "cel-error", "gpu-1": "cel-error"}


def test_nine_one_device_requests_on_eight_gpus_say_the_numbers():
    sample = SAMPLES / "inventories" / "gpu-node.yaml"
    inventory = yaml.safe_dump_all(yaml.safe_load(sample.read_text())["objects"])
    requests = "".join(f"    - name: r{i}\n      exactly: {{deviceClassName: gpu.example.com}}\n" for i in range(9))
    claim = ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: nine, namespace: default}\n"
             "spec:\n  devices:\n    requests:\n" + requests)
    report = analyze(claim, inventory).to_dict()
    assert report["allocation"]["status"] == "unsatisfiable"
    [node] = report["nodes"]
    # the search's counting proof decides, and says the numbers
    assert node["reason"].endswith("need 9 devices together, but only 8 on dra-example-driver-cluster-worker "
                                   "can serve any of them")
    assert "no combination satisfies" not in node["reason"]


def test_the_report_carries_the_deciding_parts_of_a_false_selector():
    sample = SAMPLES / "inventories" / "gpu-node.yaml"
    inventory = yaml.safe_dump_all(yaml.safe_load(sample.read_text())["objects"])
    selector = ('device.attributes["gpu.example.com"].model == "LATEST-GPU-MODEL" && '
                'device.capacity["gpu.example.com"].memory.compareTo(quantity("100Gi")) >= 0')
    claim = ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: big, namespace: default}\n"
             "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu.example.com\n"
             f"        selectors: [{{cel: {{expression: '{selector}'}}}}]\n")
    report = analyze(claim, inventory).to_dict()
    [request] = report["requests"]
    assert {d["reasonShort"] for d in request["devices"]} == {"request selector #0 is false"}
    [part] = request["devices"][0]["why"]
    assert selector[part["start"]:part["end"]] == 'device.capacity["gpu.example.com"].memory.compareTo(quantity("100Gi")) >= 0'
    assert part["reads"] == [{"text": 'device.capacity["gpu.example.com"].memory', "name": "memory", "value": "80Gi"}]
