"""The tests' inventory builder (helpers/inventory.py) writes objects the engine reads and validates cleanly."""

from __future__ import annotations

import yaml

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device_class, inventory, node, resource_slice

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
