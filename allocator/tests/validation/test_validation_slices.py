"""ResourceSlice rules (upstream's TestValidateResourceSlice cases in our words)."""

from __future__ import annotations

from allocator.releases.gates import make_gates
from allocator.tests.helpers.validation import (
    BAD_NAME,
    CIDENT_MSG,
    CLAIM,
    LABEL_MSG,
    SLICE,
    SUBDOMAIN_MSG,
    errors,
    fresh,
    gates,
    warnings,
)

DEV = "spec.devices[0]"


def slice_with(**spec):
    obj = fresh(SLICE)
    obj["spec"].update(spec)
    return obj


def device(**fields):
    return {"name": "dev-0", **fields}


def test_an_empty_driver_is_also_an_invalid_subdomain_before_1_35():
    # kubernetes v1.34's ValidateCSIDriverName goes on to the DNS subdomain check after "Required value";
    # v1.35 returns there. Checked with the 1.34 and 1.35 apiservers' create (a slice without a driver).
    obj = slice_with(driver="")
    config = {"opaque": {"driver": "", "parameters": {}}}
    claim = fresh(CLAIM)
    claim["spec"]["devices"]["config"] = [config]
    required = "spec.driver: Required value"
    invalid = f'spec.driver: Invalid value: "": {SUBDOMAIN_MSG}'
    on_1_34 = errors(obj, gates=make_gates({}, release="1.34"))
    assert on_1_34[on_1_34.index(required) + 1] == invalid
    assert invalid not in errors(obj, gates=make_gates({}, release="1.35"))
    opaque = "spec.devices.config[0].opaque.driver"
    assert f'{opaque}: Invalid value: "": {SUBDOMAIN_MSG}' in errors(claim, gates=make_gates({}, release="1.34"))
    assert errors(claim, gates=make_gates({}, release="1.35")) == [f"{opaque}: Required value"]


def test_valid_slice():
    assert errors(fresh(SLICE)) == []


def test_driver_and_pool():
    obj = slice_with(driver="", pool={"name": "", "resourceSliceCount": 0, "generation": -1})
    assert errors(obj) == [
        "spec.driver: Required value",
        "spec.pool.name: Required value",
        "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
        "spec.pool.generation: Invalid value: -1: must be greater than or equal to zero",
    ]
    obj = slice_with(driver="Dra.Example.Com", pool={"name": "a/" + BAD_NAME, "resourceSliceCount": 1})
    assert errors(obj) == [f'spec.pool.name: Invalid value: "{BAD_NAME}": {SUBDOMAIN_MSG}']
    assert errors(slice_with(pool={"name": "a" * 254, "resourceSliceCount": 1}))[0] == \
        "spec.pool.name: Too long: may not be more than 253 bytes"


