"""Before 1.36 an ``allocationMode: All`` subrequest of ``firstAvailable`` looked for its devices after the
first as subrequest 0's next device: the step to the next device left the subrequest's index out
(k8s.io/dynamic-resource-allocation v0.33.x-v0.35.x, all three implementations; v0.36 keeps it). With
subrequest 0 asking for one device, the All subrequest ends after its first device; a device of the All
list that breaks a constraint is then never reached, so there is no error. Found by the differential run
(allocate-1.34-verdict-6093876b, allocate-1.35-verdict-556a6b52 and four more)."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device_class, inventory, node, resource_slice

INVENTORY = inventory(
    node("node-a"),
    device_class("gpu"),
    resource_slice("node-a", driver="gpu.example.com", node="node-a",
                   devices=["{name: first, attributes: {numa: {int: 1}}}", "second"]),
)


def claim(constraint: bool) -> str:
    return f"""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: c, namespace: default}}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - {{name: big, deviceClassName: gpu, count: 3}}
      - {{name: every, deviceClassName: gpu, allocationMode: All}}
      - {{name: one, deviceClassName: gpu}}
    constraints: {'[{matchAttribute: gpu.example.com/numa}]' if constraint else '[]'}
"""


def outcome(release: str, constraint: bool):
    allocation = analyze(claim(constraint), INVENTORY, kubernetes_version=release).to_dict()["allocation"]
    results = [(r["request"], r["device"]) for c in allocation.get("claims") or []
               for r in c["status"]["allocation"]["devices"]["results"]]
    return allocation["status"], results, allocation.get("error")


# The expected answers are those of each release's own allocator (the upstream harness), asked on this input.

@pytest.mark.parametrize("release", ["1.34", "1.35"])
@pytest.mark.parametrize("constraint", [True, False])
def test_before_1_36_the_all_subrequest_continues_as_subrequest_0(release, constraint):
    # "every" takes "first", then looks for "big"'s second device (count 3): none gives "big" three
    # devices, so "every" fails quietly, without reaching the constraint's error on "second", and "one"
    # gets "first".
    assert outcome(release, constraint) == ("allocated", [("gpu/one", "first")], None)


def test_from_1_36_a_device_of_the_all_list_that_breaks_the_constraint_is_an_error():
    assert outcome("1.36", constraint=True) == (
        "error", [], "claim default/c, request every: cannot add device gpu.example.com/node-a/second because a "
                     "claim constraint would not be satisfied")


def test_from_1_36_the_all_subrequest_gets_every_device():
    assert outcome("1.36", constraint=False) == ("allocated", [("gpu/every", "first"), ("gpu/every", "second")], None)
