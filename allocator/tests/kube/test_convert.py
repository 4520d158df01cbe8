"""Conversion of v1beta2, v1beta1 and v1alpha3 objects to the v1 shape (allocator.convert)."""

import copy
import json
import textwrap
from pathlib import Path

import pytest

from allocator.kube import model
from allocator.kube.convert import SERVED_VERSIONS, Conversion, convert, to_v1
from allocator.kube.objects import read_documents
from allocator.reading.diagnostics import DiagnosticError
from allocator.reading.yamlsource import PosDict, load_yaml_stream
from allocator.tests.helpers import at

DATA = Path(__file__).resolve().parents[1] / "data"


def load(text: str):
    """The first document of a YAML text, positioned."""
    return load_yaml_stream(textwrap.dedent(text))[0].data


def plain(value):
    """PosDict/PosList -> plain JSON data, for comparisons."""
    return json.loads(json.dumps(value))


def read_one(text: str):
    result = read_documents(textwrap.dedent(text))
    assert not result.errors, [str(e) for e in result.errors]
    assert len(result.documents) == 1
    return result.documents[0]


def errors_of(text: str) -> list[tuple[str, str, int, int]]:
    result = read_documents(textwrap.dedent(text))
    return [(e.field, e.detail, e.line, e.column) for e in result.errors]


# --------------------------------------------------------------------------- ResourceSlice

SLICE_V1BETA1 = """\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata:
  name: node-1-gpus
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool:
    name: node-1
    generation: 3
    resourceSliceCount: 1
  sharedCounters:
  - name: gpu-0-counters
    counters:
      memory:
        value: 80Gi
  devices:
  - name: gpu-0
    basic:
      attributes:
        model:
          string: H100
        index:
          int: 0
        driverVersion:
          version: 550.1.0
      capacity:
        memory:
          value: 80Gi
          requestPolicy:
            default: 1Gi
            validRange:
              min: 1Gi
              step: 1Gi
      consumesCounters:
      - counterSet: gpu-0-counters
        counters:
          memory:
            value: 80Gi
      taints:
      - key: example.com/unhealthy
        value: "true"
        effect: NoSchedule
      bindsToNode: true
      bindingConditions: [attached]
      bindingFailureConditions: [failed]
      allowMultipleAllocations: true
  - name: gpu-1
    basic: {}
  - name: gpu-2
"""

SLICE_V1_EXPECTED = {
    "apiVersion": "resource.k8s.io/v1beta1",
    "kind": "ResourceSlice",
    "metadata": {"name": "node-1-gpus"},
    "spec": {
        "driver": "gpu.example.com",
        "nodeName": "node-1",
        "pool": {"name": "node-1", "generation": 3, "resourceSliceCount": 1},
        "sharedCounters": [{"name": "gpu-0-counters", "counters": {"memory": {"value": "80Gi"}}}],
        "devices": [
            {
                "name": "gpu-0",
                "attributes": {
                    "model": {"string": "H100"},
                    "index": {"int": 0},
                    "driverVersion": {"version": "550.1.0"},
                },
                "capacity": {
                    "memory": {
                        "value": "80Gi",
                        "requestPolicy": {"default": "1Gi", "validRange": {"min": "1Gi", "step": "1Gi"}},
                    }
                },
                "consumesCounters": [{"counterSet": "gpu-0-counters", "counters": {"memory": {"value": "80Gi"}}}],
                "taints": [{"key": "example.com/unhealthy", "value": "true", "effect": "NoSchedule"}],
                "bindsToNode": True,
                "bindingConditions": ["attached"],
                "bindingFailureConditions": ["failed"],
                "allowMultipleAllocations": True,
            },
            {"name": "gpu-1"},
            {"name": "gpu-2"},
        ],
    },
}


def test_v1beta1_slice_basic_fields_move_onto_the_device():
    assert plain(to_v1("ResourceSlice", "v1beta1", load(SLICE_V1BETA1))) == SLICE_V1_EXPECTED


