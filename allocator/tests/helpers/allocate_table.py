"""Upstream's shared allocator test table, re-expressed as compact YAML cases.

Every case of ``structured/internal/allocatortesting`` (kubernetes/
dynamic-resource-allocation) is in ``allocation/test_allocate_table_*.py``,
with the same inputs and expected outputs, written in a shorthand this
module expands (``table_params``, ``run_case``). Like upstream, each
case runs against every implementation (stable, incubating, experimental)
that supports the features it needs.

The shorthand (all keys optional):

    features: [admin, prioritized, partitionable, taints, binding, consumable, list]
    node: node-1 | {name: node-2, region: region-2}    # default node-1 in region-1, planet earth
    classes: {class-a: driver-a}                       # selector device.driver == "driver-a"
      or {class-a: {driver: driver-a, config: attr, multi: false, selectors: [...]}}
    claims:
    - name: claim-0
      requests:
      - {name: req-0, class: class-a, count: 2, all: true, admin: true, selectors: [CEL...],
         tolerations: [noSchedule], capacity: 1Gi | {name: qty}}
      - {name: req-1, first: [{name: subReq-0, class: class-a, ...}, ...]}
      constraints: [{match: driver-a/numa, requests: [req-0]}, {distinct: ...}, {}]
      config: [{requests: [req-0], driver: driver-a, attr: deviceAttribute}]
    allocated: [driver/pool/device, ...]          # allocated devices
    shared: [driver/pool/device/shareID, ...]      # allocated shares
    consumed: {driver/pool/device: {capacity-0: 1}}
    slices:
    - {name: slice-1, node: node-1 | all | per-device | {region: [region-1]} | {fields: node-1},
       pool: pool-1 | {name: pool-1, count: 2, generation: 1}, driver: driver-a,
       devices: 2 | [device-1, {name: device-2, capacity: {memory: 1Gi} | fromCounters,
                    attributes: {numa: 1, driverVersion: {version: 1.0.0}}, taints: [noSchedule],
                    counters: [{set: counter-set-1, counters: {memory: 4Gi}}], node: ...,
                    binding: [c], bindingFailure: [c], bindsToNode: true, multi: true,
                    rangePolicy: {capacity-0: 4}, validValues: {default: 1, capacity: {...}, extra: [...]}}],
       counterSets: {counter-set-1: {memory: 8Gi}}}
    expect:                                        # one entry per claim; omitted: no allocation
    - node: node-1 | null | {region: [region-1]} | {expressions: [...], fields: [...]}
      results: ["req-0 driver-a pool-1 device-1", {r: "...", admin: true, tolerations: [...],
                consumed: {capacity-0: 1}, share: true, binding: [...], bindingFailure: [...]}]
      config: [{source: FromClass, requests: [req-0], driver: driver-a, attr: classAttribute}]
    error: substring of the expected error
    steps: N                                       # upstream's NumAllocateOneInvocations (not stable)
    steps_by: {experimental: N}
"""

from __future__ import annotations

import dataclasses

import pytest
import yaml

from allocator.allocation.allocator import Allocator
from allocator.allocation.errors import AllocatorError
from allocator.allocation.inputs import Forced, SearchInputs
from allocator.allocation.pools import DeviceID
from allocator.allocation.state import AllocatedState
from allocator.allocation.switches import VARIANTS, Switches
from allocator.kube import model
from allocator.kube.quantity import Quantity

FEATURE_NAMES = {
    "admin": "admin_access", "prioritized": "prioritized_list", "partitionable": "partitionable_devices",
    "taints": "device_taints", "binding": "device_binding_and_status", "consumable": "consumable_capacity",
    "list": "list_type_attributes",
}
REGIONS = {"node-1": "region-1", "node-2": "region-2"}

TAINTS = {
    "none": model.DeviceTaint(key="taint-key", value="taint-value", effect="None"),
    "noSchedule": model.DeviceTaint(key="taint-key", value="taint-value", effect="NoSchedule"),
    "noExecute": model.DeviceTaint(key="taint-key", value="taint-value-2", effect="NoExecute"),
}
TOLERATIONS = {
    "noSchedule": model.DeviceToleration(operator="Exists", key="taint-key", effect="NoSchedule"),
    "noExecute": model.DeviceToleration(operator="Equal", key="taint-key", value="taint-value-2", effect="NoExecute"),
    "noScheduleKey1": model.DeviceToleration(operator="Exists", key="key1", effect="NoSchedule"),
}


# ----------------------------------------------------------------------------- building inputs


def _selectors(exprs) -> list[model.DeviceSelector]:
    out = []
    for e in exprs or []:
        out.append(model.DeviceSelector() if e is None else model.DeviceSelector(cel=model.CELDeviceSelector(expression=e)))
    return out


