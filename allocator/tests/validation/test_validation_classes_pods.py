"""DeviceClass rules and the DRA checks of Pod validation."""

from __future__ import annotations

from allocator.tests.helpers.validation import (
    BAD_NAME,
    CLAIM,
    CLASS,
    LABEL_MSG,
    SUBDOMAIN_MSG,
    errors,
    fresh,
    gates,
    warnings,
)


def klass(**spec):
    obj = fresh(CLASS)
    obj["spec"].update(spec)
    return obj


def test_device_class():
    assert errors(klass(selectors=[{"cel": {"expression": "true"}}])) == []
    assert errors(klass(selectors=[{}], config=[{}, {"opaque": {"driver": BAD_NAME, "parameters": {}}}])) == [
        "spec.selectors[0].cel: Required value",
        "spec.config[0].opaque: Required value",
        f'spec.config[1].opaque.driver: Invalid value: "{BAD_NAME}": {SUBDOMAIN_MSG}',
    ]
    assert errors(klass(selectors=[{"cel": {"expression": "true"}}] * 33,
                        config=[{"opaque": {"driver": "d", "parameters": {}}}] * 33)) == [
        "spec.selectors: Too many: 33: must have at most 32 items",
        "spec.config: Too many: 33: must have at most 32 items",
    ]
    obj = fresh(CLASS)
    obj["metadata"]["name"] = BAD_NAME
    assert errors(obj) == [f'metadata.name: Invalid value: "{BAD_NAME}": {SUBDOMAIN_MSG}']


def test_extended_resource_name():
    assert errors(klass(extendedResourceName="example.com/gpu")) == []
    for bad in ("gpu", "kubernetes.io/gpu", "requests.example.com/gpu", "example.com/a b"):
        assert errors(klass(extendedResourceName=bad)) == [
            f'spec.extendedResourceName: Invalid value: "{bad}": must be a valid extended resource name']
    assert errors(klass(extendedResourceName="gpu"), gates=gates(DRAExtendedResource=False)) == []
    assert "DRAExtendedResource is disabled" in warnings(klass(extendedResourceName="gpu"),
                                                         gates=gates(DRAExtendedResource=False))[0]


def pod(claims, containers):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod", "namespace": "ns"},
            "spec": {"resourceClaims": claims,
                     "containers": [{"name": f"c{i}", "image": "x", "resources": {"claims": refs}}
                                    for i, refs in enumerate(containers)]}}


def test_pod_resource_claims():
    claims = [{"name": "gpu", "resourceClaimName": "foo"}, {"name": "gpu", "resourceClaimName": "foo"},
              {"name": BAD_NAME, "resourceClaimTemplateName": BAD_NAME}, {"name": "none"},
              {"name": "both", "resourceClaimName": "a", "resourceClaimTemplateName": "b"}, {"name": ""}]
    assert errors(pod(claims, [])) == [
        'spec.resourceClaims[1].name: Duplicate value: "gpu"',
        f'spec.resourceClaims[2].name: Invalid value: "{BAD_NAME}": {LABEL_MSG}',
        f'spec.resourceClaims[2].resourceClaimTemplateName: Invalid value: "{BAD_NAME}": {SUBDOMAIN_MSG}',
        'spec.resourceClaims[3]: Invalid value: core.PodResourceClaim{Name:"none", ResourceClaimName:(*string)(nil), '
        "ResourceClaimTemplateName:(*string)(nil)}: must specify one of: `resourceClaimName`, "
        "`resourceClaimTemplateName`",
        'spec.resourceClaims[4]: Invalid value: core.PodResourceClaim{Name:"both", ResourceClaimName:&"a", '
        'ResourceClaimTemplateName:&"b"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be '
        "specified",
        "spec.resourceClaims[5].name: Required value",
        'spec.resourceClaims[5]: Invalid value: core.PodResourceClaim{Name:"", ResourceClaimName:(*string)(nil), '
        "ResourceClaimTemplateName:(*string)(nil)}: must specify one of: `resourceClaimName`, "
        "`resourceClaimTemplateName`",
    ]


def test_generated_claim_name_must_be_valid():
    obj = pod([{"name": "gpu", "resourceClaimTemplateName": "t"}], [])
    obj["metadata"]["name"] = "p" * 250
    assert any("final ResourceClaim name: must be no more than 253 characters" in m for m in errors(obj))


def test_container_claims():
    claims = [{"name": "gpu", "resourceClaimName": "foo"}]
    containers = [[{"name": "gpu"}, {"name": "gpu"}, {"name": "other"}, {"name": ""},
                   {"name": "gpu", "request": BAD_NAME}]]
    path = "spec.containers[0].resources.claims"
    assert errors(pod(claims, containers)) == [
        f'{path}[1]: Duplicate value: "gpu"',
        f'{path}[2]: Not found: "other": must be one of the names in pod.spec.resourceClaims: gpu',
        f"{path}[3]: Required value",
        f'{path}[4].request: Invalid value: "{BAD_NAME}": {LABEL_MSG}',
    ]
    assert errors(pod([], [[{"name": "gpu"}]])) == [
        f'{path}[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty']


def test_container_request_must_name_a_request_of_the_claim():
    claim = fresh(CLAIM)  # request "foo"
    claims = [{"name": "gpu", "resourceClaimName": "foo"}]
    ok = pod(claims, [[{"name": "gpu", "request": "foo"}]])
    assert errors(claim, ok) == []
    bad = pod(claims, [[{"name": "gpu", "request": "nope"}]])
    assert errors(claim, bad) == [
        "spec.containers[0].resources.claims[0].request: Invalid value: \"nope\": must be the name of a request in "
        "ResourceClaim 'foo': foo"]
    assert errors(bad) == []  # the claim is not in the input: nothing to compare with
