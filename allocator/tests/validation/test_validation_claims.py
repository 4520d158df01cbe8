"""ResourceClaim and ResourceClaimTemplate rules, including upstream's TestValidateClaim cases in our words."""

from __future__ import annotations

import pytest
import yaml

from allocator.tests.helpers.validation import (
    BAD_NAME,
    CIDENT_MSG,
    CLAIM,
    LABEL_MSG,
    LABEL_VALUE_MSG,
    SUBDOMAIN_MSG,
    errors,
    fresh,
    gates,
    warnings,
)

REQ = "spec.devices.requests"
REF_MSG = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"
FQN_MSG = "a fully qualified name must be a domain and a name separated by a slash"
PARAMS = {"kind": "foo", "apiVersion": "dra.example.com/v1"}


def claim_with(**devices):
    claim = fresh(CLAIM)
    claim["spec"]["devices"].update(devices)
    return claim


def exact(**fields):
    return {"deviceClassName": "foo", **fields}


def test_valid_claim_and_defaulting():
    # allocationMode defaults to ExactCount and a missing/zero count to 1.
    assert errors(claim_with(requests=[{"name": "foo", "exactly": exact(count=0)}])) == []
    assert errors(claim_with(requests=[{"name": "foo", "exactly": exact(allocationMode="All")}])) == []


def test_class_name():
    assert errors(claim_with(requests=[{"name": "foo", "exactly": {"deviceClassName": BAD_NAME}}])) == [
        f'{REQ}[0].exactly.deviceClassName: Invalid value: "{BAD_NAME}": {SUBDOMAIN_MSG}']
    assert errors(claim_with(requests=[{"name": "foo", "exactly": {"deviceClassName": ""}}])) == [
        f"{REQ}[0].exactly.deviceClassName: Required value"]


def test_request_name_and_uniqueness():
    claim = claim_with(requests=[{"name": "foo", "exactly": exact()}, {"name": "foo", "exactly": exact()},
                                 {"name": BAD_NAME, "exactly": exact()}])
    assert errors(claim) == [
        f'{REQ}[2].name: Invalid value: "{BAD_NAME}": {LABEL_MSG}',
        f'{REQ}[1]: Duplicate value: "foo"',
    ]


def test_exactly_one_of_exactly_or_first_available():
    assert errors(claim_with(requests=[{"name": "foo"}])) == [
        f"{REQ}[0]: Required value: exactly one of `exactly` or `firstAvailable` is required"]
    both = claim_with(requests=[{"name": "foo", "exactly": exact(),
                                 "firstAvailable": [{"name": "a", "deviceClassName": "foo"}]}])
    assert errors(both) == [f'{REQ}[0]: Invalid value: "null": exactly one of `exactly` or `firstAvailable` '
                            "is required, but multiple fields are set"]


@pytest.mark.parametrize(("fields", "expected"), [
    ({"count": -1}, [f"{REQ}[0].exactly.count: Invalid value: -1: must be greater than zero"]),
    ({"allocationMode": "All", "count": 2},
     [f"{REQ}[0].exactly.count: Invalid value: 2: must not be specified when allocationMode is 'All'"]),
    ({"allocationMode": "other"},
     [f'{REQ}[0].exactly.allocationMode: Unsupported value: "other": supported values: "All", "ExactCount"']),
])
def test_allocation_mode_and_count(fields, expected):
    assert errors(claim_with(requests=[{"name": "foo", "exactly": exact(**fields)}])) == expected


def test_too_many_requests_is_one_error():
    requests = [{"name": f"r{i}", "exactly": exact(count=-1)} for i in range(33)]
    assert errors(claim_with(requests=requests)) == [f"{REQ}: Too many: 33: must have at most 32 items"]
    assert errors(claim_with(requests=requests[:32])) == [
        f"{REQ}[{i}].exactly.count: Invalid value: -1: must be greater than zero" for i in range(32)]


def test_selectors():
    sel = {"cel": {"expression": 'device.driver == "dra.example.com"'}}
    assert errors(claim_with(requests=[{"name": "foo", "exactly": exact(selectors=[sel] * 32)}])) == []
    assert errors(claim_with(requests=[{"name": "foo", "exactly": exact(selectors=[sel] * 33)}])) == [
        f"{REQ}[0].exactly.selectors: Too many: 33: must have at most 32 items"]
    assert errors(claim_with(requests=[{"name": "foo", "exactly": exact(selectors=[{}])}])) == [
        f"{REQ}[0].exactly.selectors[0].cel: Required value"]


