"""Extended resources backed by DRA (workload.extended), per release.

The request and mapping cases follow the scheduler plugin's own tables
(``Test_createRequestsAndMappings_requests`` and ``_mappings`` in
kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources), written
here with our own objects; the release differences were read in the plugin at
1.34, 1.35 and master.
"""

import pytest

from allocator.kube import model
from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates
from allocator.workload import extended

GPU = "example.com/gpu"
ON_135 = make_gates({"DRAExtendedResource": True}, "1.35")
ON_134 = make_gates({"DRAExtendedResource": True}, "1.34")
GA = make_gates(None, "1.37")


def pod(containers=(), init=(), name="pod"):
    return model.Pod(metadata=model.ObjectMeta(name=name, namespace="default"),
                     spec=model.PodSpec(containers=list(containers), init_containers=list(init)))


def klass(name, resource=None, created=""):
    return model.DeviceClass(metadata=model.ObjectMeta(name=name, creation_timestamp=created),
                             spec=model.DeviceClassSpec(extended_resource_name=resource))


def c(name, requests, restart_policy=""):
    return model.Container(name=name, requests={k: str(v) for k, v in requests.items()}, restart_policy=restart_policy)


def requests_of(p, classes, gates=GA, node=None):
    plan = extended.pod_plan(p, extended.class_mapping(classes, gates), gates)
    assert plan is not None
    node_plan = extended.node_plan(plan, node or model.Node(metadata=model.ObjectMeta(name="n")), gates, False)
    reqs = node_plan.claim.spec.devices.requests if node_plan.claim else []
    return [(r.name, r.exactly.device_class_name, r.exactly.count) for r in reqs], node_plan


CLASSES = [klass("class", GPU), klass("class1", GPU + "1"), klass("classInit", GPU + "init")]


# -- the plugin's request table (1.35 onwards) ------------------------------------------------


def test_one_resource_matches_the_other_has_no_class_and_no_node_listing():
    p = pod([c("con0", {GPU: 1, GPU + "1": 2})])
    _, plan = requests_of(p, [klass("class", GPU)])
    # the unmapped resource is neither listed by the node nor backed by DRA: the node does not fit
    assert plan.unfit.startswith(f"Insufficient {GPU}1")
    node = model.Node(metadata=model.ObjectMeta(name="n"), allocatable={GPU + "1": "4"})
    got, plan = requests_of(p, [klass("class", GPU)], node=node)
    assert got == [("container-0-request-0", "class", 1)]
    assert plan.device_plugin == {GPU + "1": 2}


def test_two_resources_in_one_container():
    got, _ = requests_of(pod([c("con0", {GPU: 1, GPU + "1": 2})]), CLASSES)
    assert got == [("container-0-request-0", "class", 1), ("container-0-request-1", "class1", 2)]


def test_two_containers():
    got, plan = requests_of(pod([c("con0", {GPU: 1}), c("con1", {GPU + "1": 2})]), CLASSES)
    assert got == [("container-0-request-0", "class", 1), ("container-1-request-0", "class1", 2)]
    assert [m.to_dict() for m in plan.mappings] == [
        {"containerName": "con0", "resourceName": GPU, "requestName": "container-0-request-0"},
        {"containerName": "con1", "resourceName": GPU + "1", "requestName": "container-1-request-0"}]


def test_one_init_container_one_regular_container():
    p = pod([c("con0", {GPU: 1})], init=[c("init-con0", {GPU + "init": 2})])
    got, _ = requests_of(p, CLASSES)
    assert got == [("container-0-request-0", "classInit", 2), ("container-1-request-0", "class", 1)]


def test_two_init_containers_keep_only_the_largest_request():
    p = pod([c("con0", {GPU: 1})], init=[c("init-con0", {GPU + "init": 1}), c("init-con1", {GPU + "init": 2})])
    got, plan = requests_of(p, CLASSES)
    assert got == [("container-1-request-0", "classInit", 2), ("container-2-request-0", "class", 1)]
    # both init containers map to the one request kept
    assert [(m.container, m.request) for m in plan.mappings if m.resource == GPU + "init"] == [
        ("init-con0", "container-1-request-0"), ("init-con1", "container-1-request-0")]


