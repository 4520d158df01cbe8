"""Reading Kubernetes documents into typed DRA objects (allocator.kube.objects.read_documents)."""

import json
import textwrap

import pytest

from allocator.kube import model
from allocator.kube.objects import read_documents, read_or_raise
from allocator.reading.diagnostics import DiagnosticError
from allocator.tests.helpers import at, example_files


def read(text: str, **kwargs):
    return read_documents(textwrap.dedent(text), **kwargs)


def errors(text: str) -> list[tuple[str, str, str, int, int]]:
    return [(e.kind, e.field, e.detail, e.line, e.column) for e in read(text).errors]


STREAM = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: node-1-gpu
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
---
# a comment-only document is skipped
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: one-gpu
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
---
apiVersion: v1
kind: Node
metadata:
  name: node-1
---
apiVersion: v1
kind: Pod
metadata:
  name: app
  namespace: ml
spec:
  resourceClaims:
  - name: gpu
    resourceClaimName: one-gpu
  containers:
  - name: main
    image: busybox
    resources:
      claims:
      - name: gpu
        request: gpu
"""


def test_multi_document_stream():
    result = read(STREAM)
    assert result.errors == [] and result.ignored == []
    docs = result.documents
    assert [(d.kind, d.name, d.index, d.line) for d in docs] == [
        ("DeviceClass", "gpu.example.com", 0, 1),
        ("ResourceSlice", "node-1-gpu", 1, 10),
        ("ResourceClaim", "one-gpu", 2, 23),
        ("Node", "node-1", 3, 34),
        ("Pod", "app", 4, 39),
    ]
    assert [d.api_version for d in docs] == ["resource.k8s.io/v1"] * 3 + ["v1"] * 2
    assert result.of_kind("ResourceSlice")[0].spec.devices == [model.Device(name="gpu-0")]
    claim = result.of_kind("ResourceClaim")[0]
    assert claim.spec.devices.requests[0].exactly.device_class_name == "gpu.example.com"
    assert at(STREAM, "kind: Node") == (35, 1)
    assert docs[2].position("spec.devices.requests[0].exactly.deviceClassName") == at(STREAM, "gpu.example.com", 4)


def test_namespaced_objects_default_to_default():
    result = read(STREAM)
    by_kind = {d.kind: d for d in result.documents}
    assert by_kind["ResourceClaim"].namespace == "default"
    assert by_kind["Pod"].namespace == "ml"  # written
    assert by_kind["DeviceClass"].namespace == "" and by_kind["ResourceSlice"].namespace == ""
    assert by_kind["Node"].namespace == ""
    other = read(STREAM, default_namespace="team-a")
    assert {d.kind: d.namespace for d in other.documents}["ResourceClaim"] == "team-a"


def test_template_is_namespaced_too():
    (doc,) = read("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: t}
        spec:
          spec:
            devices:
              requests:
              - {name: r, exactly: {deviceClassName: c}}
        """).documents
    assert doc.namespace == "default"


def test_pod_claims_and_containers():
    pod = read(STREAM).of_kind("Pod")[0]
    assert pod.spec.resource_claims == [model.PodResourceClaim(name="gpu", resource_claim_name="one-gpu")]
    assert pod.spec.containers == [
        model.Container(name="main", claims=[model.ResourceClaimReference(name="gpu", request="gpu")])]

    (doc,) = read("""\
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          nodeName: node-1
          restartPolicy: Never
          resourceClaims:
          - {name: gpus, resourceClaimTemplateName: two-gpus}
          initContainers:
          - name: init
            resources:
              claims: [{name: gpus, request: first}]
          containers:
          - name: a
            resources:
              limits: {cpu: "1"}
              claims: [{name: gpus}]
          - name: b
        status:
          phase: Pending
        """).documents
    spec = doc.obj.spec
    assert spec.node_name == "node-1"
    assert spec.resource_claims[0].resource_claim_template_name == "two-gpus"
    assert spec.init_containers[0].claims == [model.ResourceClaimReference("gpus", "first")]
    assert spec.containers[0].claims == [model.ResourceClaimReference("gpus", "")]
    assert spec.containers[1] == model.Container(name="b")
    assert doc.position("spec.containers[0].resources.claims[0].name") == (17, 23)  # the value "gpus"


