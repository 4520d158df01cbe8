"""What a set of documents asks the scheduler to allocate.

Claims that already carry ``status.allocation`` hold their devices. The rest
are allocated together, as the scheduler does for one pod: the claims of the
pods, in the order of each pod's ``spec.resourceClaims`` (claims from
templates are generated the way the resource-claim controller does). With no
pod, every pending claim is, in document order. A pending claim that no pod
names, beside a pod, is left as it is (``unnamed``): kube-scheduler schedules
a pod by its own claims only, and nothing else allocates a claim.
"""

from __future__ import annotations

from collections.abc import Iterable

from allocator.kube import model
from allocator.kube.convert import V1
from allocator.kube.objects import Document
from allocator.reading.records import field, record
from allocator.workload.pods import PodClaim, claims_for_pod


@record
class Workload:
    pending: list[model.ResourceClaim] = field(default_factory=list)
    allocated: list[model.ResourceClaim] = field(default_factory=list)
    pods: list[model.Pod] = field(default_factory=list)
    pod_claims: dict[str, list[PodClaim]] = field(default_factory=dict)  # pod name -> its claims
    # Pending claims no pod names, when there are pods: the scheduler leaves them pending.
    unnamed: list[model.ResourceClaim] = field(default_factory=list)


def _key(claim: model.ResourceClaim) -> tuple[str, str]:
    return claim.metadata.namespace, claim.metadata.name


def build_workload(claims: list[model.ResourceClaim], templates: list[model.ResourceClaimTemplate],
                   pods: list[model.Pod]) -> Workload:
    """Raises pods.PodClaimError when a pod refers to a claim or template that is missing."""
    work = Workload(allocated=[c for c in claims if c.status.allocation is not None], pods=list(pods))
    seen: set[tuple[str, str]] = set()
    for pod in pods:
        resolved = claims_for_pod(pod, claims, templates)
        work.pod_claims[pod.metadata.name] = resolved
        for pod_claim in resolved:
            claim = pod_claim.claim
            if claim.status.allocation is None and _key(claim) not in seen:
                seen.add(_key(claim))
                work.pending.append(claim)
    for claim in claims:
        if claim.status.allocation is None and _key(claim) not in seen:
            seen.add(_key(claim))
            (work.unnamed if pods else work.pending).append(claim)
    return work


def claim_api_versions(documents: Iterable[Document], work: Workload) -> dict[int, str]:
    """id(pending claim) -> the apiVersion to print it in.

    A claim is printed in the version it was written in; a claim generated
    from a template in the template's version (the one its spec was written in).
    Claims not found (none in practice) are printed in v1.
    """
    documents = list(documents)
    written = {id(d.obj): d.api_version for d in documents if d.kind == "ResourceClaim"}
    templates = {(d.namespace, d.name): d.api_version for d in documents if d.kind == "ResourceClaimTemplate"}
    out = {id(c): written.get(id(c), V1) for c in work.pending}
    pods = {pod.metadata.name: pod for pod in work.pods}
    for pod_name, pod_claims in work.pod_claims.items():
        namespace = pods[pod_name].metadata.namespace
        for pod_claim in pod_claims:
            if pod_claim.template_name is not None and id(pod_claim.claim) in out:
                out[id(pod_claim.claim)] = templates.get((namespace, pod_claim.template_name), V1)
    return out