def test_node_selection_exactly_one():
    obj = slice_with()
    del obj["spec"]["nodeName"]
    assert errors(obj) == ["spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                           "`perDeviceNodeSelection` is required"]
    obj = slice_with(allNodes=True)
    assert errors(obj) == ['spec: Invalid value: "{`nodeName`, `allNodes`}": exactly one of `nodeName`, '
                           "`nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields "
                           "are set"]
    obj = slice_with(nodeName="", allNodes=False, perDeviceNodeSelection=True, devices=[])
    assert errors(obj) == [
        'spec.nodeName: Invalid value: "": must be either unset or set to a non-empty string',
        "spec.allNodes: Invalid value: false: must be either unset or set to true",
    ]
    obj = slice_with(nodeName=BAD_NAME)
    assert errors(obj) == [f'spec.nodeName: Invalid value: "{BAD_NAME}": {SUBDOMAIN_MSG}']


def test_node_selector():
    term = {"matchExpressions": [{"key": "k", "operator": "In", "values": ["v"]}]}
    obj = slice_with(nodeName=None, nodeSelector={"nodeSelectorTerms": [term, term]})
    del obj["spec"]["nodeName"]
    assert errors(obj) == [
        'spec.nodeSelector.nodeSelectorTerms: Invalid value: []core.NodeSelectorTerm{core.NodeSelectorTerm{'
        'MatchExpressions:[]core.NodeSelectorRequirement{core.NodeSelectorRequirement{Key:"k", Operator:"In", '
        'Values:[]string{"v"}}}, MatchFields:[]core.NodeSelectorRequirement(nil)}, core.NodeSelectorTerm{'
        'MatchExpressions:[]core.NodeSelectorRequirement{core.NodeSelectorRequirement{Key:"k", Operator:"In", '
        'Values:[]string{"v"}}}, MatchFields:[]core.NodeSelectorRequirement(nil)}}: must have exactly one node '
        "selector term"]
    bad = {"matchExpressions": [{"key": "k", "operator": "In"}, {"key": "k", "operator": "Exists", "values": ["x"]},
                                {"key": "k", "operator": "Bad"}],
           "matchFields": [{"key": "spec.x", "operator": "In", "values": ["a", "b"]}]}
    obj["spec"]["nodeSelector"] = {"nodeSelectorTerms": [bad]}
    terms = "spec.nodeSelector.nodeSelectorTerms[0]"
    assert errors(obj) == [
        f"{terms}.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        f"{terms}.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or "
        "'DoesNotExist'",
        f'{terms}.matchExpressions[2].operator: Invalid value: "Bad": not a valid selector operator',
        f"{terms}.matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' "
        "for node field selector",
        f'{terms}.matchFields[0].key: Invalid value: "spec.x": not a valid field selector key',
    ]


def test_devices_limits_and_names():
    assert errors(slice_with(devices=[device(name=f"d{i}") for i in range(128)])) == []
    assert errors(slice_with(devices=[device(name=f"d{i}") for i in range(129)])) == [
        "spec.devices: Too many: 129: must have at most 128 items"]
    tainted = [device(name=f"d{i}", taints=[{"key": "k", "effect": "NoSchedule"}]) for i in range(65)]
    assert errors(slice_with(devices=tainted)) == ["spec.devices: Too many: 65: must have at most 64 items"]
    assert errors(slice_with(devices=[device(name=BAD_NAME), device(name="a"), device(name="a")])) == [
        f'{DEV}.name: Invalid value: "{BAD_NAME}": {LABEL_MSG}',
        'spec.devices[2]: Duplicate value: "a"',
    ]


def test_attributes():
    attrs = {
        "good": {"int": 1},
        "none": {},
        "two": {"int": 1, "bool": True},
        "long": {"string": "x" * 65},
        "ver": {"version": "v1.0.0"},
        "verline": {"version": "1.0.0\n"},  # (whole, as Go's regexp: $ is not before a last newline)
        "okver": {"version": "1.0.0-alpha.1+build.5"},
        "dom.example.com/ok": {"bool": False},
        "/x": {"int": 1},
        "bad-id": {"int": 1},
    }
    got = errors(slice_with(devices=[device(attributes=attrs)]))
    assert got == [
        f'{DEV}.attributes[none]: Invalid value: "": exactly one value must be specified',
        f"{DEV}.attributes[two]: Invalid value: resource.DeviceAttribute{{IntValue:&1, BoolValue:&true}}: "
        "exactly one value must be specified",
        f"{DEV}.attributes[long].string: Too long: may not be more than 64 bytes",
        f'{DEV}.attributes[ver].version: Invalid value: "v1.0.0": must be a string compatible with semver.org '
        "spec 2.0.0",
        f'{DEV}.attributes[verline].version: Invalid value: "1.0.0\\n": must be a string compatible with '
        "semver.org spec 2.0.0",
        f'{DEV}.attributes: Invalid value: "": the domain must not be empty',
        f'{DEV}.attributes: Invalid value: "bad-id": {CIDENT_MSG}',
    ]
    too_long = "a" * 33
    assert errors(slice_with(devices=[device(attributes={too_long: {"int": 1}})])) == [
        f"{DEV}.attributes: Too long: may not be more than 32 bytes"]


def test_text_attributes_are_checked_by_bytes_and_name():
    """Text attributes (a serial number per device) take a short way through the checks: the same answers."""
    ok = {"serial": {"string": "GPU-" + "9" * 60}, "dom.example.com/e": {"string": "\u00e9" * 32}}
    assert errors(slice_with(devices=[device(attributes=ok)])) == []
    bad = {"e": {"string": "\u00e9" * 33}, "bad-id": {"string": "x"}, "/x": {"string": "y"}}
    assert errors(slice_with(devices=[device(attributes=bad)])) == [
        f"{DEV}.attributes[e].string: Too long: may not be more than 64 bytes",
        f'{DEV}.attributes: Invalid value: "bad-id": {CIDENT_MSG}',
        f'{DEV}.attributes: Invalid value: "": the domain must not be empty',
    ]


def test_attribute_and_capacity_totals():
    attrs = {f"a{i}": {"int": i} for i in range(20)}
    caps = {f"c{i}": {"value": "1"} for i in range(13)}
    assert errors(slice_with(devices=[device(attributes=attrs, capacity=caps)])) == [
        f"{DEV}: Invalid value: 33: the total number of attributes and capacities must not exceed 32"]
    lists = {"l": {"ints": list(range(49))}}
    assert errors(slice_with(devices=[device(attributes=lists)]), gates=gates(DRAListTypeAttributes=True)) == [
        f"{DEV}: Invalid value: 49: the total number of attribute values must not exceed 48"]


def test_list_attributes_need_their_gate():
    obj = slice_with(devices=[device(attributes={"l": {"ints": [1]}, "e": {"strings": []}})])
    assert errors(obj, gates=gates(DRAListTypeAttributes=True)) == [
        f"{DEV}.attributes[e].strings: Invalid value: []string{{}}: must not be empty if specified"]
    # Off (the default): the lists are dropped, leaving attributes without a value.
    assert errors(obj) == [
        f'{DEV}.attributes[l]: Invalid value: "": exactly one value must be specified',
        f'{DEV}.attributes[e]: Invalid value: "": exactly one value must be specified',
    ]
    assert len(warnings(obj)) == 2


def test_taints():
    taints = [{"key": "example.com/k", "value": "v", "effect": "NoExecute"}, {"key": "", "effect": ""},
              {"key": "k", "value": "spaces not allowed", "effect": "Bad"}]
    got = errors(slice_with(devices=[device(taints=taints)]))
    assert got[0] == f'{DEV}.taints[1].key: Invalid value: "": name part must be non-empty'
    assert got[2:] == [
        f"{DEV}.taints[1].effect: Required value",
        got[3],
        f'{DEV}.taints[2].effect: Unsupported value: "Bad": supported values: "NoExecute", "NoSchedule", "None"',
    ]
    assert errors(slice_with(devices=[device(taints=[{"key": "k", "effect": "NoSchedule"}] * 17)])) == [
        f"{DEV}.taints: Too many: 17: must have at most 16 items"]
    assert errors(slice_with(devices=[device(taints=taints)]), gates=gates(DRADeviceTaints=False)) == []


def test_consumable_capacity_request_policy():
    def cap(policy, multi=True):
        return slice_with(devices=[device(allowMultipleAllocations=multi,
                                          capacity={"mem": {"value": "10Gi", "requestPolicy": policy}})])

    path = f"{DEV}.capacity[mem].requestPolicy"
    assert errors(cap({"default": "1Gi"}, multi=False)) == [
        f"{path}: Forbidden: allowMultipleAllocations must be true"]
    assert errors(cap({"default": "1Gi", "validValues": ["1Gi", "2Gi"]})) == []
    assert errors(cap({"validValues": ["1Gi"]})) == [
        f"{path}.default: Required value: required when validValues is defined"]
    assert errors(cap({"default": "1Gi", "validValues": ["1Gi"], "validRange": {"min": "1Gi"}})) == [
        f'{path}: Forbidden: exactly one policy can be specified, cannot specify "validValues" and "validRange" '
        "at the same time"]
    assert errors(cap({"default": "3Gi", "validValues": ["2Gi", "1Gi", "11Gi", "1Gi"]})) == [
        f'{path}.validValues[1]: Invalid value: "1Gi": values must be sorted in ascending order',
        f'{path}.validValues[3]: Invalid value: "1Gi": values must be sorted in ascending order',
        f'{path}.validValues[2]: Invalid value: "11Gi": option is larger than capacity value: 10Gi',
        f'{path}.validValues[3]: Duplicate value: "1073741824"',
        f'{path}.validValues: Invalid value: "3Gi": default value is not valid according to the requestPolicy',
    ]
    assert errors(cap({"default": "1", "validValues": [str(i) for i in range(11)]}))[0] == \
        f"{path}.validValues: Too many: 11: must have at most 10 items"
    rng = f"{path}.validRange"
    assert errors(cap({"default": "1Gi", "validRange": {"min": "1Gi", "max": "4Gi", "step": "1Gi"}})) == []
    assert errors(cap({"validRange": {"min": "1Gi"}})) == [
        f"{path}.default: Required value: required when validRange is defined"]
    assert errors(cap({"default": "1Gi", "validRange": {}})) == [
        f"{rng}.min: Required value: required when validRange is defined"]
    assert errors(cap({"default": "1Gi", "validRange": {"min": "11Gi", "max": "2Gi"}})) == [
        f'{rng}.min: Invalid value: "11Gi": min is larger than capacity value: 10Gi',
        f'{rng}.default: Invalid value: "1Gi": default is less than min: 11Gi',
        f'{rng}.max: Invalid value: "11Gi": min is larger than max: 2Gi',
    ]
    assert errors(cap({"default": "2Gi", "validRange": {"min": "1Gi", "max": "12Gi", "step": "2Gi"}})) == [
        f'{rng}.max: Invalid value: "12Gi": max is larger than capacity value: 10Gi',
        f'{rng}.step: Invalid value: "2Gi": value is not a multiple of a given step (2Gi) from (1Gi)',
        f'{rng}.step: Invalid value: "12Gi": value is not a multiple of a given step (2Gi) from (1Gi)',
    ]
    assert errors(cap({"default": "1Gi", "validRange": {"min": "1Gi", "step": "0"}})) == [
        f'{rng}.step: Invalid value: "0": must be greater than zero']
    assert errors(cap({"default": "1Gi", "validRange": {"min": "1Gi", "step": "10Gi"}})) == [
        f'{rng}.step: Invalid value: "10Gi": one step 11Gi is larger than capacity value: 10Gi']
    # The request policy is dropped when DRAConsumableCapacity is off.
    assert errors(cap({"default": "1Gi"}, multi=False), gates=gates(DRAConsumableCapacity=False)) == []


def test_malformed_quantity_is_a_decoding_error():
    got = errors(slice_with(devices=[device(capacity={"mem": {"value": "lots"}})]))
    assert got == [f"{DEV}.capacity[mem].value: Parse error: quantities must match the regular expression "
                   "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"]


def test_shared_counters_and_consumption():
    counters = [{"name": "gpu-0", "counters": {"memory": {"value": "8Gi"}}}]
    obj = slice_with(sharedCounters=counters)
    assert errors(obj) == ['spec: Invalid value: "": only one of `sharedCounters` or `devices` is allowed']
    del obj["spec"]["devices"]
    assert errors(obj) == []
    obj["spec"]["sharedCounters"] = [{"name": "", "counters": {}}, {"name": BAD_NAME, "counters": {"Bad": {"value": "1"}}},
                                     {"name": "gpu-0", "counters": {"m": {"value": "1"}}},
                                     {"name": "gpu-0", "counters": {"m": {"value": "1"}}}]
    assert errors(obj) == [
        "spec.sharedCounters[0].name: Required value",
        "spec.sharedCounters[0].counters: Required value",
        f'spec.sharedCounters[1].name: Invalid value: "{BAD_NAME}": {LABEL_MSG}',
        f'spec.sharedCounters[1].counters: Invalid value: "Bad": {LABEL_MSG}',
        'spec.sharedCounters[3]: Duplicate value: "gpu-0"',
    ]
    obj["spec"]["sharedCounters"] = [{"name": f"s{i}", "counters": {"m": {"value": "1"}}} for i in range(9)]
    assert errors(obj) == ["spec.sharedCounters: Too many: 9: must have at most 8 items"]
    consumption = [{"counterSet": "a", "counters": {"m": {"value": "1"}}}, {"counterSet": "a", "counters": {}},
                   {"counterSet": ""}]
    assert errors(slice_with(devices=[device(consumesCounters=consumption)])) == [
        f"{DEV}.consumesCounters: Too many: 3: must have at most 2 items"]
    assert errors(slice_with(devices=[device(consumesCounters=consumption[1:])])) == [
        f"{DEV}.consumesCounters[0].counters: Required value",
        f"{DEV}.consumesCounters[1].counterSet: Required value",
        f"{DEV}.consumesCounters[1].counters: Required value",
    ]


def test_per_device_node_selection():
    obj = slice_with(perDeviceNodeSelection=True, devices=[device(), device(name="b", nodeName="n", allNodes=True),
                                                          device(name="c", nodeName="")])
    del obj["spec"]["nodeName"]
    assert errors(obj) == [
        f"{DEV}: Required value: exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
        "`perDeviceNodeSelection` is set to true in the ResourceSlice spec",
        'spec.devices[1]: Invalid value: "{`nodeName`, `allNodes`}": exactly one of `nodeName`, `nodeSelector`, '
        "or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
        'spec.devices[2].nodeName: Invalid value: "": must not be empty',
        "spec.devices[2]: Required value: exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required "
        "when `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
    ]
    assert errors(slice_with(devices=[device(allNodes=True)])) == [
        f'{DEV}: Invalid value: "null": `nodeName`, `nodeSelector` and `allNodes` can only be set if '
        "`perDeviceNodeSelection` is set to true in the ResourceSlice spec"]


def test_binding_conditions():
    assert errors(slice_with(devices=[device(bindingConditions=["a"], bindingFailureConditions=["b"])])) == []
    assert errors(slice_with(devices=[device(bindingConditions=["a", "a"], bindingFailureConditions=["a"])])) == [
        f'{DEV}.bindingConditions[1]: Duplicate value: "a"',
        f'{DEV}.bindingFailureConditions[0]: Invalid value: "a": bindingFailureConditions must not overlap with '
        "bindingConditions",
    ]
    assert errors(slice_with(devices=[device(bindingConditions=["a"])])) == [
        f"{DEV}.bindingFailureConditions: Invalid value: []string(nil): bindingFailureConditions are required to "
        "use bindingConditions"]
    assert errors(slice_with(devices=[device(bindingFailureConditions=["a"])])) == [
        f"{DEV}.bindingConditions: Invalid value: []string(nil): bindingConditions are required to use "
        "bindingFailureConditions"]
    assert errors(slice_with(devices=[device(bindingConditions=list("abcde"), bindingFailureConditions=["x"])])) \
        == [f"{DEV}.bindingConditions: Too many: 5: must have at most 4 items"]
