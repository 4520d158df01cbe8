"""Upstream's allocator test table, part 3, as data: partitionable devices (shared counters, per-device
node selection), taints, binding conditions (shorthand: see allocate_table.py). The table test runs
them; the counter explanations are checked on them too."""

CASES = r"""
_anchors:
  - &mem4 'device.capacity["driver-a"].memory.compareTo(quantity("4Gi")) >= 0'
  - &mem6 'device.capacity["driver-a"].memory.compareTo(quantity("6Gi")) >= 0'
  - &counters8Gi {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {memory: 8Gi}}}
  - &counters18Gi {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {memory: 18Gi}}}
partitionable-devices-single-device:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [{name: device-1, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}]}
  - *counters8Gi
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
partitionable-devices-prioritized-list:
  features: [prioritized, partitionable]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, class: class-a}
    - {name: req-1, first: [{name: subReq-0, class: class-a, selectors: [*mem6]}, {name: subReq-1, class: class-a, selectors: [*mem4]}]}
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi}}]}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
  - *counters8Gi
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1/subReq-1 driver-a pool-1 device-3]}]
partitionable-devices-multiple-devices:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi}}]}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
  - *counters8Gi
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1 driver-a pool-1 device-3]}]
partitionable-devices-multiple-capacity-pools:
  features: [prioritized, partitionable]
  claims:
  - name: claim-0
    requests:
    - {name: req-0, class: class-a}
    - {name: req-1, first: [{name: subReq-0, class: class-a, selectors: [*mem6]}, {name: subReq-1, class: class-a, selectors: [*mem4]}]}
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}, {set: counter-set-2, counters: {cpus: 4}}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi}}, {set: counter-set-2, counters: {cpus: 6}}]}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}, {set: counter-set-2, counters: {cpus: 4}}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {memory: 18Gi}, counter-set-2: {cpus: 8}}}
  expect: [{results: [req-0 driver-a pool-1 device-1, req-1/subReq-1 driver-a pool-1 device-3]}]
partitionable-devices-multiple-counters:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi, cpus: 6}}, {set: counter-set-2, counters: {cpus: 4, memory: 2Gi}}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi, cpus: 4}}, {set: counter-set-2, counters: {cpus: 6, memory: 6Gi}}]}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi, cpus: 4}}, {set: counter-set-2, counters: {cpus: 4, memory: 4Gi}}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {cpus: 8, memory: 18Gi}, counter-set-2: {cpus: 12, memory: 18Gi}}}
  expect: [{results: [req-0 driver-a pool-1 device-2, req-1 driver-a pool-1 device-3]}]
partitionable-devices-multiple-pools:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {cpus: 6, memory: 4Gi}}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {cpus: 4, memory: 6Gi}}]}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {cpus: 4, memory: 4Gi}}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {cpus: 8, memory: 18Gi}}}
  - name: slice-3
    pool: {name: pool-2, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {cpus: 6, memory: 4Gi}}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {cpus: 1, memory: 7Gi}}]}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {cpus: 1, memory: 7Gi}}]}
  - {name: slice-4, pool: {name: pool-2, count: 2}, counterSets: {counter-set-1: {cpus: 8, memory: 18Gi}}}
  allocated: [driver-a/pool-1/device-2, driver-a/pool-1/device-3, driver-a/pool-2/device-1]
  expect: [{results: [req-0 driver-a pool-2 device-2, req-1 driver-a pool-2 device-3]}]
partitionable-devices-unused-counters-in-counter-set:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, counters: [{set: counter-set-1, counters: {memory: 5Gi}}]}
    - {name: device-2, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
    - {name: device-3, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {memory: 8Gi, unused: 1Gi}}}
  expect: [{results: [req-0 driver-a pool-1 device-2, req-0 driver-a pool-1 device-3]}]
partitionable-devices-no-capacity-available:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 16Gi}}]}
  - {name: slice-2, counterSets: {counter-set-1: {memory: 18Gi}}}
  allocated: [driver-a/pool-1/device-2]
partitionable-devices-overallocated-capacity-pool:
  features: [partitionable]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 20Gi}}]}
  - {name: slice-2, counterSets: {counter-set-1: {memory: 18Gi}}}
  allocated: [driver-a/pool-1/device-2]
partitionable-devices-disabled-device-consumes-counters:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, devices: [{name: device-1, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}]}
  - {name: slice-2, counterSets: {counter-set-1: {memory: 18Gi}}}
partitionable-devices-disabled-other-device-do-not-consume-counters:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - {name: slice-1, pool: {name: pool-1, count: 2}, devices: [{name: device-1, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}, device-2]}
  - *counters18Gi
  expect: [{results: [req-0 driver-a pool-1 device-2]}]
partitionable-devices-disabled-per-device-node-selection:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, node: per-device, devices: [{name: device-2, node: node-1}]}]
partitionable-devices-per-device-node-selection-nodename:
  features: [partitionable, prioritized]
  claims:
  - {name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a, selectors: [*mem6]}, {name: subReq-1, class: class-a, selectors: [*mem4]}]}]}
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    node: per-device
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], node: node-1}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 6Gi}}], node: node-2}
  - {name: slice-2, node: per-device, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {memory: 18Gi}}}
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-1]}]
partitionable-devices-per-device-node-selection-node-selector:
  features: [partitionable, prioritized]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    node: per-device
    pool: {name: pool-1, count: 2}
    devices: [{name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], node: {region: [region-1]}}]
  - {name: slice-2, node: per-device, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {memory: 18Gi}}}
  expect: [{node: {region: [region-1]}, results: [req-0 driver-a pool-1 device-1]}]
partitionable-devices-per-device-node-selection-node-selector-multiple-devices:
  features: [partitionable, prioritized]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 3}, {name: req-1, class: class-b, count: 3}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices:
  - name: slice-1
    node: per-device
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], node: {region: [region-1]}}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], node: node-1}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], node: all}
  - {name: slice-2, node: per-device, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {memory: 18Gi}}}
  - name: slice-3
    pool: {name: pool-2, count: 2}
    driver: driver-b
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-2, counters: {memory: 4Gi}}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-2, counters: {memory: 4Gi}}]}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-2, counters: {memory: 4Gi}}]}
  - {name: slice-4, pool: {name: pool-2, count: 2}, driver: driver-b, counterSets: {counter-set-2: {memory: 12Gi}}}
  expect:
  - results: [req-0 driver-a pool-1 device-1, req-0 driver-a pool-1 device-2, req-0 driver-a pool-1 device-3,
              req-1 driver-b pool-2 device-1, req-1 driver-b pool-2 device-2, req-1 driver-b pool-2 device-3]
partitionable-devices-with-attribute-selector:
  features: [partitionable]
  claims:
  - name: claim-0
    requests: [{name: req-0, class: class-a, count: 2}, {name: req-1, class: class-a, selectors: ['device.attributes["driver-a"].special']}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, attributes: {special: true}, counters: [{set: counter-set-1, counters: {cpu1: 1}}, {set: counter-set-2, counters: {mem: 10Gi}}]}
    - {name: device-2, attributes: {special: false}, counters: [{set: counter-set-1, counters: {cpu2: 1}}, {set: counter-set-2, counters: {mem: 10Gi}}]}
    - {name: device-3, attributes: {special: false}, counters: [{set: counter-set-1, counters: {cpu3: 1}}, {set: counter-set-2, counters: {mem: 10Gi}}]}
  - {name: slice-2, pool: {name: pool-1, count: 2}, counterSets: {counter-set-1: {cpu1: 1, cpu2: 1, cpu3: 1}, counter-set-2: {mem: 30Gi}}}
  expect: [{results: [req-0 driver-a pool-1 device-2, req-0 driver-a pool-1 device-3, req-1 driver-a pool-1 device-1]}]
tainted-two-devices:
  features: [taints]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule]}, {name: device-2, taints: [noExecute]}]}]
tainted-one-device-two-taints:
  features: [taints]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule, noExecute]}]}]
tainted-two-devices-tolerated:
  # Only the second device's taint is tolerated.
  features: [taints]
  claims: [{name: claim-0, tolerations: [noExecute], requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule]}, {name: device-2, taints: [noExecute]}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-2, tolerations: [noExecute]}]}]
tainted-two-devices-prioritized-list-tolerated:
  features: [taints, prioritized]
  claims:
  - {name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-a}, {name: subReq-1, class: class-a, tolerations: [noExecute]}]}]}
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule]}, {name: device-2, taints: [noExecute]}]}]
  expect: [{results: [{r: req-0/subReq-1 driver-a pool-1 device-2, tolerations: [noExecute]}]}]
tainted-no-effect:
  features: [taints]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [none]}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
tainted-one-device-two-taints-both-tolerated:
  features: [taints]
  claims: [{name: claim-0, tolerations: [noSchedule, noExecute], requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule, noExecute]}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, tolerations: [noSchedule, noExecute]}]}]
tainted-disabled:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule, noExecute]}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
tainted-prioritized-list:
  features: [taints, prioritized]
  claims: [{name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-b}, {name: subReq-1, class: class-a}]}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule]}]}]
tainted-prioritized-list-disabled:
  features: [prioritized]
  claims: [{name: claim-0, requests: [{name: req-0, first: [{name: subReq-0, class: class-b}, {name: subReq-1, class: class-a}]}]}]
  classes: {class-a: driver-a, class-b: driver-b}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule]}]}]
  expect: [{results: [req-0/subReq-1 driver-a pool-1 device-1]}]
tainted-admin-access:
  features: [taints, admin]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, admin: true}]}]
  allocated: [driver-a/pool-1/device-1, driver-a/pool-1/device-2]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule]}]}]
tainted-admin-access-disabled:
  features: [admin]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, admin: true}]}]
  allocated: [driver-a/pool-1/device-1, driver-a/pool-1/device-2]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule]}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, admin: true}]}]
tainted-all-devices-single:
  features: [taints]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule]}]}]
tainted-all-devices-single-disabled:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, all: true}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, taints: [noSchedule]}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
device-binding-conditions:
  features: [binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}]}]
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}]}]
binding-conditions-multiple-devices:
  features: [binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}, {name: req-1, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices:
    - {name: device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}
    - {name: device-2, binding: [IsPrepare2], bindingFailure: [BindingFailed2]}
    - {name: device-3, binding: [IsPrepare3], bindingFailure: [BindingFailed3]}
  expect:
  - results:
    - {r: req-0 driver-a pool-1 device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}
    - {r: req-0 driver-a pool-1 device-2, binding: [IsPrepare2], bindingFailure: [BindingFailed2]}
    - {r: req-1 driver-a pool-1 device-3, binding: [IsPrepare3], bindingFailure: [BindingFailed3]}
binding-conditions-with-and-without:
  features: [binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}, {name: req-1, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [device-1, {name: device-2, binding: [IsPrepare], bindingFailure: [BindingFailed]}]}]
  expect:
  - results: [req-0 driver-a pool-1 device-1, {r: req-1 driver-a pool-1 device-2, binding: [IsPrepare], bindingFailure: [BindingFailed]}]
binding-conditions-without-feature-gate:
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, devices: [{name: device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}]}]
node-restriction:
  # A device that binds to its node pins the claim to the node even in a network-attached slice.
  features: [binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices: [{name: slice-1, node: {planet: [earth]}, devices: [{name: device-1, bindsToNode: true}]}]
  expect: [{results: [req-0 driver-a pool-1 device-1]}]
partitionable-devices-with-binding-conditions:
  features: [partitionable, binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices: [{name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], binding: [IsPrepare], bindingFailure: [BindingFailed]}]
  - *counters8Gi
  expect: [{results: [{r: req-0 driver-a pool-1 device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}]}]
partitionable-devices-with-binding-conditions-multiple:
  features: [partitionable, binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], binding: [IsPrepare], bindingFailure: [BindingFailed]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], binding: [IsPrepare2], bindingFailure: [BindingFailed2]}
  - *counters8Gi
  expect:
  - results:
    - {r: req-0 driver-a pool-1 device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}
    - {r: req-0 driver-a pool-1 device-2, binding: [IsPrepare2], bindingFailure: [BindingFailed2]}
partitionable-devices-with-binding-conditions-some-devices-no-conditions:
  features: [partitionable, binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 3}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 2Gi}}], binding: [IsPrepare], bindingFailure: [BindingFailed]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 2Gi}}]}
    - {name: device-3, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], binding: [IsReady], bindingFailure: [BindingTimeout]}
  - *counters8Gi
  expect:
  - results:
    - {r: req-0 driver-a pool-1 device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}
    - req-0 driver-a pool-1 device-2
    - {r: req-0 driver-a pool-1 device-3, binding: [IsReady], bindingFailure: [BindingTimeout]}
partitionable-devices-with-binding-conditions-multi-slices:
  features: [partitionable, binding]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-4
    pool: {name: pool-1, count: 4}
    devices: [{name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], binding: [IsPrepare], bindingFailure: [BindingFailed]}]
  - {name: slice-3, pool: {name: pool-1, count: 4}, counterSets: {counter-set-1: {memory: 8Gi}}}
  - {name: slice-2, pool: {name: pool-1, count: 4}, devices: [{name: device-2, capacity: fromCounters, counters: [{set: counter-set-2, counters: {memory: 4Gi}}]}]}
  - {name: slice-1, pool: {name: pool-1, count: 4}, counterSets: {counter-set-2: {memory: 8Gi}}}
  expect:
  - results: [req-0 driver-a pool-1 device-2, {r: req-0 driver-a pool-1 device-1, binding: [IsPrepare], bindingFailure: [BindingFailed]}]
partitionable-devices-with-binding-conditions-and-taints:
  features: [partitionable, binding, taints]
  claims: [{name: claim-0, requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], binding: [IsPrepare],
       bindingFailure: [BindingFailed], taints: [{key: key1, value: value1, effect: NoSchedule}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
  - {name: slice-2, counterSets: {counter-set-1: {memory: 8Gi}}}
partitionable-devices-with-binding-conditions-and-taints-tolerated:
  features: [partitionable, binding, taints]
  claims: [{name: claim-0, tolerations: [noScheduleKey1], requests: [{name: req-0, class: class-a, count: 2}]}]
  classes: {class-a: driver-a}
  slices:
  - name: slice-1
    pool: {name: pool-1, count: 2}
    devices:
    - {name: device-1, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}], binding: [IsPrepare],
       bindingFailure: [BindingFailed], taints: [{key: key1, value: value1, effect: NoSchedule}]}
    - {name: device-2, capacity: fromCounters, counters: [{set: counter-set-1, counters: {memory: 4Gi}}]}
  - *counters8Gi
  expect:
  - results:
    - {r: req-0 driver-a pool-1 device-1, binding: [IsPrepare], bindingFailure: [BindingFailed], tolerations: [noScheduleKey1]}
    - {r: req-0 driver-a pool-1 device-2, tolerations: [noScheduleKey1]}
"""
