"""The inventory views the page's picture and console show (allocator.authoring.inventory), from the engine's read."""

from __future__ import annotations

from unittest import mock

from allocator import engine
from allocator.allocation.allocator import Allocator
from allocator.allocation.inputs import SearchInputs
from allocator.authoring.inventory import ALL_NODES, SELECTED_NODES, Inventory, location
from allocator.engine import analyze, read_inventory
from allocator.releases.gates import make_gates
from allocator.tests.helpers.inventory import device, resource_slice
from allocator.tests.helpers.inventory import inventory as build

PLACES = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: b}
spec:
  driver: gpu.example.com
  nodeName: node-b
  pool: {name: node-b, generation: 0, resourceSliceCount: 1}
  devices: [{name: gpu-1}, {name: gpu-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fabric}
spec:
  driver: net.example.com
  allNodes: true
  pool: {name: fabric, generation: 0, resourceSliceCount: 1}
  devices: [{name: port-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: rack}
spec:
  driver: net.example.com
  nodeSelector:
    nodeSelectorTerms: [{matchExpressions: [{key: rack, operator: In, values: ["1"]}]}]
  pool: {name: rack, generation: 0, resourceSliceCount: 1}
  devices: [{name: switch-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: a}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 0, resourceSliceCount: 1}
  devices: [{name: gpu-0}]
---
apiVersion: v1
kind: Node
metadata: {name: node-c}
"""


def _partitioned(generation: int, memory: str, slice_name: str = "gpus") -> str:
    """One pool's slice of ``generation``: a GPU of ``memory`` and its two halves, in the current form."""
    def part(name: str, memory: str) -> str:
        return device(name, consumes={"gpu-0-counters": {"memory": memory}})

    return build(
        resource_slice(f"counters-{generation}", driver="gpu.example.com", node="node-1", pool_slices=2,
                       generation=generation, shared_counters={"gpu-0-counters": {"memory": memory}}),
        resource_slice(f"{slice_name}-{generation}", driver="gpu.example.com", node="node-1", pool_slices=2,
                       generation=generation,
                       devices=[part("gpu-0", "40Gi"), part("half-a", "20Gi"), part("half-b", "20Gi"), "nic"]))


HELD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held, namespace: default}
spec:
  devices:
    requests: [{name: one, exactly: {deviceClassName: gpu.example.com}}]
status:
  allocation:
    devices:
      results:
      - {request: one, driver: gpu.example.com, pool: node-1, device: half-a}
      - {request: one, driver: gpu.example.com, pool: node-1, device: nic, adminAccess: true}
"""


def test_where_a_device_is_has_one_wording():
    inventory = read_inventory("", PLACES)
    places = {(d.driver, d.name): d.place for d in inventory.devices()}
    assert places == {("gpu.example.com", "gpu-1"): "node-b", ("gpu.example.com", "gpu-0"): "node-a",
                      ("net.example.com", "port-0"): ALL_NODES, ("net.example.com", "switch-0"): SELECTED_NODES}
    rack = inventory.slices[2]
    assert location(rack, rack.spec.devices[0]) == SELECTED_NODES
    assert inventory.node_names == ["node-c"]  # Node objects only; slices name their nodes themselves


def test_the_picker_groups_devices_by_place_and_pool_shared_ones_last():
    groups, more = read_inventory("", PLACES).picker(10)
    assert more == 0
    assert [(g.place, [(pool, [d.key for d in devices]) for pool, devices in g.pools]) for g in groups] == [
        ("node-a", [(("gpu.example.com", "node-a"), ["gpu.example.com/node-a/gpu-0"])]),
        ("node-b", [(("gpu.example.com", "node-b"), ["gpu.example.com/node-b/gpu-0", "gpu.example.com/node-b/gpu-1"])]),
        (ALL_NODES, [(("net.example.com", "fabric"), ["net.example.com/fabric/port-0"])]),
        (SELECTED_NODES, [(("net.example.com", "rack"), ["net.example.com/rack/switch-0"])]),
    ]


def test_the_picker_lists_at_most_so_many_and_counts_the_rest():
    groups, more = read_inventory("", PLACES).picker(2)
    assert more == 3
    assert [g.place for g in groups] == ["node-a", "node-b"]
    assert [d.name for _, devices in groups[1].pools for d in devices] == ["gpu-0"]


def test_a_device_needs_its_counters_and_excludes_what_would_overdraw_them():
    inventory = read_inventory(HELD, _partitioned(1, "40Gi"))
    devices = [d for d in inventory.devices() if d.pool == "node-1"]
    groups, per_device = inventory.counter_groups("gpu.example.com", "node-1", devices,
                                                  granted={("gpu.example.com", "node-1", "half-b")})
    names = [d.name for d in devices]
    assert names == ["gpu-0", "half-a", "half-b", "nic"]
    [group] = groups
    assert [names[i] for i in group.members] == ["gpu-0", "half-a", "half-b"]  # the NIC consumes nothing
    assert 3 not in per_device
    assert per_device[0].consumes == ["gpu-0-counters/memory"]
    assert per_device[0].excludes == ["half-a", "half-b"]
    assert per_device[1].excludes == ["gpu-0"]  # the two halves fit side by side
    [counter_set] = group.sets
    [bar] = counter_set.bars
    # half-a is held by an allocated claim, half-b is this grant's; admin access holds nothing.
    assert (bar.total, bar.allocated, bar.granted, bar.free, bar.overdrawn) == ("40Gi", "20Gi", "20Gi", "0", False)
    assert inventory.holders == {("gpu.example.com", "node-1", "half-a"): ["held"]}


def test_only_the_newest_generation_of_a_pool_has_counter_sets():
    # Generation 1 says the GPU has 80Gi, generation 2 says 40Gi: the pool is generation 2's (as the allocator sees it).
    inventory = read_inventory("", _partitioned(1, "80Gi", "old") + "---\n" + _partitioned(2, "40Gi", "new"))
    newest = [d for d in inventory.devices() if d.slice.spec.pool.generation == 2]
    [group], _ = inventory.counter_groups("gpu.example.com", "node-1", newest, granted=set())
    assert [b.total for b in group.sets[0].bars] == ["40Gi"]
    allocator = Allocator(SearchInputs(slices=inventory.slices), make_gates())
    assert allocator.newest_generation == {("gpu.example.com", "node-1"): 2}


def test_a_pool_without_counter_sets_has_no_groups():
    inventory = read_inventory("", PLACES)
    assert not inventory.has_counter_sets
    assert inventory.counter_groups("gpu.example.com", "node-a", inventory.devices()[:1], set()) == ([], {})


def test_an_unreadable_inventory_is_empty_with_its_first_error():
    inventory = read_inventory("", "a: [")
    assert inventory.slices == [] and inventory.devices() == []
    assert inventory.error
    assert Inventory().error == ""


def test_the_report_keeps_the_engines_read_of_the_inventory_and_documents():
    documents = HELD
    with mock.patch.object(engine, "read_documents", wraps=engine.read_documents) as read:
        report = analyze(documents, PLACES)
    assert read.call_count == 2  # the documents once, the inventory once (its validation reads no more)
    assert [d.key for d in report.inventory.devices()] == [d.key for d in read_inventory(documents, PLACES).devices()]
    assert report.inventory.holders == {("gpu.example.com", "node-1", "half-a"): ["held"]}
    assert "inventory" not in report.to_dict()  # the JSON stays as it was


def test_a_comparison_reads_each_text_once_and_a_different_text_again():
    from allocator.compare import compare

    left = {"documents": HELD, "inventory": PLACES, "kubernetes_version": "1.37"}
    with mock.patch.object(engine, "read_documents", wraps=engine.read_documents) as read:
        same = compare(left, {**left, "kubernetes_version": "1.36"})
    assert read.call_count == 2  # reading depends on neither the release nor the gates
    assert same["left"]["objects"] == same["right"]["objects"]
    other = PLACES + "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-d}\n"
    with mock.patch.object(engine, "read_documents", wraps=engine.read_documents) as read:
        compare(left, {**left, "inventory": other})
    assert [call.args[0] for call in read.call_args_list] == [HELD, PLACES, other]
