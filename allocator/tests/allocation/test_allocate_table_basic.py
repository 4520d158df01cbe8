"""Upstream's allocator test table, part 1: basics, All, admin access, network-attached devices,
constraints, config (shorthand: see helpers/allocate_table.py)."""

import pytest

from allocator.tests.helpers.allocate_table import run_case, table_params

CASES = r"""
empty: {}
simple:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
other-node:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: node-1, pool: pool-1, driver: driver-b, devices: [device-1]}
  - {name: slice-2, node: node-2, pool: pool-2, driver: driver-a, devices: [device-1]}
  node: node-2
  expect: [{node: node-2, results: [req-0 driver-a pool-2 device-1]}]
small-and-large:
  claims:
  - name: claim-0
    requests:
    - {name: req-0, class: class-a, selectors: ['device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0']}
    - {name: req-1, class: class-a, selectors: ['device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0']}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, capacity: {memory: 1Gi}}, {name: device-2, capacity: {memory: 2Gi}}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1 driver-a pool-1 device-2]}]
small-and-large-backtrack-requests:
  # The large device comes first and is taken by the small request at first; the search must undo that.
  claims:
  - name: claim-0
    requests:
    - {name: req-0, class: class-a, selectors: ['device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0']}
    - {name: req-1, class: class-a, selectors: ['device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0']}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-2, capacity: {memory: 2Gi}}, {name: device-1, capacity: {memory: 1Gi}}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1 driver-a pool-1 device-2]}]
small-and-large-backtrack-claims:
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a, selectors: ['device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0']}]}
  - {name: claim-1, requests: [{name: req-1, class: class-a, selectors: ['device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0']}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-2, capacity: {memory: 2Gi}}, {name: device-1, capacity: {memory: 1Gi}}]}]
  expect:
  - {results: [req-0 driver-a pool-1 device-1]}
  - {results: [req-1 driver-a pool-1 device-2]}
devices-split-across-different-slices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [device-1]}
  - {name: slice-2, pool: pool-2, devices: [device-1]}
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-2 device-1]}]
obsolete-slice:
  # Generation 2 has only one of its two slices: the pool is incomplete.
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1-obsolete, pool: {name: pool-1, count: 2}, devices: [device-1]}
  - {name: slice-1-obsolete, pool: {name: pool-1, count: 2, generation: 2}, devices: [device-2]}
duplicate-slice:
  # The same device published twice under two slice names makes the pool invalid.
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [device-1]}
  - {name: slice-1-2, pool: {name: pool-1, count: 2}, devices: [device-1]}
  error: invalid resource pools were encountered
no-slices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
not-enough-suitable-devices:
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a}]}
  - {name: claim-0, requests: [{name: req-1, class: class-a}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
no-classes:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  slices: [{name: slice-1, devices: [device-1]}]
  error: could not retrieve device class class-a
unknown-class:
  claims: [{name: claim-0, requests: [{name: req-0, class: unknown-class}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: could not retrieve device class unknown-class
empty-class:
  claims: [{name: claim-0, requests: [{name: req-0, class: ""}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: "claim claim-0, request req-0: missing device class name (unsupported request type?)"
no-claims-to-allocate:
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
all-devices-single:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
all-devices-with-consumed-counters:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [{name: device-1, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {memory: 8Gi}}}
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
all-devices-many:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [device-1]}
  - {name: slice-1, pool: pool-2, devices: [device-1]}
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-2 device-1]}]
all-devices-of-the-incomplete-pool:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true, count: 1}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, pool: {name: pool-1, count: 2}, devices: [device-1]}]
  error: "claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being updated"
all-devices-plus-another:
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}
  - {name: claim-1, requests: [{name: req-0, class: class-b}]}
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - {name: slice-1, driver: driver-a, devices: [device-1]}
  - {name: slice-1, driver: driver-b, devices: [device-1]}
  expect:
  - {results: [req-0 driver-a pool-1 device-1]}
  - {results: [req-0 driver-b pool-1 device-1]}
all-devices-plus-another-reversed:
  claims:
  - {name: claim-1, requests: [{name: req-0, class: class-b}]}
  - {name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - {name: slice-1, driver: driver-a, devices: [device-1]}
  - {name: slice-1, driver: driver-b, devices: [device-1]}
  expect:
  - {results: [req-0 driver-b pool-1 device-1]}
  - {results: [req-0 driver-a pool-1 device-1]}
all-devices-many-plus-another:
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}
  - {name: claim-1, requests: [{name: req-0, class: class-b}]}
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - {name: slice-1, driver: driver-a, devices: [device-1, device-2]}
  - {name: slice-1, driver: driver-b, devices: [device-1]}
  expect:
  - {results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}
  - {results: [req-0 driver-b pool-1 device-1]}
all-devices-many-plus-another-reversed:
  claims:
  - {name: claim-1, requests: [{name: req-0, class: class-b}]}
  - {name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - {name: slice-1, driver: driver-a, devices: [device-1, device-2]}
  - {name: slice-1, driver: driver-b, devices: [device-1]}
  expect:
  - {results: [req-0 driver-b pool-1 device-1]}
  - {results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2]}
all-devices-no-solution:
  # One device, two claims that both want it.
  claims:
  - {name: claim-1, requests: [{name: req-0, class: class-a}]}
  - {name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
all-devices-no-solution-reversed:
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
all-devices-slice-without-devices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: []}]
all-devices-no-slices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}]
  classes: {class-a: driver-a}
all-devices-some-allocated:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}]
  allocated: [driver-a/pool-1/device-1]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2]}]
all-devices-some-allocated-admin-access:
  features: [admin]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true, count: 1, admin: true}]}]
  allocated: [driver-a/pool-1/device-1]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, admin: true}, {r: req-0 driver-a pool-1 device-2, admin: true}]}]
all-devices-some-allocating-admin-access:
  # The All request cannot get the device the first request of the same claim holds.
  features: [admin]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, class: class-a, admin: true}
    - {name: req-1, class: class-a, admin: true, all: true, count: 1}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2]}]
count-devices-some-allocated-admin-access:
  features: [admin]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2, admin: true}]}]
  allocated: [driver-a/pool-1/device-1]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, admin: true}, {r: req-0 driver-a pool-1 device-2, admin: true}]}]
separate-claims-share-device-admin-access:
  features: [admin]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a, admin: true}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a, admin: true}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2]}]
  expect:
  - {results: [{r: req-0 driver-a pool-1 device-1, admin: true}]}
  - {results: [{r: req-0 driver-a pool-1 device-1, admin: true}]}
admin-access-claims-device-allocating-for-non-admin-access:
  features: [admin]
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a}]}
  - {name: claim-1, requests: [{name: req-0, class: class-a, admin: true}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2]}]
  expect:
  - {results: [req-0 driver-a pool-1 device-1]}
  - {results: [{r: req-0 driver-a pool-1 device-1, admin: true}]}
all-devices-slice-without-devices-prioritized-list:
  features: [prioritized]
  claims:
  - name: claim-0
    requests: [{name: req-0, first: [{name: subReq-0, class: class-a, all: true}, {name: subReq-1, class: class-b}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - {name: slice-1, pool: pool-1, driver: driver-a, devices: []}
  - {name: slice-2, pool: pool-2, driver: driver-b, devices: [device-1]}
  expect: [{results: [req-0/subReq-1 driver-b pool-2 device-1]}]
all-devices-no-slices-prioritized-list:
  features: [prioritized]
  claims:
  - name: claim-0
    requests: [{name: req-0, first: [{name: subReq-0, class: class-a, all: true}, {name: subReq-1, class: class-b}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-2, pool: pool-2, driver: driver-b, devices: [device-1]}]
  expect: [{results: [req-0/subReq-1 driver-b pool-2 device-1]}]
all-devices-some-allocated-prioritized-list:
  features: [prioritized]
  claims:
  - name: claim-0
    requests: [{name: req-0, first: [{name: subReq-0, class: class-a, all: true}, {name: subReq-1, class: class-b}]}]
  allocated: [driver-a/pool-1/device-1]
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - {name: slice-1, pool: pool-1, driver: driver-a, devices: [device-1, device-2]}
  - {name: slice-2, pool: pool-2, driver: driver-b, devices: [device-1]}
  expect: [{results: [req-0/subReq-1 driver-b pool-2 device-1]}]
network-attached-device:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, node: {region: [region-1]}, devices: [device-1]}]
  expect: [{node: {region: [region-1]}, results: [req-0 driver-a pool-1 device-1]}]
unsuccessful-allocation-network-attached-device:
  # Wrong region: nothing available.
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, node: {region: [region-1]}, devices: [device-1]}]
  node: node-2
many-network-attached-devices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 4}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: {region: [region-1]}, pool: pool-1, devices: [device-1]}
  - {name: slice-1, node: all, pool: pool-2, devices: [device-1]}
  - {name: slice-1, node: {planet: [earth]}, pool: pool-3, devices: [device-1]}
  - {name: slice-1, node: {fields: node-1}, pool: pool-4, devices: [device-1]}
  expect:
  - node:  # the union of the selectors
      expressions: [{key: region, values: [region-1]}, {key: planet, values: [earth]}]
      fields: [{key: metadata.name, values: [node-1]}]
    results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-2 device-1, req-0 driver-a pool-3 device-1,
              req-0 driver-a pool-4 device-1]
local-and-network-attached-devices:
  # One node-local device pins the claim to that node.
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, node: {region: [region-1]}, pool: pool-1, devices: [device-1]}
  - {name: slice-1, node: node-1, pool: pool-2, devices: [device-1]}
  expect: [{results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-2 device-1]}]
several-different-drivers:
  claims:
  - {name: claim-0, requests: [{name: req-0, class: class-a}]}
  - {name: claim-0, requests: [{name: req-0, class: class-b}]}
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - {name: slice-1, driver: driver-a, devices: [device-1, device-2]}
  - {name: slice-1, driver: driver-b, devices: [device-1]}
  expect:
  - {results: [req-0 driver-a pool-1 device-1]}
  - {results: [req-0 driver-b pool-1 device-1]}
already-allocated-devices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  allocated: [driver-a/pool-1/device-1, driver-a/pool-1/device-2]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
admin-access-disabled:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, admin: true}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: "claim claim-0, request req-0: admin access is requested, but the feature is disabled"
admin-access-enabled:
  features: [admin]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, admin: true}]}]
  allocated: [driver-a/pool-1/device-1, driver-a/pool-1/device-2]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, admin: true}]}]
with-constraint:
  claims:
  - name: claim-0
    constraints: [{match: driver-a/numa}, {match: driver-a/driverVersion}, {match: driver-a/stringAttribute},
                  {match: driver-a/boolAttribute}]
    requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices:
    - {name: device-1, attributes: {driverVersion: {version: 1.0.0}, numa: 1, stringAttribute: stringAttributeValue, boolAttribute: true}}
    - {name: device-2, attributes: {driverVersion: {version: 1.0.0}, numa: 1, stringAttribute: stringAttributeValue, boolAttribute: true}}
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1 driver-a pool-1 device-2]}]
with-constraint-non-existent-attribute:
  claims: [{name: claim-0, constraints: [{match: driver-a/NonExistentAttribute}], requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
with-constraint-not-matching-int-attribute:
  claims: [{name: claim-0, constraints: [{match: driver-a/numa}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {numa: 1}}, {name: device-2, attributes: {numa: 2}}]}]
with-constraint-not-matching-int-attribute-all-devices:
  claims: [{name: claim-0, constraints: [{match: driver-a/numa}], requests: [{name: req-0, class: class-a, all: true}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {numa: 1}}, {name: device-2, attributes: {numa: 2}}]}]
  error: "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied"
with-constraint-not-matching-string-attribute:
  claims: [{name: claim-0, constraints: [{match: driver-a/stringAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {stringAttribute: stringAttributeValue}},
              {name: device-2, attributes: {stringAttribute: stringAttributeValue2}}]
with-constraint-not-matching-bool-attribute:
  claims: [{name: claim-0, constraints: [{match: driver-a/boolAttribute}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {boolAttribute: true}}, {name: device-2, attributes: {boolAttribute: false}}]}]
with-constraint-not-matching-version-attribute:
  claims: [{name: claim-0, constraints: [{match: driver-a/driverVersion}], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {driverVersion: {version: 1.0.0}}},
              {name: device-2, attributes: {driverVersion: {version: 2.0.0}}}]
with-constraint-for-request:
  claims:
  - name: claim-0
    constraints: [{requests: [req-0], match: driver-a/driverVersion}]
    requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - name: slice-1
    devices: [{name: device-1, attributes: {driverVersion: {version: 1.0.0}}},
              {name: device-2, attributes: {driverVersion: {version: 2.0.0}}}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1 driver-a pool-1 device-2]}]
with-constraint-for-request-retry:
  # device-1 breaks the second constraint, so the search backtracks.
  claims:
  - name: claim-0
    constraints: [{requests: [req-0], match: driver-a/driverVersion}, {match: driver-a/stringAttribute}]
    requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - name: slice-1
    devices:
    - {name: device-1, attributes: {driverVersion: {version: 1.0.0}, stringAttribute: a}}
    - {name: device-2, attributes: {driverVersion: {version: 2.0.0}, stringAttribute: b}}
    - {name: device-3, attributes: {driverVersion: {version: 3.0.0}, stringAttribute: b}}
  expect: [{results: [req-0 driver-a pool-1 device-2, req-1 driver-a pool-1 device-3]}]
with-class-device-config:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: {driver: driver-a, config: classAttribute}}
  slices: [{name: slice-1, devices: [device-1]}]
  expect:
  - results: [req-0 driver-a pool-1 device-1]
    config: [{source: FromClass, driver: driver-a, attr: classAttribute}]
with-class-device-config-with-multiple-request-and-configs:
  claims:
  - name: claim-0
    requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}, {name: req-2, class: class-b}]
  classes: {class-a: {driver: driver-a, config: classAttribute-A}, class-b: {driver: driver-b, config: classAttribute-B}}
  slices:
  - {name: slice-1, driver: driver-a, devices: 2}
  - {name: slice-2, driver: driver-b, devices: [device-1]}
  expect:
  - results: [req-0 driver-a pool-1 device-0, req-1 driver-a pool-1 device-1, req-2 driver-b pool-1 device-1]
    config:
    - {source: FromClass, requests: [req-0, req-1], driver: driver-a, attr: classAttribute-A}
    - {source: FromClass, requests: [req-2], driver: driver-b, attr: classAttribute-B}
with-claim-config-for-two-requests:
  claims:
  - name: claim-0
    requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}, {name: req-2, class: class-a}]
    config: [{requests: [req-0, req-1], driver: driver-a, attr: deviceAttribute}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: 3}]
  expect:
  - results: [req-0 driver-a pool-1 device-0, req-1 driver-a pool-1 device-1, req-2 driver-a pool-1 device-2]
    config: [{source: FromClaim, requests: [req-0, req-1], driver: driver-a, attr: deviceAttribute}]
claim-with-device-config:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}], config: [{driver: driver-a, attr: deviceAttribute}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  expect:
  - results: [req-0 driver-a pool-1 device-1]
    config: [{source: FromClaim, driver: driver-a, attr: deviceAttribute}]
unknown-selector:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, selectors: [null]}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: CEL expression empty (unsupported selector type?)
unknown-allocation-mode:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, mode: future-mode}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: unsupported count mode future-mode
unknown-constraint:
  claims: [{name: claim-0, constraints: [{}], requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: empty constraint (unsupported constraint type?)
"""


@pytest.mark.parametrize(("case", "variant"), table_params(CASES))
def test_upstream_table_basic(case, variant):
    run_case(case, variant)
