"""Workloads with a count (allocator.workload.controllers) placed by ``capacity``: Deployments, ReplicaSets,
StatefulSets and Jobs with their pods' counts, bare Pods counting 1, and the consumers a shared claim
already has in its ``status.reservedFor``."""

from __future__ import annotations

import copy
import json
import random

import pytest

from allocator.allocation.allocator import Allocator
from allocator.allocation.inputs import SearchInputs
from allocator.kube.objects import read_documents
from allocator.tests.helpers import cli as run
from allocator.tests.helpers.workloads import (
    GATES_1_37,
    ONE_GPU_TEMPLATE,
    SHARED_GPU_CLAIM,
    TWO_NODE_INVENTORY,
    devices_per_copy,
    random_gpu_inventory,
    read_kinds,
    workload_controller,
)
from allocator.workload.controllers import pod_sets
from allocator.workload.planning import STRATEGIES, plan_texts


def _plan(documents: str, inventory: str = TWO_NODE_INVENTORY, strategy: str = "first", max_copies: int = 100):
    report, errors = plan_texts(documents, inventory, GATES_1_37, strategy=strategy, max_copies=max_copies)
    assert not errors, [str(e) for e in errors]
    return report


# --------------------------------------------------------------------------- counts and names


def test_a_deployments_replicas_are_its_copies_named_as_its_replicaset_names_pods():
    report = _plan(ONE_GPU_TEMPLATE + workload_controller("Deployment", "web", "  replicas: 3"))
    assert (report.placed, report.stopped_by, report.next) == (3, "all placed", None)
    assert report.workloads == [{"kind": "Deployment", "name": "web", "asked": 3, "placed": 3}]
    pods = [s.pods[0] for s in report.steps]
    assert len(set(pods)) == 3 and len({p.rsplit("-", 1)[0] for p in pods}) == 1  # one ReplicaSet
    rs = pods[0].rsplit("-", 1)[0]
    assert rs.startswith("web-") and 6 <= len(rs) - 4 <= 10 and all(len(p.rsplit("-", 1)[1]) == 5 for p in pods)
    assert all(s.workload == "Deployment/web" for s in report.steps)
    assert all(c["name"].startswith(f"{s.pods[0]}-gpu-") for s in report.steps for c in s.claims)


def test_statefulset_pods_have_ordinals_and_an_indexed_job_its_indexes():
    report = _plan(ONE_GPU_TEMPLATE + workload_controller("StatefulSet", "db", "  replicas: 2\n  serviceName: db")
                   + workload_controller("Job", "train", "  parallelism: 2\n  completionMode: Indexed"))
    assert [s.pods for s in report.steps[:2]] == [["db-0"], ["db-1"]]
    assert [s.pods[0][: len("train-0-")] for s in report.steps[2:]] == ["train-0-", "train-1-"]


@pytest.mark.parametrize(("fields", "asked"), [
    ("  parallelism: 3", 3), ("  parallelism: 5\n  completions: 2", 2), ("  completions: 4", 1),
    ("  parallelism: 3\n  suspend: true", 0), ("  parallelism: 0", 0), ("", 1),
])
def test_a_jobs_count_is_its_parallelism_bounded_by_its_completions(fields, asked):
    text = ONE_GPU_TEMPLATE + workload_controller("Job", "train", fields, extra="\n      restartPolicy: Never")
    sets, errors = pod_sets(text, read_documents(text))
    assert not errors and [(s.kind, s.asked) for s in sets] == [("Job", asked)]


@pytest.mark.parametrize(("kind", "fields", "asked"), [
    ("Deployment", "", 1), ("ReplicaSet", "  replicas: 4", 4), ("StatefulSet", "  replicas: 0", 0)])
def test_replicas_default_to_one(kind, fields, asked):
    text = ONE_GPU_TEMPLATE + workload_controller(kind, "w", fields)
    sets, _ = pod_sets(text, read_documents(text))
    assert [(s.kind, s.asked) for s in sets] == [(kind, asked)]