def test_first_available():
    sub = {"name": "a", "deviceClassName": "foo"}
    ok = claim_with(requests=[{"name": "foo", "firstAvailable": [sub, {**sub, "name": "b"}]}],
                    constraints=[{"requests": ["foo/a", "foo"], "matchAttribute": "dra.example.com/model"}])
    assert errors(ok) == []
    subs = [{**sub, "name": f"s{i}"} for i in range(9)]
    assert errors(claim_with(requests=[{"name": "foo", "firstAvailable": subs}])) == [
        f"{REQ}[0].firstAvailable: Too many: 9: must have at most 8 items"]
    bad = claim_with(requests=[{"name": "foo", "firstAvailable": [
        sub, {"name": "a", "deviceClassName": "", "count": -2}, {"name": BAD_NAME, "deviceClassName": "foo",
                                                                  "allocationMode": "All", "count": 1}]}])
    assert errors(bad) == [
        f"{REQ}[0].firstAvailable[1].deviceClassName: Required value",
        f"{REQ}[0].firstAvailable[1].count: Invalid value: -2: must be greater than zero",
        f'{REQ}[0].firstAvailable[2].name: Invalid value: "{BAD_NAME}": {LABEL_MSG}',
        f"{REQ}[0].firstAvailable[2].count: Invalid value: 1: must not be specified when allocationMode is 'All'",
        f'{REQ}[0].firstAvailable[1]: Duplicate value: "a"',
    ]


def test_first_available_is_dropped_when_prioritized_list_is_off():
    claim = claim_with(requests=[{"name": "foo", "firstAvailable": [{"name": "a", "deviceClassName": "foo"}]}])
    off = gates(DRAPrioritizedList=False)
    assert errors(claim, gates=off) == [
        f"{REQ}[0]: Required value: exactly one of `exactly` or `firstAvailable` is required"]
    assert warnings(claim, gates=off) == [
        f"{REQ}[0].firstAvailable: Warning: dropped by the apiserver: feature gate DRAPrioritizedList is disabled"]


def test_constraints():
    claim = claim_with(constraints=[
        {"requests": ["foo", BAD_NAME], "matchAttribute": "missing-domain"},
        {"matchAttribute": ""},
        {},
        {"requests": ["foo/bar/baz"], "distinctAttribute": "dra.example.com/numa"},
        {"requests": ["foo", "foo"], "matchAttribute": "/x"},
    ])
    assert errors(claim) == [
        f'spec.devices.constraints[0].requests[1]: Invalid value: "{BAD_NAME}": {LABEL_MSG}',
        f'spec.devices.constraints[0].requests[1]: Invalid value: "{BAD_NAME}": {REF_MSG}',
        f'spec.devices.constraints[0].matchAttribute: Invalid value: "missing-domain": {CIDENT_MSG}',
        f'spec.devices.constraints[0].matchAttribute: Invalid value: "missing-domain": {FQN_MSG}',
        f'spec.devices.constraints[1].matchAttribute: Invalid value: "": {CIDENT_MSG}',
        f'spec.devices.constraints[1].matchAttribute: Invalid value: "": {FQN_MSG}',
        'spec.devices.constraints[2]: Required value: exactly one of "matchAttribute" or "distinctAttribute" '
        "is required, but multiple fields are set",
        f'spec.devices.constraints[3].requests[0]: Invalid value: "foo/bar/baz": {REF_MSG}',
        'spec.devices.constraints[4].requests[1]: Duplicate value: "foo"',
        'spec.devices.constraints[4].matchAttribute: Invalid value: "": the domain must not be empty',
    ]


def test_constraint_without_attribute_when_consumable_capacity_is_off():
    assert errors(claim_with(constraints=[{}]), gates=gates(DRAConsumableCapacity=False)) == [
        "spec.devices.constraints[0].matchAttribute: Required value"]


def test_too_many_constraints_and_configs():
    constraints = [{"matchAttribute": "foo/bar"}] * 33
    configs = [{"opaque": {"driver": "dra.example.com", "parameters": PARAMS}}] * 33
    assert errors(claim_with(constraints=constraints, config=configs)) == [
        "spec.devices.constraints: Too many: 33: must have at most 32 items",
        "spec.devices.config: Too many: 33: must have at most 32 items",
    ]
    assert errors(claim_with(constraints=constraints[:32], config=configs[:32])) == []


