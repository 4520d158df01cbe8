"""The tests' inventory builder (helpers/inventory.py) writes objects the engine reads and validates cleanly."""

from __future__ import annotations

import yaml

from allocator.engine import analyze
from allocator.kube.objects import read_or_raise
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice

CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu, count: 2}}]
"""


def test_a_built_inventory_is_valid_and_allocates():
    text = inventory(node("n1", {"zone": "a b"}), device_class("gpu", "device.driver == 'gpu.example.com'"),
                     resource_slice("s", driver="gpu.example.com", node="n1",
                                    devices=["gpu-0", "{name: gpu-1, attributes: {model: {string: a100}}}"]))
    report = analyze(CLAIM, text)
    assert report.valid, [d.message() for d in report.errors]
    assert report.allocation.status == "allocated"
    assert [r.device for r in report.allocation.claims[0].results] == ["gpu-0", "gpu-1"]


def test_a_class_writes_its_selector_in_quotes_yaml_reads_back():
    for expression in ['device.driver == "a"', "device.driver == 'a'", "device.driver.matches('\\\\d') && \"'\" != ''"]:
        text = device_class("c", expression)
        assert yaml.safe_load(text)["spec"]["selectors"][0]["cel"]["expression"] == expression
        report = analyze("", text)
        assert report.valid, (expression, [d.message() for d in report.errors])


DRIVER = "gpu.example.com"
# Written by hand as the tests did before the builder wrote counters: the builder must read back the same.
PARTITIONABLE = """\
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-counters}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 2}
  sharedCounters: [{name: memory-set, counters: {memory: {value: 8Gi}}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-devices}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 2}
  devices:
  - name: whole
    attributes: {model: {string: a100}, numa: {int: 0}, mig: {bool: false}}
    consumesCounters: [{counterSet: memory-set, counters: {memory: {value: 8Gi}}}]
  - name: half-0
    attributes: {model: {string: a100}, numa: {int: 0}, mig: {bool: true}}
    consumesCounters: [{counterSet: memory-set, counters: {memory: {value: 4Gi}}}]
  - name: half-1
    attributes: {model: {string: a100}, numa: {int: 0}, mig: {bool: true}}
    consumesCounters: [{counterSet: memory-set, counters: {memory: {value: 4Gi}}}]
"""


def partitionable() -> str:
    def gpu(name: str, memory: str, mig: bool) -> str:
        return device(name, attributes={"model": "a100", "numa": 0, "mig": mig},
                      consumes={"memory-set": {"memory": memory}})

    return inventory(
        node("node-a", hostname=False), device_class("gpu"),
        resource_slice("node-a-counters", driver=DRIVER, node="node-a", pool_slices=2,
                       shared_counters={"memory-set": {"memory": "8Gi"}}),
        resource_slice("node-a-devices", driver=DRIVER, node="node-a", pool_slices=2,
                       devices=[gpu("whole", "8Gi", False), gpu("half-0", "4Gi", True), gpu("half-1", "4Gi", True)]))


def objects(text: str) -> list[object]:
    read = read_or_raise(text)
    return [(d.kind, d.obj) for d in read.documents]


def test_counters_read_back_as_the_same_objects_as_written_by_hand():
    assert objects(partitionable()) == objects(PARTITIONABLE)


def test_built_counters_validate_and_bound_the_allocation():
    # The whole GPU takes every counter: two devices are the two halves.
    report = analyze(CLAIM, partitionable(), node="node-a")
    assert report.valid, [d.message() for d in report.errors]
    assert report.allocation.status == "allocated"
    assert [r.device for r in report.allocation.claims[0].results] == ["half-0", "half-1"]
    three = analyze(CLAIM.replace("count: 2", "count: 3"), partitionable(), node="node-a")
    assert three.allocation.status == "unsatisfiable"


def test_built_capacity_is_shared_out_by_requests():
    # A device of 8Gi that allows multiple allocations: two claims of 4Gi share it, a third finds none left.
    text = inventory(node("node-a"), device_class("gpu"), resource_slice("node-a", driver=DRIVER, node="node-a", devices=[
        device("shared", capacity={"memory": "{value: 8Gi, requestPolicy: {default: 4Gi, validRange: {min: 1Gi}}}"},
               allow_multiple=True)]))
    claims = "---\n".join(CLAIM.replace("name: c,", f"name: c{i},").replace("count: 2", "count: 1")
                          for i in range(3))
    report = analyze(claims, text, node="node-a", kubernetes_version="1.37")
    assert report.valid, [d.message() for d in report.errors]
    assert report.allocation.status == "unsatisfiable"
    two = analyze(claims.rsplit("---\n", 1)[0], text, node="node-a", kubernetes_version="1.37")
    assert two.allocation.status == "allocated"
    assert [r.device for c in two.allocation.claims for r in c.results] == ["shared", "shared"]


def test_list_attributes_read_back_as_written_by_hand():
    built = resource_slice("s", driver=DRIVER, node="n1", devices=[
        device("d", attributes={"numa": [1, 2], "models": ["a100", "h 100"], "flags": [True, False]})])
    by_hand = f"""\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: s}}
spec:
  driver: {DRIVER}
  nodeName: n1
  pool: {{name: n1, generation: 1, resourceSliceCount: 1}}
  devices:
  - name: d
    attributes:
      numa: {{ints: [1, 2]}}
      models: {{strings: [a100, 'h 100']}}
      flags: {{bools: [true, false]}}
"""
    assert objects(built) == objects(by_hand)
