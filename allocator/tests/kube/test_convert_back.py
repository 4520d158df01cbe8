"""Objects written back in the version the user wrote them in (allocator.convert_back).

The property: for every served version, read -> write -> read gives the same
objects (identity on the fields the version has), and what is written reads
without a single unknown field. Explicit cases pin the shapes per version,
including the allocation result fields only some versions have.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allocator.allocation.encode import claim_to_json, object_to_json
from allocator.kube import model
from allocator.kube.convert_back import from_v1, version_of
from allocator.kube.objects import read_documents
from allocator.workload.claims import build_workload, claim_api_versions

VERSIONS = ("v1", "v1beta2", "v1beta1", "v1alpha3")
FLAT = ("v1beta1", "v1alpha3")  # requests without `exactly`, devices under `basic`


def read_one(data: dict):
    result = read_documents(json.dumps(data))
    assert not result.errors, [str(e) for e in result.errors]
    [document] = result.documents
    return document


def round_trip(data: dict):
    """read -> write -> read; returns (first read, written, second read)."""
    first = read_one(data)
    written = object_to_json(first.kind, first.obj, first.api_version)
    second = read_one(written)
    return first, written, second


# --------------------------------------------------------------------------- strategies

names = st.text("abcdefgh", min_size=1, max_size=6)
qualified = st.builds(lambda a, b: f"{a}.example.com/{b}", names, names)
quantities = st.sampled_from(["1", "8Gi", "500m", "16", "1k"])
selectors = st.lists(st.builds(lambda e: {"cel": {"expression": e}},
                               st.sampled_from(["true", 'device.driver == "d"', "device.attributes['a'].x > 1"])),
                     min_size=1, max_size=2)
tolerations = st.lists(st.fixed_dictionaries(
    {"key": names}, optional={"operator": st.sampled_from(["Equal", "Exists"]), "value": names,
                              "effect": st.sampled_from(["NoSchedule", "NoExecute"]),
                              "tolerationSeconds": st.integers(0, 600)}), min_size=1, max_size=2)
opaque = st.fixed_dictionaries({"driver": names, "parameters": st.dictionaries(names, st.integers(0, 9), max_size=2)})


def exact_fields(version: str):
    optional = {"selectors": selectors, "count": st.integers(1, 4), "adminAccess": st.booleans(),
                "allocationMode": st.sampled_from(["ExactCount", "All"]), "tolerations": tolerations}
    if version != "v1alpha3":
        optional["capacity"] = st.fixed_dictionaries({"requests": st.dictionaries(names, quantities, max_size=2)})
    return st.fixed_dictionaries({"deviceClassName": names}, optional=optional)


def sub_request(version: str):
    return exact_fields(version).map(lambda f: {k: v for k, v in f.items() if k != "adminAccess"}).flatmap(
        lambda f: names.map(lambda n: {"name": n, **f}))


def request(version: str):
    exact = st.builds(lambda n, f: {"name": n, **f} if version in FLAT else {"name": n, "exactly": f},
                      names, exact_fields(version))
    prioritized = st.builds(lambda n, subs: {"name": n, "firstAvailable": subs},
                            names, st.lists(sub_request(version), min_size=1, max_size=2))
    return st.one_of(exact, prioritized)


def constraint(version: str):
    kinds = ["matchAttribute"] if version == "v1alpha3" else ["matchAttribute", "distinctAttribute"]
    return st.builds(lambda reqs, kind, attr: {"requests": reqs, kind: attr},
                     st.lists(names, max_size=2), st.sampled_from(kinds), qualified)


def device_result(version: str):
    optional = {"adminAccess": st.booleans(), "tolerations": tolerations}
    if version != "v1alpha3":
        optional.update(bindingConditions=st.lists(names, min_size=1, max_size=2),
                        bindingFailureConditions=st.lists(names, min_size=1, max_size=2),
                        shareID=st.uuids().map(str),
                        consumedCapacity=st.dictionaries(names, quantities, min_size=1, max_size=2))
    return st.fixed_dictionaries({"request": names, "driver": names, "pool": names, "device": names},
                                 optional=optional)


def allocation(version: str):
    optional = {"nodeSelector": st.just({"nodeSelectorTerms": [{"matchFields": [
        {"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}]})}
    if version != "v1alpha3":
        optional["allocationTimestamp"] = st.just("2026-12-03T10:00:00Z")
    devices = st.fixed_dictionaries({"results": st.lists(device_result(version), max_size=3)}, optional={
        "config": st.lists(st.fixed_dictionaries({"source": st.sampled_from(["FromClass", "FromClaim"]),
                                                  "opaque": opaque},
                                                 optional={"requests": st.lists(names, max_size=2)}), max_size=2)})
    return st.fixed_dictionaries({"devices": devices}, optional=optional)


@st.composite
def claims(draw, version: str):
    devices = draw(st.fixed_dictionaries({"requests": st.lists(request(version), min_size=1, max_size=3)}, optional={
        "constraints": st.lists(constraint(version), max_size=2),
        "config": st.lists(st.fixed_dictionaries({"opaque": opaque}, optional={"requests": st.lists(names, max_size=2)}),
                           max_size=2)}))
    claim = {"apiVersion": f"resource.k8s.io/{version}", "kind": "ResourceClaim",
             "metadata": {"name": draw(names), "namespace": "ns"}, "spec": {"devices": devices}}
    if draw(st.booleans()):
        claim["status"] = {"allocation": draw(allocation(version))}
    return claim


@st.composite
def slices(draw, version: str):
    def capacity(q, policy):
        if version == "v1alpha3":
            return q
        return {"value": q, **({"requestPolicy": {"default": q, "validValues": [q]}} if policy else {})}

    attributes = st.dictionaries(names, st.one_of(st.builds(lambda i: {"int": i}, st.integers(-5, 5)),
                                                  st.builds(lambda s: {"string": s}, names),
                                                  st.builds(lambda v: {"version": f"1.{v}.0"}, st.integers(0, 9)),
                                                  st.builds(lambda b: {"bool": b}, st.booleans())), max_size=2)
    fields = st.fixed_dictionaries({}, optional={
        "attributes": attributes,
        "capacity": st.dictionaries(names, st.builds(capacity, quantities, st.booleans()), min_size=1, max_size=2)})
    devices = []
    for name in draw(st.lists(names, max_size=3, unique=True)):
        f = draw(fields)
        devices.append({"name": name, "basic": f} if version in FLAT else {"name": name, **f})
    placement = draw(st.sampled_from([{"nodeName": "node-1"}, {"allNodes": True}]))
    return {"apiVersion": f"resource.k8s.io/{version}", "kind": "ResourceSlice", "metadata": {"name": draw(names)},
            "spec": {"driver": "gpu.example.com", "pool": {"name": draw(names), "generation": draw(st.integers(0, 3)),
                                                           "resourceSliceCount": 1},
                     **placement, "devices": devices}}


PROPERTY = settings(max_examples=60, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("version", VERSIONS)
@PROPERTY
@given(data=st.data())
def test_claims_round_trip_in_every_version(version, data):
    claim = data.draw(claims(version))
    first, written, second = round_trip(claim)
    assert written["apiVersion"] == f"resource.k8s.io/{version}"
    assert second.obj == first.obj
    # Writing again gives the same text: the written form is the version's normal form.
    assert object_to_json("ResourceClaim", second.obj, second.api_version) == written


@pytest.mark.parametrize("version", VERSIONS)
@PROPERTY
@given(data=st.data())
def test_slices_round_trip_in_every_version(version, data):
    first, written, second = round_trip(data.draw(slices(version)))
    assert written["apiVersion"] == f"resource.k8s.io/{version}"
    assert second.obj == first.obj


@pytest.mark.parametrize("version", VERSIONS)
@PROPERTY
@given(data=st.data())
def test_templates_round_trip_in_every_version(version, data):
    claim = data.draw(claims(version))
    template = {"apiVersion": claim["apiVersion"], "kind": "ResourceClaimTemplate", "metadata": claim["metadata"],
                "spec": {"metadata": {"labels": {"app": "x"}}, "spec": claim["spec"]}}
    first, written, second = round_trip(template)
    assert written["apiVersion"] == f"resource.k8s.io/{version}"
    assert second.obj == first.obj


# --------------------------------------------------------------------------- explicit shapes

V1_CLAIM = {
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
    "metadata": {"name": "c", "namespace": "default"},
    "spec": {"devices": {"requests": [
        {"name": "gpu", "exactly": {"deviceClassName": "gpu", "count": 2, "capacity": {"requests": {"mem": "1Gi"}}}},
        {"name": "any", "firstAvailable": [{"name": "big", "deviceClassName": "gpu"}]},
    ], "constraints": [{"requests": ["gpu"], "distinctAttribute": "gpu.example.com/numa"}]}},
    "status": {"allocation": {
        "devices": {"results": [{"request": "gpu", "driver": "d", "pool": "p", "device": "g0",
                                 "bindingConditions": ["ready"], "bindingFailureConditions": ["failed"],
                                 "shareID": "5ed0b8b4-5ab6-4a7e-8b3d-3c5d1c0e9f11",
                                 "consumedCapacity": {"mem": "1Gi"}}]},
        "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
            {"key": "metadata.name", "operator": "In", "values": ["n"]}]}]},
        "allocationTimestamp": "2026-12-03T10:00:00Z"}},
}


def test_v1_and_v1beta2_only_change_the_api_version():
    assert from_v1("ResourceClaim", "v1", V1_CLAIM) == V1_CLAIM
    v1beta2 = from_v1("ResourceClaim", "v1beta2", V1_CLAIM)
    assert v1beta2 == {**V1_CLAIM, "apiVersion": "resource.k8s.io/v1beta2"}
    assert list(v1beta2)[0] == "apiVersion"


def test_v1beta1_requests_are_flat_and_keep_every_result_field():
    out = from_v1("ResourceClaim", "v1beta1", V1_CLAIM)
    assert out["apiVersion"] == "resource.k8s.io/v1beta1"
    assert out["spec"]["devices"]["requests"] == [
        {"name": "gpu", "deviceClassName": "gpu", "count": 2, "capacity": {"requests": {"mem": "1Gi"}}},
        # deviceClassName has no omitempty in v1beta1: written even for a prioritized list.
        {"name": "any", "deviceClassName": "", "firstAvailable": [{"name": "big", "deviceClassName": "gpu"}]},
    ]
    assert out["spec"]["devices"]["constraints"] == V1_CLAIM["spec"]["devices"]["constraints"]
    assert out["status"] == V1_CLAIM["status"]


def test_v1alpha3_drops_what_it_does_not_have():
    out = from_v1("ResourceClaim", "v1alpha3", V1_CLAIM)
    assert out["spec"]["devices"]["requests"][0] == {"name": "gpu", "deviceClassName": "gpu", "count": 2}
    assert out["spec"]["devices"]["constraints"] == [{"requests": ["gpu"]}]
    assert out["status"] == {"allocation": {
        "devices": {"results": [{"request": "gpu", "driver": "d", "pool": "p", "device": "g0"}]},
        "nodeSelector": V1_CLAIM["status"]["allocation"]["nodeSelector"]}}
    assert read_one(out).api_version == "resource.k8s.io/v1alpha3"  # and it reads without unknown fields


def test_v1_input_is_not_modified():
    before = json.dumps(V1_CLAIM, sort_keys=True)
    from_v1("ResourceClaim", "v1alpha3", V1_CLAIM)
    from_v1("ResourceClaim", "v1beta1", V1_CLAIM)
    assert json.dumps(V1_CLAIM, sort_keys=True) == before


def test_devices_go_under_basic_and_v1alpha3_capacities_are_bare():
    device = {"name": "g0", "attributes": {"a": {"int": 1}},
              "capacity": {"mem": {"value": "8Gi", "requestPolicy": {"default": "1Gi", "validValues": ["1Gi"]}}},
              "allowMultipleAllocations": True}
    v1 = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
          "spec": {"driver": "d", "pool": {"name": "p", "generation": 1, "resourceSliceCount": 1},
                   "nodeName": "n", "devices": [device, {"name": "g1"}]}}
    beta = from_v1("ResourceSlice", "v1beta1", v1)["spec"]["devices"]
    assert beta == [{"name": "g0", "basic": {k: v for k, v in device.items() if k != "name"}},
                    {"name": "g1", "basic": {}}]
    alpha = from_v1("ResourceSlice", "v1alpha3", v1)["spec"]["devices"]
    assert alpha == [{"name": "g0", "basic": {"attributes": {"a": {"int": 1}}, "capacity": {"mem": "8Gi"}}},
                     {"name": "g1", "basic": {}}]


def test_unknown_versions_are_refused():
    with pytest.raises(ValueError, match="v2"):
        from_v1("ResourceClaim", "v2", V1_CLAIM)
    with pytest.raises(ValueError, match="not a served"):
        version_of("example.com/v1")
    assert version_of("resource.k8s.io/v1beta2") == "v1beta2"


def test_claim_to_json_writes_the_allocation_in_the_claims_version():
    document = read_one({**V1_CLAIM, "apiVersion": "resource.k8s.io/v1beta1", "status": {},
                         "spec": {"devices": {"requests": [{"name": "gpu", "deviceClassName": "gpu"}]}}})
    allocation = model.AllocationResult(devices=model.DeviceAllocationResult(results=[
        model.DeviceRequestAllocationResult(request="gpu", driver="d", pool="p", device="g0", share_id="x")]))
    for api_version in ("resource.k8s.io/v1beta1", "resource.k8s.io/v1alpha3"):
        out = claim_to_json(document.obj, allocation, api_version)
        assert out["apiVersion"] == api_version
        assert out["spec"]["devices"]["requests"] == [{"name": "gpu", "deviceClassName": "gpu"}]
    assert claim_to_json(document.obj, allocation, "resource.k8s.io/v1beta1")["status"]["allocation"]["devices"][
        "results"][0]["shareID"] == "x"
    assert "shareID" not in claim_to_json(document.obj, allocation, "resource.k8s.io/v1alpha3")["status"][
        "allocation"]["devices"]["results"][0]


def test_generated_claims_take_their_templates_version():
    text = """
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata: {name: tpl}
spec: {spec: {devices: {requests: [{name: gpu, deviceClassName: gpu}]}}}
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: shared}
spec: {devices: {requests: [{name: gpu, deviceClassName: gpu}]}}
---
apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: {name: alone}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
---
apiVersion: v1
kind: Pod
metadata: {name: pod}
spec:
  containers: [{name: c, image: i}]
  resourceClaims: [{name: a, resourceClaimTemplateName: tpl}, {name: b, resourceClaimName: shared},
                   {name: c, resourceClaimName: alone}]
"""
    result = read_documents(text)
    assert not result.errors
    work = build_workload(result.of_kind("ResourceClaim"), result.of_kind("ResourceClaimTemplate"),
                          result.of_kind("Pod"))
    versions = claim_api_versions(result.documents, work)
    assert [(c.metadata.name.split("-")[0], versions[id(c)]) for c in work.pending] == [
        ("pod", "resource.k8s.io/v1beta1"), ("shared", "resource.k8s.io/v1alpha3"),
        ("alone", "resource.k8s.io/v1beta2")]