def test_config():
    claim = claim_with(config=[
        {"requests": ["foo", BAD_NAME], "opaque": {"driver": "dra.example.com", "parameters": PARAMS}},
        {},
        {"opaque": {"driver": "", "parameters": None}},
        {"opaque": {"driver": "Dra_Example", "parameters": [1, 2]}},
        {"opaque": {"driver": "d" * 64, "parameters": {"x": "y" * 10240}}},
    ])
    assert errors(claim) == [
        f'spec.devices.config[0].requests[1]: Invalid value: "{BAD_NAME}": {LABEL_MSG}',
        f'spec.devices.config[0].requests[1]: Invalid value: "{BAD_NAME}": {REF_MSG}',
        "spec.devices.config[1].opaque: Required value",
        "spec.devices.config[2].opaque.driver: Required value",
        "spec.devices.config[2].opaque.parameters: Required value",
        f'spec.devices.config[3].opaque.driver: Invalid value: "Dra_Example": {SUBDOMAIN_MSG}',
        'spec.devices.config[3].opaque.parameters: Invalid value: "<value omitted>": must be a valid JSON object',
        "spec.devices.config[4].opaque.driver: Too long: may not be more than 63 bytes",
        "spec.devices.config[4].opaque.parameters: Too long: may not be more than 10240 bytes",
    ]


def test_tolerations():
    tolerations = [
        {"key": "example.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
        {"key": "k", "value": "v"},  # operator defaults to Equal
        {"key": BAD_NAME, "operator": "Exists", "value": "x"},
        {"operator": "Equal", "value": "spaces not allowed", "effect": "Bad"},
        {"operator": "Gt"},
        {"operator": "Exists", "effect": "None"},
    ]
    claim = claim_with(requests=[{"name": "foo", "exactly": exact(tolerations=tolerations)}])
    path = f"{REQ}[0].exactly.tolerations"
    got = errors(claim)
    assert got[0].startswith(f'{path}[2].key: Invalid value: "{BAD_NAME}": name part must consist of')
    assert got[1:] == [
        f'{path}[2].value: Invalid value: "x": must be empty for operator `Exists`',
        f'{path}[3].value: Invalid value: "spaces not allowed": {LABEL_VALUE_MSG}',
        f'{path}[3].effect: Unsupported value: "Bad": supported values: "NoExecute", "NoSchedule", "None"',
        f'{path}[4].operator: Unsupported value: "Gt": supported values: "Equal", "Exists"',
    ]
    # The None effect is new in 1.35.
    from allocator.releases.gates import make_gates
    assert any('"None": supported values: "NoExecute", "NoSchedule"' in m
               for m in errors(claim, gates=make_gates({"DRADeviceTaints": True}, release="1.34")))


def test_tolerations_are_dropped_when_device_taints_is_off():
    claim = claim_with(requests=[{"name": "foo", "exactly": exact(tolerations=[{"operator": "Bad"}])}])
    off = gates(DRADeviceTaints=False)
    assert errors(claim, gates=off) == []
    assert warnings(claim, gates=off) == [f"{REQ}[0].exactly.tolerations: Warning: dropped by the apiserver: "
                                          "feature gate DRADeviceTaints is disabled"]


def test_admin_access_warns_about_the_namespace_label_and_is_dropped_when_off():
    claim = claim_with(requests=[{"name": "foo", "exactly": exact(adminAccess=True)}])
    assert "resource.kubernetes.io/admin-access" in warnings(claim)[0]
    assert "DRAAdminAccess is disabled" in warnings(claim, gates=gates(DRAAdminAccess=False))[0]


ADMIN_DENIED = ("Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` "
                "label on the containing namespace")


def namespace(name: str = "ns", **labels) -> dict:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels}}


