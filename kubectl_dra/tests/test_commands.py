"""kubectl dra against a server speaking the apiserver's read protocol: output shapes, paging, refusals."""

from __future__ import annotations

import copy
import json
import urllib.request
from pathlib import Path

import pytest
import yaml

from allocator.engine import analyze
from kubectl_dra import main as plugin
from kubectl_dra.connection import PAGE_SIZE
from kubectl_dra.tests.apiserver import FakeCluster, kubeconfig, serve

SAMPLE = Path(__file__).resolve().parents[2] / "playground" / "samples" / "inventories" / "gpu-node.yaml"
NODE = "dra-example-driver-cluster-worker"


def _served(obj: dict, uid: str) -> dict:
    """The object as the apiserver serves it: uid, resourceVersion, managedFields and the rest of the noise."""
    served = copy.deepcopy(obj)
    served["metadata"].update(uid=uid, resourceVersion="4242", creationTimestamp="2026-12-01T10:00:00Z",
                              managedFields=[{"manager": "kubelet", "operation": "Update"}])
    return served


def _inventory() -> list[dict]:
    objects = yaml.safe_load(SAMPLE.read_text())["objects"]
    return [_served(o, f"uid-{i}") for i, o in enumerate(objects)]


def _claim(name: str, count: int, namespace: str = "ml", allocated_devices: list[str] | None = None) -> dict:
    claim = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
             "metadata": {"name": name, "namespace": namespace},
             "spec": {"devices": {"requests": [{"name": "gpus", "exactly": {
                 "deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": count}}]}}}
    if allocated_devices:
        claim["status"] = {"allocation": {
            "devices": {"results": [{"request": "gpus", "driver": "gpu.example.com", "pool": NODE, "device": d}
                                    for d in allocated_devices]},
            "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": [NODE]}]}]}}}
    return _served(claim, f"uid-claim-{name}")


def _pod(name: str, claim: str, namespace: str = "ml", node: str | None = None) -> dict:
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
           "spec": {"containers": [{"name": "train", "image": "trainer:1",
                                    "resources": {"claims": [{"name": "gpus"}]}}],
                    "resourceClaims": [{"name": "gpus", "resourceClaimName": claim}]},
           "status": {"phase": "Pending", "conditions": [{
               "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
               "message": "0/1 nodes are available: 1 cannot allocate all claims. preemption: 0/1 nodes are "
                          "available: 1 Preemption is not helpful for scheduling."}]}}
    if node:
        pod["spec"]["nodeName"] = node
        pod["status"] = {"phase": "Running", "conditions": [{"type": "PodScheduled", "status": "True"}]}
    return _served(pod, f"uid-pod-{name}")


@pytest.fixture
def cluster(tmp_path, monkeypatch):
    fake = FakeCluster(objects=_inventory(), metrics='kubernetes_feature_enabled{name="DRAAdminAccess",stage=""} 1\n')
    server = serve(fake)
    config = tmp_path / "kubeconfig"
    config.write_text(kubeconfig(f"http://127.0.0.1:{server.server_address[1]}", namespace="ml"))
    monkeypatch.setenv("KUBECONFIG", str(config))
    yield fake
    server.shutdown()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = plugin.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_it_explains_a_pending_pod_with_the_schedulers_words_and_the_engines_reason(cluster, capsys):
    cluster.objects += [_claim("held", 6, allocated_devices=[f"gpu-{i}" for i in range(6)]),
                        _claim("pair", 4), _pod("trainer", "pair")]
    code, out, err = run(capsys, "why", "trainer")
    assert code == 0, err
    assert "Pod ml/trainer is pending. The scheduler says (Unschedulable): 0/1 nodes are available" in out
    assert "simulated as Kubernetes 1.37" in out
    assert "The engine: no node fits." in out
    # the engine names the claim and request, and the devices the other claim holds
    assert "claim ml/pair, request gpus" in out
    assert f"{NODE}/gpu-0: allocated to claim ml/held" in out

    code, out, _ = run(capsys, "why", "trainer", "-o", "json")
    answer = json.loads(out)
    assert answer["scheduled"] is False
    assert answer["analysis"]["status"] == "unsatisfiable"
    assert answer["scheduler"]["condition"]["reason"] == "Unschedulable"
    request = answer["analysis"]["requests"][0]
    assert (request["claim"], request["request"]) == ("ml/pair", "gpus")
    assert answer["inventory"]["resourceClaims"] == 2


