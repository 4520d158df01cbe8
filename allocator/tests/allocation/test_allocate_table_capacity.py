"""Upstream's allocator test table, part 4: consumable capacity and distinctAttribute
(shorthand: see helpers/allocate_table.py). ``multi`` classes select on allowMultipleAllocations."""

import pytest

from allocator.tests.helpers.allocate_table import run_case, table_params

CASES = r"""
_anchors:
  - &multiClass {class-a: {driver: driver-a, multi: true}}
  - &dedicatedClass {class-a: {driver: driver-a, multi: false}}
  - &mem4 'device.capacity["driver-a"].memory.compareTo(quantity("4Gi")) >= 0'
  - &mem6 'device.capacity["driver-a"].memory.compareTo(quantity("6Gi")) >= 0'
  - &boolAttr 'device.attributes["driver-a"].boolAttribute'
consumable-capacity-disabled-feature:
  features: [binding]  # forces an implementation that checks capacity requests
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: "claim claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled"
consumable-capacity-disabled-feature-with-prioritized-list:
  features: [prioritized, binding]
  claims:
  - {name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a, capacity: 1}, {name: subReq-1, class: class-a, capacity: 1}]}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: "claim claim-0, subrequest subReq-0: has capacity requests, but the DRAConsumableCapacity feature is disabled"
consumable-capacity-multi-allocatable-device-with-missing-capacity-request:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-1: 1}, multi: true}]}]
consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true, capacity: 1}]}]
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-1: 1}, multi: true}]}]
consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request:
  # Both claims share the device; it has no capacity, so none is consumed.
  features: [consumable]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true}]}]
  expect:
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true}]}
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true}]}
consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request:
  # Without a request each claim takes a whole capacity, so they get different devices.
  features: [consumable]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 1}, multi: true}, {name: device-2, capacity: {capacity-0: 1}, multi: true}]}]
  expect:
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 1}}]}
  - {results: [{r: req-0 driver-a pool-1 device-2, share: true, consumed: {capacity-0: 1}}]}
consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block:
  features: [consumable]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 2}, multi: true}]}]
consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request:
  features: [consumable]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a, capacity: 1}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 2}, multi: true}]}]
  expect:
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 1}}]}
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 1}}]}
consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request:
  # Both take the policy's default (2).
  features: [consumable]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 4}}]}]
  expect:
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]}
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]}
consumable-capacity-multi-allocatable-device-with-zero-request-policy:
  features: [consumable]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, validValues: {default: 0, capacity: {capacity-0: 1}}}]}]
  expect:
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 0}}]}
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 0}}]}
consumable-capacity-multi-allocatable-device-violates-zero-request-policy:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}]
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, validValues: {default: 0, capacity: {capacity-0: 1}}}]}]
consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request:
  # Requests of 1 are rounded up to the range's minimum (2).
  features: [consumable]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a, capacity: 1}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 4}}]}]
  expect:
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]}
  - {results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]}
consumable-capacity-multi-allocatable-device-with-range-policy-step:
  # 3 rounds up to min + step = 4.
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 3}]}]
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 4}}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 4}}]}]
consumable-capacity-multi-allocatable-device-with-valid-values-policy:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 2}]}]
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, validValues: {default: 1, capacity: {capacity-0: 4}, extra: [2]}}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]}]
consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 2}]}]
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, validValues: {default: 1, capacity: {capacity-0: 3}, extra: [3]}}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 3}}]}]
consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request:
  features: [consumable]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a, capacity: 2}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 2}}]}]
consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy:
  # The range's max is 4: a request of 6 does not fit although the device has 10.
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 6}]}]
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 10}}]}]
consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 2}]}]
  consumed: {driver-a/pool-1/device-1: {capacity-0: 2}}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 4}}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]}]
consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 2}]}]
  consumed: {driver-a/pool-1/device-1: {capacity-0: 2}}
  classes: *multiClass
  slices:
  - {name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 2}}, {name: device-2, multi: true, rangePolicy: {capacity-0: 2}}]}
  expect: [{results: [{r: req-0 driver-a pool-1 device-2, share: true, consumed: {capacity-0: 2}}]}]
consumable-capacity-with-multi-allocatable-device-backtrack:
  features: [consumable]
  claims:
  - name: claim-0
    constraints: [{match: driver-a/stringAttribute}]
    requests: [{name: req-0, class: class-a, capacity: 2}, {name: req-1, class: class-a, capacity: 2}]
  - {name: claim-1, requests: [{name: req-0, class: class-a, capacity: 2}]}
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices:
    - {name: device-2, attributes: {stringAttribute: stringAttributeValue1}, multi: true, rangePolicy: {capacity-0: 2}}
    - {name: device-1, attributes: {stringAttribute: stringAttributeValue2}, multi: true, rangePolicy: {capacity-0: 4}}
  expect:
  - results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}},
              {r: req-1 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]
  - results: [{r: req-0 driver-a pool-1 device-2, share: true, consumed: {capacity-0: 2}}]
consumable-capacity-multi-allocatable-device-with-subrequest:
  features: [consumable, prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, first: [{name: subReq-0, class: class-a, capacity: 4}, {name: subReq-1, class: class-a, capacity: 2},
                            {name: subReq-1, class: class-a}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 2}}]}]
  expect: [{results: [{r: req-0/subReq-1 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]}]
consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 2}]}]
  consumed: {driver-a/pool-1/device-1: {capacity-0: 2}}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 2}}]}]
consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true, capacity: 2}]}]
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 2}, multi: true}, {name: device-2, multi: true}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]}]
consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true, capacity: 2}]}]
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 2}, multi: true}, {name: device-2, capacity: {capacity-0: 1}, multi: true}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}]}]
consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}, {name: req-1, class: class-a, all: true, capacity: 1}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 2}, multi: true}, {name: device-2, capacity: {capacity-0: 1}, multi: true}]}]
  expect:
  - results:
    - {r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 1}}
    - {r: req-1 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 1}}
    - {r: req-1 driver-a pool-1 device-2, share: true, consumed: {capacity-0: 1}}
consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient:
  features: [consumable]
  consumed: {driver-a/pool-1/device-1: {capacity-0: 1}}
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true, capacity: 1}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 2}, multi: true}, {name: device-2, capacity: {capacity-0: 1}, multi: true}]}]
  expect:
  - results:
    - {r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 1}}
    - {r: req-0 driver-a pool-1 device-2, share: true, consumed: {capacity-0: 1}}
consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}, {name: req-1, class: class-a, all: true, capacity: 1}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 1}, multi: true}, {name: device-2, capacity: {capacity-0: 1}, multi: true}]}]
consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient:
  features: [consumable]
  consumed: {driver-a/pool-1/device-1: {capacity-0: 1}}
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true, capacity: 1}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 1}, multi: true}, {name: device-2, capacity: {capacity-0: 1}, multi: true}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-2, share: true, consumed: {capacity-0: 1}}]}]
consumable-capacity-dedicated-device-with-consumable-capacity-request:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}]
  classes: *dedicatedClass
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 1}}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request:
  features: [consumable]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a, capacity: 1}]}
  classes: *dedicatedClass
  slices: [{name: slice-1, devices: [{name: device-1, rangePolicy: {capacity-0: 2}}]}]
allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}]
  classes: *dedicatedClass
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {capacity-0: 1}, multi: true}]}]
allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated:
  features: [consumable]
  allocated: [driver-a/pool-1/device-1]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}]
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, rangePolicy: {capacity-0: 2}}]}]
allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable:
  features: [consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1}]}]
  consumed: {driver-a/pool-1/device-1: {capacity-0: 1}}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, rangePolicy: {capacity-0: 2}}]}]
allow-multiple-allocations-with-partitionable-device:
  features: [prioritized, partitionable, consumable]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, class: class-a}
    - {name: req-1, first: [{name: subReq-0, class: class-a, selectors: [*mem6]}, {name: subReq-1, class: class-a, selectors: [*mem4]}]}
  classes: *multiClass
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], multi: true}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi}}], multi: true}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], multi: true}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {memory: 8Gi}}}
  expect:
  - results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {memory: 4Gi}},
              {r: req-1/subReq-1 driver-a pool-1 device-3, share: true, consumed: {memory: 4Gi}}]
allow-multiple-allocations-with-shared-device-counter-cross-cycle:
  features: [partitionable, consumable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, capacity: 1, selectors: ['device.attributes["driver-a"].mode == "b"']}]}]
  shared: [driver-a/pool-1/device-1/aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa]
  consumed: {driver-a/pool-1/device-1: {capacity-0: 1}}
  classes: *multiClass
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, attributes: {mode: a}, counters: [{set: counter-set-1, counters: {capacity-0: 1}}], multi: true}
    - {name: device-2, capacity: fromCounters, attributes: {mode: b}, counters: [{set: counter-set-1, counters: {capacity-0: 1}}], multi: true}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {capacity-0: 1}}}
consumable-capacity-with-partitionable-device-multiple-capacity-pools:
  # Counters allow device-1 + device-3 or device-2 alone; the range policy makes capacity-1 consumption 2.
  features: [prioritized, partitionable, consumable]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, class: class-a, capacity: 1}
    - {name: req-2, class: class-a, capacity: 2}
    - name: req-1
      first:
      - {name: subReq-0, class: class-a, capacity: 1, selectors: ['device.capacity["driver-a"]["capacity-0"].compareTo(quantity("4")) >= 0']}
      - {name: subReq-1, class: class-a, capacity: 1, selectors: ['device.capacity["driver-a"]["capacity-0"].compareTo(quantity("2")) >= 0']}
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, multi: true, rangePolicy: {capacity-1: 4},
       counters: [{set: counter-set-1, counters: {capacity-0: 2}}, {set: counter-set-2, counters: {capacity-1: 4}}]}
    - {name: device-2, capacity: fromCounters, multi: true, rangePolicy: {capacity-1: 4},
       counters: [{set: counter-set-1, counters: {capacity-0: 4}}, {set: counter-set-2, counters: {capacity-1: 4}}]}
    - {name: device-3, capacity: fromCounters, multi: true, rangePolicy: {capacity-1: 4},
       counters: [{set: counter-set-1, counters: {capacity-0: 2}}, {set: counter-set-2, counters: {capacity-1: 4}}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {capacity-0: 4}, counter-set-2: {capacity-1: 8}}}
  expect:
  - results:
    - {r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 1, capacity-1: 2}}
    - {r: req-2 driver-a pool-1 device-3, share: true, consumed: {capacity-0: 2, capacity-1: 2}}
    - {r: req-1/subReq-1 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 1, capacity-1: 2}}
with-distinct-constraints:
  features: [consumable]
  claims:
  - name: claim-0
    constraints:
    - {distinct: driver-a/boolAttribute, requests: [req-0, req-1]}
    - {distinct: driver-a/driverVersion, requests: [req-0, req-1, req-2]}
    - {distinct: driver-a/numa, requests: [req-0, req-1, req-2, req-3]}
    requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}, {name: req-2, class: class-a}, {name: req-3, class: class-a}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices:
    - {name: device-1, multi: true, attributes: {driverVersion: {version: 1.0.0}, numa: 0, boolAttribute: true}}
    - {name: device-2, multi: true, attributes: {driverVersion: {version: 1.0.1}, numa: 1, boolAttribute: false}}
    - {name: device-3, multi: true, attributes: {driverVersion: {version: 1.0.2}, numa: 2, boolAttribute: true}}
    - {name: device-4, multi: true, attributes: {driverVersion: {version: 1.0.0}, numa: 3, boolAttribute: true}}
  expect:
  - results: [{r: req-0 driver-a pool-1 device-1, share: true}, {r: req-1 driver-a pool-1 device-2, share: true},
              {r: req-2 driver-a pool-1 device-3, share: true}, {r: req-3 driver-a pool-1 device-4, share: true}]
with-distinct-constraints-attribute-not-set:
  features: [consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/boolAttribute, requests: [req-0]}], requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, multi: true}]}]
with-distinct-constraints-unknown-type-attribute:
  features: [consumable]
  claims: [{name: claim-0, constraints: [{distinct: driver-a/boolAttribute, requests: [req-0]}], requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, attributes: {boolAttribute: {}}}]}]
  error: unsupported attribute value
with-distinct-constraints-with-subrequests:
  # The constraint covers req-0 and req-1 only: req-1 falls back to device-2, req-2 may use device-1.
  features: [consumable, prioritized]
  claims:
  - name: claim-0
    constraints: [{distinct: driver-a/boolAttribute, requests: [req-0, req-1]}]
    requests:
    - {name: req-0, first: [{name: subReq-0, class: class-a, selectors: [*boolAttr]}, {name: subReq-1, class: class-a}]}
    - {name: req-1, first: [{name: subReq-0, class: class-a, selectors: [*boolAttr]}, {name: subReq-1, class: class-a}]}
    - {name: req-2, first: [{name: subReq-0, class: class-a, selectors: [*boolAttr]}, {name: subReq-1, class: class-a}]}
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, devices: [{name: device-1, multi: true, attributes: {boolAttribute: true}}, {name: device-2, multi: true, attributes: {boolAttribute: false}}]}
  expect:
  - results: [{r: req-0/subReq-0 driver-a pool-1 device-1, share: true}, {r: req-1/subReq-1 driver-a pool-1 device-2, share: true},
              {r: req-2/subReq-0 driver-a pool-1 device-1, share: true}]
distinct-constraint-one-multi-allocatable-device-with-distinct-constraint:
  features: [consumable]
  claims:
  - {name: claim-0, constraints: [{distinct: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, capacity: 1}, {name: req-1, class: class-a, capacity: 1}]}
  classes: *multiClass
  slices: [{name: slice-1, devices: [{name: device-1, multi: true, attributes: {stringAttribute: stringAttributeValue}, rangePolicy: {capacity-0: 2}}]}]
distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint:
  features: [consumable]
  claims:
  - {name: claim-0, constraints: [{distinct: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, capacity: 2}, {name: req-1, class: class-a, capacity: 2}]}
  classes: *multiClass
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [{name: device-1, multi: true, attributes: {stringAttribute: stringAttributeValue1}, rangePolicy: {capacity-0: 4}}]}
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [{name: device-2, multi: true, attributes: {stringAttribute: stringAttributeValue2}, rangePolicy: {capacity-0: 4}}]}
  expect:
  - results: [{r: req-0 driver-a pool-1 device-1, share: true, consumed: {capacity-0: 2}}, {r: req-1 driver-a pool-1 device-2, share: true, consumed: {capacity-0: 2}}]
"""


@pytest.mark.parametrize(("case", "variant"), table_params(CASES))
def test_upstream_table_capacity(case, variant):
    run_case(case, variant)