def test_v1beta1_slice_decodes_field_by_field():
    doc = read_one(SLICE_V1BETA1)
    assert doc.api_version == "resource.k8s.io/v1beta1"
    spec = doc.obj.spec
    assert spec.node_name == "node-1" and spec.all_nodes is None
    assert spec.shared_counters == [model.CounterSet("gpu-0-counters", {"memory": model.Counter("80Gi")})]
    gpu0, gpu1, gpu2 = spec.devices
    assert gpu0.attributes["model"].string == "H100"
    assert gpu0.attributes["index"].int == 0
    assert gpu0.attributes["driverVersion"].version == "550.1.0"
    assert gpu0.capacity["memory"].value == "80Gi"
    assert gpu0.capacity["memory"].request_policy.default == "1Gi"
    assert gpu0.capacity["memory"].request_policy.valid_range.step == "1Gi"
    assert gpu0.consumes_counters[0].counter_set == "gpu-0-counters"
    assert gpu0.consumes_counters[0].counters["memory"].value == "80Gi"
    assert gpu0.taints == [model.DeviceTaint(key="example.com/unhealthy", value="true", effect="NoSchedule")]
    assert gpu0.binds_to_node is True
    assert gpu0.binding_conditions == ["attached"] and gpu0.binding_failure_conditions == ["failed"]
    assert gpu0.allow_multiple_allocations is True
    assert gpu1 == model.Device(name="gpu-1") and gpu2 == model.Device(name="gpu-2")


def test_v1beta1_slice_per_device_node_selection():
    data = load("""\
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: d
          pool: {name: p, resourceSliceCount: 1}
          perDeviceNodeSelection: true
          devices:
          - name: a
            basic:
              nodeName: n1
          - name: b
            basic:
              allNodes: true
          - name: c
            basic:
              nodeSelector:
                nodeSelectorTerms:
                - matchExpressions: [{key: k, operator: In, values: [v]}]
        """)
    spec = to_v1("ResourceSlice", "v1beta1", data)["spec"]
    assert spec["perDeviceNodeSelection"] is True
    assert plain(spec["devices"]) == [
        {"name": "a", "nodeName": "n1"},
        {"name": "b", "allNodes": True},
        {"name": "c", "nodeSelector": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "k", "operator": "In", "values": ["v"]}]}]}},
    ]


