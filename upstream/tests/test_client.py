"""The upstream harness and its client, on real inputs.

The tests that run the harness need the Go toolchain (they build the current
release's harness once, into the cache outside the project) and skip without
it, so `./dev test` passes on a machine without Go.
"""

from __future__ import annotations

import shutil

import pytest

from upstream import Harness, available_releases
from upstream.__main__ import parse_gates
from upstream.client import binary_path, built_modes, module_version, source_hash

needs_go = pytest.mark.skipif(shutil.which("go") is None,
                              reason="the upstream harness is built with the Go toolchain, and `go` is not on PATH")

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
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-b-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-b
  pool: {name: node-b, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      memory: {int: 16}
  - name: gpu-1
    attributes:
      memory: {int: 80}
"""

TEMPLATE_AND_POD = """
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: big-gpu}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu
          selectors:
          - cel: {expression: "device.attributes['gpu.example.com'].memory > 32"}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  containers:
  - name: main
    image: busybox
    resources:
      claims: [{name: gpu}]
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: big-gpu
"""


def claim(expression: str, name: str = "big") -> str:
    return f"""
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: {name}}}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        selectors:
        - cel: {{expression: "{expression}"}}
"""


def test_releases_and_their_module_versions():
    assert available_releases() == ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"]
    assert [module_version(r) for r in available_releases()] == [
        "v1.31.13", "v1.32.13", "v1.33.13", "v1.34.4", "v1.35.4", "v1.36.3", "v1.37.2"]
    assert all("schedule" in built_modes(r) for r in available_releases())
    assert source_hash("1.37") == source_hash("1.37")


def test_gates_on_the_command_line():
    assert parse_gates("DRAPrioritizedList=false, DRAAdminAccess=True") == {
        "DRAPrioritizedList": False, "DRAAdminAccess": True}


@pytest.fixture(scope="module")
def harness():
    with Harness("1.37") as running:
        yield running


@needs_go
def test_allocate_picks_what_the_selector_allows(harness):
    answer = harness.run({"documents": INVENTORY + claim("device.attributes['gpu.example.com'].memory > 32"),
                          "node": "node-b", "run": ["allocate"]})
    assert answer["error"] is None and answer["release"] == "1.37.2"
    allocation = answer["allocate"]
    assert allocation["fits"] and allocation["error"] is None
    results = allocation["claims"][0]["status"]["allocation"]["devices"]["results"]
    assert [(r["request"], r["pool"], r["device"]) for r in results] == [("gpu", "node-b", "gpu-1")]


@needs_go
def test_allocate_without_a_node_tries_every_node(harness):
    answer = harness.run({"documents": INVENTORY + claim("true"), "run": ["allocate"]})
    allocation = answer["allocate"]
    assert allocation["node"] == "node-b"
    assert [(n["name"], n["fits"]) for n in allocation["nodes"]] == [("node-a", False), ("node-b", True)]


@needs_go
def test_create_reports_the_apiservers_cel_error(harness):
    answer = harness.run({"documents": INVENTORY + claim("device.attributes['gpu.example.com'].memory >"),
                          "run": ["create"]})
    created = answer["create"][-1]
    assert created["kind"] == "ResourceClaim" and created["object"] is None
    [error] = created["errors"]
    assert error["field"] == "spec.devices.requests[0].exactly.selectors[0].cel.expression"
    assert error["type"] == "Invalid value"
    assert error["detail"].startswith("compilation failed: ERROR: <input>:1:")
    assert created["message"].startswith('ResourceClaim.resource.k8s.io "big" is invalid: ')


@needs_go
def test_create_drops_fields_of_a_disabled_gate_and_keeps_stored_objects(harness):
    capacity = """
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: share%s
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        capacity:
          requests: {memory: 8Gi}
