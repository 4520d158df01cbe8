"""The inventory picture draws partitionable devices under the counter sets they consume (playground.picture)."""

from __future__ import annotations

from pathlib import Path

import yaml
from django.test import SimpleTestCase

from allocator.engine import ClaimGrant, DeviceResult, Report, analyze, read_inventory
from allocator.releases.gates import CURRENT_RELEASE, make_gates
from playground import picture

SAMPLES = Path(__file__).resolve().parents[1] / "samples"

# The 1.33 form: the counter sets in the devices' own slice (v1beta1, consumesCounters under basic).
FORM_1_33 = """\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  sharedCounters:
  - name: gpu-0-counters
    counters: {memory: {value: 40Gi}}
  - name: gpu-1-counters
    counters: {memory: {value: 40Gi}}
  devices:
  - name: gpu-0
    basic:
      consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 40Gi}}}]
  - name: gpu-0-half-a
    basic:
      consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 20Gi}}}]
  - name: gpu-0-half-b
    basic:
      consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 20Gi}}}]
  - name: gpu-1
    basic:
      consumesCounters: [{counterSet: gpu-1-counters, counters: {memory: {value: 40Gi}}}]
  - name: nic
    basic: {}
"""

# The current API: the counter sets in a slice of their own; one device draws on both sets.
SEPARATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: counters}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 2}
  sharedCounters:
  - name: gpu-0-counters
    counters: {memory: {value: 40Gi}}
  - name: gpu-1-counters
    counters: {memory: {value: 40Gi}}
  - name: gpu-2-counters
    counters: {memory: {value: 40Gi}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: devices}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 2}
  devices:
  - {name: gpu-0, consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 40Gi}}}]}
  - {name: gpu-1, consumesCounters: [{counterSet: gpu-1-counters, counters: {memory: {value: 40Gi}}}]}
  - name: pair
    consumesCounters:
    - {counterSet: gpu-0-counters, counters: {memory: {value: 10Gi}}}
    - {counterSet: gpu-1-counters, counters: {memory: {value: 10Gi}}}
  - {name: gpu-2, consumesCounters: [{counterSet: gpu-2-counters, counters: {memory: {value: 40Gi}}}]}
"""

HELD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held}
spec:
  devices:
    requests: [{name: one, exactly: {deviceClassName: gpu}}]
status:
  allocation:
    devices:
      results: [{request: one, driver: gpu.example.com, pool: node-1, device: gpu-0-half-a}]
"""


def _pool(pic: picture.Picture):
    [node] = [n for n in pic.nodes if n.name == "node-1"]
    [pool] = node.pools
    return pool


def _tiles(group):
    return {t.name: t for t in group.devices}


