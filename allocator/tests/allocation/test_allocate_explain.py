"""Explanations: for every request and device in reach, matches or the first reason why not."""

from __future__ import annotations

import textwrap

from allocator.allocation.allocator import allocate_claims, explain_claims
from allocator.allocation.inputs import SearchInputs
from allocator.kube.objects import read_or_raise
from allocator.releases.gates import make_gates
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: node-1, labels: {zone: a}}
---
""" + device_class('gpu', 'device.driver == "gpu.example.com"') + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - {name: gpu-0, attributes: {model: {string: a100}, numa: {int: 0}}}
  - {name: gpu-1, attributes: {model: {string: a100}, numa: {int: 1}}}
  - {name: gpu-2, attributes: {model: {string: t4}, numa: {int: 1}}}
  - name: gpu-3
    attributes: {model: {string: a100}, numa: {int: 1}}
    taints: [{key: broken, value: "yes", effect: NoSchedule}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-2-gpus}
spec:
  driver: gpu.example.com
  pool: {name: node-2, generation: 1, resourceSliceCount: 1}
  nodeName: node-2
  devices: [{name: gpu-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: zone-b-gpus}
spec:
  driver: gpu.example.com
  pool: {name: zone-b, generation: 1, resourceSliceCount: 1}
  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [b]}]}]}
  devices: [{name: remote-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: half-pool}
spec:
  driver: gpu.example.com
  pool: {name: half, generation: 1, resourceSliceCount: 2}
  allNodes: true
  devices: [{name: lonely-0}]
"""


def _docs(text: str):
    read = read_or_raise(textwrap.dedent(text))
    return {kind: read.of_kind(kind) for kind in ("Node", "DeviceClass", "ResourceSlice", "ResourceClaim")}


def _explain(claims_yaml: str, **kwargs):
    inv, claims = _docs(INVENTORY), _docs(claims_yaml)["ResourceClaim"]
    pending = [c for c in claims if c.status.allocation is None]
    allocated = [c for c in claims if c.status.allocation is not None]
    inputs = SearchInputs(inv["DeviceClass"], inv["ResourceSlice"], allocated)
    return explain_claims(pending, inputs, kwargs.get("gates"), nodes=inv["Node"], node_name=kwargs.get("node", "node-1"))


def _verdicts(request) -> dict[str, tuple]:
    return {f"{d.pool}/{d.device}": (d.matches, d.reason.code if d.reason else None) for d in request.devices}


CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: train}
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu
        count: 2
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
"""


def test_it_gives_the_first_reason_for_every_device_in_reach():
    ex = _explain(CLAIM)
    assert ex.node == "node-1" and ex.allocated and ex.error is None
    (request,) = ex.requests
    assert (request.claim, request.request, request.device_class, request.count) == ("default/train", "gpus", "gpu", 2)
    assert _verdicts(request) == {
        "half/lonely-0": (False, "pool-incomplete"),
        "node-1/gpu-0": (True, None),
        "node-1/gpu-1": (True, None),
        "node-1/gpu-2": (False, "request-selector"),
        "node-1/gpu-3": (False, "tainted"),
        "zone-b/remote-0": (False, "wrong-node"),
    }  # node-2's slice is pinned to another node: not in reach
    chosen = [d.device for d in request.devices if d.chosen]
    assert chosen == ["gpu-0", "gpu-1"]
    tainted = next(d for d in request.devices if d.device == "gpu-3")
    assert tainted.reason.taint == {"key": "broken", "value": "yes", "effect": "NoSchedule"}
    selector = next(d for d in request.devices if d.device == "gpu-2").reason
    assert (selector.selector, selector.message) == (
        0, 'request selector #0 is false: `device.attributes["gpu.example.com"].model == "a100"` is false '
           '(model = "t4")')
    [part] = selector.parts
    assert part["verdict"] == "false" and part["reads"] == [
        {"text": 'device.attributes["gpu.example.com"].model', "name": "model", "value": '"t4"'}]
    assert (part["operator"], part["left"], part["right"]) == ("==", '"t4"', '"a100"')


def test_devices_held_by_allocated_claims_are_reported_as_allocated():
    ex = _explain(CLAIM + """
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: other}
spec:
  devices:
    requests: [{name: one, exactly: {deviceClassName: gpu}}]
