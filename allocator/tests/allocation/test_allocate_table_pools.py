"""Upstream's allocator test table, part 5: list-type attributes, pools spanning nodes, invalid
pools, combinations within a request, lexicographical order (shorthand: see helpers/allocate_table.py)."""

import pytest

from allocator.tests.helpers.allocate_table import run_case, table_params

CASES = r"""
list-attributes-match-constaint-scalar-string-values:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {stringAttribute: value1}}, {name: device-2, attributes: {stringAttribute: value1}}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}]
list-attributes-match-constaint-list-of-string-values-with-common-elements:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: {strings: [value1, value2, value3]}}},
              {name: device-2, attributes: {stringAttribute: {strings: [value2, value3, value4]}}}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}]
list-attributes-match-constaint-list-of-string-values-with-partially-common-elements:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 3}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: {strings: [value1, value2]}}},
              {name: device-2, attributes: {stringAttribute: {strings: [value2, value3]}}},
              {name: device-3, attributes: {stringAttribute: {strings: [value3, value1]}}}]
list-attributes-match-constaint-list-of-string-values-without-common-elements:
  features: [list]
  claims:
  - {name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a}, {name: req-0, class: class-a}]}
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: {strings: [value1, value2]}}},
              {name: device-2, attributes: {stringAttribute: {strings: [value3, value4]}}}]
list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-with-common-elements:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: value1}},
              {name: device-2, attributes: {stringAttribute: {strings: [value1, value2]}}}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}]
list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-with-partially-common-elements:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 3}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: value1}},
              {name: device-2, attributes: {stringAttribute: {strings: [value1, value2]}}},
              {name: device-3, attributes: {stringAttribute: {strings: [value2, value3]}}}]
list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-without-common-elements:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: value1}},
              {name: device-2, attributes: {stringAttribute: {strings: [value2, value3]}}}]
list-attributes-match-constaint-list-of-int-values-with-common-elements:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/numa}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {numa: {ints: [0, 1, 2]}}}, {name: device-2, attributes: {numa: {ints: [1, 2, 3]}}}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}]
list-attributes-match-constaint-list-of-bool-values-with-common-elements:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/boolAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {boolAttribute: {bools: [true, false]}}}, {name: device-2, attributes: {boolAttribute: {bools: [true]}}}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}]
list-attributes-match-constaint-list-of-version-values-with-common-elements:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/driverVersion}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {driverVersion: {versions: [1.0.0, 1.1.0, 2.0.0]}}},
              {name: device-2, attributes: {driverVersion: {versions: [1.1.0, 2.0.0, 2.1.0]}}}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}]
list-attributes-match-constaint-with-empty-or-unknown-type:
  features: [list]
  claims: [{name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {stringAttribute: {}}}, {name: device-2, attributes: {stringAttribute: {strings: []}}}]}]
  error: unsupported attribute value
list-attributes-disabled-match-constraint-with-lists:
  claims: [{name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: {strings: [value1, value2, value3]}}},
              {name: device-2, attributes: {stringAttribute: {strings: [value2, value3, value4]}}}]
list-attributes-distinct-constraint-scalar-string-values-all-distinct:
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {stringAttribute: value1}}, {name: device-2, attributes: {stringAttribute: value2}}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}]
list-attributes-distinct-constraint-scalar-string-values-not-distinct:
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {stringAttribute: value1}}, {name: device-2, attributes: {stringAttribute: value1}}]}]
list-attributes-distinct-constraint-list-of-string-values-all-distinct:
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: {strings: [value1, value2]}}},
              {name: device-2, attributes: {stringAttribute: {strings: [value2, value3]}}},
              {name: device-3, attributes: {stringAttribute: {strings: [value3, value4]}}}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-3]}]
list-attributes-distinct-constraint-list-of-string-values-with-common-elements:
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: {strings: [value1, value2, value3]}}},
              {name: device-2, attributes: {stringAttribute: {strings: [value2, value4, value5]}}}]
list-attributes-distinct-constraint-mixed-scalar-and-list-all-distinct:
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: value1}},
              {name: device-2, attributes: {stringAttribute: {strings: [value1, value2]}}},
              {name: device-3, attributes: {stringAttribute: {strings: [value2, value3]}}}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-3]}]
list-attributes-distinct-constraint-mixed-scalar-and-list-with-common-elements:
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: value1}},
              {name: device-2, attributes: {stringAttribute: {strings: [value1, value2]}}}]
list-attributes-distinct-constraint-list-of-int-values-all-distinct:
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/numa}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {numa: {ints: [0, 1]}}}, {name: device-2, attributes: {numa: {ints: [1, 2]}}},
              {name: device-3, attributes: {numa: {ints: [2, 3]}}}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-3]}]
list-attributes-distinct-constraint-list-of-bool-values-all-distinct:
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/boolAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {boolAttribute: {bools: [true]}}}, {name: device-2, attributes: {boolAttribute: {bools: [true, false]}}},
              {name: device-3, attributes: {boolAttribute: {bools: [false]}}}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-3]}]
list-attributes-distinct-constraint-list-of-version-values-all-distinct:
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/driverVersion}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {driverVersion: {versions: [1.0.0, 1.1.0]}}},
              {name: device-2, attributes: {driverVersion: {versions: [1.1.0, 2.0.0]}}},
              {name: device-3, attributes: {driverVersion: {versions: [2.0.0, 2.1.0]}}}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-3]}]
list-attributes-distinct-constaint-with-empty-or-unknown-type:
  # The empty list is taken as first device; the device without any value aborts on CEL conversion.
  features: [list, consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/driverVersion}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {driverVersion: {versions: []}}}, {name: device-2, attributes: {driverVersion: {}}}]}]
  error: unsupported attribute value
list-attributes-disabled-distinct-constraint-with-lists:
  features: [consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: {strings: [value1, value2, value3]}}},
              {name: device-2, attributes: {stringAttribute: {strings: [value2, value3, value4]}}}]
allocation-mode-all-with-multi-host-resource-pool:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: node-1, pool: {name: pool-1, count: 2}, devices: [device-1]}
  - {name: slice-2, node: node-2, pool: {name: pool-1, count: 2}, devices: [device-2]}
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
multi-host-resource-pool-with-stale-slice-for-current-node:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: node-1, pool: {name: pool-1, count: 2, generation: 1}, devices: [device-1]}
  - {name: slice-2, node: node-2, pool: {name: pool-1, count: 2, generation: 2}, devices: [device-2]}
multi-host-resource-pool-complete-update-from-node-1-to-node-2:
  # Allocating from the old generation is what upstream does here (it ignores the newer slices elsewhere).
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: node-1, pool: {name: pool-1, count: 2, generation: 1}, devices: [device-1]}
  - {name: slice-1, node: node-1, pool: {name: pool-1, count: 2, generation: 1}, devices: [device-2]}
  - {name: slice-2, node: node-2, pool: {name: pool-1, count: 2, generation: 2}, devices: [device-1]}
  - {name: slice-2, node: node-2, pool: {name: pool-1, count: 2, generation: 2}, devices: [device-2]}
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
multi-host-resource-pool-complete-update-from-node-2-to-node-1:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: node-2, pool: {name: pool-1, count: 2, generation: 1}, devices: [device-1]}
  - {name: slice-1, node: node-2, pool: {name: pool-1, count: 2, generation: 1}, devices: [device-2]}
  - {name: slice-2, node: node-1, pool: {name: pool-1, count: 2, generation: 2}, devices: [device-1]}
  - {name: slice-2, node: node-1, pool: {name: pool-1, count: 2, generation: 2}, devices: [device-2]}
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
multi-host-resource-pool-incomplete-update-from-node-1-to-node-2:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: node-1, pool: {name: pool-1, count: 2, generation: 1}, devices: [device-1]}
  - {name: slice-1, node: node-1, pool: {name: pool-1, count: 2, generation: 1}, devices: [device-2]}
  - {name: slice-2, node: node-2, pool: {name: pool-1, count: 2, generation: 2}, devices: [device-1]}
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
multi-host-resource-pool-incomplete-update-from-node-2-to-node-1:
  # The newer generation has only one of two slices.
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: node-2, pool: {name: pool-1, count: 2, generation: 1}, devices: [device-1]}
  - {name: slice-1, node: node-2, pool: {name: pool-1, count: 2, generation: 1}, devices: [device-2]}
  - {name: slice-2, node: node-1, pool: {name: pool-1, count: 2, generation: 2}, devices: [device-1]}
partitionable-devices-same-counter-set-name-in-different-resource-slices:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 4}, devices: [device-1]}
  - {name: slice-2, pool: {name: pool-1, count: 4}, counterSets: {counter-set-1: {}}}
  - {name: slice-3, pool: {name: pool-1, count: 4}, devices: [device-2]}
  - {name: slice-4, pool: {name: pool-1, count: 4}, counterSets: {counter-set-1: {}}}
  error: invalid resource pools were encountered
partitionable-devices-device-counter-consumption-references-unknown-counter-set:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [{name: device-1, counters: [{set: counter-set-2, counters: {}}]}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {}}}
  error: invalid resource pools were encountered
partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [{name: device-1, counters: [{set: counter-set-1, counters: {memory: 8Gi}}]}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {other-memory: 8Gi}}}
  error: invalid resource pools were encountered
partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [{name: device-1, counters: [{set: counter-set-1, counters: {memory: 8Gi}}]}]}
  - {name: slice-2, pool: pool-2, counterSets: {counter-set-1: {memory: 8Gi}}}
  error: invalid resource pools were encountered
partitionable-devices-devices-on-different-nodes-consume-same-counter-set:
  # device-3 on node-2 is allocated and uses 6Gi of the shared 8Gi.
  features: [partitionable, prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, first: [{name: subReq-0, class: class-a, selectors: ['device.capacity["driver-a"].memory.compareTo(quantity("6Gi")) >= 0']},
                            {name: subReq-1, class: class-a, selectors: ['device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0']}]}
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 3}, counterSets: {counter-set-1: {memory: 8Gi}}}
  - name: slice-2
    pool: {name: pool-1, count: 3}
    devices: [{name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi}}]},
              {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 2Gi}}]}]
  - {name: slice-3, node: node-2, pool: {name: pool-1, count: 3}, devices: [{name: device-3, counters: [{set: counter-set-1, counters: {memory: 6Gi}}]}]}
  allocated: [driver-a/pool-1/device-3]
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-2]}]
partitionable-devices-devices-consume-counter-set-in-different-nodes:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 3}, counterSets: {counter-set-1: {memory: 8Gi}}}
  - {name: slice-2, pool: {name: pool-1, count: 3}, devices: [{name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi}}]}]}
  - name: slice-3
    node: node-2
    pool: {name: pool-1, count: 3}
    devices: [{name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi}}]},
              {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 2Gi}}]}]
  allocated: [driver-a/pool-1/device-1]
  node: {name: node-2, region: region-1}
  expect: [{node: node-2, results: [req-0 driver-a pool-1 device-3]}]
partitionable-devices-validation-error-on-non-targeting-slice:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 3}, counterSets: {counter-set-1: {memory: 8Gi}}}
  - {name: slice-2, pool: {name: pool-1, count: 3}, devices: [{name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi}}]}]}
  - {name: slice-3, node: node-2, pool: {name: pool-1, count: 3}, devices: [{name: device-3, counters: [{set: counter-set-2, counters: {memory: 6Gi}}]}]}
  error: invalid resource pools were encountered
different-resourceslices-in-pool-can-target-different-nodes:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: node-2, pool: {name: pool-1, count: 2}, devices: [device-1]}
  - {name: slice-2, node: node-1, pool: {name: pool-1, count: 2}, devices: [device-2]}
  expect: [{results: [req-0 driver-a pool-1 device-2]}]
invalid-pool-is-ok-if-devices-can-be-allocated-from-other:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [device-1]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, devices: [device-1]}
  - {name: slice-3, pool: pool-2, devices: [device-2]}
  expect: [{results: [req-0 driver-a pool-2 device-2]}]
invalid-pool-is-error-if-no-other-device-can-be-allocated:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [device-1]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, devices: [device-1]}
  - {name: slice-3, pool: pool-2, devices: [device-2]}
  allocated: [driver-a/pool-2/device-2]
  error: invalid resource pools were encountered
no-allocation-from-incomplete-pools:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, pool: {name: pool-1, count: 2}, devices: [device-1]}]
check-combinations-within-single-request-single-pool-single-slice:
  # Five devices wanted, four exist: combinations take 16 steps, permutations (stable) 65.
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 5}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2, device-3, device-4]}]
  steps: 16
  steps_by: {stable: 65}
check-combinations-within-single-request-single-pool-multiple-slices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 5}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [device-1, device-2]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, devices: [device-3, device-4]}
  steps: 16
  steps_by: {stable: 65}
check-combinations-within-single-request-multiple-pools-multiple-slices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 5}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [device-1]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, devices: [device-2]}
  - {name: slice-3, pool: pool-2, devices: [device-3, device-4]}
  steps: 16
  steps_by: {stable: 65}
check-combinations-within-single-request-many-pools:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 5}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [device-1]}
  - {name: slice-2, pool: pool-2, devices: [device-2]}
  - {name: slice-3, pool: pool-3, devices: [device-3]}
  - {name: slice-4, pool: pool-4, devices: [device-4]}
  steps: 16
  steps_by: {stable: 65}
check-combinations-with-backtracking:
  # req-1 first takes device-1 and device-2, but req-2 needs device-1.
  claims:
  - name: claim-0
    requests: [{name: req-1, class: class-a, count: 2}, {name: req-2, class: class-a, selectors: ['device.attributes["driver-a"].type == "X"']}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {type: X}}, {name: device-2, attributes: {type: Y}}, {name: device-3, attributes: {type: Y}}]}]
  expect: [{results: [req-1 driver-a pool-1 device-2, req-1 driver-a pool-1 device-3, req-2 driver-a pool-1 device-1]}]
  steps: 12
  steps_by: {stable: 14}
check-combinations-with-backtracking-across-slices-and-pools:
  # The binding condition puts pool-2 after pool-1.
  features: [binding]
  claims:
  - name: claim-0
    requests: [{name: req-1, class: class-a, count: 2}, {name: req-2, class: class-a, selectors: ['device.attributes["driver-a"].type == "X"']}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [{name: device-1, attributes: {type: X}}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, devices: [{name: device-2, attributes: {type: Y}}]}
  - {name: slice-3, pool: pool-2, devices: [{name: device-3, attributes: {type: Y}, binding: [IsPrepare]}]}
  expect:
  - results: [req-1 driver-a pool-1 device-2, {r: req-1 driver-a pool-2 device-3, binding: [IsPrepare]}, req-2 driver-a pool-1 device-1]
  steps: 12
  steps_by: {stable: 14}
check-combinations-with-prioritized-list:
  features: [prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-1, first: [{name: subReq-0, class: class-a, count: 3, selectors: ['device.attributes["driver-a"].type == "Y"']},
                            {name: subReq-1, class: class-a, count: 2}]}
    - {name: req-2, first: [{name: subReq-0, class: class-a, count: 2},
                            {name: subReq-1, class: class-a, selectors: ['device.attributes["driver-a"].type == "X"']}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {type: X}}, {name: device-2, attributes: {type: Y}}, {name: device-3, attributes: {type: Y}}]}]
  expect: [{results: [req-1/subReq-1 driver-a pool-1 device-2, req-1/subReq-1 driver-a pool-1 device-3, req-2/subReq-1 driver-a pool-1 device-1]}]
  steps: 26
  steps_by: {stable: 32}
"""

