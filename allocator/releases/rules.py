"""What each Kubernetes release did differently, as one table: the engine asks a release's rules by name.

Besides the feature gates (``table``) and the fields of each API version
(``fields``), the releases differ in behaviour no gate switches: how the
scheduler's allocator walks pools and counts counters, what the apiserver's
validation accepts, whether the scheduler scores nodes for DRA, how it
serves extended resources. ``CHANGES`` says, for each such rule, its value
from each release on; ``rules_of(release)`` gives a release's values as a
``ReleaseRules``, which the allocator, validation and workload modules
receive and ask by name (``rules.sorts_slices``). No module outside
``allocator/releases`` compares or parses release names
(``allocator/tests/releases/test_one_release_table.py`` checks it).

Sources: the allocator's rules were read in k8s.io/dynamic-resource-allocation
at the tags released with each version (v0.33.x to v0.36.x; 1.37 is the
current code); the others in kubernetes/kubernetes and kubernetes/api at
each release's tag, as each rule's comment says.
"""

from __future__ import annotations

import functools
from types import MappingProxyType

from allocator.reading.records import record
from allocator.releases.table import RELEASES, release_key

OLDEST = RELEASES[0]

_TAINT_EFFECTS = ("NoExecute", "NoSchedule")


@record(frozen=True)
class ReleaseRules:
    """One Kubernetes release's behaviour where releases differ (``rules_of``; the values are in ``CHANGES``)."""

    release: str  # the release's name, for messages ("Kubernetes 1.34 ...")

    # --- the scheduler's allocator (k8s.io/dynamic-resource-allocation) ---
    # 1.37: a CEL runtime error names the device ("selector #0 on device D: ...") and a "no such key"
    # error carries cel.EnhanceRuntimeError's advice; before, neither.
    device_in_cel_errors: bool
    # 1.37: a config entry that applies to every request of the claim is written without its
    # requests ("empty means all"); before, its requests were listed.
    clears_config_requests: bool
    # 1.35: devices of incomplete and invalid pools are skipped, a pool's completeness counts the slices of
    # every node, and "invalid resource pools were encountered" ends a failed search. Before, a pool was
    # incomplete only by the slices the node can reach, its devices could be allocated, and a search that
    # reached an invalid pool stopped with "pool NAME is invalid: REASON" (v0.33.x, v0.34.x).
    skips_unusable_pools: bool
    # 1.33-1.34: the ResourceSlice tracker also matched a DeviceTaintRule's deviceClassName and CEL
    # selectors; 1.35 removed both and keeps driver, pool and device.
    taint_rule_class_and_cel: bool
    # The gate under which the scheduler's tracker applies DeviceTaintRules: DRADeviceTaints up to 1.34,
    # DRADeviceTaintRules from 1.35 (which split it off).
    taint_rules_gate: str
    # 1.34: DRAResourceClaimDeviceStatus was an allocator feature of its own (v0.34.x ``Features.DeviceStatus``)
    # that only the experimental implementation supported; on by default, it picked that implementation,
    # which refuses requests with capacity requests while DRAConsumableCapacity is off.
    separate_device_status: bool
    # 1.33-1.34: a device consumes counters of the counter sets in its own slice (which may hold devices and
    # sharedCounters both), less what the allocated and allocating devices of that slice consume; 1.35 moved
    # counter sets to slices of their own, shared by the pool. How a device was checked:
    #   "device" (v0.33.x): each counter the device consumes must exist in its slice and have enough left;
    #   "slice" (v0.34.x): no counter of the slice may drop below zero (a set the slice lacks is not checked).
    slice_counters: str
    # 1.36: the incubating and experimental implementations look for a request's next device after the one it
    # took (combinations, not permutations), so one request cannot take two shares of a multi-allocatable
    # device; in 1.35 (v0.35.x) every device was tried again, and it could.
    combinations: bool
    # 1.34: a device given with admin access is marked as being allocated (for its claim, so no other request of
    # the claim takes it, and its counters count); in 1.33 (v0.33.x) it stayed free for every request, the same
    # admin request could take it again, and its counters were only checked.
    admin_devices_in_use: bool
    # 1.36: a device the allocator turns down after taking its counters (tainted, breaking a constraint, over
    # its capacity) gives back what it took: counters, constraints, its mark (v0.36.x ``rollbackDevice``);
    # 1.34-1.35 returned with the counters still taken, and on capacity the constraints and mark too.
    rejected_device_rolls_back: bool
    # 1.36: the incubating and experimental implementations sort the pools by driver and pool name and a pool's
    # slices by name (v0.36.x ``sortPoolsByID``, ``sortSlicesByName``). Before (v0.33.x-v0.35.x), and in the
    # stable implementation still, pools are walked in Go map order and slices in the order they were listed.
    # The apiserver lists slices by name, and Go walks a map of up to eight pools as a rotation of the order
    # they were added in (the real 1.34 scheduler, asked 40 times: only rotations of name order, the unrotated
    # one most often); so the engine walks them in the order of their first slice by name, one order upstream
    # always can take. Sorting by driver first, as 1.36 does, may be an order 1.34 never takes.
    sorts_slices: bool
    # 1.34-1.35: the experimental implementation's GatherPools adds the node's slices with binding conditions to
    # their pool after the other slices (v0.34.x, v0.35.x ``slicesWithBindingConditions``); 1.36 sorts slices by
    # name instead.
    binding_slices_last: bool
    # 1.37: the scheduler hands DRAListTypeAttributes to the allocator too (``AllocatorFeatures``), so
    # matchAttribute and distinctAttribute compare list attributes as sets and the experimental implementation
    # runs; in 1.36 the gate reached only CEL, and the constraints compared scalars (a list matches nothing).
    list_attributes_in_allocator: bool
    # 1.37: matchAttribute and distinctAttribute keep one entry per device taken (v0.37.x: a stack of the
    # common values, a list of the distinct ones), undone device by device; before, distinctAttribute kept
    # one value per request name (a request's second device replaced its first, and taking one back forgot
    # both) and matchAttribute's common list values were not widened again when a device was taken back.
    constraints_per_device: bool
    # 1.34 only: distinctAttribute compares the values' pointers, not the values (v0.34.x experimental
    # ``matchesAttribute``: ``attribute.StringValue == attr.StringValue``), so two devices never clash and only
    # the same device taken twice (a share of a multi-allocatable device) does. kubernetes/kubernetes#135022
    # compares the values from 1.35 on.
    distinct_compares_pointers: bool
    # 1.36: an ``All`` subrequest of firstAvailable looks for each of its devices as itself. Before
    # (v0.33.x-v0.35.x, all three implementations) the step to its next device left ``subRequestIndex`` out,
    # so every device after its first was looked for as subrequest 0's next device (subrequest 0's count,
    # selectors and devices; with subrequest 0 asking for one device, the All subrequest ends after one).
    subrequest_index_kept: bool
    # 1.34 only: with DRAConsumableCapacity, allocateDevice checks the capacity of the device at the request's
    # device index (the n-th device of the request: ``r.deviceIndex``) in the candidate's slice, not of the
    # candidate (v0.34.x experimental; past the slice's end it panics, index out of range). 1.35 passes the device
    # (kubernetes/kubernetes#133705, fixed by #133706).
    capacity_checked_at_request_index: bool
    # 1.35 only: the incubating and experimental implementations list an ``All`` request's devices without
    # their pool (v0.35.x ``validateDeviceRequest``), so checking the counters of such a device dereferences
    # a nil pool and panics, which crashes kube-scheduler (kubernetes/kubernetes#138882, fixed by #138885
    # after 1.35.4; v0.36 lists the pool). 1.34 counted counters by slice and did not read the pool.
    all_devices_lack_pool: bool
    # 1.34 only: a subrequest with capacity requests while DRAConsumableCapacity is off is refused in the
    # words of its request ("claim C, request R: has capacity requests, ..."; v0.34.x checks the request and
    # its subrequests in one pass); from 1.35 the subrequest is named ("claim C, subrequest S: ...").
    capacity_refusal_names_request: bool
    # 1.35: a share of a multi-allocatable device that is shared already does not take the device's counters
    # again (``skipCounterCheck``); 1.34 (v0.34.x) takes them for every share, and, as for every shared
    # device, does not give them back when the share is taken back.
    shares_skip_counters: bool
    # 1.36: the incubating and experimental implementations count the counters of the devices allocated claims
    # hold shares of (multi-allocatable devices, with DRAConsumableCapacity) as taken when they work out what a
    # pool's counter sets have left (v0.36.x ``IsDeviceAllocated``); before (v0.33.x-v0.35.x), only devices
    # allocated whole counted, so a shared device left its counters free for other devices
    # (kubernetes/kubernetes#139034, fixed by #139040).
    shares_hold_counters: bool
    # 1.37: a device allocated claims hold shares of counts as shared (its counters taken, not checked again)
    # whether or not the shares consumed capacity (v0.37.x ``deviceCapacityInUse`` also reads
    # AllocatedSharedDeviceIDs); before, only shares with consumed capacity did.
    any_share_takes_counters: bool
    # 1.37: the incubating and experimental implementations apply the node selection to a slice of shared
    # counters like to any slice; in 1.35 and 1.36 they took such a slice for every node (v0.35.x, v0.36.x
    # GatherPools: "always include slices with SharedCounters"), as the stable one still does.
    node_filters_counter_slices: bool
    # 1.35: the incubating and experimental implementations copy a request's tolerations into its device
    # results (``status.allocation.devices.results[].tolerations``); no implementation of 1.34 (v0.34.x) did.
    writes_result_tolerations: bool

    # --- the scheduler ---
    # 1.37: class and request selectors are compiled in the "stored expressions" CEL environment, which
    # declares the newest device type whatever the gates say; before, with DRAConsumableCapacity and
    # DRAListTypeAttributes as the gates set them.
    cel_stored_environment: bool
    # 1.37: ``includes()`` is the apiserver's lists-library function (overload list_includes_dyn_dyn), costed by
    # library.CostEstimator: over a list of strings each element adds its size, unknown (so unbounded) for a list
    # literal; in 1.36 it was DRA's own function, costed one comparison per attribute value at most.
    includes_from_lists: bool
    # 1.35: the DynamicResources plugin scores the nodes that fit (by the prioritized-list subrequests
    # chosen); before, it did not score.
    scores_nodes: bool
    # 1.35: the binding timeout is ``bindingTimeout`` in the plugin's args (default 600 s); 1.34 fixed it
    # at 600 s (``BindingTimeoutDefaultSeconds``).
    binding_timeout_in_args: bool
    # Extended resources backed by DRA, as the plugin was reworked in 1.35 (``workload.extended``):
    # a class's implicit name ``deviceclass.resource.kubernetes.io/<class>`` is served, also for a class
    # that names an ``extendedResourceName``; 1.34 served only names outside kubernetes.io, and gave a
    # class with ``extendedResourceName`` no implicit name.
    implicit_extended_names: bool
    # 1.35: two classes with one extended resource name: the newest (creationTimestamp) serves it, equal
    # times the lower name; 1.34 took whichever its informer listed (unspecified).
    newest_class_serves_extended_name: bool
    # 1.35: a node that lists the resource in its allocatable with 0 still leaves it to DRA; 1.34 left
    # to DRA only a resource the allocatable does not list at all.
    zero_allocatable_left_to_dra: bool
    # 1.35: init containers that are not sidecars reuse the devices of the containers started after them,
    # and only the largest of their own requests is kept; 1.34 made one request per container and
    # resource, those the node serves by device plugin included.
    init_containers_reuse_devices: bool
    # Up to 1.36 the DynamicResources PostFilter, freeing nothing, answers "still not schedulable" ("no new
    # claims to deallocate" for a pod without claims), which the pod's PodScheduled message carries before
    # the preemption part; 1.37's PostFilter says nothing then (v1.37.2 ``PostFilter`` returns a bare
    # Unschedulable status). Read in pkg/scheduler/framework/plugins/dynamicresources at v1.33.13-v1.37.2.
    postfilter_still_not_schedulable: bool

    # 1.34: when an "All" request backtracks, the devices it took are given back (deallocate); v0.33's
    # allocator dropped that function, so they stayed marked in use and kept their constraint values.
    all_mode_rolls_back: bool

    # --- the apiserver's validation (kubernetes/kubernetes pkg/apis/resource/validation) ---
    # 1.35: a claim's (and template's) request tolerations are dropped on create while DRADeviceTaints is off
    # (``pkg/api/resourceclaimspec``); the strategies of 1.33 and 1.34 drop nothing for that gate, so the
    # tolerations are kept and validated.
    drops_claim_tolerations: bool
    # Before 1.35 (read in v1.33 and v1.34) ``validateSet`` reports a duplicate on the item's key field
    # (``spec.devices.requests[3].name``: requests, subrequests, a slice's devices and counter sets); from
    # 1.35 on the item (``spec.devices.requests[3]``).
    duplicate_on_key_field: bool
    # The taint effects a DeviceTaint may have, sorted like ``sets.List``; ``None`` exists since 1.35.
    taint_effects: tuple[str, ...]
    # Before 1.35 (kubernetes/api v0.33, v0.34): a slice's devices consume counters of that slice's own
    # sets, so both may be set, and the limits counted counters, not sets and consumptions.
    counters_in_own_slice: bool
    # The Namespace label that allows admin access (``DRAAdminNamespaceLabelKey``): resource.k8s.io/admin-access
    # in 1.33, resource.kubernetes.io/admin-access from 1.34 on.
    admin_access_label: str

    # --- the apiserver's registry strategies (kubernetes/kubernetes pkg/registry/resource) ---
    # 1.36: a Pod has ``spec.schedulingGroup`` (1.35 had ``spec.workloadRef`` instead); before, the
    # strict decoder refuses it as an unknown field.
    pod_scheduling_group: bool
    # Before 1.35 (kubernetes v1.33, v1.34 ``ValidateCSIDriverName``): an empty driver name is also checked as
    # a DNS subdomain, so it gets "Invalid value" after "Required value"; 1.35 stops at "Required value".
    empty_driver_also_invalid: bool

    # --- the scheduler's allocator, before 1.33 (k8s.io/dynamic-resource-allocation v0.31.x, v0.32.x) ---
    # 1.33: an ``All`` request that matches no device does not fit (v0.33 ``allocateOne``: "no devices found");
    # up to 1.32 the request's zero devices were done at once and the search went on with none for it.
    all_needs_a_device: bool
    # 1.33: when a device of an ``All`` request is in use, the search backtracks to an earlier choice; up to
    # 1.32 it returned ``errStop``, which ends the whole search at once with no allocation and no error.
    all_in_use_backtracks: bool
    # 1.36: each firstAvailable subrequest's devices are checked under its own request key. Before (v0.33.x to
    # v0.35.x, all three implementations) subrequest i>0 was prepared while the key still named subrequest i-1,
    # so an ``All`` subrequest's device list read and wrote the selector verdicts remembered for subrequest i-1:
    # it reuses i-1's verdicts where they were known, and i-1 later finds the verdicts of i's selectors.
    subrequest_checked_under_own_key: bool
    # 1.32: a class's configs are written once per claim, naming the requests that use the class. In 1.31
    # (v0.31.x) each request adds its class's configs again, naming no request ("All of them").
    class_configs_name_requests: bool
    # 1.32: a device of an ``All`` request found in use stops the search (``all_in_use_backtracks``). In 1.31
    # (v0.31.x) the allocator ignores whether ``allocateDevice`` took the device: one in use is left out and
    # the request is done with the others.
    all_skips_devices_in_use: bool
    # 1.32: ``errStop`` (a device of an ``All`` request that cannot be had) ends the search with no
    # allocation. In 1.31 (v0.31.x) ``Allocate`` checks for any error before it checks for ``errStop``, so
    # a search that fails anywhere after an ``All`` request's first device ends with the error "stop
    # allocation", which the scheduler reports as its Filter's error.
    stop_is_an_error: bool
    # 1.32: an ``All`` request's devices must match its class's selectors too. In 1.31 (v0.31.x) they are
    # gathered while the request's data, and so its class, is not stored yet (``isSelectable`` reads
    # ``requestData[r].class``, still nil): only the request's own selectors decide.
    all_checks_class_selectors: bool
    # 1.32: a device given with admin access says so in its result (``results[].adminAccess``, with
    # DRAAdminAccess). 1.31's v1alpha3 result has no such field: admin access is only on the request.
    results_record_admin_access: bool

    # --- the apiserver's validation, before 1.33 (kubernetes v1.32 pkg/apis/resource) ---
    # 1.33: the internal DeviceRequest holds ``exactly`` or ``firstAvailable``, and validation says so
    # (``spec.devices.requests[i].exactly.deviceClassName``, the union's "exactly one of" error, request
    # references that may name a subrequest). Up to 1.32 the exact request's fields sat on the request itself:
    # errors name ``spec.devices.requests[i].deviceClassName`` (``.count``, ``.allocationMode``, ``.selectors``)
    # and a reference "must be the name of a request in the claim".
    exact_requests_nested: bool
    # Up to 1.32 a device's one type was ``basic`` (v1beta1, v1alpha3), and validation requires it
    # ("spec.devices[i].basic: Required value", nothing else of the device checked); 1.33's internal type
    # keeps the device's fields on the device itself, so a v1beta1 device without ``basic`` is a plain device.
    device_needs_basic: bool


