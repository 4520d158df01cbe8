"""Up to 1.32 the apiserver's internal DeviceRequest is the exact request itself: no ``exactly`` and no
``firstAvailable`` (kubernetes v1.32.13 pkg/apis/resource/validation, ``validateDeviceRequest``). Its
errors name the request's own fields, and a request reference is only a request's name. Found by the
differential run against the real 1.32 apiserver (create-1.32-create-errors-49a38f42 and -ca6f1aac: every
create difference of its 1.32 run was of this kind)."""

import pytest

from allocator.engine import analyze

DRA_ON = {"DynamicResourceAllocation": True}

CLAIM = """
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: r}
    - {name: s, deviceClassName: gpu, allocationMode: All, count: 2}
    - {name: t, deviceClassName: gpu, allocationMode: Some}
    config:
    - requests: [s/x, s]
      opaque: {driver: gpu.example.com, parameters: {}}
"""


def found(release: str) -> list[tuple[str, str, str]]:
    diagnostics = analyze(CLAIM, "", feature_gates=DRA_ON, kubernetes_version=release).to_dict()["diagnostics"]
    return [(d["field"], d["type"], d["detail"]) for d in diagnostics if d.get("severity", "error") == "error"]


def test_in_1_32_the_errors_name_the_request_s_own_fields():
    assert found("1.32") == [
        ("spec.devices.requests[0].deviceClassName", "Required value", ""),
        ("spec.devices.requests[1].count", "Invalid value", "must not be specified when allocationMode is 'All'"),
        ("spec.devices.requests[2].allocationMode", "Unsupported value", 'supported values: "All", "ExactCount"'),
        ("spec.devices.config[0].requests[0]", "Invalid value",
         "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
         "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
         "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
        ("spec.devices.config[0].requests[0]", "Invalid value", "must be the name of a request in the claim"),
    ]


@pytest.mark.parametrize("release", ["1.33", "1.34"])
def test_from_1_33_they_name_the_exact_request(release):
    fields = [f for f, _, _ in found(release)]
    assert "spec.devices.requests[1].exactly.count" in fields
    assert "spec.devices.requests[2].exactly.allocationMode" in fields