class CounterGroupTestCase(SimpleTestCase):
    def test_the_1_33_form_groups_each_gpu_with_its_partitions(self):
        pool = _pool(picture.build(read_inventory("", FORM_1_33), None))
        self.assertEqual([g.title for g in pool.groups], ["gpu-0-counters", "gpu-1-counters"])
        self.assertEqual(list(_tiles(pool.groups[0])), ["gpu-0", "gpu-0-half-a", "gpu-0-half-b"])
        self.assertEqual([t.name for t in pool.devices], ["nic"])  # consumes no counters
        tiles = _tiles(pool.groups[0])
        self.assertEqual(tiles["gpu-0"].excludes, ["gpu-0-half-a", "gpu-0-half-b"])
        self.assertEqual(tiles["gpu-0-half-a"].excludes, ["gpu-0"])  # the two halves fit side by side
        self.assertEqual(tiles["gpu-0-half-a"].consumes, ["gpu-0-counters/memory"])
        self.assertIn("consumes gpu-0-counters: memory 20Gi", tiles["gpu-0-half-a"].title)
        self.assertIn("excludes 1: gpu-0", tiles["gpu-0-half-a"].title)

    def test_bars_split_what_allocated_claims_and_the_grant_take(self):
        report = Report(kubernetes_version=CURRENT_RELEASE, gates=make_gates())
        report.allocation.claims = [ClaimGrant(name="mine", namespace="default", results=[
            DeviceResult(request="r", driver="gpu.example.com", pool="node-1", device="gpu-0-half-b")])]
        pool = _pool(picture.build(read_inventory(HELD, FORM_1_33), report))
        [bar] = pool.groups[0].sets[0].bars
        self.assertEqual((bar.total, bar.allocated, bar.granted, bar.free), ("40Gi", "20Gi", "20Gi", "0"))
        self.assertEqual((bar.allocated_pct, bar.granted_pct, bar.overdrawn), (50.0, 50.0, False))
        self.assertEqual(bar.label, "memory: 40Gi in total, 20Gi taken by allocated claims, 20Gi by this grant, 0 free")
        tiles = _tiles(pool.groups[0])
        self.assertEqual(tiles["gpu-0-half-a"].held_by, ["held"])
        self.assertEqual([g.label for g in tiles["gpu-0-half-b"].grants], ["mine / r"])
        [other] = pool.groups[1].sets[0].bars
        self.assertEqual((other.free, other.allocated_pct, other.granted_pct), ("40Gi", 0.0, 0.0))

    def test_an_overdrawn_counter_is_flagged(self):
        held = HELD.replace("[{request: one, driver: gpu.example.com, pool: node-1, device: gpu-0-half-a}]",
                            "[{request: one, driver: gpu.example.com, pool: node-1, device: gpu-0-half-a},"
                            " {request: one, driver: gpu.example.com, pool: node-1, device: gpu-0}]")
        [bar] = _pool(picture.build(read_inventory(held, FORM_1_33), None)).groups[0].sets[0].bars
        self.assertEqual((bar.free, bar.overdrawn, bar.allocated_pct), ("-20Gi", True, 100.0))

    def test_a_device_on_several_counter_sets_joins_them_in_one_group(self):
        pool = _pool(picture.build(read_inventory("", SEPARATE), None))
        self.assertEqual([g.title for g in pool.groups], ["gpu-0-counters + gpu-1-counters", "gpu-2-counters"])
        first = pool.groups[0]
        self.assertEqual([s.name for s in first.sets], ["gpu-0-counters", "gpu-1-counters"])
        tiles = _tiles(first)
        self.assertEqual(list(tiles), ["gpu-0", "gpu-1", "pair"])
        self.assertEqual(tiles["pair"].consumes, ["gpu-0-counters/memory", "gpu-1-counters/memory"])
        self.assertEqual(tiles["pair"].excludes, ["gpu-0", "gpu-1"])
        self.assertEqual(tiles["gpu-0"].excludes, ["pair"])
        self.assertEqual(picture.build(read_inventory("", SEPARATE), None).nodes[0].device_count, 4)

    def test_the_nvidia_mig_sample_gets_one_group_per_gpu(self):
        sample = yaml.safe_load((SAMPLES / "inventories" / "nvidia-mig.yaml").read_text())
        inventory = yaml.safe_dump_all(sample["objects"], sort_keys=False)
        example = yaml.safe_load((SAMPLES / "examples" / "mig-same-parent.yaml").read_text())
        report = analyze(example["documents"], inventory)
        pic = picture.build(report.inventory, report)
        [pool] = pic.nodes[0].pools
        self.assertTrue(pic.has_counters)
        self.assertEqual([(g.title, len(g.devices)) for g in pool.groups],
                         [("gpu-0-counter-set", 14), ("gpu-1-counter-set", 14)])
        bars = {b.counter: b for b in pool.groups[0].sets[0].bars}
        self.assertEqual((bars["memory-slice-4"].granted, bars["memory-slice-4"].free), ("1", "0"))
        self.assertEqual(sorted(_tiles(pool.groups[0])["gpu-0-mig-1g10gb-19-4"].excludes),
                         ["gpu-0", "gpu-0-mig-2g20gb-14-4", "gpu-0-mig-3g40gb-9-4"])


# The 1.33 form with one slice per GPU, each naming its set alike: the sets are the slices' own.
SAME_NAMES = "---\n".join(f"""\
apiVersion: resource.k8s.io/v1beta2
kind: ResourceSlice
metadata: {{name: gpu-{i}}}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {{name: node-1, generation: 1, resourceSliceCount: 2}}
  sharedCounters:
  - name: gpu-counters
    counters: {{memory: {{value: 40Gi}}}}
  devices:
  - {{name: gpu-{i}, consumesCounters: [{{counterSet: gpu-counters, counters: {{memory: {{value: 40Gi}}}}}}]}}
  - {{name: gpu-{i}-half, consumesCounters: [{{counterSet: gpu-counters, counters: {{memory: {{value: 20Gi}}}}}}]}}
""" for i in (0, 1))


class SliceOwnCounterSetsTestCase(SimpleTestCase):
    def test_sets_of_one_name_in_two_slices_are_two_groups_with_their_own_bars(self):
        held = HELD.replace("device: gpu-0-half-a", "device: gpu-0")
        pool = _pool(picture.build(read_inventory(held, SAME_NAMES), None))
        self.assertEqual([g.title for g in pool.groups], ["gpu-counters", "gpu-counters"])
        self.assertEqual([list(_tiles(g)) for g in pool.groups], [["gpu-0", "gpu-0-half"], ["gpu-1", "gpu-1-half"]])
        [taken], [free] = (g.sets[0].bars for g in pool.groups)
        self.assertEqual((taken.allocated, taken.free), ("40Gi", "0"))
        self.assertEqual((free.allocated, free.free), ("0", "40Gi"))
        tiles = _tiles(pool.groups[1])
        self.assertEqual(tiles["gpu-1-half"].consumes, ["gpu-counters/memory"])
        self.assertEqual(tiles["gpu-1-half"].excludes, ["gpu-1"])