def _since(first: str, before=False, after=True) -> tuple[tuple[str, object], ...]:
    """``after`` from release ``first`` on, ``before`` until then."""
    return (OLDEST, before), (first, after)


def _until(first_without: str) -> tuple[tuple[str, object], ...]:
    """True until release ``first_without``, false from it on."""
    return _since(first_without, True, False)


# rule -> (release, value) steps in increasing release order: the last step at or before a release applies.
# The rules are ``ReleaseRules``' fields, documented there.
CHANGES = MappingProxyType({
    "device_in_cel_errors": _since("1.37"),
    "clears_config_requests": _since("1.37"),
    "skips_unusable_pools": _since("1.35"),
    "taint_rule_class_and_cel": _until("1.35"),
    "taint_rules_gate": _since("1.35", "DRADeviceTaints", "DRADeviceTaintRules"),
    "separate_device_status": ((OLDEST, False), ("1.34", True), ("1.35", False)),
    "slice_counters": ((OLDEST, ""), ("1.33", "device"), ("1.34", "slice"), ("1.35", "")),
    "combinations": _since("1.36"),
    "admin_devices_in_use": _since("1.34"),
    "rejected_device_rolls_back": _since("1.36"),
    "sorts_slices": _since("1.36"),
    "binding_slices_last": _until("1.36"),
    "list_attributes_in_allocator": _since("1.37"),
    "constraints_per_device": _since("1.37"),
    "distinct_compares_pointers": ((OLDEST, False), ("1.34", True), ("1.35", False)),
    "subrequest_index_kept": _since("1.36"),
    "capacity_checked_at_request_index": ((OLDEST, False), ("1.34", True), ("1.35", False)),
    "all_devices_lack_pool": ((OLDEST, False), ("1.35", True), ("1.36", False)),
    "capacity_refusal_names_request": ((OLDEST, False), ("1.34", True), ("1.35", False)),
    "shares_skip_counters": _since("1.35"),
    "shares_hold_counters": _since("1.36"),
    "any_share_takes_counters": _since("1.37"),
    "node_filters_counter_slices": _since("1.37"),
    "writes_result_tolerations": _since("1.35"),
    "cel_stored_environment": _since("1.37"),
    "includes_from_lists": _since("1.37"),
    "scores_nodes": _since("1.35"),
    "binding_timeout_in_args": _since("1.35"),
    "implicit_extended_names": _since("1.35"),
    "newest_class_serves_extended_name": _since("1.35"),
    "zero_allocatable_left_to_dra": _since("1.35"),
    "init_containers_reuse_devices": _since("1.35"),
    "postfilter_still_not_schedulable": _until("1.37"),
    "duplicate_on_key_field": _until("1.35"),
    "drops_claim_tolerations": _since("1.35"),
    "taint_effects": _since("1.35", _TAINT_EFFECTS, (*_TAINT_EFFECTS, "None")),
    "counters_in_own_slice": _until("1.35"),
    "pod_scheduling_group": _since("1.36"),
    "empty_driver_also_invalid": _until("1.35"),
    "all_mode_rolls_back": _since("1.34"),
    "admin_access_label": ((OLDEST, "resource.k8s.io/admin-access"), ("1.34", "resource.kubernetes.io/admin-access")),
    "all_needs_a_device": _since("1.33"),
    "all_in_use_backtracks": _since("1.33"),
    "subrequest_checked_under_own_key": _since("1.36"),
    "class_configs_name_requests": _since("1.32"),
    "all_skips_devices_in_use": _until("1.32"),
    "stop_is_an_error": _until("1.32"),
    "all_checks_class_selectors": _since("1.32"),
    "results_record_admin_access": _since("1.32"),
    "exact_requests_nested": _since("1.33"),
    "device_needs_basic": _until("1.33"),
})


def _value(steps: tuple[tuple[str, object], ...], release: str) -> object:
    found = steps[0][1]
    for since, value in steps:
        if release_key(since) <= release_key(release):
            found = value
    return found


@functools.cache
def rules_of(release: str) -> ReleaseRules:
    """The rules of the release called ``release`` (``"1.34"``); ValueError for one we do not model."""
    if release not in RELEASES:
        raise ValueError(f"unsupported Kubernetes release {release!r}: choose one of {', '.join(RELEASES)}")
    return ReleaseRules(release=release, **{rule: _value(steps, release) for rule, steps in CHANGES.items()})


def first_release(rule: str) -> str:
    """The first release where the yes-or-no ``rule`` holds (``"scores_nodes"`` -> ``"1.35"``), for messages."""
    return next(name for name in RELEASES if getattr(rules_of(name), rule))


def as_rules(release: str | ReleaseRules) -> ReleaseRules:
    """The rules of ``release``, given by name or already as rules (for callers that still pass a name)."""
    return release if isinstance(release, ReleaseRules) else rules_of(release)

