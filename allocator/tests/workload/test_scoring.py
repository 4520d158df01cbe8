"""The scheduler's DRA node score (issue 28, item 4): which releases score, the numbers, the node chosen."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from allocator.engine import analyze
from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates
from allocator.tests.helpers import ROOT
from allocator.workload import scoring

INVENTORY = (ROOT / "allocator/tests/data/scoring/two-nodes.yaml").read_text()


def claim(name: str = "gpu", first: str = "big", second: str = "small") -> str:
    return f"""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: {name}}}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - name: {first}
        deviceClassName: gpu
        selectors: [{{cel: {{expression: "device.attributes['gpu.example.com'].size == '{first}'"}}}}]
      - name: {second}
        deviceClassName: gpu
        selectors: [{{cel: {{expression: "device.attributes['gpu.example.com'].size == '{second}'"}}}}]
"""


EXACT = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: plain}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
"""


def _scores(report: dict) -> dict:
    return {n["name"]: (n.get("score"), n.get("rawScore")) for n in report["nodes"]}


@pytest.mark.parametrize("release", ["1.35", "1.36", "1.37"])
def test_from_1_35_the_node_with_the_first_choice_wins(release):
    report = analyze(claim(), INVENTORY, kubernetes_version=release).to_dict()
    alloc = report["allocation"]
    # node-a comes first by name, but only node-b serves the first subrequest (8 points against 7).
    assert (alloc["status"], alloc["node"]) == ("allocated", "node-b")
    assert alloc["claims"][0]["status"]["allocation"]["devices"]["results"][0]["request"] == "gpu/big"
    assert _scores(report) == {"node-a": (87, 7), "node-b": (100, 8), "node-c": (87, 7)}
    assert alloc["scoring"]["scored"] is True and alloc["scoring"]["tied"] == []
    assert "node-b has the best DRA score (100)" in alloc["scoring"]["note"]
    # The explanation looks from the chosen node.
    assert report["explainedNode"] == "node-b"


@pytest.mark.parametrize("release", ["1.34"])  # v1 claims are served from 1.34
def test_before_1_35_nothing_is_scored_and_the_first_node_is_taken(release):
    report = analyze(claim(), INVENTORY, kubernetes_version=release,
                     feature_gates={"DRAPrioritizedList": True}).to_dict()
    alloc = report["allocation"]
    assert (alloc["status"], alloc["node"]) == ("allocated", "node-a")
    assert _scores(report) == {n: (None, None) for n in ("node-a", "node-b", "node-c")}
    assert alloc["scoring"]["scored"] is False
    assert f"Kubernetes {release} does not score nodes for DRA" in alloc["scoring"]["note"]
    assert "at random" in alloc["scoring"]["note"]


def test_reversed_preference_moves_the_pod_and_ties_are_named():
    report = analyze(claim(first="small", second="big"), INVENTORY).to_dict()
    alloc = report["allocation"]
    assert _scores(report) == {"node-a": (100, 8), "node-b": (87, 7), "node-c": (100, 8)}
    assert alloc["node"] == "node-a"  # first by name among the two best
    assert alloc["scoring"]["tied"] == ["node-a", "node-c"]
    assert alloc["scoring"]["note"].startswith("2 nodes share the best DRA score 100: the scheduler picks one "
                                               "of them at random")


def test_exactly_requests_score_zero_everywhere():
    report = analyze(EXACT, INVENTORY).to_dict()
    assert _scores(report) == {n: (0, 0) for n in ("node-a", "node-b", "node-c")}
    assert report["allocation"]["node"] == "node-a"
    assert report["allocation"]["scoring"]["tied"] == ["node-a", "node-b", "node-c"]


def test_claim_score_ranks_subrequests():
    [doc] = read_documents(claim()).documents
    assert scoring.claim_score(doc.obj, ["gpu/big"]) == 8
    assert scoring.claim_score(doc.obj, ["gpu/small"]) == 7
    assert scoring.claim_score(doc.obj, ["gpu"]) == 0


def test_a_named_node_is_not_scored():
    report = analyze(claim(), INVENTORY, node="node-a").to_dict()
    assert report["allocation"]["node"] == "node-a"
    assert "score" not in report["nodes"][0]
    assert report["allocation"]["scoring"] == {
        "scored": False, "tied": [],
        "note": "the node was named: nothing to choose, so the scheduler does not score"}


