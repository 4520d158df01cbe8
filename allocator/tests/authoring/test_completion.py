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
from allocator.tests.helpers.inventory import device_class

INVENTORY = device_class("gpu.example.com", 'device.driver == "gpu.example.com"') + """---
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
    empty = {"classes": [], "drivers": [], "nodes": [], "attributes": {}, "attributeTypes": {}, "capacity": {},
             "devices": 0, "stats": {"attributes": {}, "capacity": {}, "complete": True}, "classInfo": {}}
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


def test_a_function_behind_a_gate_follows_the_release_and_the_gates():
    def includes(release, enabled=None):
        return next((f for f in cel_functions(release, enabled) if f["name"] == "includes"), None)

    off = includes("1.37")  # DRAListTypeAttributes: alpha, off by default
    assert off["gate"] == "DRAListTypeAttributes" and off["gateOff"]
    assert off["doc"].startswith("Needs the feature gate DRAListTypeAttributes, off here (Kubernetes 1.37)")
    on = includes("1.36", frozenset({"DRAListTypeAttributes"}))
    assert "gateOff" not in on and on["doc"] == completion.CEL_DOCS["includes"]
    assert includes("1.35") is None  # the release has no such gate: not offered at all
    # completion_data takes the overrides as the page posts them; ones the release refuses are ignored.
    data = completion_data("1.36", {"DRAListTypeAttributes": True})
    assert "gateOff" not in next(f for f in data["cel"]["functions"] if f["name"] == "includes")
    data = completion_data("1.37", {"DRAPrioritizedList": False, "DRAListTypeAttributes": True})  # locked: ignored
    assert "gateOff" not in next(f for f in data["cel"]["functions"] if f["name"] == "includes")
    # Variables likewise: allowMultipleAllocations comes with DRAConsumableCapacity (from 1.34).
    assert "device.allowMultipleAllocations" not in completion_data("1.33")["cel"]["variables"]
    assert completion_data("1.34")["cel"]["variables"]["device.allowMultipleAllocations"].startswith(
        "Needs the feature gate DRAConsumableCapacity")
    assert not completion_data("1.36")["cel"]["variables"]["device.allowMultipleAllocations"].startswith("Needs")


# Two drivers on one node: four GPUs, a MIG device (no productName, not of the GPU class) and two
# NICs (one without ifName), all with resource.kubernetes.io/pcieRoot; the NIC class compares its
# driver the other way round, and one class selects no device yet.
TWO_DRIVERS = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.nvidia.com
spec:
  selectors:
  - cel:
      expression: device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: nics
spec:
  selectors:
  - cel:
      expression: '"dra.net" == device.driver'
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: nothing-yet
spec:
  selectors:
  - cel:
      expression: device.driver == "tpu.example.com"
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: nics
spec:
  driver: dra.net
  nodeName: n1
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: eth0
    attributes:
      ifName: {string: ens5}
      resource.kubernetes.io/pcieRoot: {string: pci0}
  - name: eth1
    attributes:
      resource.kubernetes.io/pcieRoot: {string: pci1}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: gpus
spec:
  driver: gpu.nvidia.com
  nodeName: n1
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  devices:
""" + "".join(f"""\
  - name: gpu-{i}
    attributes:
      type: {{string: gpu}}
      productName: {{string: {'H100' if i < 3 else 'A100'}}}
      resource.kubernetes.io/pcieRoot: {{string: pci{i % 2}}}
    capacity:
      memory: {{value: 80Gi}}
""" for i in range(4)) + """\
  - name: gpu-4
    attributes:
      type: {string: mig}
      resource.kubernetes.io/pcieRoot: {string: pci0}
"""


def test_a_class_knows_the_drivers_and_domains_of_the_devices_it_selects():
    info = inventory_names(TWO_DRIVERS)["classInfo"]
    gpu = info["gpu.nvidia.com"]
    assert gpu["drivers"] == ["gpu.nvidia.com"] and gpu["devices"] == 4  # the MIG device is not of the class
    assert gpu["domains"] == ["gpu.nvidia.com", "resource.kubernetes.io"]  # its drivers' domains first
    assert info["nics"]["drivers"] == ["dra.net"]
    assert info["nics"]["domains"] == ["dra.net", "resource.kubernetes.io"]
    # A class that selects no device yet still names its driver.
    assert info["nothing-yet"] == {"drivers": ["tpu.example.com"], "domains": ["tpu.example.com"], "devices": 0,
                                   "stats": {"attributes": {}, "capacity": {}, "complete": True}}


