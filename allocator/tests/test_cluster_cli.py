"""A real cluster's size through the command line: a 1,000-node kubectl dump gives the answer of its parts.

The cluster is ``allocator.synthetic``'s (1,000 nodes, 8 GPUs each, 4.8 MB
of YAML, more values than the site lets anonymous text have). The command
line must read it with its default limits and answer, for any node, exactly
what it answers for an inventory of that node alone (its Node, its slice and
the DeviceClasses): nodes do not see each other's devices. Speed is
bench/cluster_bench.py's business, not this test's.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from allocator.synthetic import cluster_json, cluster_yaml, node_name, synthetic_cluster
from allocator.tests.helpers import BENCH_CLAIM, cli

NODES = 1000


def run(*args: str) -> subprocess.CompletedProcess:
    return cli(*args, timeout=600)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    where = tmp_path_factory.mktemp("cluster")
    (where / "cluster.yaml").write_text(cluster_yaml(NODES))
    (where / "claim.yaml").write_text(BENCH_CLAIM)
    return where


def _alone(where: Path, node: str) -> str:
    """An inventory of one node: the DeviceClasses, its slice and its Node."""
    items = synthetic_cluster(NODES)["items"]
    keep = [i for i in items if i["kind"] == "DeviceClass"
            or (i["kind"] == "ResourceSlice" and i["spec"]["nodeName"] == node)
            or (i["kind"] == "Node" and i["metadata"]["name"] == node)]
    path = where / f"{node}.yaml"
    path.write_text(yaml.safe_dump_all(keep))
    return str(path)


def test_every_node_of_a_1000_node_dump_is_answered_as_the_node_alone(cluster):
    proc = run("allocate", str(cluster / "cluster.yaml"), str(cluster / "claim.yaml"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    answer = json.loads(proc.stdout)
    table = answer["nodes"]
    assert [row["name"] for row in table] == [node_name(i) for i in range(NODES)]
    fitting = [row["name"] for row in table if row["fits"]]
    assert 0 < len(fitting) < NODES and answer["node"] == fitting[0]
    refused = [row for row in table if not row["fits"]]
    first_refused, last_refused = refused[0], refused[-1]  # the last one shares an earlier node's answer
    for node in (fitting[0], first_refused["name"], last_refused["name"]):
        alone = run("allocate", "--node", node, _alone(cluster, node), str(cluster / "claim.yaml"))
        whole = run("allocate", "--node", node, str(cluster / "cluster.yaml"), str(cluster / "claim.yaml"))
        assert (alone.returncode, alone.stdout, alone.stderr) == (whole.returncode, whole.stdout, whole.stderr)
        if node == fitting[0]:
            assert json.loads(whole.stdout)["claims"] == answer["claims"]
        for row in (first_refused, last_refused):
            if node == row["name"]:
                assert whole.returncode == 1 and row["reason"] in whole.stderr


def test_the_json_dump_gives_the_same_answer(cluster):
    (cluster / "cluster.json").write_text(cluster_json(NODES))
    node = node_name(0)
    from_json = run("allocate", "--node", node, str(cluster / "cluster.json"), str(cluster / "claim.yaml"))
    from_yaml = run("allocate", "--node", node, str(cluster / "cluster.yaml"), str(cluster / "claim.yaml"))
    assert from_json.returncode in (0, 1)
    assert (from_json.returncode, from_json.stdout) == (from_yaml.returncode, from_yaml.stdout)


def test_the_dump_is_refused_with_the_sites_old_cap_and_says_which_flag_to_raise(cluster):
    proc = run("validate", "--max-values", "200000", str(cluster / "cluster.yaml"))
    assert proc.returncode == 2
    (error,) = json.loads(proc.stdout)["errors"]
    assert error["detail"] == "document too large: more than 200000 values; change it with --max-values"
    assert run("validate", str(cluster / "cluster.yaml")).returncode == 0