@pytest.mark.parametrize("version", ["v1beta1", "v1alpha3"])
def test_slice_node_name_and_all_nodes_zero_values_become_unset(version):
    # ResourceSliceSpec.nodeName/allNodes are string/bool there, pointers in v1.
    data = load(f"""\
        apiVersion: resource.k8s.io/{version}
        kind: ResourceSlice
        metadata: {{name: s}}
        spec: {{driver: d, pool: {{name: p, resourceSliceCount: 1}}, nodeName: "", allNodes: false}}
        """)
    spec = to_v1("ResourceSlice", version, data)["spec"]
    assert "nodeName" not in spec and "allNodes" not in spec
    # ...but not in v1, where "" is a set pointer (and invalid).
    v1 = load("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: s}
        spec: {driver: d, pool: {name: p, resourceSliceCount: 1}, nodeName: "", allNodes: false}
        """)
    assert to_v1("ResourceSlice", "v1", v1)["spec"]["nodeName"] == ""


def test_v1alpha3_slice_capacity_quantities_are_wrapped():
    data = load("""\
        apiVersion: resource.k8s.io/v1alpha3
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: d
          nodeName: n
          pool: {name: p, resourceSliceCount: 1}
          devices:
          - name: a
            basic:
              attributes:
                model: {string: A100}
              capacity:
                memory: 40Gi
                cores: 108
        """)
    device = to_v1("ResourceSlice", "v1alpha3", data)["spec"]["devices"][0]
    assert plain(device) == {
        "name": "a",
        "attributes": {"model": {"string": "A100"}},
        "capacity": {"memory": {"value": "40Gi"}, "cores": {"value": 108}},
    }


def test_v1alpha3_slice_fields_of_later_versions_are_unknown():
    errors = errors_of("""\
        apiVersion: resource.k8s.io/v1alpha3
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: d
          nodeName: n
          pool: {name: p, resourceSliceCount: 1}
          devices:
          - name: a
            basic:
              bindsToNode: true
              attributes:
                list: {strings: [a, b]}
        """)
    assert errors == [
        ("spec.devices[0].basic.bindsToNode", 'unknown field "spec.devices[0].basic.bindsToNode"', 11, 7),
        ("spec.devices[0].basic.attributes[list].strings",
         'unknown field "spec.devices[0].basic.attributes[list].strings" (did you mean "string"?)', 13, 16),
    ]


def test_v1beta2_and_v1_are_returned_unchanged():
    text = SLICE_V1BETA1.replace("v1beta1", "v1beta2")
    data = load(text)
    assert to_v1("ResourceSlice", "v1beta2", data) is data
    assert convert("ResourceSlice", "v1", data).data is data


def test_v1beta2_slice_reads_like_v1():
    v1 = """\
        apiVersion: resource.k8s.io/VERSION
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: d
          nodeName: n
          pool: {name: p, resourceSliceCount: 1}
          devices:
          - name: a
            attributes: {model: {string: x}}
            capacity: {memory: {value: 1Gi}}
        """
    a = read_one(v1.replace("VERSION", "v1")).obj
    b = read_one(v1.replace("VERSION", "v1beta2")).obj
    assert a == b and b.spec.devices[0].capacity["memory"].value == "1Gi"


# --------------------------------------------------------------------------- DeviceClass


def test_device_class_v1beta1_and_v1beta2_keep_their_fields():
    for version in ("v1beta1", "v1beta2"):
        doc = read_one(f"""\
            apiVersion: resource.k8s.io/{version}
            kind: DeviceClass
            metadata: {{name: gpu.example.com}}
            spec:
              selectors:
              - cel: {{expression: 'device.driver == "gpu.example.com"'}}
              config:
              - opaque: {{driver: gpu.example.com, parameters: {{mode: shared}}}}
              extendedResourceName: example.com/gpu
            """)
        assert doc.obj.spec == model.DeviceClassSpec(
            selectors=[model.DeviceSelector(model.CELDeviceSelector('device.driver == "gpu.example.com"'))],
            config=[model.DeviceClassConfiguration(model.OpaqueDeviceConfiguration("gpu.example.com", {"mode": "shared"}))],
            extended_resource_name="example.com/gpu",
        )


def test_device_class_v1alpha3_has_no_extended_resource_name_and_no_suitable_nodes():
    errors = errors_of("""\
        apiVersion: resource.k8s.io/v1alpha3
        kind: DeviceClass
        metadata: {name: c}
        spec:
          selectors:
          - cel: {expression: "true"}
          extendedResourceName: example.com/gpu
          suitableNodes: {nodeSelectorTerms: []}
        """)
    # suitableNodes is classic DRA's: set aside, since whether it is known depends on the release (test_classic).
    assert [e[0] for e in errors] == ["spec.extendedResourceName"]
    assert errors[0][2:] == (7, 3)


def test_device_class_v1alpha3_selectors_and_config_convert():
    doc = read_one("""\
        apiVersion: resource.k8s.io/v1alpha3
        kind: DeviceClass
        metadata: {name: c}
        spec:
          selectors:
          - cel: {expression: "true"}
          config:
          - opaque: {driver: d, parameters: {a: 1}}
        """)
    assert doc.obj.spec.selectors[0].cel.expression == "true"
    assert doc.obj.spec.config[0].opaque.parameters == {"a": 1}


# --------------------------------------------------------------------------- ResourceClaim

CLAIM_V1BETA1 = """\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata:
  name: claim
  namespace: team
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
      selectors:
      - cel:
          expression: device.attributes["gpu.example.com"].model == "H100"
      allocationMode: ExactCount
      count: 2
      adminAccess: false
      tolerations:
      - key: example.com/unhealthy
        operator: Exists
        effect: NoSchedule
        tolerationSeconds: 30
      capacity:
        requests:
          memory: 10Gi
    - name: any
      firstAvailable:
      - name: big
        deviceClassName: big.example.com
        count: 1
        capacity:
          requests: {memory: 1Gi}
      - name: small
        deviceClassName: small.example.com
        allocationMode: All
    constraints:
    - requests: [gpu, any/big]
      matchAttribute: gpu.example.com/numa
    - distinctAttribute: gpu.example.com/uuid
    config:
    - requests: [gpu]
      opaque:
        driver: gpu.example.com
        parameters: {sharing: timeslice}
"""


def test_v1beta1_claim_request_fields_move_under_exactly():
    spec = plain(to_v1("ResourceClaim", "v1beta1", load(CLAIM_V1BETA1))["spec"])
    assert spec["devices"]["requests"] == [
        {
            "name": "gpu",
            "exactly": {
                "deviceClassName": "gpu.example.com",
                "selectors": [{"cel": {"expression": 'device.attributes["gpu.example.com"].model == "H100"'}}],
                "allocationMode": "ExactCount",
                "count": 2,
                "adminAccess": False,
                "tolerations": [{"key": "example.com/unhealthy", "operator": "Exists",
                                 "effect": "NoSchedule", "tolerationSeconds": 30}],
                "capacity": {"requests": {"memory": "10Gi"}},
            },
        },
        {
            "name": "any",
            "firstAvailable": [
                {"name": "big", "deviceClassName": "big.example.com", "count": 1,
                 "capacity": {"requests": {"memory": "1Gi"}}},
                {"name": "small", "deviceClassName": "small.example.com", "allocationMode": "All"},
            ],
        },
    ]
    # Constraints and config have the same shape in every version.
    assert spec["devices"]["constraints"][1] == {"distinctAttribute": "gpu.example.com/uuid"}
    assert spec["devices"]["config"][0]["opaque"]["parameters"] == {"sharing": "timeslice"}


def test_v1beta1_claim_decodes_field_by_field():
    doc = read_one(CLAIM_V1BETA1)
    gpu, any_ = doc.obj.spec.devices.requests
    assert gpu.name == "gpu" and gpu.first_available == []
    assert gpu.exactly == model.ExactDeviceRequest(
        device_class_name="gpu.example.com",
        selectors=[model.DeviceSelector(model.CELDeviceSelector('device.attributes["gpu.example.com"].model == "H100"'))],
        allocation_mode="ExactCount",
        count=2,
        admin_access=False,
        tolerations=[model.DeviceToleration(key="example.com/unhealthy", operator="Exists", effect="NoSchedule",
                                            toleration_seconds=30)],
        capacity=model.CapacityRequirements({"memory": "10Gi"}),
    )
    assert any_.exactly is None
    assert [s.name for s in any_.first_available] == ["big", "small"]
    assert any_.first_available[1].allocation_mode == "All"
    assert doc.obj.spec.devices.constraints[0].requests == ["gpu", "any/big"]
    assert doc.obj.spec.devices.constraints[0].match_attribute == "gpu.example.com/numa"
    assert doc.obj.metadata.namespace == "team"


@pytest.mark.parametrize(
    "fields, has_exactly",
    [
        ({"deviceClassName": "c"}, True),
        ({"selectors": []}, True),  # non-nil empty list counts as set
        ({"selectors": None}, False),
        ({"allocationMode": "All"}, True),
        ({"count": 3}, True),
        ({"adminAccess": False}, True),  # a set pointer, even to false
        ({"tolerations": []}, True),
        ({"capacity": {}}, True),
        ({"deviceClassName": "", "count": 0, "allocationMode": ""}, False),  # zero values only
        ({"count": "2"}, True),  # wrong types count as set, so the decoder can report them
    ],
)
def test_exactly_is_created_when_any_request_field_is_set(fields, has_exactly):
    request = PosDict({"name": "r", **fields})
    data = PosDict(spec=PosDict(devices=PosDict(requests=[request])))
    converted = to_v1("ResourceClaim", "v1beta1", data)["spec"]["devices"]["requests"][0]
    if has_exactly:
        assert converted == {"name": "r", "exactly": fields}
    else:
        assert converted == {"name": "r"}


def test_v1beta1_claim_with_v1_exactly_is_an_unknown_field_with_a_hint():
    errors = errors_of("""\
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: r
              exactly:
                deviceClassName: x
        """)
    assert len(errors) == 1
    field, detail, line, column = errors[0]
    assert (field, line, column) == ("spec.devices.requests[0].exactly", 8, 7)
    assert "resource.k8s.io/v1beta1 has no `exactly`" in detail


def test_v1alpha3_claim_converts_like_v1beta1_without_capacity_and_distinct():
    doc = read_one("""\
        apiVersion: resource.k8s.io/v1alpha3
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: r
              deviceClassName: gpu.example.com
              allocationMode: All
              adminAccess: true
              tolerations: [{operator: Exists}]
            - name: alt
              firstAvailable:
              - {name: a, deviceClassName: x}
            constraints:
            - {requests: [r], matchAttribute: gpu.example.com/numa}
        """)
    r, alt = doc.obj.spec.devices.requests
    assert r.exactly == model.ExactDeviceRequest(device_class_name="gpu.example.com", allocation_mode="All",
                                                 admin_access=True,
                                                 tolerations=[model.DeviceToleration(operator="Exists")])
    assert alt.exactly is None and alt.first_available[0].device_class_name == "x"
    errors = errors_of("""\
        apiVersion: resource.k8s.io/v1alpha3
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          controller: example.com/classic
          devices:
            requests:
            - name: r
              deviceClassName: gpu.example.com
              capacity: {requests: {memory: 1Gi}}
            constraints:
            - {requests: [r], distinctAttribute: gpu.example.com/uuid}
        """)
    assert [(f, line, col) for f, _, line, col in errors] == [
        ("spec.devices.requests[0].capacity", 10, 7),
        ("spec.devices.constraints[0].distinctAttribute", 12, 23),
    ]


def test_claim_status_allocation_converts_and_is_checked_per_version():
    text = """\
        apiVersion: resource.k8s.io/VERSION
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - {name: r, deviceClassName: gpu.example.com}
        status:
          allocation:
            devices:
              results:
              - {request: r, driver: gpu.example.com, pool: node-1, device: gpu-0, adminAccess: false}
              config:
              - source: FromClaim
                requests: [r]
                opaque: {driver: gpu.example.com, parameters: {}}
            nodeSelector:
              nodeSelectorTerms:
              - matchFields: [{key: metadata.name, operator: In, values: [node-1]}]
          reservedFor:
          - {resource: pods, name: p, uid: "1234"}
        """
    objs = [read_one(text.replace("VERSION", v)).obj for v in ("v1beta1", "v1alpha3")]
    assert objs[0] == objs[1]
    allocation = objs[0].status.allocation
    assert allocation.devices.results == [model.DeviceRequestAllocationResult(
        request="r", driver="gpu.example.com", pool="node-1", device="gpu-0", admin_access=False)]
    assert allocation.devices.config[0].source == "FromClaim"
    assert allocation.node_selector.node_selector_terms[0].match_fields[0].values == ["node-1"]

    errors = errors_of(text.replace("VERSION", "v1alpha3").replace(
        "adminAccess: false}", "shareID: abc}").replace(
        "            nodeSelector:", "            controller: x\n            nodeSelector:"))
    assert [e[0] for e in errors] == ["status.allocation.devices.results[0].shareID"]
    classic = read_one(text.replace("VERSION", "v1alpha3").replace(
        "            nodeSelector:", "            controller: x\n            nodeSelector:")).classic
    assert list(classic) == ["status.allocation.controller"] and classic["status.allocation.controller"][0] == "x"


# --------------------------------------------------------------------------- ResourceClaimTemplate


@pytest.mark.parametrize("version", ["v1beta1", "v1alpha3"])
def test_template_spec_spec_requests_convert(version):
    doc = read_one(f"""\
        apiVersion: resource.k8s.io/{version}
        kind: ResourceClaimTemplate
        metadata: {{name: t, namespace: ns}}
        spec:
          metadata:
            labels: {{app: x}}
          spec:
            devices:
              requests:
              - name: gpu
                deviceClassName: gpu.example.com
                count: 2
        """)
    assert doc.obj.spec.metadata.labels == {"app": "x"}
    request = doc.obj.spec.spec.devices.requests[0]
    assert request.exactly == model.ExactDeviceRequest(device_class_name="gpu.example.com", count=2)
    # Positions of values are those of the value, as for v1 input.
    assert doc.position("spec.spec.devices.requests[0].exactly.count") == (12, 16)


# --------------------------------------------------------------------------- round trips

CLAIM_V1 = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: pair, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.example.com"].memory.isGreaterThan(quantity("10Gi"))'}
        count: 2
        tolerations: [{key: k, operator: Equal, value: v, effect: NoExecute}]
    - name: nic
      firstAvailable:
      - {name: fast, deviceClassName: nic.example.com, count: 1}
    constraints:
    - {requests: [gpu, nic], matchAttribute: resource.kubernetes.io/pcieRoot}
"""

CLAIM_FLAT = """\
apiVersion: resource.k8s.io/VERSION
kind: ResourceClaim
metadata: {name: pair, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
      selectors:
      - cel: {expression: 'device.attributes["gpu.example.com"].memory.isGreaterThan(quantity("10Gi"))'}
      count: 2
      tolerations: [{key: k, operator: Equal, value: v, effect: NoExecute}]
    - name: nic
      firstAvailable:
      - {name: fast, deviceClassName: nic.example.com, count: 1}
    constraints:
    - {requests: [gpu, nic], matchAttribute: resource.kubernetes.io/pcieRoot}
"""

SLICE_V1 = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  sharedCounters:
  - name: set
    counters: {memory: {value: 80Gi}}
  devices:
  - name: gpu-0
    attributes:
      model: {string: H100}
    capacity:
      memory: {value: 80Gi}
    consumesCounters:
    - counterSet: set
      counters: {memory: {value: 80Gi}}
    taints: [{key: k, value: v, effect: NoSchedule}]
"""

SLICE_BASIC = """\
apiVersion: resource.k8s.io/VERSION
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  sharedCounters:
  - name: set
    counters: {memory: {value: 80Gi}}
  devices:
  - name: gpu-0
    basic:
      attributes:
        model: {string: H100}
      capacity:
        memory: CAPACITY
      consumesCounters:
      - counterSet: set
        counters: {memory: {value: 80Gi}}
      taints: [{key: k, value: v, effect: NoSchedule}]
"""


def test_round_trip_claim_in_every_version_is_the_same_model_object():
    v1 = read_one(CLAIM_V1).obj
    assert v1.spec.devices.requests[0].exactly.count == 2
    assert read_one(CLAIM_V1.replace("resource.k8s.io/v1", "resource.k8s.io/v1beta2")).obj == v1
    assert read_one(CLAIM_FLAT.replace("VERSION", "v1beta1")).obj == v1
    assert read_one(CLAIM_FLAT.replace("VERSION", "v1alpha3")).obj == v1


def test_round_trip_slice_in_every_version_is_the_same_model_object():
    v1 = read_one(SLICE_V1).obj
    assert v1.spec.devices[0].capacity["memory"].value == "80Gi"
    assert read_one(SLICE_V1.replace("resource.k8s.io/v1", "resource.k8s.io/v1beta2")).obj == v1
    assert read_one(SLICE_BASIC.replace("VERSION", "v1beta1").replace("CAPACITY", "{value: 80Gi}")).obj == v1
    assert read_one(SLICE_BASIC.replace("VERSION", "v1alpha3").replace("CAPACITY", "80Gi")).obj == v1


def test_round_trip_upstream_gpu_test4_v1_and_v1beta1():
    # The same NVIDIA example written by its authors in both versions.
    v1 = read_documents((DATA / "nvidia-gpu-test4-v1.yaml").read_text())
    beta = read_documents((DATA / "nvidia-gpu-test4-v1beta1.yaml").read_text())
    assert not v1.errors and not beta.errors
    (t1,), (t2,) = v1.of_kind("ResourceClaimTemplate"), beta.of_kind("ResourceClaimTemplate")
    assert t1 == t2
    requests = t2.spec.spec.devices.requests
    assert [r.name for r in requests] == ["mig-1g-5gb-0", "mig-1g-5gb-1", "mig-2g-10gb", "mig-3g-20gb"]
    assert {r.exactly.device_class_name for r in requests} == {"mig.nvidia.com"}
    assert requests[2].exactly.selectors[0].cel.expression == "device.attributes['gpu.nvidia.com'].profile == '2g.10gb'"
    assert t2.spec.spec.devices.constraints[0].match_attribute == "gpu.nvidia.com/parentUUID"
    assert t2.spec.spec.devices.constraints[0].requests == []
    assert beta.ignored == ["Namespace gpu-test4", "Deployment pod"]


# --------------------------------------------------------------------------- upstream v1beta1 examples


def test_upstream_tpu_resourceslice_from_kubectl():
    result = read_documents((DATA / "tpu-resourceslice-v1beta1.yaml").read_text())
    assert not result.errors
    (doc,) = result.documents
    assert doc.api_version == "resource.k8s.io/v1beta1" and doc.name == "kind-node-jh8t6"
    spec = doc.obj.spec
    assert (spec.driver, spec.node_name, spec.pool) == (
        "tpu.google.com", "kind-control-plane", model.ResourcePool("kind-control-plane", 1, 1))
    assert [d.name for d in spec.devices] == ["accel0", "accel1"]
    assert spec.devices[1].attributes["index"].int == 1
    assert spec.devices[0].attributes["tpuGen"].string == "v4"
    assert spec.devices[0].attributes["uuid"].string == "tpu-25541d5c-7c31-8412-d7cb-c8ebff2fa5c9"
    # Positions point into the file (3 header lines + the copied text).
    text = (DATA / "tpu-resourceslice-v1beta1.yaml").read_text()
    assert at(text, "int: 0") == (19, 13)
    assert doc.position("spec.devices[0].attributes[index].int") == (19, 18)
    assert doc.position("spec.devices[1].attributes") == at(text, "index:", 2) == (27, 11)


@pytest.mark.parametrize(
    "filename, template, expected, count",
    [
        ("tpu-multi-tpu-pod-v1beta1.yaml", "multi-tpu", ("tpus", "tpu.google.com"), 4),
        ("nvidia-gpu-test8-v1beta1.yaml", "double-gpu", ("gpu", "gpu.nvidia.com"), 2),
    ],
)
def test_upstream_v1beta1_templates_with_count(filename, template, expected, count):
    result = read_documents((DATA / filename).read_text())
    assert not result.errors
    (tmpl,) = result.of_kind("ResourceClaimTemplate")
    (pod,) = result.of_kind("Pod")
    assert tmpl.metadata.name == template
    (req,) = tmpl.spec.spec.devices.requests
    assert (req.name, req.exactly.device_class_name, req.exactly.count) == (*expected, count)
    assert pod.spec.resource_claims[0].resource_claim_template_name == template


# --------------------------------------------------------------------------- positions


def test_positions_of_moved_fields_point_at_what_the_user_wrote():
    text = CLAIM_FLAT.replace("VERSION", "v1beta1")
    doc = read_one(text)
    base = "spec.devices.requests[0]"
    assert doc.position(f"{base}.exactly.deviceClassName") == at(text, "gpu.example.com") == (8, 24)
    assert doc.position(f"{base}.exactly.count") == at(text, "2\n") == (11, 14)
    assert doc.position(f"{base}.exactly.selectors[0].cel.expression") == at(text, "'device.") == (10, 27)
    assert doc.position(f"{base}.exactly.tolerations[0].key") == at(text, "k,") == (12, 27)
    # The wrapper itself sits on the first moved key.
    assert doc.position(f"{base}.exactly") == at(text, "deviceClassName") == (8, 7)
    assert doc.position(f"{base}.exactly.adminAccess") == (8, 7)  # absent: nearest ancestor

    text = SLICE_BASIC.replace("VERSION", "v1alpha3").replace("CAPACITY", "80Gi")
    slice_doc = read_one(text)
    assert slice_doc.position("spec.devices[0].attributes") == at(text, "model:") == (15, 9)
    assert slice_doc.position("spec.devices[0].attributes[model].string") == at(text, "H100") == (15, 25)
    assert slice_doc.position("spec.devices[0].capacity[memory].value") == at(text, "80Gi", 2) == (17, 17)
    assert slice_doc.position("spec.devices[0].taints[0].effect") == at(text, "NoSchedule") == (21, 43)


def test_exactly_wrapper_keeps_positions_on_the_posdict():
    data = load(CLAIM_FLAT.replace("VERSION", "v1beta1"))
    request = to_v1("ResourceClaim", "v1beta1", data)["spec"]["devices"]["requests"][0]
    exactly = request["exactly"]
    assert isinstance(exactly, PosDict)
    assert exactly.pos == (8, 7)
    assert exactly.key_pos["count"] == (11, 7) and exactly.value_pos["count"] == (11, 14)
    assert request.key_pos["exactly"] == (8, 7)
    # Moved sub-mappings are the user's own objects.
    original = data["spec"]["devices"]["requests"][0]
    assert exactly["selectors"] is original["selectors"]


def test_decode_errors_in_moved_fields_use_the_users_path_and_position():
    errors = errors_of("""\
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: r
              deviceClassName: c
              count: two
              selectors:
              - cel: {expresion: "true"}
        """)
    assert errors == [
        ("spec.devices.requests[0].count",
         "cannot decode string into field spec.devices.requests[0].count of type integer", 9, 14),
        ("spec.devices.requests[0].selectors[0].cel.expresion",
         'unknown field "spec.devices.requests[0].selectors[0].cel.expresion" (did you mean "expression"?)', 11, 15),
    ]


def test_unknown_fields_inside_basic_are_reported_under_basic():
    errors = errors_of("""\
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: d
          nodeName: n
          pool: {name: p, resourceSliceCount: 1}
          devices:
          - name: a
            basic:
              atributes: {}
              capacity:
                mem: {value: 1Gi, vaule: 2}
              name: b
          - name: b
            attributes: {x: {int: 1}}
          - name: c
            basic: [1]
        """)
    assert errors == [
        ("spec.devices[0].basic.atributes",
         'unknown field "spec.devices[0].basic.atributes" (did you mean "attributes"?)', 11, 7),
        # Found by the v1 decoder after the move, reported at the v1beta1 path.
        ("spec.devices[0].basic.capacity[mem].vaule",
         'unknown field "spec.devices[0].basic.capacity[mem].vaule" (did you mean "value"?)', 13, 27),
        ("spec.devices[0].basic.name", 'unknown field "spec.devices[0].basic.name"'
         ": the device name belongs next to `basic`, not inside it", 14, 7),
        ("spec.devices[1].attributes",
         'unknown field "spec.devices[1].attributes": in resource.k8s.io/v1beta1 device fields go under `basic`',
         16, 5),
        ("spec.devices[2].basic", "cannot decode array into field spec.devices[2].basic of type object", 18, 12),
    ]


def test_v1alpha3_capacity_errors_are_reported_at_the_quantity():
    errors = errors_of("""\
        apiVersion: resource.k8s.io/v1alpha3
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: d
          nodeName: n
          pool: {name: p, resourceSliceCount: 1}
          devices:
          - name: a
            basic:
              capacity:
                memory: {value: 1Gi}
        """)
    assert errors == [("spec.devices[0].basic.capacity[memory]",
                       "cannot decode object into field spec.devices[0].basic.capacity[memory] of type "
                       "quantity (string or number)", 12, 17)]


# --------------------------------------------------------------------------- API of the module


def test_convert_does_not_modify_its_input():
    for text, version in ((CLAIM_FLAT.replace("VERSION", "v1beta1"), "v1beta1"),
                          (SLICE_BASIC.replace("VERSION", "v1alpha3").replace("CAPACITY", "1"), "v1alpha3")):
        data = load(text)
        before = copy.deepcopy(plain(data))
        kind = data["kind"]
        assert plain(convert(kind, version, data).data) != before
        assert plain(data) == before


def test_to_v1_raises_for_fields_the_version_does_not_have():
    data = load("""\
        apiVersion: resource.k8s.io/v1alpha3
        kind: DeviceClass
        metadata: {name: c}
        spec: {extendedResourceName: example.com/x}
        """)
    with pytest.raises(DiagnosticError) as info:
        to_v1("DeviceClass", "v1alpha3", data)
    (diag,) = info.value.diagnostics
    assert (diag.field, diag.kind, diag.name, diag.line, diag.column) == (
        "spec.extendedResourceName", "DeviceClass", "c", 4, 8)
    result = convert("DeviceClass", "v1alpha3", data)
    assert result.data["spec"] == {} and len(result.errors) == 1


def test_unsupported_version_is_refused():
    with pytest.raises(ValueError):
        convert("ResourceClaim", "v1alpha2", {})
    assert SERVED_VERSIONS == ("v1", "v1beta2", "v1beta1", "v1alpha3")


def test_original_path_maps_prefixes_on_path_boundaries():
    conversion = Conversion(data={}, renames={
        "spec.devices[1].attributes": "spec.devices[1].basic.attributes",
        "spec.devices.requests[0].exactly": "spec.devices.requests[0]",
    })
    assert conversion.original_path("spec.devices[1].attributes[a.b/c].int") == "spec.devices[1].basic.attributes[a.b/c].int"
    assert conversion.original_path("spec.devices[1].attributes") == "spec.devices[1].basic.attributes"
    assert conversion.original_path("spec.devices[10].attributes") == "spec.devices[10].attributes"
    assert conversion.original_path("spec.devices.requests[0].exactly.count") == "spec.devices.requests[0].count"
    assert conversion.original_path("spec.devices.requests[0].name") == "spec.devices.requests[0].name"
    assert conversion.original_path("") == ""
