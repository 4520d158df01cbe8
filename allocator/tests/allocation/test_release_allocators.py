"""Each release's allocator as it was released, where 1.33 to 1.36 differ from today's (issue 28 item 9).

Read in k8s.io/dynamic-resource-allocation at v0.33.13, v0.34.9, v0.35.6 and v0.36.2, and in
kubernetes/api and the apiserver's validation of those releases. Run on the command line, per release.
"""

from __future__ import annotations

import json

import pytest

from allocator.allocation.switches import EXPERIMENTAL, STABLE, choose_variant, from_gates, rules_for
from allocator.releases.gates import make_gates
from allocator.tests.helpers import cli as run

NODE = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
"""


@pytest.fixture
def files(tmp_path):
    def write(text):
        path = tmp_path / "input.yaml"
        path.write_text(text)
        return str(path)
    return write


def _devices(proc) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    return [r["device"] for c in json.loads(proc.stdout)["claims"]
            for r in c["status"]["allocation"]["devices"]["results"]]


# --- 1.34: DRAResourceClaimDeviceStatus picks the experimental implementation -------------------------------

CAPACITY = NODE + """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    capacity:
      memory: {value: 8Gi}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: a
      exactly:
        deviceClassName: gpu
        capacity: {requests: {memory: 1Gi}}
"""


def test_1_34_device_status_on_by_default_refuses_capacity_requests_without_consumable_capacity(files):
    proc = run("allocate", "--kubernetes-version", "1.34", "--node", "n1", files(CAPACITY))
    assert proc.returncode == 2
    assert proc.stderr == ("error: claim default/c, request a: has capacity requests, "
                           "but the DRAConsumableCapacity feature is disabled\n")


def test_1_34_with_device_status_off_allocates_the_capacity_request(files):
    proc = run("allocate", "--kubernetes-version", "1.34", "--feature-gates", "DRAResourceClaimDeviceStatus=false",
               "--node", "n1", files(CAPACITY))
    assert _devices(proc) == ["gpu-0"]


@pytest.mark.parametrize("release", ["1.35", "1.36", "1.37"])
def test_from_1_35_device_status_alone_keeps_the_capacity_request_allocatable(files, release):
    # 1.35 folded DeviceStatus into DeviceBindingAndStatus: the stable implementation takes the claim;
    # 1.36 and 1.37 have DRAConsumableCapacity on.
    proc = run("allocate", "--kubernetes-version", release, "--node", "n1", files(CAPACITY))
    assert _devices(proc) == ["gpu-0"]


def test_1_34_with_consumable_capacity_on_allocates_the_capacity_request(files):
    proc = run("allocate", "--kubernetes-version", "1.34", "--feature-gates", "DRAConsumableCapacity=true",
               "--node", "n1", files(CAPACITY))
    assert _devices(proc) == ["gpu-0"]


def test_only_1_34_counts_device_status_when_choosing_the_implementation():
    assert choose_variant(from_gates(make_gates(release="1.34"))) is EXPERIMENTAL
    assert choose_variant(from_gates(make_gates({"DRAResourceClaimDeviceStatus": False}, "1.34"))) is STABLE
    for release in ("1.33", "1.35"):
        assert not from_gates(make_gates({"DRAResourceClaimDeviceStatus": True}, release)).device_status
    assert rules_for("1.34").separate_device_status and not rules_for("1.35").separate_device_status
