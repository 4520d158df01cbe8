"""How many copies fit (allocator.workload.planning, ``capacity``): each copy placed as the scheduler would."""

from __future__ import annotations

import copy
import json
import random

import pytest

from allocator.allocation.allocator import Allocator
from allocator.allocation.inputs import SearchInputs
from allocator.kube.objects import read_documents
from allocator.synthetic import cluster_yaml
from allocator.tests.helpers import cli as run
from allocator.tests.helpers.workloads import (
    GATES_1_37,
    SHARED_GPU_CLAIM,
    devices_per_copy,
    random_gpu_inventory,
    read_kinds,
)
from allocator.workload.cluster import Cluster
from allocator.workload.controllers import pod_sets
from allocator.workload.planning import STRATEGIES, PlanOptions, ToPlace, plan


def _workload(rng: random.Random) -> str:
    requests = []
    for r in range(rng.randint(1, 2)):
        selector = rng.choice(["", "\n          selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"h100\"'}}]"])
        requests.append(f"""\
      - name: r{r}
        exactly:
          deviceClassName: gpu.example.com
          count: {rng.randint(1, 2)}{selector}
""")
    constraint = "\n      constraints: [{matchAttribute: gpu.example.com/numa}]" if rng.random() < 0.3 else ""
    return f"""\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: gpus}}
spec:
  spec:
    devices:
      requests:
{"".join(requests)}{constraint.replace(chr(10) + "      ", chr(10) + "      ")}
---
apiVersion: v1
kind: Pod
metadata: {{name: trainer}}
spec:
  containers: [{{name: c, image: x}}]
  resourceClaims: [{{name: gpus, resourceClaimTemplateName: gpus}}]
"""


def _plan(objects: dict, strategy: str = "first", max_copies: int = 50, workloads: list | None = None,
          skip_full: bool = True):
    return plan(ToPlace(objects["ResourceClaim"], objects["ResourceClaimTemplate"], objects["Pod"], workloads),
                Cluster(objects["DeviceClass"], objects["ResourceSlice"], objects["Node"]), GATES_1_37,
                PlanOptions(strategy, max_copies, skip_full))


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("seed", range(25))
def test_each_copy_gets_what_allocating_it_alone_after_the_earlier_ones_gives(seed, strategy):
    rng = random.Random(seed)
    objects = read_kinds(random_gpu_inventory(rng) + "---\n" + _workload(rng))
    report = _plan(objects, strategy)
    classes, slices, nodes = objects["DeviceClass"], objects["ResourceSlice"], objects["Node"]
    held: list = []
    for step, (node, claims) in zip(report.steps, report.placements, strict=True):
        fresh = copy.deepcopy(claims)
        for claim in fresh:
            claim.status.allocation = None
        allocator = Allocator(SearchInputs(classes, slices, held), GATES_1_37)
        alone = allocator.allocate(node, fresh)
        assert alone.allocated and devices_per_copy(alone.results) == devices_per_copy([c.status.allocation for c in claims])
        fits = [n.metadata.name for n in sorted(nodes, key=lambda n: n.metadata.name)
                if allocator.allocate(n, fresh).allocated]
        used = {n: sum(1 for c in held for r in c.status.allocation.devices.results if r.pool == n) for n in fits}
        if strategy == "first":
            assert step.node == fits[0]
        elif strategy == "spread":
            assert used[step.node] == min(used.values())
        else:
            assert used[step.node] == max(used.values())
        held.extend(claims)
    if report.stopped_by == "no node fits":
        # The next copy really fits nowhere, and each node says why.
        allocator = Allocator(SearchInputs(classes, slices, held), GATES_1_37)
        assert not any(allocator.allocate(n, copy.deepcopy(report.unplaced)).allocated for n in nodes)
        assert sorted(row["name"] for row in report.next["nodes"]) == sorted(n.metadata.name for n in nodes)
        assert all(row["reason"] for row in report.next["nodes"])
    else:
        assert report.stopped_by == "max" and report.placed == 50