def test_pod_unknown_fields_are_reported():
    assert errors("""\
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          resourceclaims: []
          containers:
          - name: a
            resources:
              claim: []
        """) == [
        ("Pod", "spec.resourceclaims", 'unknown field "spec.resourceclaims" (did you mean "resourceClaims"?)', 5, 3),
        ("Pod", "spec.containers[0].resources.claim",
         'unknown field "spec.containers[0].resources.claim" (did you mean "claims"?)', 9, 7),
    ]


def test_node_accepts_spec_and_status():
    (doc,) = read("""\
        apiVersion: v1
        kind: Node
        metadata:
          name: node-1
          labels: {kubernetes.io/hostname: node-1}
        spec: {podCIDR: 10.0.0.0/24}
        status: {capacity: {cpu: "4"}}
        """).documents
    assert doc.obj == model.Node(metadata=model.ObjectMeta(name="node-1", labels={"kubernetes.io/hostname": "node-1"}))


def test_json_input():
    claim = {
        "apiVersion": "resource.k8s.io/v1beta1",
        "kind": "ResourceClaim",
        "metadata": {"name": "c", "namespace": "ns"},
        "spec": {"devices": {"requests": [{"name": "r", "deviceClassName": "gpu.example.com", "count": 2}]}},
    }
    text = json.dumps(claim, indent=2)
    (doc,) = read_documents(text).documents
    assert doc.api_version == "resource.k8s.io/v1beta1" and doc.namespace == "ns"
    assert doc.obj.spec.devices.requests[0].exactly == model.ExactDeviceRequest(
        device_class_name="gpu.example.com", count=2)
    # Positions work in JSON too, and survive the move under `exactly`.
    line, column = at(text, '"count": 2')
    assert doc.position("spec.devices.requests[0].exactly.count") == (line, column + len('"count": '))
    # A JSON List on one line.
    listing = json.dumps({"apiVersion": "v1", "kind": "List", "items": [claim, {**claim, "metadata": {"name": "d"}}]})
    assert [d.name for d in read_documents(listing).documents] == ["c", "d"]


KUBECTL_LIST = """\
apiVersion: v1
items:
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaim
  metadata:
    creationTimestamp: "2025-06-01T10:00:00Z"
    generation: 1
    managedFields:
    - apiVersion: resource.k8s.io/v1
      fieldsType: FieldsV1
      fieldsV1:
        f:spec:
          f:devices: {}
      manager: kubectl-create
      operation: Update
      time: "2025-06-01T10:00:00Z"
    name: allocated
    namespace: ml
    resourceVersion: "4242"
    uid: 0b6e0e35-1d4f-4c57-8b3e-2f4f1c2d9a10
    finalizers: [resource.kubernetes.io/delete-protection]
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          allocationMode: ExactCount
          count: 1
          deviceClassName: gpu.example.com
  status:
    allocation:
      allocationTimestamp: "2025-06-01T10:00:01Z"
      devices:
        results:
        - device: gpu-0
          driver: gpu.example.com
          pool: node-1
          request: gpu
      nodeSelector:
        nodeSelectorTerms:
        - matchFields:
          - key: metadata.name
            operator: In
            values: [node-1]
    reservedFor:
    - name: app
      resource: pods
      uid: 5d3c2b1a-0000-4000-8000-000000000001
    devices:
    - driver: gpu.example.com
      pool: node-1
      device: gpu-0
      conditions: []
- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata:
    name: gpu.example.com
    resourceVersion: "17"
    uid: 1f0e0000-0000-4000-8000-000000000002
    creationTimestamp: "2025-06-01T09:00:00Z"
  spec:
    selectors:
    - cel: {expression: "true"}
kind: List
metadata:
  resourceVersion: ""
"""