def test_copies_are_placed_in_the_order_written_and_a_bare_pod_counts_one():
    text = (ONE_GPU_TEMPLATE + workload_controller("ReplicaSet", "first", "  replicas: 2")
            + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: solo}\nspec:\n  containers: [{name: c, image: x}]\n"
              "  resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu}]\n"
            + workload_controller("Deployment", "last", "  replicas: 5"))
    report = _plan(text, strategy="spread")
    assert [s.workload for s in report.steps] == ["ReplicaSet/first"] * 2 + ["Pod/solo"] + ["Deployment/last"]
    assert report.steps[2].pods == ["solo"]
    assert report.workloads == [{"kind": "ReplicaSet", "name": "first", "asked": 2, "placed": 2},
                                {"kind": "Pod", "name": "solo", "asked": 1, "placed": 1},
                                {"kind": "Deployment", "name": "last", "asked": 5, "placed": 1}]
    assert report.stopped_by == "no node fits" and report.next["workload"] == "Deployment/last"
    assert report.next["pods"][0].startswith("last-") and len(report.next["nodes"]) == 2


def test_max_stops_before_every_workload_has_its_count():
    report = _plan(ONE_GPU_TEMPLATE + workload_controller("Deployment", "web", "  replicas: 3"), max_copies=2)
    assert (report.placed, report.stopped_by, report.workloads[0]["placed"]) == (2, "max", 2)


def test_without_a_controller_the_input_is_repeated_as_before():
    text = ONE_GPU_TEMPLATE + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n" \
        "  resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu}]\n"
    report = _plan(text)
    assert report.placed == 4 and report.workloads == [{"kind": "Pod", "name": "p", "asked": None, "placed": 4}]
    assert [s.pods for s in report.steps] == [["p-1"], ["p-2"], ["p-3"], ["p-4"]]


def test_workloads_share_a_claim_named_by_resourceclaimname():
    claim = SHARED_GPU_CLAIM[SHARED_GPU_CLAIM.index("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"):SHARED_GPU_CLAIM.index("---\napiVersion: v1\nkind: Pod")]
    named = "[{name: gpu, resourceClaimName: shared-gpu}]"
    report = _plan(claim + workload_controller("Deployment", "a", "  replicas: 2", named)
                   + workload_controller("StatefulSet", "b", "  replicas: 2", named), strategy="spread")
    assert report.placed == 4 and report.stopped_by == "all placed"
    assert {s.node for s in report.steps} == {"node-a"}  # the claim keeps every copy where it was allocated
    assert [len(s.claims) for s in report.steps] == [1, 0, 0, 0]


# --------------------------------------------------------------------------- reservedFor


def _reserved(count: int) -> str:
    consumers = "".join(f"\n  - {{resource: pods, name: other-{i}, uid: uid-{i}}}" for i in range(count))
    return f"""\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: shared-gpu}}
spec:
  devices:
    requests: [{{name: gpu, exactly: {{deviceClassName: gpu.example.com}}}}]
status:
  allocation:
    devices:
      results: [{{request: gpu, driver: gpu.example.com, pool: node-a, device: gpu-0}}]
    nodeSelector:
      nodeSelectorTerms: [{{matchFields: [{{key: metadata.name, operator: In, values: [node-a]}}]}}]
  reservedFor:{consumers}
"""


@pytest.mark.parametrize(("reserved", "placed"), [(0, 256), (250, 6), (255, 1), (256, 0)])
def test_the_consumers_in_reservedfor_count_toward_the_256(reserved, placed):
    text = _reserved(reserved) + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: w}\nspec:\n" \
        "  containers: [{name: c, image: x}]\n  resourceClaims: [{name: gpu, resourceClaimName: shared-gpu}]\n"
    report = _plan(text, max_copies=300)
    assert (report.placed, report.stopped_by) == (placed, "no node fits")
    assert "256 consumers" in report.next["reason"] and report.next["nodes"] == []
    assert (f"{reserved} of them in its status.reservedFor" in report.next["reason"]) == bool(reserved)


