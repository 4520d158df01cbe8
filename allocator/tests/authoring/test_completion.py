"""Completion data: field names per apiVersion and kind, names from an inventory, CEL functions."""

import json

from allocator.authoring import completion
from allocator.authoring.completion import (
    MAX_DOMAINS,
    MAX_NAMES,
    cel_functions,
    completion_data,
    inventory_names,
    schemas,
)

INVENTORY = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
---
apiVersion: v1
kind: Node
metadata:
  name: worker-1
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata:
  name: slice-1
spec:
  driver: gpu.example.com
  nodeName: worker-1
  pool: {name: pool-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    basic:
      attributes:
        model: {string: A100}
        resource.kubernetes.io/pcieRoot: {string: pci0}
      capacity:
        memory: {value: 80Gi}
"""


def fields(version: str, type_name: str) -> dict:
    return schemas()[version]["types"][type_name]


def test_v1_requests_hold_exactly_and_first_available():
    v1 = schemas()["resource.k8s.io/v1"]
    assert v1["kinds"]["ResourceClaim"] == "ResourceClaim"
    claim = fields("resource.k8s.io/v1", "ResourceClaim")
    assert claim["spec"] == "ResourceClaimSpec" and claim["apiVersion"] is None
    assert fields("resource.k8s.io/v1", "DeviceClaim")["requests"] == "[DeviceRequest]"
    assert set(fields("resource.k8s.io/v1", "DeviceRequest")) == {"name", "exactly", "firstAvailable"}
    exact = fields("resource.k8s.io/v1", "ExactDeviceRequest")
    assert {"deviceClassName", "selectors", "allocationMode", "count", "tolerations", "capacity"} <= set(exact)
    assert fields("resource.k8s.io/v1", "Device")["attributes"] == "{DeviceAttribute}"
    assert fields("resource.k8s.io/v1", "CELDeviceSelector") == {"expression": None}


def test_older_versions_have_their_own_shapes():
    beta1 = fields("resource.k8s.io/v1beta1", "DeviceRequest")
    assert "deviceClassName" in beta1 and "exactly" not in beta1
    assert fields("resource.k8s.io/v1beta1", "Device") == {"name": None, "basic": "BasicDevice"}
    assert "distinctAttribute" not in fields("resource.k8s.io/v1alpha3", "DeviceConstraint")
    assert "distinctAttribute" in fields("resource.k8s.io/v1beta1", "DeviceConstraint")
    assert fields("resource.k8s.io/v1alpha3", "BasicDevice")["capacity"] == "{Quantity}"
    assert schemas()["resource.k8s.io/v1beta2"] == schemas()["resource.k8s.io/v1"]


def test_every_named_child_type_is_described():
    for version, schema in schemas().items():
        for type_name, children in schema["types"].items():
            for field, child in children.items():
                bare = (child or "").strip("[]{}")
                if bare and bare != "Quantity":
                    assert bare in schema["types"], (version, type_name, field, child)


def test_pods_know_their_claims_and_the_usual_fields():
    core = schemas()["v1"]
    assert set(core["kinds"]) == {"Pod", "Node"}
    spec = core["types"]["PodSpec"]
    assert spec["resourceClaims"] == "[PodResourceClaim]" and spec["containers"] == "[Container]"
    assert "tolerations" in spec and "nodeSelector" in spec
    assert core["types"]["Container"]["resources"] == "ResourceRequirements"
    assert core["types"]["ResourceRequirements"]["claims"] == "[ResourceClaimReference]"


def test_inventory_names_group_attributes_by_domain():
    names = inventory_names(INVENTORY)
    assert names["classes"] == ["gpu.example.com"]
    assert names["drivers"] == ["gpu.example.com"]
    assert names["nodes"] == ["worker-1"]
    # A bare name belongs to the driver's domain, as device.attributes["gpu.example.com"].model reads it.
    assert names["attributes"] == {"gpu.example.com": ["model"], "resource.kubernetes.io": ["pcieRoot"]}
    assert names["capacity"] == {"gpu.example.com": ["memory"]}
    assert names["attributeTypes"] == {"gpu.example.com": {"model": "string"}, "resource.kubernetes.io": {"pcieRoot": "string"}}


def test_attribute_types_are_cel_types():
    text = INVENTORY.replace("model: {string: A100}", "model: {string: A100}\n        v: {version: 1.2.3}\n        n: {int: 3}\n        b: {bool: true}")
    types = inventory_names(text)["attributeTypes"]["gpu.example.com"]
    assert types == {"model": "string", "v": "kubernetes.Semver", "n": "int", "b": "bool"}


def test_unreadable_inventories_give_empty_names():
    empty = {"classes": [], "drivers": [], "nodes": [], "attributes": {}, "attributeTypes": {}, "capacity": {}}
    assert inventory_names("spec: [\n") == empty
    assert inventory_names("") == empty
    # An object the engine refuses contributes nothing; the others still do.
    names = inventory_names(INVENTORY + "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec:\n  bogus: 1\n")
    assert names["classes"] == ["gpu.example.com"]


def test_names_are_bounded_for_huge_inventories():
    attributes = "".join(f"        a{i}: {{int: {i}}}\n" for i in range(MAX_NAMES + 50))
    domains = "".join(f"        d{i}.example.com/x: {{int: 1}}\n" for i in range(MAX_DOMAINS + 20))
    text = INVENTORY.replace("        model: {string: A100}\n", "        model: {string: A100}\n" + attributes + domains)
    names = inventory_names(text)
    assert len(names["attributes"]["gpu.example.com"]) == MAX_NAMES
    assert len(names["attributes"]) <= MAX_DOMAINS


def test_cel_functions_and_macros_have_signatures_and_docs():
    by_name = {f["name"]: f for f in cel_functions()}
    assert not any(name.startswith("_") or name.startswith("@") for name in by_name)
    assert by_name["compareTo"]["member"] and "compareTo(" in by_name["compareTo"]["signature"]
    assert "instead of < and >" in by_name["compareTo"]["doc"]
    assert not by_name["quantity"]["member"]
    assert by_name["quantity"]["signature"] == "quantity(string) -> kubernetes.Quantity"
    assert by_name["has"]["macro"] and not by_name["has"]["member"]
    assert by_name["exists"]["macro"] and by_name["exists"]["member"]
    assert by_name["sets.contains"]["signature"].startswith("sets.contains(")
    # Member functions say what they can be called on, so that a quantity is offered its own.
    assert by_name["compareTo"]["receivers"] == ["kubernetes.Quantity", "kubernetes.Semver"]
    assert by_name["startsWith"]["receivers"] == ["string"]
    assert by_name["exists"]["receivers"] == ["list(A)", "map(K, V)"]
    assert "receivers" not in by_name["quantity"]
    # Every description is about a function that exists.
    assert set(completion.CEL_DOCS) <= set(by_name)


def test_completion_data_is_plain_json():
    data = completion_data()
    assert json.loads(json.dumps(data)) == data
    assert data["fieldDocs"]["deviceClassName"]
    assert "device.attributes" in data["cel"]["variables"]
    # Every documented field exists in some schema.
    known = {f for s in data["schemas"].values() for t in s["types"].values() for f in t}
    assert set(data["fieldDocs"]) <= known
