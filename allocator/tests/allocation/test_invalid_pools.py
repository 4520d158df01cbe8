""""invalid resource pools were encountered" is an error, not "does not fit".

Upstream's Allocate returns it as an error wrapping ErrFailedAllocationOnNode
when nothing could be allocated and some pool in reach is invalid (structured
allocator, allocator.go); the scheduler tries the other nodes and the error
surfaces when no node fits. The cases follow upstream's allocator_test.go
("duplicate-slice", "invalid-pool-is-ok-if-devices-can-be-allocated-from-other",
"invalid-pool-is-error-if-no-other-device-can-be-allocated", the partitionable
counter-set cases) and the scheduler integration test testInvalidResourceSlices
in test/integration/dra ("invalid-one-node-and-valid-other",
"only-invalid-for-one-node", "invalid-for-all-nodes").
"""

from __future__ import annotations

import json

import pytest

from allocator.engine import analyze
from allocator.tests.helpers import cli
from allocator.tests.helpers.inventory import device_class

CLASS = "\n" + device_class('gpu', 'device.driver == "gpu.example.com"')

CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: one-gpu}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
"""


def node(name: str) -> str:
    return f"apiVersion: v1\nkind: Node\nmetadata: {{name: {name}}}\n"


def slice_(name: str, node_name: str, pool: str, count: int, devices: str, extra: str = "") -> str:
    return f"""
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: {name}}}
spec:
  driver: gpu.example.com
  nodeName: {node_name}
  pool: {{name: {pool}, generation: 1, resourceSliceCount: {count}}}
  devices: {devices}
{extra}"""


def invalid_pool_on(node_name: str) -> list[str]:
    """Two slices of one pool that both publish device-1 (the slice controller's stale-cache case)."""
    return [slice_(f"{node_name}-1", node_name, node_name, 2, "[{name: device-1}]"),
            slice_(f"{node_name}-2", node_name, node_name, 2, "[{name: device-1}]")]


def valid_pool_on(node_name: str) -> list[str]:
    return [slice_(node_name, node_name, node_name, 1, "[{name: device-1}]")]


def inventory(nodes: list[str], slices: list[str]) -> str:
    return "---\n".join([node(n) for n in nodes] + [CLASS] + slices)


def allocate_cli(tmp_path, text: str, *args: str):
    path = tmp_path / "input.yaml"
    path.write_text(text + "---\n" + CLAIM)
    return cli("allocate", *args, str(path))


WORKERS = [f"worker-{i}" for i in range(3)]


def test_on_the_node_with_the_invalid_pool_the_cli_exits_2_with_upstreams_message(tmp_path):
    text = inventory(WORKERS, invalid_pool_on("worker-0") + valid_pool_on("worker-1"))
    proc = allocate_cli(tmp_path, text, "--node", "worker-0")
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.strip() == "error: invalid resource pools were encountered (node worker-0)"
    assert "cannot allocate" not in proc.stderr


def test_invalid_one_node_and_valid_other_allocates_on_the_other(tmp_path):
    proc = allocate_cli(tmp_path, inventory(WORKERS, invalid_pool_on("worker-0") + valid_pool_on("worker-1")))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["node"] == "worker-1"
    assert out["claims"][0]["status"]["allocation"]["devices"]["results"][0]["pool"] == "worker-1"
    assert out["nodes"][0] == {"name": "worker-0", "fits": False, "error": True,
                               "reason": "invalid resource pools were encountered",
                               "schedulerReason": "invalid resource pools were encountered"}


def test_only_invalid_for_one_node_is_an_error_when_no_node_fits(tmp_path):
    proc = allocate_cli(tmp_path, inventory(WORKERS, invalid_pool_on("worker-0")))
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: invalid resource pools were encountered (node worker-0)"
    out = json.loads(proc.stdout)  # the node table still says what happened where
    assert out["node"] is None and out["claims"] == []
    assert [n.get("error", False) for n in out["nodes"]] == [True, False, False]
    assert "no device is in reach" in out["nodes"][1]["reason"]


def test_invalid_for_all_nodes_names_every_node(tmp_path):
    slices = [s for w in WORKERS for s in invalid_pool_on(w)]
    proc = allocate_cli(tmp_path, inventory(WORKERS, slices))
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("error: invalid resource pools were encountered "
                                   "(nodes worker-0, worker-1, worker-2)")


def test_invalid_pool_is_ok_if_devices_can_be_allocated_from_another_pool(tmp_path):
    shared = slice_("network", "worker-0", "network", 1, "[{name: device-2}]")
    proc = allocate_cli(tmp_path, inventory(["worker-0"], invalid_pool_on("worker-0") + [shared]),
                        "--node", "worker-0")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["claims"][0]["status"]["allocation"]["devices"]["results"][0]["device"] == "device-2"


def test_invalid_pool_is_error_if_no_other_device_can_be_allocated(tmp_path):
    taken = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: holder}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: network, device: device-2}]
"""
    shared = slice_("network", "worker-0", "network", 1, "[{name: device-2}]")
    text = inventory(["worker-0"], invalid_pool_on("worker-0") + [shared, taken])
    proc = allocate_cli(tmp_path, text, "--node", "worker-0")
    assert proc.returncode == 2
    assert "invalid resource pools were encountered" in proc.stderr


def test_a_counter_set_missing_from_the_pool_makes_it_invalid(tmp_path):
    # partitionable-devices-device-counter-consumption-references-unknown-counter-set
    devices = "[{name: device-1, consumesCounters: [{counterSet: set-2, counters: {memory: {value: 1Gi}}}]}]"
    counters = """
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: counters}
spec:
  driver: gpu.example.com
  nodeName: worker-0
  pool: {name: worker-0, generation: 1, resourceSliceCount: 2}
  sharedCounters: [{name: set-1, counters: {memory: {value: 8Gi}}}]
"""
    text = inventory(["worker-0"], [slice_("devices", "worker-0", "worker-0", 2, devices), counters])
    proc = allocate_cli(tmp_path, text, "--node", "worker-0")
    assert proc.returncode == 2, proc.stderr
    assert "invalid resource pools were encountered" in proc.stderr


@pytest.mark.parametrize("chosen", [None, "worker-0"])
def test_the_engine_reports_an_error_not_does_not_fit(chosen):
    data = analyze(CLAIM, inventory(WORKERS, invalid_pool_on("worker-0")), node=chosen).to_dict()
    alloc = data["allocation"]
    assert alloc["status"] == "error"
    assert alloc["error"] == "invalid resource pools were encountered (node worker-0)"
    assert data["nodes"][0]["error"] is True and data["nodes"][0]["fits"] is False
    # The explanation still says which devices are behind it, seen from the failing node.
    reasons = {d["reason"] for r in data["requests"] for d in r["devices"]}
    assert reasons == {"pool gpu.example.com/worker-0 is invalid: duplicate device name device-1"}


def test_the_engine_allocates_on_a_valid_node_despite_an_invalid_one():
    data = analyze(CLAIM, inventory(WORKERS, invalid_pool_on("worker-0") + valid_pool_on("worker-1"))).to_dict()
    assert data["allocation"]["status"] == "allocated" and data["allocation"]["node"] == "worker-1"
    assert data["allocation"]["error"] is None
    assert [n["error"] for n in data["nodes"]] == [True, False, False]