def test_kubectl_list_with_server_fields_and_status():
    result = read(KUBECTL_LIST)
    assert result.errors == []
    claim_doc, class_doc = result.documents
    claim = claim_doc.obj
    assert claim.metadata == model.ObjectMeta(name="allocated", namespace="ml",
                                              uid="0b6e0e35-1d4f-4c57-8b3e-2f4f1c2d9a10",
                                              creation_timestamp="2025-06-01T10:00:00Z")
    allocation = claim.status.allocation
    assert allocation.devices.results == [model.DeviceRequestAllocationResult(
        request="gpu", driver="gpu.example.com", pool="node-1", device="gpu-0")]
    assert allocation.allocation_timestamp == "2025-06-01T10:00:01Z"  # a string, not a datetime
    assert allocation.node_selector.node_selector_terms[0].match_fields[0].values == ["node-1"]
    assert class_doc.kind == "DeviceClass" and class_doc.index == 1
    assert (claim_doc.line, claim_doc.column) == (3, 3)


def test_typed_list_as_the_api_returns_it():
    # GET /apis/resource.k8s.io/v1beta1/resourceslices: items carry no kind/apiVersion.
    result = read("""\
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceSliceList
        metadata: {resourceVersion: "99"}
        items:
        - metadata: {name: a, resourceVersion: "1", uid: x}
          spec:
            driver: d
            nodeName: n
            pool: {name: n, generation: 1, resourceSliceCount: 2}
            devices:
            - name: dev
              basic:
                attributes: {model: {string: m}}
        - apiVersion: resource.k8s.io/v1beta1
          kind: ResourceSlice
          metadata: {name: b}
          spec: {driver: d, nodeName: n, pool: {name: n, generation: 1, resourceSliceCount: 2}}
        """)
    assert result.errors == []
    assert [(d.kind, d.api_version, d.name, d.line) for d in result.documents] == [
        ("ResourceSlice", "resource.k8s.io/v1beta1", "a", 5),
        ("ResourceSlice", "resource.k8s.io/v1beta1", "b", 14),
    ]
    assert result.documents[0].obj.spec.devices[0].attributes["model"].string == "m"


def test_nested_lists_are_flattened():
    result = read("""\
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: List
          items:
          - {apiVersion: v1, kind: Node, metadata: {name: a}}
        - {apiVersion: v1, kind: Node, metadata: {name: b}}
        """)
    assert [d.name for d in result.documents] == ["a", "b"]


def test_unknown_field_with_path_suggestion_line_and_column():
    assert errors("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: r
              exactly:
                deviceClassname: gpu.example.com
                count: 1
        """) == [("ResourceClaim", "spec.devices.requests[0].exactly.deviceClassname",
                  'unknown field "spec.devices.requests[0].exactly.deviceClassname" (did you mean "deviceClassName"?)',
                  9, 9)]


def test_unknown_top_level_and_metadata_fields():
    errs = errors("""\
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata: {name: c, lables: {a: b}}
        spec: {}
        specs: {}
        """)
    assert [(f, line, col) for _, f, _, line, col in errs] == [("metadata.lables", 3, 21), ("specs", 5, 1)]
    assert '(did you mean "labels"?)' in errs[0][2] and '(did you mean "spec"?)' in errs[1][2]


def test_wrong_types():
    errs = errors("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: 42
          nodeName: n
          pool: {name: p, resourceSliceCount: "1"}
          devices:
            name: not-a-list
        """)
    assert errs == [
        ("ResourceSlice", "spec.driver", "cannot decode number into field spec.driver of type string", 5, 11),
        ("ResourceSlice", "spec.pool.resourceSliceCount",
         "cannot decode string into field spec.pool.resourceSliceCount of type integer", 7, 39),
        ("ResourceSlice", "spec.devices", "cannot decode object into field spec.devices of type array", 9, 5),
    ]


def test_unknown_kinds_are_ignored_and_listed():
    result = read("""\
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: settings}
        ---
        apiVersion: v1
        kind: Namespace
        """)
    assert result.documents == [] and result.errors == []
    assert result.ignored == ["Deployment web", "ConfigMap settings", "Namespace"]