status:
  allocation:
    devices:
      results: [{request: one, driver: gpu.example.com, pool: node-1, device: gpu-0}]
""")
    verdicts = _verdicts(ex.requests[0])
    assert verdicts["node-1/gpu-0"] == (False, "allocated")
    assert not ex.allocated
    assert ex.summary() == ["claim default/train, request gpus: needs 2 device(s), 1 of 6 in reach match "
                            "(1 x already allocated to another claim; 1 x not available on node node-1; "
                            "1 x pool gpu.example.com/half is incomplete (slices missing); 1 x request selector #0 "
                            'is false: `device.attributes["gpu.example.com"].model == "a100"` is false (model = '
                            '"t4"); 1 x taint broken=yes:NoSchedule is not tolerated)']


def test_class_selector_and_constraint_reasons():
    ex = _explain("""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: pair}
spec:
  devices:
    requests:
    - {name: a, exactly: {deviceClassName: gpu, selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "t4"'}}]}}
    - {name: b, exactly: {deviceClassName: gpu, selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].numa == 0'}}]}}
    constraints: [{requests: [a, b], matchAttribute: gpu.example.com/numa}]
""")
    a, b = ex.requests
    assert _verdicts(a)["node-1/gpu-2"] == (False, "constraint")
    reason = next(d for d in a.devices if d.device == "gpu-2").reason
    assert (reason.constraint, reason.attribute, reason.other_request) == (0, "gpu.example.com/numa", "b")
    # which value this device has, and how many of the other request's devices agree with it
    assert reason.message.startswith("constraint #0 (matchAttribute gpu.example.com/numa): this device has int ")
    assert reason.message.endswith("; 0 device(s) of request b share it, 1 needed")
    assert _verdicts(b)["node-1/gpu-0"] == (False, "constraint")
    assert not ex.allocated


def test_a_cel_runtime_error_is_a_reason_and_the_error():
    ex = _explain("""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: broken}
spec:
  devices:
    requests:
    - {name: r, exactly: {deviceClassName: gpu, selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].memory > 1'}}]}}
""")
    assert ex.error.startswith("claim default/broken: selector #0 on device gpu.example.com/")
    assert "CEL runtime error: no such key: memory" in ex.error
    codes = {v[1] for v in _verdicts(ex.requests[0]).values()}
    assert "cel-error" in codes


def test_subrequests_are_explained_each_and_marked_selected():
    ex = _explain("""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: alt}
spec:
  devices:
    requests:
    - name: r
      firstAvailable:
      - {name: big, deviceClassName: gpu, count: 4}
      - {name: small, deviceClassName: gpu, count: 1}
""")
    big, small = ex.requests
    assert (big.request, big.selected, small.request, small.selected) == ("r/big", False, "r/small", True)
    assert [d.device for d in small.devices if d.chosen] == ["gpu-0"]
    assert ex.summary() == []


def test_unknown_class_is_an_error_of_the_request():
    ex = _explain("""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: lost}
spec:
  devices:
    requests: [{name: r, exactly: {deviceClassName: nope}}]
""")
    assert 'could not retrieve device class nope' in ex.error
    assert ex.requests[0].error == "device class nope does not exist"


def test_failed_allocation_carries_the_explanation_as_reason():
    inv, claims = _docs(INVENTORY), _docs(CLAIM.replace("count: 2", "count: 3"))["ResourceClaim"]
    outcome = allocate_claims(claims, SearchInputs(inv["DeviceClass"], inv["ResourceSlice"]), make_gates(),
                              nodes=inv["Node"], node_name="node-1")
    assert not outcome.allocated
    assert outcome.reason.startswith("claim default/train, request gpus: needs 3 device(s), 2 of 6 in reach match")
    assert outcome.explanation.requests[0].matching == 2
    assert outcome.explanation.to_dict()["requests"][0]["devices"][0]["reason"]["code"] == "pool-incomplete"


def test_a_short_counter_is_named_with_the_numbers():
    thirty = {"gpu-0-counters": {"memory": "30Gi"}}
    inv = _docs(inventory(
        node("node-1", hostname=False), device_class('mig', 'device.driver == "gpu.example.com"'),
        resource_slice("counters", driver="gpu.example.com", node="node-1", pool="gpu-0", pool_slices=2,
                       shared_counters={"gpu-0-counters": {"memory": "40Gi"}}),
        resource_slice("devices", driver="gpu.example.com", node="node-1", pool="gpu-0", pool_slices=2,
                       devices=[device("mig-a", consumes=thirty), device("mig-b", consumes=thirty)])))
    claims = _docs("""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held}