def test_the_random_cases_place_many_copies_on_several_nodes():
    placed = [_plan(read_kinds(random_gpu_inventory(random.Random(seed)) + "---\n" + _workload(random.Random(seed))), "spread")
              for seed in range(25)]
    assert sum(r.placed for r in placed) > 50
    assert sum(len({s.node for s in r.steps}) > 1 for r in placed) > 5


def test_gpus_run_out_after_as_many_copies_as_there_are_gpus():
    objects = read_kinds(random_gpu_inventory(random.Random(3)) + "---\n" + _workload(random.Random(0)))
    total = sum(len(s.spec.devices) for s in objects["ResourceSlice"])
    report = _plan(objects, "first")
    used = sum(row["used"] for row in report.by_pool)
    assert used == sum(len(c["devices"]) for s in report.steps for c in s.to_dict()["claims"])
    assert used <= total
    assert sum(row["copies"] for row in report.by_node) == report.placed


def test_a_claim_named_by_the_pods_is_shared_and_pins_every_copy_to_its_node():
    report = _plan(read_kinds(SHARED_GPU_CLAIM), "spread", max_copies=300)
    assert report.placed == 256 and report.stopped_by == "no node fits"
    assert "256 consumers" in report.next["reason"]
    assert {s.node for s in report.steps} == {"node-a"}  # spread would go to node-b, the claim pins it
    assert report.steps[0].claims == [{"name": "shared-gpu", "devices": ["gpu.example.com/node-a/gpu-0"]}]
    assert all(s.claims == [] for s in report.steps[1:])  # nothing more to allocate after the first


CLAIM_DOC = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared-gpu}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
---
"""


def test_copies_are_named_after_their_pods_and_claims_as_the_controller_names_them():
    assert CLAIM_DOC in SHARED_GPU_CLAIM
    text = SHARED_GPU_CLAIM.replace(CLAIM_DOC, "").replace("resourceClaimName: shared-gpu", "resourceClaimTemplateName: gpu")
    text += """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
"""
    report = _plan(read_kinds(text), "spread")
    assert report.placed == 4
    assert [s.pods for s in report.steps] == [["worker-1"], ["worker-2"], ["worker-3"], ["worker-4"]]
    assert [s.node for s in report.steps] == ["node-a", "node-b", "node-a", "node-b"]
    assert all(c["name"].startswith(f"worker-{s.copy}-gpu-") for s in report.steps for c in s.claims)
    assert [(r["name"], r["copies"], r["used"], r["total"]) for r in report.by_node] == [
        ("node-a", 2, 2, 2), ("node-b", 2, 2, 2)]


def test_an_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="first, spread, pack"):
        _plan(read_kinds(SHARED_GPU_CLAIM), "random")


# --------------------------------------------------------------------------- command line


@pytest.fixture
def shared_file(tmp_path):
    path = tmp_path / "all.yaml"
    path.write_text(SHARED_GPU_CLAIM.replace(CLAIM_DOC, "").replace("resourceClaimName: shared-gpu",
                                                          "resourceClaimTemplateName: gpu") + """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