# Upstream runs these only against implementations that sort pools and slices by name.
LEXICOGRAPHICAL = r"""
lexicographical-sorting-pools:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:  # pool-3, pool-2, pool-1 in the input
  - {name: slice-1, pool: pool-3, devices: [device-1]}
  - {name: slice-2, pool: pool-2, devices: [device-1]}
  - {name: slice-3, pool: pool-1, devices: [device-1]}
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-2 device-1]}]
lexicographical-sorting-pools-with-binding-conditions:
  # Pools with binding conditions come after the others.
  features: [binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [{name: device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}]}
  - {name: slice-3, pool: pool-3, devices: [device-3]}
  - {name: slice-2, pool: pool-2, devices: [device-2]}
  expect: [{results: [req-0 driver-a pool-2 device-2, req-0 driver-a pool-3 device-3]}]
lexicographical-sorting-slices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-3, pool: {name: pool-1, count: 3}, devices: [device-3]}
  - {name: slice-2, pool: {name: pool-1, count: 3}, devices: [device-2]}
  - {name: slice-1, pool: {name: pool-1, count: 3}, devices: [device-1]}
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}]
lexicographical-sorting-slices-with-binding-conditions:
  # Within a pool, slices keep name order even when a device has binding conditions.
  features: [binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 3}, devices: [{name: device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}]}
  - {name: slice-3, pool: {name: pool-1, count: 3}, devices: [device-3]}
  - {name: slice-2, pool: {name: pool-1, count: 3}, devices: [device-2]}
  expect:
  - results: [{r: req-0 driver-a pool-1 device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}, req-0 driver-a pool-1 device-2]
"""


@pytest.mark.parametrize(("case", "variant"), table_params(CASES))
def test_upstream_table_pools(case, variant):
    run_case(case, variant)


@pytest.mark.parametrize(("case", "variant"), [p for p in table_params(LEXICOGRAPHICAL) if p.values[1].sorted_order])
def test_upstream_lexicographical_order(case, variant):
    run_case(case, variant)
