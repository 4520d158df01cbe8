"""Binding conditions on the grant (issue 28, item 8): not final until the driver reports them, per release."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from allocator.engine import analyze
from allocator.releases.gates import FeatureGateError
from allocator.tests.helpers import ROOT

INVENTORY = (ROOT / "allocator/tests/data/scoring/fabric.yaml").read_text()


def claim(count: int) -> str:
    return f"""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: two}}
spec:
  devices:
    requests: [{{name: accel, exactly: {{deviceClassName: accel, count: {count}}}}}]
"""


FABRIC = {"claim": "default/two", "request": "accel", "driver": "accel.example.net", "pool": "a-fabric",
          "device": "fabric-0", "bindingConditions": ["dra.example.net/is-attached"],
          "bindingFailureConditions": ["dra.example.net/attach-failed"]}


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_on_by_default_from_1_36_the_grant_says_it_is_not_final(release):
    alloc = analyze(claim(2), INVENTORY, kubernetes_version=release).to_dict()["allocation"]
    assert alloc["status"] == "allocated"
    binding = alloc["binding"]
    assert binding["devices"] == [FABRIC]  # local-0 has no conditions
    assert binding["timeoutSeconds"] == 600 and binding["pollSeconds"] == 5
    assert "bindingTimeout in the DynamicResources plugin's args" in binding["timeoutSetting"]
    message = binding["message"]
    assert message.startswith("The allocation is not final: the scheduler writes it to the claims, then waits "
                              "in PreBind")
    assert "until the driver reports dra.example.net/is-attached as True" in message
    assert "If dra.example.net/attach-failed turns True, or the conditions are not all True within the binding " \
           "timeout (600 s by default" in message
    assert "the allocation is cleared, the devices are freed and the pod is scheduled again" in message
    # The result carries the conditions, as the scheduler writes them.
    results = alloc["claims"][0]["status"]["allocation"]["devices"]["results"]
    assert results[1]["bindingConditions"] == ["dra.example.net/is-attached"]


def test_alpha_and_off_in_1_35_the_device_is_not_granted():
    alloc = analyze(claim(2), INVENTORY, kubernetes_version="1.35").to_dict()["allocation"]
    assert alloc["status"] == "unsatisfiable"
    assert "binding" not in alloc


def test_1_35_with_the_gate_on_reads_the_timeout_from_the_scheduler_config():
    alloc = analyze(claim(2), INVENTORY, kubernetes_version="1.35",
                    feature_gates={"DRADeviceBindingConditions": True}).to_dict()["allocation"]
    assert alloc["binding"]["devices"] == [FABRIC]
    assert "bindingTimeout" in alloc["binding"]["timeoutSetting"]


def test_1_34_with_the_gate_on_has_a_fixed_timeout():
    alloc = analyze(claim(2), INVENTORY, kubernetes_version="1.34",
                    feature_gates={"DRADeviceBindingConditions": True}).to_dict()["allocation"]
    assert alloc["binding"]["timeoutSetting"] == "fixed at 600 s in Kubernetes 1.34's scheduler"
    assert "fixed at 600 s" in alloc["binding"]["message"]


def test_device_status_off_means_no_binding_conditions():
    # 1.34 checks no gate dependencies, so binding conditions may be on while device status is off;
    # from 1.35 that combination is refused at start-up (releases.gates).
    alloc = analyze(claim(2), INVENTORY, kubernetes_version="1.34",
                    feature_gates={"DRADeviceBindingConditions": True,
                                   "DRAResourceClaimDeviceStatus": False}).to_dict()["allocation"]
    assert alloc["status"] == "unsatisfiable" and "binding" not in alloc


def test_device_status_off_with_binding_conditions_on_is_refused_from_1_35():
    with pytest.raises(FeatureGateError, match=r"DRADeviceBindingConditions is enabled, but depends on "
                                               r"features that are disabled: \[DRAResourceClaimDeviceStatus\]"):
        analyze(claim(2), INVENTORY, kubernetes_version="1.36", feature_gates={"DRAResourceClaimDeviceStatus": False})


def test_a_grant_without_conditions_has_no_note():
    alloc = analyze(claim(1), INVENTORY).to_dict()["allocation"]
    assert alloc["status"] == "allocated" and "binding" not in alloc


@pytest.mark.parametrize("node", [None, "node-1"])
def test_the_command_line_prints_the_note(tmp_path, node):
    (tmp_path / "inv.yaml").write_text(INVENTORY)
    (tmp_path / "claim.yaml").write_text(claim(2))
    args = ["--node", node] if node else []
    proc = subprocess.run([sys.executable, "-m", "allocator", "allocate", *args, str(tmp_path / "inv.yaml"),
                           str(tmp_path / "claim.yaml")], capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["binding"]["devices"] == [FABRIC]
    assert out["binding"]["message"].startswith("The allocation is not final")