def test_one_node_that_fits_is_taken_without_scoring():
    only_b = claim().replace("- name: small", "- name: huge").replace("== 'small'", "== 'huge'")
    report = analyze(only_b, INVENTORY).to_dict()
    assert report["allocation"]["node"] == "node-b"
    assert all("score" not in n for n in report["nodes"])
    assert report["allocation"]["scoring"]["note"] == "only one node fits: the scheduler takes it without scoring"


def test_normalize_is_the_schedulers_default():
    assert scoring.normalize([8, 7, 5]) == [100, 87, 62]
    assert scoring.normalize([0, 0]) == [0, 0]
    assert scoring.normalize([3, 0]) == [100, 0]


def test_the_gate_decides_from_1_35():
    assert scoring.not_scored_reason(make_gates({}, "1.35")) is None
    off = scoring.not_scored_reason(make_gates({"DRAPrioritizedList": False}, "1.35"))
    assert off == "DRAPrioritizedList is off: the DynamicResources plugin scores every node 0"
    assert scoring.not_scored_reason(make_gates({}, "1.34")).startswith("Kubernetes 1.34 does not score")


def test_a_pods_allocated_claim_counts_on_every_node():
    # An allocated claim of the pod that got its first choice adds 8 everywhere: 16/15 instead of 8/7.
    allocated = claim("held") + """status:
  allocation:
    devices:
      results: [{request: gpu/big, driver: gpu.example.com, pool: node-b, device: gpu-0}]
"""
    pod = """
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: x}]
  resourceClaims:
  - {name: held, resourceClaimName: held}
  - {name: new, resourceClaimName: new}
"""
    docs = allocated + "---" + claim("new", first="small", second="big") + "---" + pod
    report = analyze(docs, INVENTORY).to_dict()
    assert _scores(report) == {"node-a": (100, 16), "node-c": (100, 16), "node-b": (None, None)}


def test_with_nothing_pending_every_score_is_0():
    # The pod's only claim is allocated on a device every node reaches: the plugin allocates nothing, scores 0.
    shared = INVENTORY + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: shared}
spec:
  driver: gpu.example.com
  allNodes: true
  pool: {name: shared, generation: 1, resourceSliceCount: 1}
  devices: [{name: net-0, attributes: {size: {string: big}}}]
"""
    held = claim("held") + """status:
  allocation:
    devices:
      results: [{request: gpu/big, driver: gpu.example.com, pool: shared, device: net-0}]
    nodeSelector:
      nodeSelectorTerms: [{matchExpressions: [{key: none, operator: DoesNotExist}]}]
"""
    pod = """
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: held, resourceClaimName: held}]
"""
    report = analyze(held + "---" + pod, shared).to_dict()
    assert report["allocation"]["status"] == "allocated", report["allocation"]
    assert _scores(report) == {n: (0, 0) for n in ("node-a", "node-b", "node-c")}


def test_the_command_line_prints_the_scores(tmp_path):
    (tmp_path / "inv.yaml").write_text(INVENTORY)
    (tmp_path / "claim.yaml").write_text(claim())
    proc = subprocess.run([sys.executable, "-m", "allocator", "allocate", str(tmp_path / "inv.yaml"),
                           str(tmp_path / "claim.yaml")], capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["node"] == "node-b"
    assert {n["name"]: (n["score"], n["rawScore"]) for n in out["nodes"]} == {
        "node-a": (87, 7), "node-b": (100, 8), "node-c": (87, 7)}
    assert out["scoring"]["scored"] is True
    old = subprocess.run([sys.executable, "-m", "allocator", "allocate", "--kubernetes-version", "1.34",
                          "--feature-gates", "DRAPrioritizedList=true", str(tmp_path / "inv.yaml"),
                          str(tmp_path / "claim.yaml")], capture_output=True, text=True, cwd=ROOT, check=False)
    out = json.loads(old.stdout)
    assert out["node"] == "node-a" and out["scoring"]["scored"] is False
    assert all("score" not in n for n in out["nodes"])