def test_admin_access_needs_the_label_on_a_namespace_the_input_defines():
    # The registry strategy's check (AuthorizedForAdmin), before validation: the first request asking for admin
    # access, on the internal type's path (no `exactly`), for a claim and for a template alike.
    claim = claim_with(requests=[{"name": "plain", "exactly": exact()},
                                 {"name": "one", "exactly": exact(adminAccess=True)},
                                 {"name": "two", "exactly": exact(adminAccess=True, count=-1)}])
    assert errors(namespace(), claim) == [f"{REQ}[1].adminAccess: {ADMIN_DENIED}",
                                          f"{REQ}[2].exactly.count: Invalid value: -1: must be greater than zero"]
    assert errors(namespace(**{"resource.kubernetes.io/admin-access": "yes"}), claim)[0] == \
        f"{REQ}[1].adminAccess: {ADMIN_DENIED}"
    labelled = namespace(**{"resource.kubernetes.io/admin-access": "true"})
    assert errors(labelled, claim) == [f"{REQ}[2].exactly.count: Invalid value: -1: must be greater than zero"]
    assert warnings(labelled, claim) == []  # the label is known: nothing to warn about
    template = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                "metadata": {"name": "foo", "namespace": "ns"}, "spec": {"spec": claim["spec"]}}
    assert errors(namespace(), template)[0] == f"{REQ}[1].adminAccess: {ADMIN_DENIED}"


def test_admin_access_without_the_namespace_in_the_input_only_warns():
    # The engine cannot know the labels of a namespace it is not given (another namespace does not count).
    claim = claim_with(requests=[{"name": "foo", "exactly": exact(adminAccess=True)}])
    assert errors(namespace("other"), claim) == []
    assert "resource.kubernetes.io/admin-access" in warnings(namespace("other"), claim)[0]
    # A claim read from a cluster was created already: the namespace is not checked again.
    stored = claim_with(requests=[{"name": "foo", "exactly": exact(adminAccess=True)}])
    stored["metadata"]["uid"] = "1234"
    text = yaml.safe_dump_all([namespace(), stored], sort_keys=False)
    from allocator.kube.objects import read_documents
    from allocator.releases.gates import make_gates, stored_object_gates
    from allocator.validation import validate_documents
    from allocator.validation.documents import read_from_cluster
    found = validate_documents(read_documents(text), make_gates(), text, stored_gates=stored_object_gates(),
                               stored=read_from_cluster)
    assert [d.severity for d in found] == ["warning"]


def test_template_paths_and_metadata():
    template = {
        "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
        "metadata": {"name": "foo", "namespace": "ns"},
        "spec": {"metadata": {"name": "x", "labels": {"a": "b"}},
                 "spec": {"devices": {"requests": [{"name": "foo", "exactly": {"deviceClassName": ""}}]}}},
    }
    assert errors(template) == [
        "spec.metadata.name: Forbidden: cannot be set for a template",
        "spec.spec.devices.requests[0].exactly.deviceClassName: Required value",
    ]
    template["metadata"] = {"name": BAD_NAME, "namespace": "ns"}
    template["spec"]["metadata"] = {"labels": {"hello-world": "spaces not allowed"}}
    assert errors(template)[:2] == [
        f'metadata.name: Invalid value: "{BAD_NAME}": {SUBDOMAIN_MSG}',
        f'spec.metadata.labels: Invalid value: "spaces not allowed": {LABEL_VALUE_MSG}',
    ]


QUANTITY_MSG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"


@pytest.mark.parametrize("amount", ["", "x", "1 Gi"])
def test_a_malformed_requested_capacity_is_a_parse_error_like_the_apiservers_decoder(amount):
    requests = [{"name": "a", "exactly": exact(capacity={"requests": {"memory": amount}})},
                {"name": "b", "firstAvailable": [{"name": "s", "deviceClassName": "foo",
                                                  "capacity": {"requests": {"memory": amount, "cores": "2"}}}]}]
    assert errors(claim_with(requests=requests)) == [
        f"{REQ}[0].exactly.capacity.requests[memory]: Parse error: {QUANTITY_MSG}",
        f"{REQ}[1].firstAvailable[0].capacity.requests[memory]: Parse error: {QUANTITY_MSG}",
    ]
    assert errors(claim_with(requests=[{"name": "a", "exactly": exact(capacity={"requests": {"memory": "1Gi"}})}])) == []


def test_a_malformed_consumed_capacity_in_an_allocation_is_a_parse_error():
    claim = fresh(CLAIM)
    claim["status"] = {"allocation": {"devices": {"results": [
        {"request": "foo", "driver": "dra.example.com", "pool": "pool", "device": "dev-0",
         "consumedCapacity": {"memory": ""}}]}}}
    assert errors(claim) == [
        f"status.allocation.devices.results[0].consumedCapacity[memory]: Parse error: {QUANTITY_MSG}"]