def test_it_says_where_a_scheduled_pod_runs_and_what_it_holds(cluster, capsys):
    cluster.objects += [_claim("pair", 2, allocated_devices=["gpu-0", "gpu-1"]), _pod("trainer", "pair", node=NODE)]
    code, out, _ = run(capsys, "why", "trainer")
    assert code == 0
    assert f"Pod ml/trainer is scheduled on node {NODE}." in out
    assert f"claim ml/pair: gpus: gpu.example.com/{NODE}/gpu-0, gpus: gpu.example.com/{NODE}/gpu-1" in out


def test_it_follows_a_template_to_the_claim_the_controller_made(cluster, capsys):
    template = _served({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                        "metadata": {"name": "two", "namespace": "ml"},
                        "spec": {"spec": _claim("x", 2)["spec"]}}, "uid-template")
    pod = _pod("trainer", "unused")
    pod["spec"]["resourceClaims"] = [{"name": "gpus", "resourceClaimTemplateName": "two"}]
    pod["status"]["resourceClaimStatuses"] = [{"name": "gpus", "resourceClaimName": "trainer-gpus-x7k2p"}]
    cluster.objects += [template, _claim("trainer-gpus-x7k2p", 2), pod]
    code, out, _ = run(capsys, "why", "trainer", "-o", "json")
    answer = json.loads(out)
    assert answer["podClaims"]["generated"] == {"gpus": "trainer-gpus-x7k2p"}
    assert answer["analysis"]["status"] == "allocated"
    assert [c["metadata"]["name"] for c in answer["analysis"]["claims"]] == ["trainer-gpus-x7k2p"]


def test_a_missing_pod_is_a_cluster_error(cluster, capsys):
    code, _, err = run(capsys, "why", "nobody")
    assert code == 3
    assert 'pod "nobody" not found in namespace "ml"' in err


def test_fit_exits_as_the_allocate_command_does(cluster, capsys, tmp_path):
    claim = tmp_path / "claim.yaml"
    claim.write_text(yaml.safe_dump(_claim("pair", 2)))
    code, out, _ = run(capsys, "fit", "-f", str(claim))
    assert code == 0
    assert f"The engine: fits on node {NODE}." in out
    claim.write_text(yaml.safe_dump(_claim("too-many", 9)))
    code, out, _ = run(capsys, "fit", "-f", str(claim), "-o", "json")
    assert code == 1
    assert json.loads(out)["analysis"]["status"] == "unsatisfiable"
    claim.write_text("kind: ResourceClaim\napiVersion: resource.k8s.io/v1\nmetadata: {name: Bad_Name}\nspec: {}\n")
    code, out, _ = run(capsys, "fit", "-f", str(claim), "-o", "json")
    assert code == 2
    assert json.loads(out)["errors"][0]["field"] == "metadata.name"


def test_capacity_counts_the_copies_the_live_inventory_holds(cluster, capsys, tmp_path):
    cluster.objects.append(_claim("held", 2, allocated_devices=["gpu-0", "gpu-1"]))
    workload = tmp_path / "pod.yaml"
    template = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                "metadata": {"name": "two"}, "spec": {"spec": _claim("x", 2)["spec"]}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"containers": [{"name": "c", "image": "i"}],
                    "resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "two"}]}}
    workload.write_text(yaml.safe_dump_all([template, pod]))
    code, out, err = run(capsys, "capacity", "-f", str(workload), "-o", "json")
    assert code == 0, err
    assert json.loads(out)["capacity"]["placed"] == 3  # 8 GPUs, 2 held: three pairs
    code, out, _ = run(capsys, "capacity", "-f", str(workload))
    assert "3 copies fit (first); stopped by: no node fits" in out