""")
    return str(path)


def test_cli_prints_the_plan_and_exits_0(shared_file):
    proc = run("capacity", "--strategy", "pack", shared_file)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["placed"] == 4 and out["stoppedBy"] == "no node fits"
    assert [s["node"] for s in out["steps"]] == ["node-a", "node-a", "node-b", "node-b"]
    assert "copy 5 (Pod/worker) does not fit" in proc.stderr


def test_cli_stops_at_max(shared_file):
    out = json.loads(run("capacity", "--max", "3", shared_file).stdout)
    assert (out["placed"], out["stoppedBy"], out["next"]) == (3, "max", None)


def test_cli_exits_1_when_no_copy_fits(shared_file, tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(open(shared_file).read().replace(
        "exactly: {deviceClassName: gpu.example.com}}", "exactly: {deviceClassName: gpu.example.com, count: 3}}"))
    proc = run("capacity", str(path))
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["placed"] == 0 and len(out["next"]["nodes"]) == 2


def test_cli_exits_2_on_an_unknown_class(shared_file, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(open(shared_file).read().replace("deviceClassName: gpu.example.com", "deviceClassName: nope"))
    proc = run("capacity", str(path))
    assert proc.returncode == 2 and "nope" in proc.stderr


def _check_steps(objects: dict, report) -> list:
    """Each copy gets what allocating it alone after the earlier ones gives; the claims placed, in order."""
    held = [c for c in objects["ResourceClaim"] if c.status.allocation is not None]
    for node, claims in report.placements:
        fresh = copy.deepcopy(claims)
        for claim in fresh:
            claim.status.allocation = None
        alone = Allocator(SearchInputs(objects["DeviceClass"], objects["ResourceSlice"], held), GATES_1_37
                          ).allocate(node, fresh)
        assert alone.allocated and devices_per_copy(alone.results) == devices_per_copy([c.status.allocation for c in claims])
        held.extend(claims)
    return held


def _sample_text(slug: str) -> str:
    from allocator.tests.helpers.samples import inventory_text

    return inventory_text(slug)


def _pod_with(request: str) -> str:
    return f"""\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: t}}
spec:
  spec:
    devices:
      requests:
      - name: r
        exactly:
{request}
---
apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
  containers: [{{name: c, image: x}}]
  resourceClaims: [{{name: r, resourceClaimTemplateName: t}}]
"""


def test_shared_counters_are_carried_from_copy_to_copy():
    # nvidia-mig: two H100s, each with 7 memory slices shared by its MIG placements (1g.10gb takes one).
    request = ("          deviceClassName: mig.nvidia.com\n"
               "          selectors: [{cel: {expression: \"device.attributes['gpu.nvidia.com'].profile == '1g.10gb'\"}}]\n")
    objects = read_kinds(_sample_text("nvidia-mig") + _pod_with(request))
    report = _plan(objects, "first", max_copies=40)
    assert report.stopped_by == "no node fits" and report.placed == 14
    devices = [d for s in report.steps for c in s.claims for d in c["devices"]]
    assert len(set(devices)) == 14  # no placement twice
    _check_steps(objects, report)


def test_consumable_capacity_is_carried_from_copy_to_copy():
    # shared-gpus: GPUs that allow several allocations, each consuming its share of memory.
    request = ("          deviceClassName: gpu.example.com\n"
               "          capacity: {requests: {memory: 16Gi}}\n")
    objects = read_kinds(_sample_text("shared-gpus") + _pod_with(request))
    report = _plan(objects, "first", max_copies=60)
    assert report.stopped_by == "no node fits" and report.placed > 2
    shares = [d for s in report.steps for c in s.claims for d in c["devices"]]
    assert len(shares) > len(set(shares))  # devices are shared between copies
    _check_steps(objects, report)


def _shape(rng: random.Random) -> str:
    """The random workload in one of the shapes placing treats apart: a Pod with a template claim, plus a claim
    every copy shares; pending claims without pods; a Deployment and a StatefulSet (named pods) with counts."""
    shape = rng.choice(["pod", "shared", "claims", "controllers"])
    workload = _workload(rng)
    if shape == "pod":
        return workload
    if shape == "shared":
        return workload.replace("resourceClaims: [", "resourceClaims: [{name: one, resourceClaimName: one}, ") + """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: one}
spec:
  devices:
    requests: [{name: r, exactly: {deviceClassName: gpu.example.com}}]
"""
    template = workload.split("---\n")[0]
    if shape == "claims":
        spec = template.split("spec:\n  spec:\n", 1)[1].replace("\n  ", "\n")
        return f"apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: gpus}}\nspec:\n{spec[2:]}"
    controllers = [f"""\