"""
    documents = capacity % "" + capacity % "-read\n  resourceVersion: '5'"
    answer = harness.run({"documents": documents, "gates": {"DRAConsumableCapacity": False}, "run": ["gates", "create"]})
    assert answer["error"] is None, answer["error"]
    assert answer["gates"] == {"refused": None}
    new, stored = answer["create"]
    assert (new["stored"], new["errors"], stored["stored"], stored["errors"]) == (False, [], True, [])
    assert "capacity" not in new["object"]["spec"]["devices"]["requests"][0]["exactly"]
    assert stored["object"]["spec"]["devices"]["requests"][0]["exactly"]["capacity"] == {
        "requests": {"memory": "8Gi"}}


@needs_go
@pytest.mark.parametrize("gates, words", [
    ({"DRANoSuchThing": True}, "unrecognized feature gate: DRANoSuchThing"),
    ({"DRAExtendedResource": False}, "cannot set feature gate DRAExtendedResource to false, feature is locked to true"),
    ({"DRADeviceTaints": False}, "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]"),
])
def test_the_components_refuse_a_gate_set_in_their_words(harness, gates, words):
    answer = harness.run({"documents": INVENTORY, "gates": gates, "run": ["gates", "create"]})
    assert answer["gates"]["refused"] == words
    assert "create" not in answer


@needs_go
def test_schedule_binds_the_pod_where_its_template_claim_fits(harness):
    answer = harness.run({"documents": INVENTORY + TEMPLATE_AND_POD, "run": ["schedule"]})
    assert answer["error"] is None, answer["error"]
    scheduled = answer["schedule"]
    assert scheduled["pod"] == "default/trainer" and scheduled["node"] == "node-b"
    claim_name = scheduled["names"]["gpu"]
    assert claim_name.startswith("trainer-gpu-") and len(claim_name) == len("trainer-gpu-") + 5
    [made] = scheduled["claims"]
    assert made["metadata"]["name"] == claim_name
    assert made["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-1"
    assert made["status"]["reservedFor"][0]["name"] == "trainer"


@needs_go
def test_schedule_states_each_nodes_reason_when_nothing_fits(harness):
    documents = INVENTORY + TEMPLATE_AND_POD.replace("memory > 32", "memory > 100")
    scheduled = harness.run({"documents": documents, "run": ["schedule"]})["schedule"]
    assert scheduled["node"] is None
    assert scheduled["message"] == ("0/2 nodes are available: 2 cannot allocate all claims. preemption: "
                                    "0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    assert [(n["name"], n["fits"], n["reason"]) for n in scheduled["nodes"]] == [
        ("node-a", False, "cannot allocate all claims"), ("node-b", False, "cannot allocate all claims")]


@needs_go
def test_schedule_makes_the_extended_resource_claim(harness):
    documents = INVENTORY.replace("metadata: {name: gpu}\nspec:\n", "metadata: {name: gpu}\nspec:\n  extendedResourceName: example.com/gpu\n")
    documents += """
---
apiVersion: v1
kind: Pod
metadata: {name: legacy}
spec:
  containers:
  - name: main
    image: busybox
    resources:
      limits: {example.com/gpu: "2"}
"""
    scheduled = harness.run({"documents": documents, "run": ["schedule"]})["schedule"]
    assert scheduled["node"] == "node-b"
    name = scheduled["extendedResourceClaim"]
    assert name.startswith("legacy-extended-resources-")
    [made] = scheduled["claims"]
    assert made["metadata"]["name"] == name
    results = made["status"]["allocation"]["devices"]["results"]
    assert [(r["request"], r["device"]) for r in results] == [
        ("container-0-request-0", "gpu-0"), ("container-0-request-0", "gpu-1")]


@needs_go
@pytest.mark.parametrize("release", ["1.34", "1.35", "1.36"])
def test_older_releases_read_older_versions_and_schedule_the_template_pod(release):
    # A v1beta1 DeviceClass reaches the components of every release (through the internal type), and a
    # DeviceTaintRule in the version the release serves it in is taken; the pod is bound where it fits.
    if not binary_path(release).exists():
        # A cold build of an older release takes many minutes; CI builds the current release only
        # (.ci/run), and `python -m upstream build --release all` makes these run.
        pytest.skip(f"the {release} harness is not built (python -m upstream build --release {release})")
    rule_version = {"1.34": "v1alpha3", "1.35": "v1alpha3", "1.36": "v1beta2"}[release]
    documents = INVENTORY.replace("apiVersion: resource.k8s.io/v1\nkind: DeviceClass",
                                  "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass") + f"""
---
apiVersion: resource.k8s.io/{rule_version}
kind: DeviceTaintRule
metadata: {{name: maintenance}}
spec:
  deviceSelector: {{driver: gpu.example.com, pool: node-b, device: gpu-0}}
  taint: {{key: example.com/maintenance, effect: NoSchedule}}
""" + TEMPLATE_AND_POD
    with Harness(release) as running:
        answer = running.run({"documents": documents, "run": ["create", "schedule"]})
    assert answer["error"] is None, answer["error"]
    assert answer["release"] == module_version(release)[1:]
    assert [(c["kind"], c["error"], c["errors"]) for c in answer["create"] if c["error"] or c["errors"]] == []
    scheduled = answer["schedule"]
    assert scheduled["node"] == "node-b"
    [made] = scheduled["claims"]
    assert made["metadata"]["name"] == scheduled["names"]["gpu"]
    assert made["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-1"


@needs_go
def test_1_33_creates_allocates_and_schedules_in_v1beta2():
    # 1.33 serves no resource.k8s.io/v1: the inputs are written in v1beta2 (v1's shape) and its components
    # read v1beta1; its scheduler and resource-claim controller run as on the later releases.
    if not binary_path("1.33").exists():
        pytest.skip("the 1.33 harness is not built (python -m upstream build --release 1.33)")
    claim = """
---
apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: {name: big}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        selectors:
        - cel: {expression: "device.attributes['gpu.example.com'].memory > 32"}