def test_the_engine_reports_a_malformed_requested_capacity_instead_of_failing():
    from allocator.engine import analyze
    from allocator.tests.helpers.validation import CLASS, SLICE

    claim = claim_with(requests=[{"name": "a", "exactly": exact(capacity={"requests": {"memory": ""}})}])
    report = analyze(yaml.safe_dump(claim), yaml.safe_dump_all([CLASS, SLICE]),
                     feature_gates={"DRAConsumableCapacity": True}).to_dict()
    assert report["allocation"]["status"] == "skipped"
    assert [d["field"] for d in report["diagnostics"] if d["severity"] == "error"] == [
        f"{REQ}[0].exactly.capacity.requests[memory]"]


def test_before_1_35_a_duplicate_name_is_reported_on_the_name_field():
    # kubernetes v1.34 validateSet reports the duplicate on the item's key field; from v1.35 on the item.
    # Found by the differential run (create-1.34-create-errors, seed 1).
    from allocator.releases.gates import make_gates

    twice = claim_with(requests=[{"name": "foo", "exactly": exact()}, {"name": "foo", "exactly": exact()}])
    sub = {"name": "a", "deviceClassName": "foo"}
    subs_twice = claim_with(requests=[{"name": "foo", "firstAvailable": [sub, sub]}])
    assert errors(twice, gates=make_gates({}, "1.34")) == [f'{REQ}[1].name: Duplicate value: "foo"']
    assert errors(subs_twice, gates=make_gates({}, "1.34")) == [f'{REQ}[0].firstAvailable[1].name: Duplicate value: "a"']
    assert errors(twice, gates=make_gates({}, "1.35")) == [f'{REQ}[1]: Duplicate value: "foo"']
    assert errors(subs_twice, gates=make_gates({}, "1.35")) == [f'{REQ}[0].firstAvailable[1]: Duplicate value: "a"']


def test_before_1_35_tolerations_are_kept_and_checked_while_device_taints_are_off():
    # kubernetes v1.33/v1.34's claim strategy drops nothing for DRADeviceTaints (off by default there), so a
    # bad toleration is refused; from v1.35 (pkg/api/resourceclaimspec) it is dropped before validation.
    # Found by the differential run (create-1.34-create-verdict-a28fd5ad).
    from allocator.releases.gates import make_gates

    tol = claim_with(requests=[{"name": "foo", "exactly": exact(tolerations=[{"operator": "Exists", "value": "v"}])}])
    assert errors(tol, gates=make_gates({}, "1.34")) == [
        f'{REQ}[0].exactly.tolerations[0].value: Invalid value: "v": must be empty for operator `Exists`']
    assert errors(tol, gates=make_gates({"DRADeviceTaints": False}, "1.35")) == []


def _in_1_33(obj: dict) -> dict:
    """The object written for 1.33, which serves resource.k8s.io/v1beta2 (v1's shape)."""
    return {**obj, "apiVersion": obj["apiVersion"].replace("resource.k8s.io/v1", "resource.k8s.io/v1beta2")}


def test_1_33_and_1_34_keep_and_check_tolerations_when_device_taints_is_off():
    # Their claim strategies drop nothing for DRADeviceTaints (pkg/api/resourceclaimspec came in 1.35).
    from allocator.releases.gates import make_gates
    claim = claim_with(requests=[{"name": "foo", "exactly": exact(tolerations=[
        {"key": "k", "operator": "Exists", "value": "v"}])}])
    bad = f'{REQ}[0].exactly.tolerations[0].value: Invalid value: "v": must be empty for operator `Exists`'
    on_1_33 = make_gates({"DynamicResourceAllocation": True}, release="1.33")
    assert bad in errors(_in_1_33(claim), gates=on_1_33)
    assert bad in errors(claim, gates=make_gates({}, release="1.34"))
    assert errors(claim, gates=make_gates({}, release="1.35")) == []


def test_1_33_asks_for_its_own_admin_access_label():
    from allocator.releases.gates import make_gates
    gates_1_33 = make_gates({"DynamicResourceAllocation": True, "DRAAdminAccess": True}, release="1.33")
    claim = _in_1_33(claim_with(requests=[{"name": "foo", "exactly": exact(adminAccess=True)}]))
    denied = errors(namespace(**{"resource.kubernetes.io/admin-access": "true"}), claim, gates=gates_1_33)
    assert denied == [f"{REQ}[0].adminAccess: Forbidden: admin access to devices requires the "
                      "`resource.k8s.io/admin-access: true` label on the containing namespace"]
    assert errors(namespace(**{"resource.k8s.io/admin-access": "true"}), claim, gates=gates_1_33) == []