apiVersion: apps/v1
kind: {kind}
metadata: {{name: {kind.lower()}}}
spec:
  replicas: {rng.randint(1, 6)}
  selector: {{matchLabels: {{app: {kind.lower()}}}}}
  template:
    metadata: {{labels: {{app: {kind.lower()}}}}}
    spec:
      containers: [{{name: c, image: x}}]
      resourceClaims: [{{name: gpus, resourceClaimTemplateName: gpus}}]
""" for kind in ("Deployment", "StatefulSet")]
    return "---\n".join([template, *controllers])


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("seed", range(40))
def test_skipping_nodes_full_for_a_workload_gives_the_one_by_one_answer(seed, strategy):
    rng = random.Random(seed)
    text = random_gpu_inventory(rng) + "---\n" + _shape(rng)
    result = read_documents(text)
    assert not result.errors, [str(e) for e in result.errors]
    sets, errors = pod_sets(text, result)
    assert not errors
    objects = read_kinds(text)
    reports = [_plan(objects, strategy, max_copies=40, workloads=sets or None, skip_full=skip).to_dict()
               for skip in (True, False)]
    assert reports[0] == reports[1]


def test_the_shapes_compared_place_copies_and_fill_nodes():
    """The comparison above is not empty: its cases place copies, and many end with no node fitting."""
    ends = []
    for seed in range(40):
        rng = random.Random(seed)
        text = random_gpu_inventory(rng) + "---\n" + _shape(rng)
        result = read_documents(text)
        sets, _ = pod_sets(text, result)
        objects = read_kinds(text)
        report = _plan(objects, max_copies=40, workloads=sets or None)
        ends.append((report.stopped_by, report.placed, bool(sets), bool(objects["Pod"])))
    assert sum(placed for _, placed, _, _ in ends) > 80
    assert sum(stop == "no node fits" for stop, *_ in ends) > 10
    assert any(controllers for *_, controllers, _ in ends) and any(not pods for *_, pods in ends)


# A two-GPU pod from a template, the workload the synthetic-cluster comparisons place copies of.
TWO_GPU_TRAINER = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com, count: 2}}]
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: two-gpus}]
"""


def _fast_and_slow(objects: dict, strategy: str, max_copies: int) -> tuple:
    """The plan with full nodes skipped and kept node orders, and the one-by-one plan, on the same input."""
    return tuple(_plan(objects, strategy, max_copies, skip_full=skip) for skip in (True, False))


def test_skipping_gives_the_one_by_one_answer_on_a_synthetic_cluster_of_100_nodes():
    """Filling 100 synthetic nodes (8 GPUs each) with a two-GPU pod until the next copy fits nowhere."""
    text = cluster_yaml(100) + TWO_GPU_TRAINER
    objects = read_kinds(text)
    for strategy in STRATEGIES:
        fast, slow = _fast_and_slow(objects, strategy, max_copies=1000)
        assert fast.placed == 400 and fast.stopped_by == "no node fits"
        assert fast.to_dict() == slow.to_dict()


def test_kept_node_orders_give_the_one_by_one_answer_on_a_synthetic_cluster_of_1000_nodes():
    """1,000 synthetic nodes, 400 copies of a two-GPU pod: first fills 100 nodes (each later copy skips the
    full ones), spread and pack keep their order as each copy changes one node's count; the one-by-one path
    filters and sorts every node for every copy."""
    text = cluster_yaml(1000) + TWO_GPU_TRAINER
    objects = read_kinds(text)
    for strategy in STRATEGIES:
        fast, slow = _fast_and_slow(objects, strategy, max_copies=400)
        assert fast.placed == 400 and fast.stopped_by == "max"
        assert fast.to_dict() == slow.to_dict()
        nodes_used = {s.node for s in fast.steps}
        assert len(nodes_used) == (100 if strategy != "spread" else 400)
