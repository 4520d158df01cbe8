"""A pod's allocated claims pin its node; when no node fits, the scheduler frees one and tries again.

The scheduler's DRA plugin rejects, in Filter, a node that the allocation
of one of the pod's already allocated claims does not reach (its
``nodeSelector`` does not match): "resourceclaim not available on the node".
It notes such a claim only on nodes where the pod's pending claims could
be allocated (a node that fails the allocation fails for that reason).
When no node fits, PostFilter deallocates one noted claim that no other
pod uses (``status.reservedFor`` is empty or names only this pod), and the
next scheduling attempt starts over with that claim pending again. Upstream
picks that claim at random among the noted ones; we take the first in the
order of the pods' ``spec.resourceClaims``.

Only claims of a Pod in the input are pinned: a standalone allocated claim
just holds its devices.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from allocator.allocation.nodes import selector_matches
from allocator.kube import model
from allocator.kube.objects import Document
from allocator.reading.records import copy_of
from allocator.workload.claims import Workload

# Upstream's words for a node the pod's allocated claims do not reach (Filter's status).
UPSTREAM_REASON = "resourceclaim not available on the node"


def _key(claim: model.ResourceClaim) -> tuple[str, str]:
    return claim.metadata.namespace, claim.metadata.name


def claim_name(claim: model.ResourceClaim) -> str:
    return claim.metadata.name or claim.metadata.generate_name


def pinned_claims(work: Workload) -> list[model.ResourceClaim]:
    """The allocated claims of the input's pods whose allocation names nodes, in the pods' order, once each."""
    seen: set[tuple[str, str]] = set()
    out = []
    for pod in work.pods:
        for pod_claim in work.pod_claims.get(pod.metadata.name, []):
            claim = pod_claim.claim
            allocation = claim.status.allocation
            if allocation is None or allocation.node_selector is None or _key(claim) in seen:
                continue
            seen.add(_key(claim))
            out.append(claim)
    return out


def unavailable_on(pinned: Iterable[model.ResourceClaim], node: model.Node) -> list[model.ResourceClaim]:
    """The pinned claims whose allocation's node selector does not match ``node``."""
    out = []
    for claim in pinned:
        allocation = claim.status.allocation
        assert allocation is not None and allocation.node_selector is not None, "pinned: allocated to some nodes"
        try:
            matches = selector_matches(allocation.node_selector, node)
        except ValueError:  # a selector the apiserver would not have stored: it matches no node
            matches = False
        if not matches:
            out.append(claim)
    return out


def pin_reason(claims: Sequence[model.ResourceClaim]) -> str:
    """The node table's reason for a node that the pod's allocated claims do not reach."""
    names = ", ".join(f"{c.metadata.namespace}/{claim_name(c)}" if c.metadata.namespace else claim_name(c)
                      for c in claims)
    noun = "claim" if len(claims) == 1 else "claims"
    verb = "is" if len(claims) == 1 else "are"
    return f"{noun} {names} {verb} allocated on devices this node cannot use ({UPSTREAM_REASON})"


def _reserved_for_pod(ref: model.ResourceClaimConsumerReference, pod: model.Pod) -> bool:
    """Whether a reservedFor entry names this pod: by UID as upstream, or by name when the pod has no UID."""
    if pod.metadata.uid:
        return ref.uid == pod.metadata.uid
    return ref.resource == "pods" and ref.name == pod.metadata.name


def users(claim: model.ResourceClaim, work: Workload) -> list[model.Pod]:
    """The input's pods that use this claim."""
    return [pod for pod in work.pods
            if any(_key(pc.claim) == _key(claim) for pc in work.pod_claims.get(pod.metadata.name, []))]


def freeable(claim: model.ResourceClaim, work: Workload) -> bool:
    """Whether PostFilter may deallocate the claim: reserved for nobody, or only for a pod that uses it here."""
    reserved = claim.status.reserved_for
    if not reserved:
        return True
    return len(reserved) == 1 and any(_reserved_for_pod(reserved[0], pod) for pod in users(claim, work))


def deallocated(documents: Sequence[Document], freed: model.ResourceClaim) -> list[Document]:
    """The documents with ``freed``'s replaced by one holding a copy whose status is cleared, as PostFilter
    clears allocation and reservedFor (the others are the same objects)."""
    out = []
    for doc in documents:
        if doc.obj is freed:
            claim = copy_of(freed)
            claim.status = model.ResourceClaimStatus()
            doc = copy_of(doc)
            doc.obj = claim
        out.append(doc)
    return out