def test_lists_are_read_page_by_page(cluster, capsys):
    nodes = [_served({"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"extra-{i:04d}"}}, f"n{i}")
             for i in range(PAGE_SIZE * 2 + 7)]
    cluster.objects += nodes
    code, out, _ = run(capsys, "snapshot")
    assert code == 0
    node_pages = [r for r in cluster.requests if r.startswith("/api/v1/nodes")]
    assert len(node_pages) == 3
    assert "continue=" in node_pages[1] and f"limit={PAGE_SIZE}" in node_pages[0]
    assert sum(1 for d in yaml.safe_load_all(out) if d and d["kind"] == "Node") == len(nodes) + 1


def test_the_snapshot_keeps_what_the_engine_reads_and_drops_the_servers_bookkeeping(cluster, capsys):
    cluster.objects += [_claim("held", 2, allocated_devices=["gpu-0", "gpu-1"]), _claim("pending", 1),
                        _claim("elsewhere", 1, namespace="other")]
    code, out, _ = run(capsys, "snapshot")
    assert code == 0
    assert "managedFields" not in out and "resourceVersion" not in out and "creationTimestamp" not in out
    docs = [d for d in yaml.safe_load_all(out) if d]
    claims = {d["metadata"]["name"]: d for d in docs if d["kind"] == "ResourceClaim"}
    assert set(claims) == {"held", "pending"}  # the other namespace's pending claim stays out
    assert claims["held"]["metadata"]["uid"] == "uid-claim-held"
    assert claims["held"]["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-0"
    # the snapshot, pasted as it is, gives the engine the answer `fit` gives on the live cluster
    stored = "".join(f"---\n{yaml.safe_dump(d)}" for d in docs if d["metadata"]["name"] != "pending")
    pending = yaml.safe_dump(claims["pending"])
    assert analyze(pending, stored).to_dict()["allocation"]["claims"][0]["status"]["allocation"][
        "devices"]["results"][0]["device"] == "gpu-2"


def test_a_forbidden_list_names_the_missing_permission(cluster, capsys):
    cluster.forbidden.add("resourceslices")
    code, _, err = run(capsys, "snapshot")
    assert code == 3
    assert 'cannot list resource "resourceslices" in API group "resource.k8s.io" at the cluster scope' in err
    assert "Missing permission: list resourceslices.resource.k8s.io (cluster-wide)" in err


def test_without_metrics_the_release_defaults_apply_and_the_answer_says_so(cluster, capsys, tmp_path):
    cluster.metrics = None
    claim = tmp_path / "claim.yaml"
    claim.write_text(yaml.safe_dump(_claim("pair", 2)))
    code, out, _ = run(capsys, "fit", "-f", str(claim), "-o", "json")
    assert code == 0
    about = json.loads(out)["cluster"]
    assert about["featureGatesSource"].startswith("the release's defaults (the apiserver's /metrics could not be read")
    assert about["featureGates"] == {}


def test_gates_read_from_the_metrics_and_flags_reach_the_engine(cluster, capsys, tmp_path):
    cluster.metrics = ('# HELP kubernetes_feature_enabled ...\n'
                       'kubernetes_feature_enabled{name="DRAConsumableCapacity",stage="BETA"} 0\n'
                       'kubernetes_feature_enabled{name="DRAAdminAccess",stage=""} 1\n'
                       'kubernetes_feature_enabled{name="SomethingElse",stage="ALPHA"} 1\n')
    claim = tmp_path / "claim.yaml"
    claim.write_text(yaml.safe_dump(_claim("pair", 2)))
    code, out, _ = run(capsys, "fit", "-f", str(claim), "-o", "json", "--feature-gates", "DRAListTypeAttributes=true")
    assert code == 0
    assert json.loads(out)["cluster"]["featureGates"] == {"DRAConsumableCapacity": False,
                                                       "DRAListTypeAttributes": True}


def test_a_gate_set_the_components_refuse_is_said_with_their_words(cluster, capsys, tmp_path):
    claim = tmp_path / "claim.yaml"
    claim.write_text(yaml.safe_dump(_claim("pair", 2)))
    code, _, err = run(capsys, "fit", "-f", str(claim), "--feature-gates", "DRAPrioritizedList=false")
    assert code == 2
    assert "cannot set feature gate DRAPrioritizedList to false, feature is locked to true" in err


def test_an_older_cluster_is_simulated_as_its_release(cluster, capsys, tmp_path):
    cluster.git_version = "v1.34.3"
    claim = tmp_path / "claim.yaml"
    claim.write_text(yaml.safe_dump(_claim("pair", 2)))
    code, out, _ = run(capsys, "fit", "-f", str(claim), "-o", "json")
    assert json.loads(out)["cluster"]["kubernetesVersion"] == "1.34"


def test_an_unreachable_apiserver_is_said_plainly(tmp_path, monkeypatch, capsys):
    config = tmp_path / "kubeconfig"
    config.write_text(kubeconfig("http://127.0.0.1:9"))
    monkeypatch.setenv("KUBECONFIG", str(config))
    code, _, err = run(capsys, "snapshot", "--request-timeout", "2")
    assert code == 3
    assert "cannot reach the apiserver at http://127.0.0.1:9" in err


@pytest.mark.django_db(transaction=True)
def test_a_shared_snapshot_opens_on_the_site_with_the_same_answer(cluster, capsys, live_server):
    cluster.objects += [_claim("held", 2, allocated_devices=["gpu-0", "gpu-1"]), _claim("pending", 3)]
    code, out, err = run(capsys, "snapshot", "--share", live_server.url)
    assert code == 0, err
    link = out.strip()
    assert link.startswith(live_server.url + "/s/")
    shared = _get_json(f"{live_server.url}/api/v1/shares/{link.rsplit('/', 1)[1]}")
    assert "name: pending" in shared["documents"]
    report = _post_json(f"{live_server.url}/api/v1/analyze",
                        {"documents": shared["documents"], "inventory": shared["inventoryId"]})
    assert report["allocation"]["status"] == "allocated", report["allocation"]
    devices = [r["device"] for r in report["allocation"]["claims"][0]["status"]["allocation"]["devices"]["results"]]
    assert devices == ["gpu-2", "gpu-3", "gpu-4"]  # the held pair stays held on the site too


def _get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def _post_json(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_the_documented_cluster_role_grants_exactly_what_the_plugin_reads():
    from kubectl_dra.cluster import READS, READS_NON_RESOURCE

    doc = (Path(__file__).resolve().parents[2] / "docs" / "kubectl-plugin.md").read_text()
    role_yaml = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    role = next(d for d in yaml.safe_load_all(role_yaml) if d["kind"] == "ClusterRole")
    granted = set()
    for rule in role["rules"]:
        for verb in rule["verbs"]:
            for group in rule.get("apiGroups", []):
                for resource in rule["resources"]:
                    granted.add((verb, group, resource))
            for url in rule.get("nonResourceURLs", []):
                granted.add((verb, "url", url))
    wanted = {(a.verb, a.group, a.resource) for a in READS} | {("get", "url", u) for u in READS_NON_RESOURCE}
    assert granted == wanted


def test_a_progress_line_appears_only_once_reading_takes_more_than_a_second():
    import io

    from kubectl_dra.connection import Progress

    now = [0.0]
    stream = io.StringIO()
    progress = Progress(stream=stream, clock=lambda: now[0])
    progress.update("reading nodes: 500 so far")
    assert stream.getvalue() == ""
    now[0] = 1.2
    progress.update("reading nodes: 1000 so far")
    now[0] = 1.5
    progress.update("reading nodes: 1500 so far")  # within a second of the last line: not shown
    now[0] = 2.3
    progress.update("reading nodes: 2000 so far")
    assert stream.getvalue().splitlines() == ["kubectl-dra: reading nodes: 1000 so far",
                                              "kubectl-dra: reading nodes: 2000 so far"]