def test_reservedfor_counts_for_a_deployments_copies_too():
    report = _plan(_reserved(254) + workload_controller("Deployment", "web", "  replicas: 5",
                                                "[{name: gpu, resourceClaimName: shared-gpu}]"))
    assert (report.placed, report.workloads[0]["placed"], report.next["workload"]) == (2, 2, "Deployment/web")


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("edit", "field", "line"), [
    (("replicas: 3", "replicas: -2"), "spec.replicas", 13),
    (("replicas: 3", "replicas: many"), "spec.replicas", 13),
    (("apiVersion: apps/v1", "apiVersion: apps/v1beta1"), "apiVersion", 9),
    (("resources: {claims: [{name: gpu}]}", "resources: {claims: [{name: gpx}]}"),
     "spec.template.spec.containers[0].resources.claims[0]", None),
    (("      resourceClaims:", "      resourceClaimz:"), "spec.template.spec.resourceClaimz", 19),
])
def test_a_bad_controller_is_refused_at_its_field(edit, field, line):
    text = ONE_GPU_TEMPLATE + workload_controller("Deployment", "web", "  replicas: 3").replace(*edit)
    report, errors = plan_texts(text, TWO_NODE_INVENTORY, GATES_1_37)
    assert report is None and errors
    assert (errors[0].kind, errors[0].name, errors[0].field) == ("Deployment", "web", field)
    if line:
        assert errors[0].line == line


def test_a_template_without_a_pod_spec_is_refused():
    text = ONE_GPU_TEMPLATE + "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n"
    _, errors = plan_texts(text, TWO_NODE_INVENTORY, GATES_1_37)
    assert [(e.field, e.type) for e in errors] == [("spec.template", "Required value")]


# --------------------------------------------------------------------------- the property


def _random_workloads(rng: random.Random) -> str:
    """One to three controllers (and sometimes a bare Pod), each with its own template and count."""
    out = []
    for w in range(rng.randint(1, 3)):
        kind = rng.choice(["Deployment", "ReplicaSet", "StatefulSet", "Job"])
        count = rng.randint(0, 4)
        fields = f"  parallelism: {count}" if kind == "Job" else f"  replicas: {count}"
        selector = rng.choice(["", ", selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"h100\"'}}]"])
        out.append(f"""\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: t{w}}}
spec:
  spec:
    devices:
      requests: [{{name: gpu, exactly: {{deviceClassName: gpu.example.com, count: {rng.randint(1, 2)}{selector}}}}}]
""")
        out.append(workload_controller(kind, f"w{w}", fields, f"[{{name: gpu, resourceClaimTemplateName: t{w}}}]"))
        if rng.random() < 0.3:
            out.append(f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: solo{w}}}\nspec:\n"
                       f"  containers: [{{name: c, image: x}}]\n  resourceClaims: [{{name: g, resourceClaimTemplateName: t{w}}}]\n")
    return "".join(out)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("seed", range(20))
def test_each_copy_of_several_workloads_gets_what_allocating_it_alone_after_the_earlier_ones_gives(seed, strategy):
    rng = random.Random(seed)
    inventory, documents = random_gpu_inventory(rng), _random_workloads(rng)
    report = _plan(documents, inventory, strategy=strategy, max_copies=40)
    objects = read_kinds(inventory)
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
    # The copies go workload by workload, in the order written, each up to its count.
    labels = [f"{w['kind']}/{w['name']}" for w in report.workloads]
    assert [s.workload for s in report.steps] == [label for label, w in zip(labels, report.workloads, strict=True)
                                                  for _ in range(w["placed"])]
    assert sum(w["placed"] for w in report.workloads) == report.placed
    assert all(w["placed"] <= w["asked"] for w in report.workloads)
    short = [label for label, w in zip(labels, report.workloads, strict=True) if w["placed"] < w["asked"]]
    if report.stopped_by == "all placed":
        assert not short and report.next is None
    elif report.stopped_by == "no node fits":
        assert report.next["workload"] == short[0]
        later = labels[labels.index(short[0]) + 1:]
        assert all(w["placed"] == 0 for w in report.workloads if f"{w['kind']}/{w['name']}" in later)
        allocator = Allocator(SearchInputs(classes, slices, held), GATES_1_37)
        assert not any(allocator.allocate(n, copy.deepcopy(report.unplaced)).allocated for n in nodes)
    else:
        assert report.stopped_by == "max" and report.placed == 40