"""
    documents = INVENTORY.replace("resource.k8s.io/v1\n", "resource.k8s.io/v1beta2\n") + claim
    with_pod = (INVENTORY + TEMPLATE_AND_POD).replace("resource.k8s.io/v1\n", "resource.k8s.io/v1beta2\n")
    with Harness("1.33", {"DynamicResourceAllocation": True}) as running:
        answer = running.run({"documents": documents, "node": "node-b", "run": ["gates", "create", "allocate"]})
        scheduled = running.run({"documents": with_pod, "run": ["schedule"]})
        refused = running.run({"documents": with_pod.replace("memory > 32", "memory > 100"), "run": ["schedule"]})
    assert answer["error"] is None, answer["error"]
    assert answer["release"] == "1.33.13" and answer["gates"] == {"refused": None}
    assert [c["errors"] for c in answer["create"]] == [[], [], [], [], []]
    [allocated] = answer["allocate"]["claims"]
    assert allocated["apiVersion"] == "resource.k8s.io/v1beta1"
    assert allocated["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-1"
    assert scheduled["error"] is None, scheduled["error"]
    assert scheduled["schedule"]["node"] == "node-b"
    [made] = scheduled["schedule"]["claims"]
    assert made["metadata"]["name"] == scheduled["schedule"]["names"]["gpu"]
    assert made["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-1"
    assert made["spec"]["devices"]["requests"][0]["deviceClassName"] == "gpu"  # v1beta1: no "exactly"
    assert refused["schedule"]["node"] is None
    assert refused["schedule"]["message"] == (
        "0/2 nodes are available: 2 cannot allocate all claims. still not schedulable, preemption: "
        "0/2 nodes are available: 2 Preemption is not helpful for scheduling.")


V1BETA1_INVENTORY_AND_POD = """
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
apiVersion: v1
kind: Node
metadata: {name: node-b}
---
apiVersion: resource.k8s.io/v1beta1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: node-b-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-b
  pool: {name: node-b, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    basic: {attributes: {memory: {int: 16}}}
  - name: gpu-1
    basic: {attributes: {memory: {int: 80}}}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata: {name: big-gpu}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        deviceClassName: gpu
        selectors:
        - cel: {expression: "device.attributes['gpu.example.com'].memory > 32"}
---""" + TEMPLATE_AND_POD.split("---", 2)[2]  # the Pod


@needs_go
def test_1_32_reads_v1beta1_schedules_and_refuses_what_it_does_not_serve():
    # 1.32 serves resource.k8s.io v1alpha3 and v1beta1 only, has no DeviceTaintRule, and DRA is off by default.
    if not binary_path("1.32").exists():
        pytest.skip("the 1.32 harness is not built (python -m upstream build --release 1.32)")
    rule = """
---
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceTaintRule
metadata: {name: maintenance}
spec:
  taint: {key: example.com/maintenance, effect: NoSchedule}
"""
    with Harness("1.32", {"DynamicResourceAllocation": True}) as running:
        answer = running.run({"documents": V1BETA1_INVENTORY_AND_POD, "run": ["gates", "create", "schedule"]})
        refused = running.run({"documents": rule + "---" + INVENTORY, "run": ["create"]})
    assert answer["error"] is None, answer["error"]
    assert answer["release"] == "1.32.13" and answer["gates"] == {"refused": None}
    assert [c["errors"] for c in answer["create"]] == [[]] * 6
    scheduled = answer["schedule"]
    assert scheduled["node"] == "node-b" and scheduled["extendedResourceClaim"] is None
    [made] = scheduled["claims"]
    assert made["metadata"]["name"] == scheduled["names"]["gpu"]
    assert made["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-1"
    assert 'no kind "DeviceTaintRule" is registered' in refused["create"][0]["error"]
    assert 'no kind "DeviceClass" is registered for version "resource.k8s.io/v1"' in refused["create"][3]["error"]


@needs_go
def test_1_31_reads_v1alpha3_schedules_and_refuses_what_it_does_not_serve():
    # 1.31 serves resource.k8s.io v1alpha3 only (built at v1.31.13), has no DeviceTaintRule, DRA off by default.
    if not binary_path("1.31").exists():
        pytest.skip("the 1.31 harness is not built (python -m upstream build --release 1.31)")
    with Harness("1.31", {"DynamicResourceAllocation": True}) as running:
        answer = running.run({"documents": V1BETA1_INVENTORY_AND_POD.replace("v1beta1", "v1alpha3"),
                              "run": ["gates", "create", "schedule"]})
        refused = running.run({"documents": V1BETA1_INVENTORY_AND_POD, "run": ["create"]})
    assert answer["error"] is None, answer["error"]
    assert answer["release"] == "1.31.13" and answer["gates"] == {"refused": None}
    assert [c["errors"] for c in answer["create"]] == [[]] * 6
    scheduled = answer["schedule"]
    assert scheduled["node"] == "node-b" and scheduled["extendedResourceClaim"] is None
    [made] = scheduled["claims"]
    assert made["metadata"]["name"] == scheduled["names"]["gpu"]
    assert made["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-1"
    assert 'no kind "DeviceClass" is registered for version "resource.k8s.io/v1beta1"' in refused["create"][2]["error"]
