"""A Deployment, ReplicaSet, StatefulSet or Job in the analysis of one pod (allocator.workload.analysed): its
template's first pod, named as its controller names it, in ``analyze`` and ``allocate``."""

from __future__ import annotations

import json
import re

import pytest

from allocator.engine import analyze
from allocator.tests.helpers import cli, write_files
from allocator.tests.helpers.workloads import ONE_GPU_TEMPLATE, TWO_NODE_INVENTORY, workload_controller
from allocator.workload.analysed import split_ignored

# 5-character suffixes and a pod-template-hash in the alphabet of apimachinery's rand.String.
RAND = "[bcdfghjklmnpqrstvwxz2456789]"


def _analysed(documents: str):
    return analyze(documents, TWO_NODE_INVENTORY, kubernetes_version="1.37").to_dict()


@pytest.mark.parametrize(("kind", "count", "pod"), [
    ("Deployment", "  replicas: 5", rf"web-{RAND}{{6,10}}-{RAND}{{5}}"),
    ("ReplicaSet", "  replicas: 5", rf"web-{RAND}{{5}}"),
    ("StatefulSet", "  replicas: 5", r"web-0"),
    ("Job", "  parallelism: 5", rf"web-{RAND}{{5}}"),
    ("Job", "  parallelism: 5\n  completionMode: Indexed\n  completions: 9", rf"web-0-{RAND}{{5}}"),
])
def test_a_controller_is_analysed_as_its_first_pod_named_as_its_controller_names_it(kind, count, pod):
    report = _analysed(ONE_GPU_TEMPLATE + workload_controller(kind, "web", count))
    assert report["valid"], report["diagnostics"]
    [workload] = report["workloads"]
    assert re.fullmatch(pod, workload["pod"]), workload["pod"]
    assert (workload["kind"], workload["name"], workload["namespace"], workload["replicas"]) == (kind, "web", "default", 5)
    assert workload["note"] == "×5 replicas: one analysed; see capacity planning (POST /api/v1/capacity)"
    assert workload["line"] == ONE_GPU_TEMPLATE.count("\n") + 2  # the line after "---"
    assert report["ignored"] == []
    # One copy: one claim from the template, named after the pod as the resource-claim controller names it.
    assert report["allocation"]["status"] == "allocated"
    [claim] = report["allocation"]["claims"]
    assert re.fullmatch(rf"{re.escape(workload['pod'])}-gpu-{RAND}{{5}}", claim["metadata"]["name"])
    assert [(c["pod"], c["container"], c["claim"]) for c in report["containers"]] == [
        (workload["pod"], "c", claim["metadata"]["name"])]


def test_a_workload_asking_for_no_pod_is_listed_with_nothing_analysed():
    report = _analysed(ONE_GPU_TEMPLATE + workload_controller("Job", "web", "  parallelism: 3\n  suspend: true"))
    [workload] = report["workloads"]
    assert (workload["pod"], workload["replicas"]) == (None, 0)
    assert workload["note"] == "0 pods asked for: nothing to analyse"
    assert report["allocation"]["status"] == "skipped" and report["ignored"] == []


def test_a_controller_the_apiserver_refuses_is_an_error_at_its_field_not_ignored():
    report = _analysed(ONE_GPU_TEMPLATE + workload_controller("Deployment", "web", "  replicas: -1"))
    assert not report["valid"] and report["ignored"] == []
    [error] = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert (error["kind"], error["name"], error["field"]) == ("Deployment", "web", "spec.replicas")
    # The pod template is checked as a Pod is: a claim template that does not exist, at the template's field.
    report = _analysed(workload_controller("StatefulSet", "db", "  replicas: 2"))
    assert not report["valid"]
    assert any(d["kind"] == "StatefulSet" and d["field"].startswith("spec.template.spec.resourceClaims")
               for d in report["diagnostics"]), report["diagnostics"]


def test_inputs_without_controllers_keep_their_answer_without_a_workloads_key():
    report = _analysed(ONE_GPU_TEMPLATE)
    assert "workloads" not in report


def test_workload_kinds_are_never_called_unused():
    unused, unread = split_ignored(["ConfigMap settings", "DaemonSet agent", "Deployment web", "CronJob nightly"])
    assert unused == ["ConfigMap settings"]
    assert unread == ["DaemonSet agent", "Deployment web", "CronJob nightly"]


def test_allocate_on_the_command_line_allocates_the_first_pod_and_points_to_capacity(tmp_path):
    paths = write_files(tmp_path, inventory=TWO_NODE_INVENTORY, workload=ONE_GPU_TEMPLATE + workload_controller("StatefulSet", "db", "  replicas: 3"))
    done = cli("allocate", *paths)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [c["metadata"]["name"].startswith("db-0-gpu-") for c in out["claims"]] == [True]
    assert out["workloads"] == [{"kind": "StatefulSet", "name": "db", "namespace": "default", "replicas": 3,
                                 "pod": "db-0", "line": ONE_GPU_TEMPLATE.count("\n") + 2,
                                 "note": "×3 replicas: one analysed; see python -m allocator capacity"}]
    assert "note: StatefulSet/db: ×3 replicas: one analysed; see python -m allocator capacity" in done.stderr
    # A claim template that is not in the input: exit 2, said of the controller, in its file.
    paths = write_files(tmp_path, inventory=TWO_NODE_INVENTORY, workload=workload_controller("StatefulSet", "db", "  replicas: 3"))
    done = cli("allocate", *paths)
    assert done.returncode == 2
    assert "workload.yaml:2: StatefulSet 'db': pod \"db-0\": resource claim template \"gpu\" not found" in done.stderr


def test_validate_checks_a_controller_and_its_pod_template_as_allocate_reads_them(tmp_path):
    [path] = write_files(tmp_path, workload=ONE_GPU_TEMPLATE + workload_controller("Deployment", "web", "  replicas: -1"))
    done = cli("validate", "-o", "text", path)
    assert done.returncode == 1
    assert "Deployment \"web\": spec.replicas: Invalid value: -1: must be greater than or equal to 0" in done.stdout
    [path] = write_files(tmp_path, workload=ONE_GPU_TEMPLATE + workload_controller("Deployment", "web", "  replicas: 2"))
    done = cli("validate", "-o", "text", path)
    assert done.returncode == 0 and done.stdout.startswith("valid: ")