def test_init_container_reuses_a_later_sidecars_devices():
    p = pod([c("con0", {GPU: 1})], init=[c("init-con0", {GPU + "init": 1}),
                                         c("sidecar-con1", {GPU + "init": 1}, restart_policy="Always"),
                                         c("init-con2", {GPU + "init": 2})])
    got, plan = requests_of(p, CLASSES)
    assert got == [("container-1-request-0", "classInit", 1), ("container-2-request-0", "classInit", 2),
                   ("container-3-request-0", "class", 1)]
    assert {(m.container, m.request) for m in plan.mappings} >= {
        ("init-con0", "container-1-request-0"), ("sidecar-con1", "container-1-request-0"),
        ("init-con2", "container-2-request-0")}


def test_explicit_and_implicit_names_in_one_init_container():
    p = pod([], init=[c("init-con0", {GPU + "init": 1, "deviceclass.resource.kubernetes.io/classInit": 2})])
    got, plan = requests_of(p, CLASSES)
    assert got == [("container-0-request-0", "classInit", 2), ("container-0-request-1", "classInit", 1)]
    assert [m.to_dict() for m in plan.mappings] == [
        {"containerName": "init-con0", "resourceName": "deviceclass.resource.kubernetes.io/classInit",
         "requestName": "container-0-request-0"},
        {"containerName": "init-con0", "resourceName": GPU + "init", "requestName": "container-0-request-1"}]


def test_generated_claim_names_and_annotation():
    _, plan = requests_of(pod([c("con0", {GPU: 2})], name="trainer"), CLASSES)
    claim = plan.claim
    assert claim.metadata.generate_name == "trainer-extended-resources-"
    assert claim.metadata.name.startswith("trainer-extended-resources-") and len(claim.metadata.name) == 32
    assert claim.metadata.annotations == {"resource.kubernetes.io/extended-resource-claim": "true"}
    status = extended.pod_status(claim, plan.mappings)["extendedResourceClaimStatus"]
    assert status["resourceClaimName"] == claim.metadata.name


# -- release differences -------------------------------------------------------------------


def test_init_containers_do_not_reuse_devices_on_134():
    p = pod([c("con0", {GPU: 1})], init=[c("init-con0", {GPU: 1}), c("init-con1", {GPU: 2})])
    got_134, _ = requests_of(p, CLASSES, ON_134)
    got_135, _ = requests_of(p, CLASSES, ON_135)
    assert got_134 == [("container-0-request-0", "class", 1), ("container-1-request-0", "class", 2),
                       ("container-2-request-0", "class", 1)]
    # 1.35: the plain init containers reuse the regular container's device, plus what the largest needs more
    assert got_135 == [("container-1-request-0", "class", 1), ("container-2-request-0", "class", 1)]


def test_two_classes_one_name_newer_wins_from_135():
    classes = [klass("a-old", GPU, "2026-01-01T00:00:00Z"), klass("b-new", GPU, "2026-02-01T00:00:00Z")]
    mapping = extended.class_mapping(classes, ON_135)
    assert mapping.classes[GPU].metadata.name == "b-new"
    assert "b-new serves it" in mapping.notes[0]
    tie = [klass("b", GPU, "2026-01-01T00:00:00Z"), klass("a", GPU, "2026-01-01T00:00:00Z")]
    assert extended.class_mapping(tie, GA).classes[GPU].metadata.name == "a"


def test_two_classes_one_name_on_134_is_the_informers_order():
    classes = [klass("a-old", GPU, "2026-01-01T00:00:00Z"), klass("b-new", GPU, "2026-02-01T00:00:00Z")]
    mapping = extended.class_mapping(classes, ON_134)
    assert mapping.classes[GPU].metadata.name == "a-old"
    assert "unspecified" in mapping.notes[0]


def test_implicit_name_per_release():
    p = pod([c("con0", {"deviceclass.resource.kubernetes.io/class": 1})])
    # 1.34: a class with extendedResourceName has no implicit name, and kubernetes.io names are not extended
    assert extended.pod_plan(p, extended.class_mapping([klass("class")], ON_134), ON_134) is None
    assert "deviceclass.resource.kubernetes.io/class" not in extended.class_mapping(CLASSES, ON_134).classes
    assert "deviceclass.resource.kubernetes.io/plain" in extended.class_mapping([klass("plain")], ON_134).classes
    got, _ = requests_of(p, CLASSES, ON_135)
    assert got == [("container-0-request-0", "class", 1)]


def test_allocatable_zero_is_dra_from_135_device_plugin_on_134():
    p = pod([c("con0", {GPU: 1})])
    zero = model.Node(metadata=model.ObjectMeta(name="n"), allocatable={GPU: "0"})
    got, _ = requests_of(p, CLASSES, ON_135, node=zero)
    assert got == [("container-0-request-0", "class", 1)]
    got, plan = requests_of(p, CLASSES, ON_134, node=zero)
    assert got == [] and plan.unfit.startswith(f"Insufficient {GPU}")  # the device plugin has 0