def _opaque(driver: str, attr: str) -> model.OpaqueDeviceConfiguration:
    return model.OpaqueDeviceConfiguration(driver=driver, parameters={attr: attr + "Value"})


def _tolerations(names) -> list[model.DeviceToleration]:
    return [dataclasses.replace(TOLERATIONS[n]) if isinstance(n, str) else model.DeviceToleration(**n)
            for n in names or []]


def _capacity_requests(value) -> model.CapacityRequirements | None:
    if value is None:
        return None
    if isinstance(value, dict):
        return model.CapacityRequirements(requests={k: str(v) for k, v in value.items()})
    return model.CapacityRequirements(requests={"capacity-0": str(value)})


def _request(spec: dict, claim_tolerations) -> model.DeviceRequest:
    if "first" in spec:
        subs = [model.DeviceSubRequest(
            name=s["name"], device_class_name=s.get("class", ""), selectors=_selectors(s.get("selectors")),
            allocation_mode="All" if s.get("all") else s.get("mode", "ExactCount"),
            count=0 if s.get("all") else s.get("count", 1),
            tolerations=_tolerations(s.get("tolerations")), capacity=_capacity_requests(s.get("capacity")),
        ) for s in spec["first"]]
        return model.DeviceRequest(name=spec["name"], first_available=subs)
    if spec.get("none"):
        return model.DeviceRequest(name=spec["name"])
    exact = model.ExactDeviceRequest(
        device_class_name=spec.get("class", ""), selectors=_selectors(spec.get("selectors")),
        allocation_mode="All" if spec.get("all") else spec.get("mode", "ExactCount"),
        count=spec.get("count", 0 if spec.get("all") else 1),
        admin_access=spec.get("admin"),
        tolerations=_tolerations(spec.get("tolerations")) + _tolerations(claim_tolerations),
        capacity=_capacity_requests(spec.get("capacity")),
    )
    return model.DeviceRequest(name=spec["name"], exactly=exact)


def _constraint(spec: dict) -> model.DeviceConstraint:
    return model.DeviceConstraint(requests=list(spec.get("requests", [])), match_attribute=spec.get("match"),
                                  distinct_attribute=spec.get("distinct"))


def build_claim(spec: dict) -> model.ResourceClaim:
    devices = model.DeviceClaim(
        requests=[_request(r, spec.get("tolerations")) for r in spec.get("requests", [])],
        constraints=[_constraint(c) for c in spec.get("constraints", [])],
        config=[model.DeviceClaimConfiguration(requests=list(c.get("requests", [])),
                                               opaque=_opaque(c["driver"], c["attr"]))
                for c in spec.get("config", [])],
    )
    return model.ResourceClaim(metadata=model.ObjectMeta(name=spec["name"]),
                               spec=model.ResourceClaimSpec(devices=devices))


def build_class(name: str, spec) -> model.DeviceClass:
    if isinstance(spec, str):
        spec = {"driver": spec}
    if "selectors" in spec:
        exprs = spec["selectors"]
    elif "multi" in spec:
        exprs = [f'device.driver == "{spec["driver"]}" && device.allowMultipleAllocations == '
                 f'{str(spec["multi"]).lower()}']
    else:
        exprs = [f'device.driver == "{spec["driver"]}"']
    config = [model.DeviceClassConfiguration(opaque=_opaque(spec["driver"], spec["config"]))] if "config" in spec else []
    return model.DeviceClass(metadata=model.ObjectMeta(name=name),
                             spec=model.DeviceClassSpec(selectors=_selectors(exprs), config=config))


def node_selector(spec) -> model.NodeSelector:
    """{label: [values]} (one In requirement per label), {fields: name}, or {expressions/fields: [...]}."""
    if "expressions" in spec or isinstance(spec.get("fields"), list):
        def reqs(items):
            return [model.NodeSelectorRequirement(key=r["key"], operator=r.get("operator", "In"),
                                                  values=list(r.get("values", []))) for r in items or []]
        return model.NodeSelector(node_selector_terms=[model.NodeSelectorTerm(
            match_expressions=reqs(spec.get("expressions")), match_fields=reqs(spec.get("fields")))])
    if "fields" in spec:
        return model.NodeSelector(node_selector_terms=[model.NodeSelectorTerm(match_fields=[
            model.NodeSelectorRequirement(key="metadata.name", operator="In", values=[spec["fields"]])])])
    return model.NodeSelector(node_selector_terms=[model.NodeSelectorTerm(match_expressions=[
        model.NodeSelectorRequirement(key=k, operator="In", values=list(v)) for k, v in spec.items()])])


