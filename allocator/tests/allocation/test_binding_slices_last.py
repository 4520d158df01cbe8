"""1.34 and 1.35: slices with binding conditions come after a pool's other slices.

The experimental implementation of v0.34.x and v0.35.x gathers the node's slices with binding conditions
after the others, so a pool's plain devices are tried first; 1.36 sorts a pool's slices by name instead.
Here the first listed slice holds a device with binding conditions that a selector cannot read (no such
attribute): on 1.35 the plain device of the second slice is granted before that device is ever looked at,
on 1.36 the slice order by name reaches it first and the claim stops with the CEL error.
Found by the differential run (allocate-1.35-verdict-1cae5bd6, allocate-1.34-devices-60b6add1)."""

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device_class, inventory, node, resource_slice

INVENTORY = inventory(
    node("node-a"),
    device_class("gpu"),
    resource_slice("a-waits", driver="gpu.example.com", node="node-a", pool_slices=2, devices=[
        "{name: needs-attach, bindingConditions: [attached], bindingFailureConditions: [failed]}"]),
    resource_slice("b-plain", driver="gpu.example.com", node="node-a", pool_slices=2,
                   devices=["{name: plain, attributes: {numa: {int: 1}}}"]),
)

CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: numa-one, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].numa == 1'}}]
"""


def allocate(release: str) -> dict:
    gates = {"DRADeviceBindingConditions": True, "DRAResourceClaimDeviceStatus": True}
    return analyze(CLAIM, INVENTORY, kubernetes_version=release, feature_gates=gates).to_dict()


def test_1_35_tries_the_plain_slice_first():
    report = allocate("1.35")
    [claim] = report["allocation"]["claims"]
    assert [r["device"] for r in claim["status"]["allocation"]["devices"]["results"]] == ["plain"]


def test_1_36_walks_the_slices_by_name():
    allocation = allocate("1.36")["allocation"]
    assert allocation["status"] == "error"
    assert allocation["error"] == "claim default/numa-one: selector #0: CEL runtime error: no such key: numa"
