"""kube-scheduler's own words for a node and for the pod (workload.scheduler_words), per release."""

from allocator.releases.rules import rules_of
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
