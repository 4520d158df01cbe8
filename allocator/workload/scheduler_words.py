"""What kube-scheduler itself writes about a pod it could not place, beside the engine's own explanation.

The engine explains in detail why a node does not fit (``Attempt.reasons``); the scheduler states
each node's status in a few fixed words, and sums them up in the pod's PodScheduled condition.
These are the words a user sees in ``kubectl describe pod`` and the events, so the node table
shows both. Read in kubernetes/kubernetes at v1.34.4, v1.35.4, v1.36.3 and v1.37.2:

- a node's status is the first failing Filter plugin's reasons, joined with ", "
  (``Status.Message``). Of the default plugins the engine models NodeResourcesFit
  ("Insufficient NAME" for each resource short, ``noderesources/fit.go`` ``fitsRequest``) and,
  after it, DynamicResources: "cannot allocate all claims" when the allocator finds nothing,
  the allocator's own error when it fails on this node only (``ErrFailedAllocationOnNode``,
  "invalid resource pools were encountered"), "resourceclaim not available on the node" when the
  pending claims fit but an allocated claim of the pod does not reach the node;
- before any node, the DynamicResources PreFilter may refuse the pod ("request R: device class C does
  not exist", "... has subrequests, but the DRAPrioritizedList feature is disabled"): that is every
  node's status then (``workload.scheduling.prefilter_refusal``);
- the pod's message is ``FitError.Error()`` (``framework/types.go``): "0/N nodes are available:"
  then PreFilter's words, or else each distinct reason with the number of nodes giving it, sorted as strings, then the
  PostFilter plugins' messages joined with ", ": the DynamicResources plugin's (a release rule,
  ``postfilter_still_not_schedulable``) and DefaultPreemption's, which here is always "preemption:
  0/N nodes are available: N Preemption is not helpful for scheduling." (every status the engine
  gives is unresolvable: DRA's always, NodeResourcesFit's because the pod asks more than the
  allocatable, no other pod running there being modelled).

Not modelled (the engine does not simulate these plugins): node affinity, taints, nodeName,
ports, volumes, topology spread, pod affinity, and a pod with ``preemptionPolicy: Never``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from allocator.releases.rules import ReleaseRules

CANNOT_ALLOCATE = "cannot allocate all claims"
NOT_AVAILABLE = "resourceclaim not available on the node"
NOT_HELPFUL = "Preemption is not helpful for scheduling"
# The pod's message when the cluster has no Node at all (``scheduler.ErrNoNodesAvailable``): no node statuses.
NO_NODES = "no nodes available to schedule pods"


def node_status(*, insufficient: Sequence[str], error: str, allocated: bool, pinned: bool) -> str | None:
    """The scheduler's status for one node (None where the pod fits), from the first plugin that refuses it.

    ``insufficient``: the resources NodeResourcesFit finds short (it runs before DynamicResources);
    ``error``: the allocator's error on this node only; ``pinned``: an allocated claim does not reach it.
    """
    if insufficient:
        return ", ".join(f"Insufficient {name}" for name in insufficient)
    if error:
        return error
    if not allocated:
        return CANNOT_ALLOCATE
    if pinned:
        return NOT_AVAILABLE
    return None


def _available(counts: Counter[str], nodes: int) -> str:
    """``FitError.Error()``'s first part: "0/N nodes are available: 2 reason-a, 1 reason-b." (sorted as strings)."""
    histogram = sorted(f"{count} {reason}" for reason, count in counts.items())
    text = f"0/{nodes} nodes are available:"
    return f"{text} {', '.join(histogram)}." if histogram else text


def pod_message(statuses: Sequence[str], rules: ReleaseRules, pod_has_claims: bool, prefilter: str = "") -> str:
    """The PodScheduled message when no node fits: ``statuses`` is each node's status message.

    A status is counted once per reason it holds (NodeResourcesFit may give several, "Insufficient a,
    Insufficient b"); the PostFilter part follows the release (``rules.postfilter_still_not_schedulable``).
    When PreFilter refused the pod (``prefilter``), its words stand alone, without counts; the DRA
    plugin had not yet kept the pod's claims then, so its PostFilter finds none to deallocate.
    """
    counts: Counter[str] = Counter()
    for status in statuses:
        for reason in _reasons(status):
            counts[reason] += 1
    if prefilter:
        pod_has_claims = False
    post: list[str] = []
    if rules.postfilter_still_not_schedulable:
        post.append("still not schedulable" if pod_has_claims else "no new claims to deallocate")
    nodes = len(statuses)
    post.append("preemption: " + _available(Counter({NOT_HELPFUL: nodes}), nodes))
    available = f"0/{nodes} nodes are available: {prefilter}." if prefilter else _available(counts, nodes)
    return f"{available} {', '.join(post)}"


def _reasons(status: str) -> list[str]:
    """The reasons one node's status holds: NodeResourcesFit's are several, any other plugin's is one."""
    if status.startswith("Insufficient "):
        return status.split(", ")
    return [status]