def test_the_random_workloads_place_copies_of_several_workloads_and_run_out():
    reports = [_plan(_random_workloads(random.Random(seed)), random_gpu_inventory(random.Random(seed)), "spread")
               for seed in range(20)]
    assert sum(len({s.workload for s in r.steps}) > 1 for r in reports) > 3
    assert {r.stopped_by for r in reports} >= {"all placed", "no node fits"}


# --------------------------------------------------------------------------- command line


@pytest.fixture
def deployment_files(tmp_path):
    inventory, documents = tmp_path / "cluster.yaml", tmp_path / "app.yaml"
    inventory.write_text(TWO_NODE_INVENTORY)
    documents.write_text(ONE_GPU_TEMPLATE + workload_controller("Deployment", "web", "  replicas: 3")
                         + workload_controller("StatefulSet", "db", "  replicas: 3"))
    return str(inventory), str(documents)


def test_cli_places_a_deployment_and_a_statefulset_and_names_the_one_that_ran_out(deployment_files):
    proc = run("capacity", *deployment_files)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["workloads"] == [{"kind": "Deployment", "name": "web", "asked": 3, "placed": 3},
                                {"kind": "StatefulSet", "name": "db", "asked": 3, "placed": 1}]
    assert out["next"]["workload"] == "StatefulSet/db" and out["next"]["pods"] == ["db-1"]
    assert [s["workload"] for s in out["steps"]] == ["Deployment/web"] * 3 + ["StatefulSet/db"]
    assert "copy 5 (StatefulSet/db) does not fit" in proc.stderr


def test_cli_exits_0_when_every_count_is_placed(deployment_files, tmp_path):
    path = tmp_path / "one.yaml"
    path.write_text(ONE_GPU_TEMPLATE + workload_controller("ReplicaSet", "rs", "  replicas: 2"))
    proc = run("capacity", deployment_files[0], str(path))
    assert proc.returncode == 0 and json.loads(proc.stdout)["stoppedBy"] == "all placed"


def test_cli_refuses_a_bad_template_at_the_file_line_and_field(deployment_files, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(open(deployment_files[1]).read().replace("replicas: 3", "replicas: -1", 1))
    proc = run("capacity", deployment_files[0], str(path))
    assert proc.returncode == 2
    assert f"{path}:13:" in proc.stderr and "Deployment 'web': spec.replicas: Invalid value" in proc.stderr


def test_statefulset_ordinals_start_where_spec_ordinals_says():
    report = _plan(ONE_GPU_TEMPLATE + workload_controller("StatefulSet", "db", "  replicas: 2\n  ordinals: {start: 5}"))
    assert [s.pods for s in report.steps] == [["db-5"], ["db-6"]]


def test_a_long_indexed_job_name_is_cut_before_its_index():
    name = "j" * 70
    text = ONE_GPU_TEMPLATE + workload_controller("Job", name, "  parallelism: 2\n  completionMode: Indexed")
    sets, _ = pod_sets(text, read_documents(text))
    pods = [sets[0].pod_name(i) for i in range(2)]
    assert [len(p) for p in pods] == [63, 63] and pods[0][:58].endswith("-0-") and pods[1][:58].endswith("-1-")
