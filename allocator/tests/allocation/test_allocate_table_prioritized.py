"""Upstream's allocator test table, part 2: CEL errors, result limits, prioritized lists
(shorthand: see helpers/allocate_table.py)."""

import pytest

from allocator.tests.helpers.allocate_table import run_case, table_params

CASES = r"""
_selectors:  # anchors only, not a case
  - &mem1 'device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0'
  - &mem2 'device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0'
  - &mem4 'device.capacity["driver-a"].memory.compareTo(quantity("4Gi")) >= 0'
  - &mem6 'device.capacity["driver-a"].memory.compareTo(quantity("6Gi")) >= 0'
  - &mem8 'device.capacity["driver-a"].memory.compareTo(quantity("8Gi")) >= 0'
  - &gen5 'device.attributes["driver-a"].generation == "v5"'
  - &gen6 'device.attributes["driver-a"].generation == "v6"'
invalid-CEL-one-device:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, selectors: [noSuchVar]}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: undeclared reference
invalid-CEL-one-device-class:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: {driver: driver-a, selectors: [noSuchVar]}}
  slices: [{name: slice-1, devices: [device-1]}]
  error: undeclared reference
invalid-CEL-all-devices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true, selectors: [noSuchVar]}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: undeclared reference
too-many-devices-single-request:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 500}]}]
  classes: {class-a: driver-a}
  error: exceeds the claim limit
many-devices-okay:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 32}]}]
  classes: {class-a: driver-a}
too-many-devices-total:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 32}, {name: req-1, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: 33}]
  error: exceeds the claim limit
all-devices-invalid-CEL:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 500}]}]
  classes: {class-a: driver-a}
  error: exceeds the claim limit
prioritized-list-first-unavailable:
  features: [prioritized]
  claims: [{name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-b}, {name: subReq-1, class: class-a}]}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, devices: [device-1]}]
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-1]}]
prioritized-list-non-available:
  features: [prioritized]
  claims:
  - {name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-b, count: 2}, {name: subReq-1, class: class-a, count: 2}]}]}
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - {name: slice-1, pool: pool-1, driver: driver-a, devices: [device-1]}
  - {name: slice-2, pool: pool-2, driver: driver-b, devices: [device-1]}
prioritized-list-device-config:
  features: [prioritized]
  claims:
  - name: claim-0
    requests: [{name: req-0, first: [{name: subReq-0, class: class-a}, {name: subReq-1, class: class-b, count: 2}]}]
    config:
    - {requests: [req-0/subReq-0], driver: driver-a, attr: foo}
    - {requests: [req-0/subReq-1], driver: driver-b, attr: bar}
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, driver: driver-b, devices: [device-1, device-2]}]
  expect:
  - results: [req-0/subReq-1 driver-b pool-1 device-1, req-0/subReq-1 driver-b pool-1 device-2]
    config: [{source: FromClaim, driver: driver-b, attr: bar}]
prioritized-list-class-config:
  features: [prioritized]
  claims:
  - {name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a, count: 2}, {name: subReq-1, class: class-b, count: 2}]}]}
  classes: {class-a: {driver: driver-a, config: foo}, class-b: {driver: driver-b, config: bar}}
  slices:
  - {name: slice-1, pool: pool-1, driver: driver-b, devices: [device-1, device-2]}
  - {name: slice-2, pool: pool-2, driver: driver-a, devices: [device-3]}
  expect:
  - results: [req-0/subReq-1 driver-b pool-1 device-1, req-0/subReq-1 driver-b pool-1 device-2]
    config: [{source: FromClass, driver: driver-b, attr: bar}]
claim-config-scoped-to-subrequests-of-one-request:
  features: [prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, first: [{name: subReq-0, class: class-a}, {name: subReq-1, class: class-b}]}
    - {name: req-1, class: class-a}
    config: [{requests: [req-0/subReq-0, req-0/subReq-1], driver: driver-a, attr: scoped}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, devices: 2}]
  expect:
  - results: [req-0/subReq-0 driver-a pool-1 device-0, req-1 driver-a pool-1 device-1]
    config: [{source: FromClaim, requests: [req-0/subReq-0, req-0/subReq-1], driver: driver-a, attr: scoped}]
claim-config-covering-all-requests-is-cleared:
  # Names req-0 through its chosen subrequest and req-1 directly: every request, so "all".
  features: [prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, first: [{name: subReq-0, class: class-a}, {name: subReq-1, class: class-b}]}
    - {name: req-1, class: class-a}
    config: [{requests: [req-0/subReq-0, req-1], driver: driver-a, attr: all}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, devices: 2}]
  expect:
  - results: [req-0/subReq-0 driver-a pool-1 device-0, req-1 driver-a pool-1 device-1]
    config: [{source: FromClaim, driver: driver-a, attr: all}]
prioritized-list-subrequests-with-expressions:
  features: [prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, class: class-a, selectors: [*mem1]}
    - {name: req-1, first: [{name: subReq-0, class: class-a, selectors: [*mem4]},
                            {name: subReq-1, class: class-a, count: 2, selectors: [*mem2]}]}
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices: [{name: device-1, capacity: {memory: 2Gi}}, {name: device-2, capacity: {memory: 2Gi}},
              {name: device-3, capacity: {memory: 1Gi}}]
  expect:
  - results: [req-0 driver-a pool-1 device-3, req-1/subReq-1 driver-a pool-1 device-1, req-1/subReq-1 driver-a pool-1 device-2]
prioritized-list-subrequests-with-constraints-ref-parent-request:
  features: [prioritized]
  claims:
  - name: claim-0
    constraints: [{requests: [req-0, req-1], match: driver-a/driverVersion}]
    requests:
    - {name: req-0, class: class-a, selectors: [*mem8]}
    - {name: req-1, first: [{name: subReq-0, class: class-a, selectors: [*mem2]}, {name: subReq-1, class: class-a, selectors: [*mem1]}]}
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [{name: device-1, capacity: {memory: 8Gi}, attributes: {driverVersion: {version: 1.0.0}}}]}
  - name: slice-2
    pool: pool-2
    devices:
    - {name: device-2, capacity: {memory: 2Gi}, attributes: {driverVersion: {version: 2.0.0}}}
    - {name: device-3, capacity: {memory: 1Gi}, attributes: {driverVersion: {version: 1.0.0}}}
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1/subReq-1 driver-a pool-2 device-3]}]
prioritized-list-subrequests-with-constraints-ref-sub-request:
  features: [prioritized]
  claims:
  - name: claim-0
    constraints: [{requests: [req-0, req-1/subReq-0], match: driver-a/driverVersion}]
    requests:
    - {name: req-0, class: class-a, selectors: [*mem8]}
    - {name: req-1, first: [{name: subReq-0, class: class-a, selectors: [*mem2]}, {name: subReq-1, class: class-a, selectors: [*mem1]}]}
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [{name: device-1, capacity: {memory: 8Gi}, attributes: {driverVersion: {version: 1.0.0}}}]}
  - {name: slice-2, pool: pool-2, devices: [{name: device-2, capacity: {memory: 2Gi}, attributes: {driverVersion: {version: 2.0.0}}}]}
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1/subReq-1 driver-a pool-2 device-2]}]
prioritized-list-subrequests-with-allocation-mode-all:
  features: [prioritized]
  claims: [{name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a, all: true}, {name: subReq-1, class: class-a}]}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2]}]
  allocated: [driver-a/pool-1/device-1]
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-2]}]
prioritized-list-allocation-mode-all-multiple-requests:
  features: [prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, class: class-a}
    - {name: req-1, first: [{name: subReq-0, class: class-a, all: true}, {name: subReq-1, class: class-a}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2]}]
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1/subReq-1 driver-a pool-1 device-2]}]
prioritized-list-disabled:
  claims: [{name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a}]}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1]}]
  error: "claim claim-0, request req-0: has subrequests, but the DRAPrioritizedList feature is disabled"
prioritized-list-multi-request:
  features: [prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-1, class: class-a, selectors: [*mem8]}
    - {name: req-0, first: [{name: subReq-0, class: class-a, selectors: [*mem8]}, {name: subReq-1, class: class-a, selectors: [*mem4]}]}
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [{name: device-1, capacity: {memory: 8Gi}}]}
  - {name: slice-2, pool: pool-2, devices: [{name: device-2, capacity: {memory: 4Gi}}]}
  expect: [{results: [req-1 driver-a pool-1 device-1, req-0/subReq-1 driver-a pool-2 device-2]}]
prioritized-list-with-backtracking:
  features: [prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, first: [{name: subReq-0, class: class-a, selectors: [*mem8]}, {name: subReq-1, class: class-a, selectors: [*mem4]}]}
    - {name: req-1, class: class-a, selectors: [*mem8]}
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [{name: device-1, capacity: {memory: 8Gi}}]}
  - {name: slice-2, pool: pool-2, devices: [{name: device-2, capacity: {memory: 4Gi}}]}
  expect: [{results: [req-0/subReq-1 driver-a pool-2 device-2, req-1 driver-a pool-1 device-1]}]
prioritized-list-too-many-in-first-subrequest:
  features: [prioritized]
  claims: [{name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-b, count: 500}, {name: subReq-1, class: class-a}]}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, devices: [device-1]}]
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-1]}]
prioritized-list-allocation-mode-all:
  features: [prioritized]
  claims: [{name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a, all: true}, {name: subReq-1, class: class-a}]}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, device-2]}]
  allocated: [driver-a/pool-1/device-2]
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-1]}]
prioritized-list-allocation-mode-all-with-selectors:
  # With All, at least one device must match, else the next subrequest is tried.
  features: [prioritized]
  claims:
  - {name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a, all: true, selectors: [*gen6]},
                                                     {name: subReq-1, class: class-a, all: true, selectors: [*gen5]}]}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, attributes: {generation: v5}}]}]
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-1]}]
prioritized-list-allocation-mode-all-with-selectors-multiple-pools:
  features: [prioritized]
  claims:
  - {name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a, all: true, selectors: [*gen6]},
                                                     {name: subReq-1, class: class-a, all: true, selectors: [*gen5]}]}]}
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [{name: device-1, attributes: {generation: v5}}]}
  - {name: slice-2, pool: pool-2, devices: [{name: device-1, attributes: {generation: v5}}]}
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-1, req-0/subReq-1 driver-a pool-2 device-1]}]
prioritized-list-allocation-mode-all-with-selectors-multiple-pools-across-nodes:
  features: [prioritized]
  claims:
  - {name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a, all: true, selectors: [*gen6]},
                                                     {name: subReq-1, class: class-a, all: true, selectors: [*gen5]}]}]}
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: pool-1, devices: [{name: device-1, attributes: {generation: v5}}]}
  - name: slice-2
    node: node-2
    pool: pool-2
    devices: [{name: device-1, attributes: {generation: v5}}, {name: device-2, attributes: {generation: v6}}]
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-1]}]
prioritized-list-allocation-mode-all-with-selectors-deviceclass-subset:
  features: [prioritized]
  claims:
  - {name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a, all: true, selectors: [*gen6]},
                                                     {name: subReq-1, class: class-a, all: true, selectors: [*gen5]}]}]}
  classes: {class-a: {driver: driver-a, selectors: ['device.driver == "driver-a" && device.attributes["driver-a"].selected']}}
  slices:
  - name: slice-1
    devices:
    - {name: device-1, attributes: {generation: v6, selected: false}}
    - {name: device-2, attributes: {generation: v5, selected: false}}
    - {name: device-3, attributes: {generation: v5, selected: true}}
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-3]}]
max-number-devices:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 32}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: 32}]
  expect: [{results: ["req-0 driver-a pool-1 device-{0..31}"]}]
prioritized-list-max-allocation-limit-request:
  features: [prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, first: [{name: subReq-0, class: class-a, count: 32}, {name: subReq-1, class: class-a, count: 16}]}
    - {name: req-1, first: [{name: subReq-0, class: class-a, count: 32}, {name: subReq-1, class: class-a, count: 16}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: 64}]
  expect: [{results: ["req-0/subReq-1 driver-a pool-1 device-{0..15}", "req-1/subReq-1 driver-a pool-1 device-{16..31}"]}]
  steps: 75
prioritized-list-max-allocation-allocation-mode-all:
  features: [prioritized]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, first: [{name: subReq-0, class: class-a, all: true}, {name: subReq-1, class: class-a, count: 2}]}
    - {name: req-1, class: class-b, count: 2}
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - {name: slice-1, pool: pool-1, driver: driver-a, devices: 31}
  - {name: slice-2, pool: pool-2, driver: driver-b, devices: 2}
  expect:
  - results: [req-0/subReq-1 driver-a pool-1 device-0, req-0/subReq-1 driver-a pool-1 device-1,
              req-1 driver-b pool-2 device-0, req-1 driver-b pool-2 device-1]
  steps: 42
"""


@pytest.mark.parametrize(("case", "variant"), table_params(CASES))
def test_upstream_table_prioritized(case, variant):
    run_case(case, variant)
