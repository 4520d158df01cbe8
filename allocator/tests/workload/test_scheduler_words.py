"""kube-scheduler's own words for a node and for the pod (workload.scheduler_words), per release."""

import json

from allocator.releases.rules import rules_of
from allocator.tests.helpers import cli
from allocator.workload.scheduler_words import node_status, pod_message


def test_the_first_plugin_that_refuses_the_node_speaks():
    # NodeResourcesFit runs before DynamicResources and names every resource short
    assert node_status(insufficient=["a.com/x", "b.com/y"], error="", allocated=False, pinned=False) == (
        "Insufficient a.com/x, Insufficient b.com/y")
    assert node_status(insufficient=[], error="invalid resource pools were encountered", allocated=False,
                       pinned=False) == "invalid resource pools were encountered"
    assert node_status(insufficient=[], error="", allocated=False, pinned=True) == "cannot allocate all claims"
    # the pending claims fit, an allocated one does not reach the node
    assert node_status(insufficient=[], error="", allocated=True, pinned=True) == (
        "resourceclaim not available on the node")
    assert node_status(insufficient=[], error="", allocated=True, pinned=False) is None


def test_the_pod_message_counts_each_reason_and_sorts_them_as_strings():
    statuses = ["cannot allocate all claims", "Insufficient a.com/x, Insufficient b.com/y", "cannot allocate all claims"]
    assert pod_message(statuses, rules_of("1.37"), pod_has_claims=True) == (
        "0/3 nodes are available: 1 Insufficient a.com/x, 1 Insufficient b.com/y, 2 cannot allocate all claims. "
        "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.")


def test_up_to_1_36_the_dra_postfilter_adds_its_words():
    assert pod_message(["cannot allocate all claims"] * 2, rules_of("1.36"), pod_has_claims=True) == (
        "0/2 nodes are available: 2 cannot allocate all claims. still not schedulable, "
        "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    assert pod_message(["Insufficient a.com/x"], rules_of("1.34"), pod_has_claims=False) == (
        "0/1 nodes are available: 1 Insufficient a.com/x. no new claims to deallocate, "
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.")


# A pod whose claim asks for two devices where the one node has one.
CLUSTER = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec: {driver: gpu.example.com, nodeName: n1, pool: {name: p, generation: 1, resourceSliceCount: 1}, devices: [{name: d0}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu, count: 2}}]}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers: [{name: m, image: x, resources: {claims: [{name: c}]}}]
  resourceClaims: [{name: c, resourceClaimName: c}]
"""
NODE = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
"""


def test_the_command_line_gives_the_scheduler_words_beside_the_explanation():
    done = cli("allocate", "--kubernetes-version", "1.36", "-", stdin=CLUSTER + "---\n" + NODE)
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    [node] = out["nodes"]
    assert node["reason"] == "claim default/c, request r: needs 2 device(s), 1 of 1 in reach match"
    assert node["schedulerReason"] == "cannot allocate all claims"
    assert out["schedulerMessage"] == (
        "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, "
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.")
    # With --node the same words end stderr.
    done = cli("allocate", "--node", "n1", "-", stdin=CLUSTER + "---\n" + NODE)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-2:] == [
        "  kube-scheduler: cannot allocate all claims",
        "  PodScheduled: 0/1 nodes are available: 1 cannot allocate all claims. "
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."]


def test_without_node_objects_the_scheduler_knows_no_node():
    # The nodes the slices name are tried, but kube-scheduler has no Node: checked with the 1.37 harness.
    done = cli("allocate", "-", stdin=CLUSTER)
    out = json.loads(done.stdout)
    assert [n["schedulerReason"] for n in out["nodes"]] == [None]
    assert out["schedulerMessage"] == "no nodes available to schedule pods"


def test_prefilter_refuses_a_pod_whose_claim_names_a_missing_class():
    # Checked with the 1.37 and 1.36 harness: unschedulable, not an error, every node with PreFilter's words.
    text = CLUSTER.replace("deviceClassName: gpu, count: 2", "deviceClassName: nosuch, count: 1") + "---\n" + NODE
    done = cli("allocate", "--kubernetes-version", "1.36", "-", stdin=text)
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    assert [n["schedulerReason"] for n in out["nodes"]] == ["request r: device class nosuch does not exist"]
    assert out["schedulerMessage"] == (
        "0/1 nodes are available: request r: device class nosuch does not exist. no new claims to deallocate, "
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.")
    # The claim alone (no pod): the allocator's own error, as before.
    alone = text.split("---\napiVersion: v1\nkind: Pod")[0] + "---\n" + NODE
    done = cli("allocate", "--kubernetes-version", "1.36", "-", stdin=alone)
    assert done.returncode == 2 and "could not retrieve device class nosuch" in done.stderr


def test_prefilter_refuses_a_stored_claim_with_subrequests_while_the_gate_is_off():
    stored = CLUSTER.replace("metadata: {name: c, namespace: default}",
                             'metadata: {name: c, namespace: default, uid: "u1", resourceVersion: "5"}').replace(
        "requests: [{name: r, exactly: {deviceClassName: gpu, count: 2}}]",
        "requests: [{name: r, firstAvailable: [{name: a, deviceClassName: gpu}]}]")
    done = cli("allocate", "--kubernetes-version", "1.36", "--feature-gates", "DRAPrioritizedList=false", "-",
               stdin=stored + "---\n" + NODE)
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    words = "resource claim default/c, request r: has subrequests, but the DRAPrioritizedList feature is disabled"
    assert [n["schedulerReason"] for n in out["nodes"]] == [words]
    assert out["schedulerMessage"].startswith(f"0/1 nodes are available: {words}. no new claims to deallocate, ")