def _attribute(value) -> model.DeviceAttribute:
    if isinstance(value, dict):
        return model.DeviceAttribute(**value)
    if isinstance(value, bool):
        return model.DeviceAttribute(bool=value)
    if isinstance(value, int):
        return model.DeviceAttribute(int=value)
    return model.DeviceAttribute(string=str(value))


def _counters(spec: dict) -> dict[str, model.Counter]:
    return {k: model.Counter(value=str(v)) for k, v in spec.items()}


def _apply_node_selection(target, selection) -> None:
    if selection is None:
        return
    if isinstance(selection, dict):
        target.node_selector = node_selector(selection)
    elif selection == "all":
        target.all_nodes = True
    elif selection == "per-device":
        target.per_device_node_selection = True
    else:
        target.node_name = selection


def build_device(spec) -> model.Device:
    if isinstance(spec, str):
        return model.Device(name=spec)
    d = model.Device(name=spec["name"])
    d.attributes = {k: _attribute(v) for k, v in (spec.get("attributes") or {}).items()}
    capacity = spec.get("capacity")
    if isinstance(capacity, dict):
        d.capacity = {k: model.DeviceCapacity(value=str(v)) for k, v in capacity.items()}
    d.consumes_counters = [model.DeviceCounterConsumption(counter_set=c["set"], counters=_counters(c["counters"]))
                           for c in spec.get("counters", [])]
    if capacity == "fromCounters":
        d.capacity = {name: model.DeviceCapacity(value=c.value)
                      for cc in d.consumes_counters for name, c in cc.counters.items()}
    d.taints = [dataclasses.replace(TAINTS[t]) if isinstance(t, str) else model.DeviceTaint(**t)
                for t in spec.get("taints", [])]
    _apply_node_selection(d, spec.get("node"))
    d.binding_conditions = list(spec.get("binding", []))
    d.binding_failure_conditions = list(spec.get("bindingFailure", []))
    if "bindsToNode" in spec:
        d.binds_to_node = spec["bindsToNode"]
    if spec.get("multi"):
        d.allow_multiple_allocations = True
    for name, value in (spec.get("rangePolicy") or {}).items():
        d.capacity[name] = model.DeviceCapacity(value=str(value), request_policy=model.CapacityRequestPolicy(
            default="2", valid_range=model.CapacityRequestPolicyRange(min="2", step="2", max="4")))
    policy = spec.get("validValues")
    if policy:
        default = str(policy["default"])
        for name, value in policy["capacity"].items():
            d.capacity[name] = model.DeviceCapacity(value=str(value), request_policy=model.CapacityRequestPolicy(
                default=default, valid_values=[default] + [str(v) for v in policy.get("extra", [])]))
    return d


def build_slice(spec: dict) -> model.ResourceSlice:
    pool = spec.get("pool", "pool-1")
    if isinstance(pool, str):
        pool = {"name": pool}
    devices = spec.get("devices", [])
    if isinstance(devices, int):
        devices = [f"device-{i}" for i in range(devices)]
    s = model.ResourceSlice(metadata=model.ObjectMeta(name=spec["name"]), spec=model.ResourceSliceSpec(
        driver=spec.get("driver", "driver-a"),
        pool=model.ResourcePool(name=pool["name"], generation=pool.get("generation", 1),
                                resource_slice_count=pool.get("count", 1)),
        devices=[build_device(d) for d in devices],
        shared_counters=[model.CounterSet(name=k, counters=_counters(v))
                         for k, v in (spec.get("counterSets") or {}).items()],
    ))
    _apply_node_selection(s.spec, spec.get("node", "node-1"))
    return s


def build_node(spec) -> model.Node:
    spec = spec or "node-1"
    if isinstance(spec, str):
        spec = {"name": spec}
    name = spec["name"]
    labels = spec.get("labels") or {"region": spec.get("region", REGIONS.get(name, "region-1")), "planet": "earth"}
    return model.Node(metadata=model.ObjectMeta(name=name, labels=dict(labels)))


def _device_id(text: str) -> DeviceID:
    return DeviceID(*text.split("/"))


def build_state(case: dict) -> AllocatedState:
    state = AllocatedState(devices={_device_id(d) for d in case.get("allocated", [])})
    for text in case.get("shared", []):
        driver, pool, device, share = text.split("/")
        state.shares.add((DeviceID(driver, pool, device), share))
    for text, consumed in (case.get("consumed") or {}).items():
        state.capacity[_device_id(text)] = {k: Quantity.parse(str(v)) for k, v in consumed.items()}
    return state