def test_device_taint_rules_are_decoded_in_each_version():
    for version in ("v1alpha3", "v1beta2", "v1"):
        result = read(f"""\
            apiVersion: resource.k8s.io/{version}
            kind: DeviceTaintRule
            metadata: {{name: maintenance}}
            spec:
              deviceSelector: {{driver: gpu.example.com, pool: p, device: gpu-0}}
              taint: {{key: maintenance, value: "true", effect: NoSchedule}}
            """)
        assert result.errors == [] and result.ignored == []
        rule = result.documents[0].obj
        assert isinstance(rule, model.DeviceTaintRule)
        assert (rule.spec.device_selector.driver, rule.spec.device_selector.pool,
                rule.spec.device_selector.device) == ("gpu.example.com", "p", "gpu-0")
        assert rule.spec.taint == model.DeviceTaint(key="maintenance", value="true", effect="NoSchedule")


def test_missing_kind_and_api_version():
    assert errors("""\
        apiVersion: v1
        metadata: {name: x}
        ---
        kind: ResourceClaim
        metadata: {name: c}
        ---
        - just
        - a list
        """) == [
        ("", "kind", "Object 'Kind' is missing", 1, 1),
        ("ResourceClaim", "apiVersion", "Object 'apiVersion' is missing", 4, 1),
        ("", "", "object #3 is not a mapping (got PosList)", 7, 1),
    ]


def test_unsupported_api_versions():
    errs = errors("""\
        apiVersion: resource.k8s.io/v1alpha2
        kind: ResourceClaim
        metadata: {name: c}
        ---
        apiVersion: example.com/v1
        kind: DeviceClass
        metadata: {name: d}
        ---
        apiVersion: apps/v1
        kind: Pod
        metadata: {name: p}
        """)
    assert [(k, f, line, col) for k, f, _, line, col in errs] == [
        ("ResourceClaim", "apiVersion", 1, 13),
        ("DeviceClass", "apiVersion", 5, 13),
        ("Pod", "apiVersion", 9, 13),
    ]
    assert errs[0][2].startswith('no matches for kind "ResourceClaim" in version "resource.k8s.io/v1alpha2"')
    assert "resource.k8s.io/v1alpha3" in errs[0][2]
    assert errs[2][2] == 'no matches for kind "Pod" in version "apps/v1"'


def test_one_bad_object_does_not_hide_the_others():
    result = read("""\
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata: {name: bad}
        spec: {selector: []}
        ---
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata: {name: good}
        """)
    assert [d.name for d in result.documents] == ["good"]
    assert [(e.name, e.field) for e in result.errors] == [("bad", "spec.selector")]
    with pytest.raises(DiagnosticError):
        read_or_raise(textwrap.dedent("""\
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: bad}
            spec: {selector: []}
            """))


def test_syntax_errors_raise_a_located_diagnostic():
    with pytest.raises(DiagnosticError) as info:
        read_documents("apiVersion: v1\nkind: Node\nmetadata: {name: [}\n")
    (diag,) = info.value.diagnostics
    assert diag.line == 3 and diag.detail.startswith("YAML syntax error")


# --------------------------------------------------------------------------- the driver examples (data/examples)


EXAMPLE_FILES = example_files()

# Files the collection's README lists as broken upstream, with the error each gives.
KNOWN_BROKEN = {
    # The Pod is written with lower-case keys (apiversion, restartpolicy, ...).
    "gpu--examples--pod-inline-aligned-gpus.yaml": ("Pod", "apiVersion"),
    # The Pod has no apiVersion at all.
    "device-taint-pod-noschedule--4-pod-not-scheduled.yaml": ("Pod", "apiVersion"),
}


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_file_reads(path):
    result = read_documents(path.read_text())
    assert result.documents or result.ignored or result.errors
    if path.name in KNOWN_BROKEN:
        assert [(e.kind, e.field) for e in result.errors] == [KNOWN_BROKEN[path.name]]
    else:
        assert result.errors == [], [str(e) for e in result.errors]


def test_example_collection_has_the_older_versions():
    versions = {}
    for path in EXAMPLE_FILES:
        for doc in read_documents(path.read_text()).documents:
            versions.setdefault(doc.api_version, 0)
            versions[doc.api_version] += 1
    assert versions.get("resource.k8s.io/v1beta1", 0) >= 5
    assert versions.get("resource.k8s.io/v1", 0) > 100
