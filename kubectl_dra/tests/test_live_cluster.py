"""kubectl dra against a real kube-apiserver and kube-scheduler (built from the Go modules, see controlplane.py).

The real scheduler places one pod and leaves another pending; the plugin must
name the same cause as the scheduler's PodScheduled condition, explain further,
predict the devices the scheduler then grants, and read as the documented
read-only role allows. Skipped, with the reason, where Go or the module proxy
is not available; CI builds the control plane.
"""

from __future__ import annotations

import json
import shutil
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from kubectl_dra import main as plugin
from kubectl_dra.tests import controlplane

pytestmark = pytest.mark.live_cluster

NODE = "worker-1"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "kubectl-plugin.md"


@pytest.fixture(scope="module")
def plane():
    try:
        binaries = controlplane.build()
        work = controlplane.temporary_folder()
        running = controlplane.start(binaries, work)
    except controlplane.Unavailable as err:
        pytest.skip(str(err))
    try:
        _inventory(running)
        yield running
    finally:
        running.stop()
        shutil.rmtree(running.folder, ignore_errors=True)


def _inventory(plane: controlplane.ControlPlane) -> None:
    plane.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ml"}})
    # What the serviceaccount controller would make: the ServiceAccount admission plugin wants it.
    plane.create({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default", "namespace": "ml"}})
    plane.create({"apiVersion": "v1", "kind": "Node", "metadata": {"name": NODE, "labels": {"kubernetes.io/hostname": NODE}},
                  "status": {"capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"},
                             "allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}}})
    plane.create({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu.example.com"},
                  "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}})
    plane.create({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
                  "metadata": {"name": f"{NODE}-gpus"},
                  "spec": {"driver": "gpu.example.com", "nodeName": NODE,
                           "pool": {"name": NODE, "generation": 1, "resourceSliceCount": 1},
                           "devices": [{"name": f"gpu-{i}", "attributes": {"index": {"int": i}}}
                                       for i in range(4)]}})


def _claim(name: str, count: int) -> dict:
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": name, "namespace": "ml"},
            "spec": {"devices": {"requests": [{"name": "gpus", "exactly": {
                "deviceClassName": "gpu.example.com", "count": count}}]}}}


def _pod(name: str, claim: str) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "ml"},
            "spec": {"containers": [{"name": "main", "image": "registry.k8s.io/pause:3.10",
                                     "resources": {"claims": [{"name": "gpus"}]}}],
                     "resourceClaims": [{"name": "gpus", "resourceClaimName": claim}]}}


def _wait(plane, path: str, ready, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        obj = plane.request("GET", path)
        if ready(obj) or time.monotonic() > deadline:
            return obj
        time.sleep(0.5)


def _scheduled_condition(pod: dict) -> dict | None:
    return next((c for c in (pod.get("status") or {}).get("conditions") or [] if c["type"] == "PodScheduled"), None)


def _devices(claim: dict) -> list[str]:
    return [r["device"] for r in claim["status"]["allocation"]["devices"]["results"]]


def run(capsys, plane, user: str, *argv: str) -> tuple[int, str, str]:
    code = plugin.main([*argv, "--kubeconfig", str(plane.kubeconfig(user, "ml"))])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def placed(plane):
    """Three GPUs granted by the real scheduler to one pod; a second pod asking for two stays pending."""
    plane.create(_claim("three", 3))
    plane.create(_pod("holder", "three"))
    holder = _wait(plane, "/api/v1/namespaces/ml/pods/holder", lambda p: p["spec"].get("nodeName"))
    assert holder["spec"].get("nodeName") == NODE, json.dumps(_scheduled_condition(holder))
    plane.create(_claim("pair", 2))
    plane.create(_pod("waiting", "pair"))
    waiting = _wait(plane, "/api/v1/namespaces/ml/pods/waiting",
                    lambda p: (_scheduled_condition(p) or {}).get("reason") == "Unschedulable")
    return holder, waiting


def test_why_agrees_with_the_scheduler_on_a_pending_pod_and_explains_further(plane, placed, capsys):
    _, waiting = placed
    said = _scheduled_condition(waiting)
    assert said["reason"] == "Unschedulable"
    assert "cannot allocate all claims" in said["message"]
    code, out, err = run(capsys, plane, "admin", "why", "waiting", "-o", "json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["scheduler"]["condition"]["message"] == said["message"]
    assert answer["analysis"]["status"] == "unsatisfiable"
    assert [row["name"] for row in answer["analysis"]["nodes"] if not row["fits"]] == [NODE]
    # further than the scheduler: the claim, the request, and who holds the devices
    reason = " ".join(answer["analysis"]["reasons"])
    assert "claim ml/pair, request gpus" in reason
    request = answer["analysis"]["requests"][0]
    held = {d["device"]: d["heldBy"] for d in request["devices"] if d.get("reasonCode") == "allocated"}
    three = plane.request("GET", "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims/three")
    assert set(held) == set(_devices(three))
    assert {h["claim"] for h in held.values()} == {"ml/three"}
    assert all(h["reservedFor"] == ["holder"] for h in held.values())
    code, text, _ = run(capsys, plane, "admin", "why", "waiting")
    assert "Pod ml/waiting is pending. The scheduler says (Unschedulable):" in text
    assert "The engine: no node fits." in text
    assert text.count("claim ml/pair, request gpus: needs 2 device(s)") == 1  # the node's reason, said once
    assert f"{NODE}/{_devices(three)[0]}: allocated to claim ml/three (reserved for pod holder)" in text


def test_why_on_a_scheduled_pod_shows_the_schedulers_grant(plane, placed, capsys):
    code, out, _ = run(capsys, plane, "admin", "why", "holder", "-o", "json")
    answer = json.loads(out)
    assert answer["scheduled"] is True and answer["node"] == NODE
    three = plane.request("GET", "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims/three")
    assert _devices(answer["claims"][0]) == _devices(three)


def test_fit_predicts_the_device_the_scheduler_then_grants(plane, placed, capsys, tmp_path):
    claim = tmp_path / "one.yaml"
    claim.write_text(yaml.safe_dump(_claim("one", 1)))
    code, out, _ = run(capsys, plane, "admin", "fit", "-f", str(claim), "-o", "json")
    assert code == 0
    predicted = _devices(json.loads(out)["analysis"]["claims"][0])
    capacity_file = tmp_path / "pods.yaml"
    template = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                "metadata": {"name": "one", "namespace": "ml"},
                "spec": {"spec": _claim("x", 1)["spec"]}}
    pod = _pod("copy", "unused")
    pod["spec"]["resourceClaims"] = [{"name": "gpus", "resourceClaimTemplateName": "one"}]
    capacity_file.write_text(yaml.safe_dump_all([template, pod]))
    code, out, err = run(capsys, plane, "admin", "capacity", "-f", str(capacity_file), "-o", "json")
    assert code == 0, err
    assert json.loads(out)["capacity"]["placed"] == 1  # four GPUs, three held

    plane.create(_claim("one", 1))
    plane.create(_pod("one", "one"))
    _wait(plane, "/api/v1/namespaces/ml/pods/one", lambda p: p["spec"].get("nodeName"))
    granted = plane.request("GET", "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims/one")
    assert _devices(granted) == predicted


def test_the_documented_role_is_enough_and_its_absence_is_named(plane, placed, capsys):
    code, _, err = run(capsys, plane, "reader", "why", "waiting")
    assert code == 3
    assert "Missing permission: get pods (in namespace \"ml\")" in err
    role_yaml = DOCS.read_text().split("```yaml\n", 1)[1].split("```", 1)[0]
    plane.create({**yaml.safe_load(role_yaml), "apiVersion": "rbac.authorization.k8s.io/v1"})
    plane.create({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
                  "metadata": {"name": "kubectl-dra-reader"},
                  "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                              "name": "kubectl-dra-reader"},
                  "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "reader"}]})
    deadline = time.monotonic() + 30
    while True:  # RBAC takes effect once the apiserver's informers see the binding
        code, out, err = run(capsys, plane, "reader", "why", "waiting", "-o", "json")
        if code == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["cluster"]["featureGatesSource"].startswith("the apiserver's kubernetes_feature_enabled metric")
    assert answer["analysis"]["status"] == "unsatisfiable"


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_shared_to_a_site_answers_there_as_why_answers(plane, placed, capsys, live_server):
    code, out, err = run(capsys, plane, "admin", "snapshot", "--share", live_server.url)
    assert code == 0, err
    share_id = out.strip().rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{live_server.url}/api/v1/shares/{share_id}", timeout=30) as response:
        shared = json.loads(response.read())
    assert "name: pair" in shared["documents"]
    request = urllib.request.Request(
        f"{live_server.url}/api/v1/analyze", headers={"Content-Type": "application/json"},
        data=json.dumps({"documents": shared["documents"], "inventory": shared["inventoryId"]}).encode())
    with urllib.request.urlopen(request, timeout=60) as response:
        report = json.loads(response.read())
    assert report["allocation"]["status"] == "unsatisfiable"
    assert "claim ml/pair, request gpus" in " ".join(report["allocation"]["reasons"])


def test_a_snapshot_gives_the_engine_the_answer_why_gives(plane, placed, capsys):
    from allocator.engine import analyze

    code, out, _ = run(capsys, plane, "admin", "snapshot")
    assert code == 0
    docs = [d for d in yaml.safe_load_all(out) if d]
    pending = [d for d in docs if d["kind"] == "ResourceClaim" and d["metadata"]["name"] == "pair"]
    stored = [d for d in docs if d not in pending]
    report = analyze(yaml.safe_dump_all(pending), yaml.safe_dump_all(stored)).to_dict()
    assert report["allocation"]["status"] == "unsatisfiable"
