"""Which releases copy a request's tolerations into its device result.

No allocator implementation of 1.34 (k8s.io/dynamic-resource-allocation v0.34.x) sets
``DeviceRequestAllocationResult.tolerations``; from 1.35 the implementations that support device
taints do. Found by the differential run (allocate-1.34-allocation-fields-*)."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device_class, inventory, node, resource_slice

INVENTORY = inventory(node("node-a", hostname=False), device_class("gpu"),
                      resource_slice("node-a-gpus", driver="gpu.example.com", node="node-a", generation=None,
                                     devices=["gpu-0"]))

CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: tolerant, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        tolerations: [{key: maintenance, operator: Exists}]
"""


def result_of(release: str) -> dict:
    report = analyze(CLAIM, INVENTORY, kubernetes_version=release,
                     feature_gates={"DRADeviceTaints": True}).to_dict()
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    [claim] = report["allocation"]["claims"]
    [result] = claim["status"]["allocation"]["devices"]["results"]
    return result


def test_1_34_grants_the_device_without_writing_the_tolerations():
    result = result_of("1.34")
    assert result["device"] == "gpu-0"
    assert "tolerations" not in result


@pytest.mark.parametrize("release", ["1.35", "1.36", "1.37"])
def test_later_releases_repeat_the_tolerations_in_the_result(release):
    assert result_of(release)["tolerations"] == [{"key": "maintenance", "operator": "Exists"}]