spec:
  devices:
    requests: [{name: one, exactly: {deviceClassName: mig}}]
status:
  allocation:
    devices:
      results: [{request: one, driver: gpu.example.com, pool: gpu-0, device: mig-a}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: more}
spec:
  devices:
    requests: [{name: one, exactly: {deviceClassName: mig}}]
""")["ResourceClaim"]
    held, more = claims
    ex = explain_claims([more], SearchInputs(inv["DeviceClass"], inv["ResourceSlice"], [held]), nodes=inv["Node"],
                        node_name="node-1")
    reason = next(d for d in ex.requests[0].devices if d.device == "mig-b").reason
    assert reason.code == "counters"
    assert reason.message == ("not enough shared counters left in pool gpu.example.com/gpu-0: gpu-0-counters/memory: "
                              "10Gi of 40Gi left, needs 30Gi; taken by mig-a of allocated claim default/held")


def test_requests_that_outnumber_their_devices_say_the_numbers():
    requests = "".join(f"    - {{name: r{i}, exactly: {{deviceClassName: gpu, selectors: [{{cel: {{expression: "
                       f"'device.attributes[\"gpu.example.com\"].model == \"a100\"'}}}}]}}}}\n" for i in range(4))
    ex = _explain("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: four}\nspec:\n"
                  "  devices:\n    requests:\n" + requests)
    assert not ex.allocated
    # the search's counting proof says it (allocator/allocation/proofs.py), not "no combination satisfies..."
    assert ex.summary() == ["requests default/four/r0, default/four/r1, default/four/r2, default/four/r3 need 4 "
                            "devices together, but only 2 on node-1 can serve any of them"]


def test_counting_agreeing_devices_by_value_equals_asking_each_device():
    """explain._Tally counts the devices that agree with one by value; it must equal _agrees asked per device."""
    import random

    from allocator.allocation.candidates import Candidate
    from allocator.allocation.explain import _agrees, _Tally
    from allocator.allocation.pools import DeviceID
    from allocator.kube import model

    rng = random.Random(7)
    values = [dict(string="a"), dict(string="b"), dict(int=1), dict(int=2), dict(bool=True), dict(version="1.0.0"),
              dict(strings=["a", "b"]), dict(ints=[1, 3]), None]
    for _ in range(300):
        devices = []
        for i in range(rng.randrange(0, 7)):
            chosen = rng.choice(values)
            attributes = {"d/x": model.DeviceAttribute(**chosen)} if chosen else {}
            devices.append(model.Device(name=f"dev-{i}", attributes=attributes))
        others = [Candidate(DeviceID("d", "p", dev.name), dev, None, None) for dev in devices]
        if devices and rng.random() < 0.5:
            others.append(others[rng.randrange(len(others))])  # a device listed twice
        tally = _Tally(others, "d/x")
        mine_values = rng.choice([v for v in values if v])
        mine = model.DeviceAttribute(**mine_values)
        own = rng.choice([c.id for c in others] + [DeviceID("d", "p", "elsewhere")])
        for match in (True, False):
            for list_values in (True, False):
                expected = sum(1 for c in others if c.id != own and _agrees(
                    mine, c.device.attributes.get("d/x"), match, list_values))
                assert tally.agreeing(mine, own, match, list_values) == expected