def case_features(case: dict) -> Switches:
    return Switches(**{FEATURE_NAMES[f]: True for f in case.get("features", [])})


# ----------------------------------------------------------------------------- comparing outputs


def _norm_selector(selector: model.NodeSelector | None):
    if selector is None:
        return None

    def reqs(items):
        return sorted((r.key, r.operator, tuple(sorted(r.values))) for r in items)
    return sorted((tuple(reqs(t.match_expressions)), tuple(reqs(t.match_fields))) for t in selector.node_selector_terms)


def _norm_quantities(values: dict) -> tuple:
    return tuple(sorted((k, Quantity.parse(str(v))) for k, v in values.items()))


def _norm_tolerations(items) -> tuple:
    return tuple((t.key, t.operator or "Equal", t.value, t.effect, t.toleration_seconds) for t in items)


def _norm_result(r: model.DeviceRequestAllocationResult) -> tuple:
    return (r.request, r.driver, r.pool, r.device, bool(r.admin_access), _norm_tolerations(r.tolerations),
            _norm_quantities(r.consumed_capacity), r.share_id is not None, tuple(r.binding_conditions),
            tuple(r.binding_failure_conditions))


def _expand(results) -> list:
    """``"req-0 driver-a pool-1 device-{0..31}"`` stands for 32 results."""
    out = []
    for spec in results or []:
        text = spec if isinstance(spec, str) else spec["r"]
        if "{" not in text:
            out.append(spec)
            continue
        head, _, rest = text.partition("{")
        span, _, tail = rest.partition("}")
        low, _, high = span.partition("..")
        for i in range(int(low), int(high) + 1):
            item = f"{head}{i}{tail}"
            out.append(item if isinstance(spec, str) else {**spec, "r": item})
    return out


def _expected_result(spec) -> tuple:
    if isinstance(spec, str):
        spec = {"r": spec}
    request, driver, pool, device = spec["r"].split()
    return (request, driver, pool, device, bool(spec.get("admin")), _norm_tolerations(_tolerations(spec.get("tolerations"))),
            _norm_quantities(spec.get("consumed") or {}), bool(spec.get("share")), tuple(spec.get("binding", [])),
            tuple(spec.get("bindingFailure", [])))


def _norm_config(items) -> list:
    return [(c.source, tuple(c.requests), c.opaque.driver, repr(sorted(c.opaque.parameters.items()))) for c in items]


def _expected_config(items) -> list:
    return [(c["source"], tuple(c.get("requests", [])), c["driver"], repr(sorted(_opaque(c["driver"], c["attr"]).parameters.items())))
            for c in items or []]


def _norm_allocation(a: model.AllocationResult) -> tuple:
    return (repr(_norm_selector(a.node_selector)), sorted(map(_norm_result, a.devices.results)),
            _norm_config(a.devices.config))


def _expected_allocation(spec: dict) -> tuple:
    node = spec.get("node", "node-1")
    if node is None:
        selector = None
    elif isinstance(node, str):
        selector = node_selector({"fields": node})
    else:
        selector = node_selector(node)
    return (repr(_norm_selector(selector)), sorted(map(_expected_result, _expand(spec.get("results")))),
            _expected_config(spec.get("config")))


# ----------------------------------------------------------------------------- running


def run_case(case: dict, variant) -> None:
    features = case_features(case)
    allocator = Allocator(SearchInputs([build_class(n, s) for n, s in (case.get("classes") or {}).items()],
                                       [build_slice(s) for s in case.get("slices", [])], state=build_state(case)),
                          forced=Forced(features, variant))
    claims = [build_claim(c) for c in case.get("claims", [])]
    try:
        search = allocator.search(build_node(case.get("node")), claims)
    except AllocatorError as err:
        assert "error" in case, f"unexpected error: {err}"
        assert case["error"] in str(err)
        return
    assert "error" not in case, f"expected error {case['error']!r}, got none"
    got = []
    if search.found:
        from allocator.allocation.results import build_results
        got = sorted(map(_norm_allocation, build_results(search)), key=repr)
    want = sorted(map(_expected_allocation, case.get("expect") or []), key=repr)
    assert got == want
    steps = (case.get("steps_by") or {}).get(variant.name, case.get("steps"))
    if steps:
        assert search.calls == steps


def table_params(text: str):
    """pytest parameters: each case with each implementation that supports its features."""
    params = []
    for name, case in yaml.safe_load(text).items():
        if name.startswith("_"):  # YAML anchors shared by cases
            continue
        case = case or {}
        wanted = case_features(case).enabled()
        params.extend(pytest.param(case, variant, id=f"{name}-{variant.name}")
                      for variant in VARIANTS if wanted <= variant.supported.enabled())
    return params