def test_a_class_whose_selector_fails_selects_no_device():
    broken = TWO_DRIVERS.replace("'\"dra.net\" == device.driver'", "device.attributes['dra.net'].ifName == 'ens5'")
    nics = inventory_names(broken)["classInfo"]["nics"]
    assert nics["devices"] == 1  # eth1 lacks ifName: an error, not a match (nor a failure of completion)
    assert nics["drivers"] == ["dra.net"]


def test_stats_say_type_values_with_counts_and_how_many_lack_a_name():
    names = inventory_names(TWO_DRIVERS)
    assert names["devices"] == 7
    product = names["stats"]["attributes"]["gpu.nvidia.com"]["productName"]
    assert product["type"] == "string" and product["devices"] == 4 and product["lacking"] == 3
    assert product["values"] == [['"H100"', 3], ['"A100"', 1]] and product["moreValues"] == 0
    assert product["text"] == ('string; of the 7 devices in the inventory, 4 publish it: "H100" ×3, "A100" ×1; '
                               "3 lack it.")
    # Per class: counted over the devices the class selects.
    of_class = names["classInfo"]["gpu.nvidia.com"]["stats"]
    assert of_class["attributes"]["gpu.nvidia.com"]["productName"]["text"] == (
        'string; the 4 devices of class gpu.nvidia.com all publish it: "H100" ×3, "A100" ×1.')
    assert of_class["capacity"]["gpu.nvidia.com"]["memory"]["text"] == (
        "kubernetes.Quantity; the 4 devices of class gpu.nvidia.com all publish it: 80Gi ×4.")
    nic = names["classInfo"]["nics"]["stats"]["attributes"]["dra.net"]["ifName"]
    assert nic["text"] == 'string; of the 2 devices of class nics, 1 publishes it: "ens5" ×1; 1 lacks it.'


def test_stats_list_the_commonest_values_and_count_the_others():
    many = INVENTORY.replace("  - name: gpu-0\n", "".join(
        f"  - name: gpu-{i}\n    basic:\n      attributes:\n        uuid: {{string: u{i}}}\n" for i in range(1, 10))
        + "  - name: gpu-0\n")
    uuid = inventory_names(many)["stats"]["attributes"]["gpu.example.com"]["uuid"]
    assert len(uuid["values"]) == completion.MAX_VALUES and uuid["moreValues"] == 9 - completion.MAX_VALUES
    assert uuid["text"].endswith("and 3 more values; 1 lacks it.")


def test_stats_are_bounded_and_say_when_they_are_not_complete(monkeypatch):
    monkeypatch.setattr(completion, "MAX_STATS", 2)
    monkeypatch.setattr(completion, "MAX_CLASS_STATS", 3)
    long = "x" * 500
    names = inventory_names(TWO_DRIVERS.replace("ifName: {string: ens5}", f"ifName: {{string: {long}}}"))
    stats = names["stats"]
    assert not stats["complete"]
    assert sum(len(n) for t in ("attributes", "capacity") for n in stats[t].values()) == 2
    infos = names["classInfo"]
    counted = [sum(len(n) for t in ("attributes", "capacity") for n in i["stats"][t].values()) for i in infos.values()]
    assert sum(counted) <= 3 and not all(i["stats"]["complete"] for i in infos.values())
    # A long value is shortened in what is sent.
    monkeypatch.setattr(completion, "MAX_STATS", 500)
    (value, count), = inventory_names(TWO_DRIVERS.replace("ifName: {string: ens5}", f"ifName: {{string: {long}}}"))[
        "stats"]["attributes"]["dra.net"]["ifName"]["values"]
    assert len(value) == 60 and value.endswith("…") and count == 1