def test_134_requests_cover_device_plugin_resources_too():
    p = pod([c("con0", {GPU: 1, GPU + "1": 1})])
    node = model.Node(metadata=model.ObjectMeta(name="n"), allocatable={GPU + "1": "2"})
    got_134, plan = requests_of(p, CLASSES, ON_134, node=node)
    assert plan.dra == {GPU: 1} and plan.device_plugin == {GPU + "1": 1}
    assert got_134 == [("container-0-request-0", "class", 1), ("container-0-request-1", "class1", 1)]
    got_135, _ = requests_of(p, CLASSES, ON_135, node=node)
    assert got_135 == [("container-0-request-0", "class", 1)]


@pytest.mark.parametrize(("release", "on"), [("1.33", False), ("1.34", False), ("1.35", False), ("1.36", True),
                                             ("1.37", True)])
def test_gate_defaults(release, on):
    gates = make_gates(None, release)
    [plan] = extended.plans_for([pod([c("con0", {GPU: 1})])], CLASSES, gates)
    node_plan = extended.node_plan(plan, model.Node(metadata=model.ObjectMeta(name="n")), gates, False)
    if on:
        assert node_plan.dra == {GPU: 1} and node_plan.claim is not None
    else:  # only the device plugin could serve it, and the node does not list it
        assert node_plan.claim is None
        assert node_plan.unfit == f"Insufficient {GPU}: the node's allocatable does not list it (DRAExtendedResource is off)"


def test_pods_without_extended_resources_have_no_plan():
    assert extended.plans_for([pod([c("con0", {"cpu": 1, "memory": "1Gi"})])], CLASSES, GA) == []


# -- decoding ---------------------------------------------------------------------------------

POD_AND_NODE = """
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers:
  - name: setup
    restartPolicy: Always
    resources: {requests: {example.com/gpu: 1}, limits: {example.com/gpu: 1}}
  containers:
  - name: main
    resources:
      limits: {example.com/gpu: 2, cpu: 500m}
---
apiVersion: v1
kind: Node
metadata: {name: n, creationTimestamp: "2026-01-01T00:00:00Z"}
status:
  allocatable: {cpu: "8", example.com/gpu: 0}
"""


def test_limits_are_copied_to_requests_and_allocatable_is_read():
    result = read_documents(POD_AND_NODE)
    assert result.errors == []
    p, node = (d.obj for d in result.documents)
    assert p.spec.containers[0].requests == {"example.com/gpu": "2", "cpu": "500m"}
    assert p.spec.init_containers[0].restart_policy == "Always"
    assert node.allocatable == {"cpu": "8", "example.com/gpu": "0"}
    assert node.metadata.creation_timestamp == "2026-01-01T00:00:00Z"


def test_requests_outside_resources_are_unknown_fields():
    result = read_documents("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                            "  - name: main\n    requests: {cpu: 1}\n")
    assert any('unknown field "spec.containers[0].requests"' in e.detail for e in result.errors)
    result = read_documents("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nallocatable: {cpu: 1}\n")
    assert any('unknown field "allocatable"' in e.detail for e in result.errors)


# -- the apiserver's checks of extended resources in a container -------------------------------


def _pod_errors(resources: str) -> list[str]:
    from allocator.releases.gates import make_gates as gates_of
    from allocator.validation import validate_documents

    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: main\n"
            f"    resources: {resources}\n")
    return [f"{d.field}: {d.type}: {d.detail}" for d in validate_documents(read_documents(text), gates_of(), text)
            if d.severity == "error"]


def test_extended_resources_are_whole_numbers_and_not_overcommitted():
    assert _pod_errors("{limits: {example.com/gpu: 2}}") == []
    assert _pod_errors("{limits: {example.com/gpu: 500m}}") == [
        "spec.containers[0].resources.limits[example.com/gpu]: Invalid value: must be an integer",
        "spec.containers[0].resources.requests[example.com/gpu]: Invalid value: must be an integer"]
    assert _pod_errors("{requests: {example.com/gpu: 1}}") == [
        "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"]
    assert _pod_errors("{requests: {example.com/gpu: 1}, limits: {example.com/gpu: 2}}") == [
        "spec.containers[0].resources.requests: Invalid value: must be equal to example.com/gpu limit of 2"]
    # cpu may be overcommitted, and is not an extended resource
    assert _pod_errors("{requests: {cpu: 500m}}") == []
