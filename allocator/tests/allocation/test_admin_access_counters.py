"""Devices given with admin access take their counters from 1.34 on: upstream's allocateDevice reserves a
device's counters whatever the request's adminAccess says (only 1.33's allocator checked them without taking
them). Found by the differential run (allocate-1.37-verdict-2cff2346, allocate-1.37-devices-f610be72)."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice


def cluster(whole: str, other: str) -> str:
    """A counter set of 4Gi in a slice of its own (the 1.35+ form); ``whole`` and ``other`` consume the given
    memory of it."""
    def consuming(memory: str) -> dict[str, dict[str, str]]:
        return {"memory-set": {"memory": memory}}

    return inventory(
        node("node-a", hostname=False), device_class("gpu"),
        resource_slice("node-a-devices", driver="gpu.example.com", node="node-a", pool_slices=2, devices=[
            device("whole", attributes={"model": "a100"}, consumes=consuming(whole)),
            device("other", consumes=consuming(other))]),
        resource_slice("node-a-counters", driver="gpu.example.com", node="node-a", pool_slices=2,
                       shared_counters={"memory-set": {"memory": "4Gi"}}))

ADMIN_CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: {name}, namespace: default}}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {{deviceClassName: gpu, adminAccess: true{mode}}}
    {constraints}
"""

GATES = {"1.35": {"DRAPartitionableDevices": True}, "1.36": None, "1.37": None}


def allocate(release: str, claims: str, whole: str, other: str) -> dict:
    report = analyze(claims, cluster(whole, other), kubernetes_version=release,
                     feature_gates=GATES[release]).to_dict()
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    return report["allocation"]


def granted(allocation: dict) -> dict[str, list[str]]:
    return {c["metadata"]["name"]: [r["device"] for r in c["status"]["allocation"]["devices"]["results"]]
            for c in allocation["claims"]}


@pytest.mark.parametrize("release", ["1.35", "1.36", "1.37"])
def test_a_second_admin_claim_finds_the_counters_of_the_first_taken(release):
    # Both admin claims could share "whole" if its counters were only checked; they are taken, so the
    # second claim gets "other", which consumes nothing.
    claims = "---".join(ADMIN_CLAIM.format(name=name, mode="", constraints="") for name in ("first", "second"))
    assert granted(allocate(release, claims, whole="4Gi", other="0")) == {"first": ["whole"], "second": ["other"]}


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_all_devices_with_admin_access_run_out_of_counters_before_the_constraint(release):
    # "whole" takes 2Gi, then "other" (4Gi) no longer fits the counter set: the request cannot have every
    # device, so the claim does not fit. Had the 2Gi been left free, "other" would have been checked against
    # the distinctAttribute constraint next, which it breaks (it has no model): an error for an All request.
    claim = ADMIN_CLAIM.format(name="all", mode=", allocationMode: All",
                               constraints="constraints: [{distinctAttribute: gpu.example.com/model}]")
    assert allocate(release, claim, whole="2Gi", other="4Gi")["status"] == "unsatisfiable"
