"""Pods and their claims: what the resource-claim controller and the kubelet do.

``claims_for_pod`` resolves a pod's ``spec.resourceClaims``: a named claim is
looked up, a template is instantiated the way the resource-claim controller
does it (``<pod>-<claim>-`` as generateName, the template's labels and
annotations, the pod as owner). The apiserver would add five random
characters to the name; we derive them from a hash so that the same input
always gives the same name.

``container_devices`` answers, for every container, which allocated devices
the kubelet hands to the DRA drivers: all results of a referenced claim, or
only those of the named request (results of subrequests ``req/sub`` belong
to ``req``).
"""

from __future__ import annotations

from allocator.kube import model
from allocator.reading.records import deep_copy_of, field, record

# Annotation the controller puts on generated claims (k8s.io/api resource/v1).
POD_CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/pod-claim-name"
# The alphabet of apimachinery's rand.String: no vowels, no confusable digits.
_NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
_MAX_BASE_LEN = 57


class PodClaimError(ValueError):
    """A pod refers to a claim or template that is not in the input."""


@record
class PodClaim:
    """One entry of the pod's spec.resourceClaims, resolved to a ResourceClaim."""

    pod_claim_name: str
    claim: model.ResourceClaim
    template_name: str | None = None  # set when generated from a template


def generated_claim_base(pod_name: str, pod_claim_name: str) -> str:
    """The controller's generateName, truncating both parts proportionally when too long."""
    base = f"{pod_name}-{pod_claim_name}-"
    if len(base) > _MAX_BASE_LEN:
        total = len(base)
        base = f"{pod_name[: len(pod_name) * _MAX_BASE_LEN // total]}-{pod_claim_name[: len(pod_claim_name) * _MAX_BASE_LEN // total]}"
    return base


def _stable_suffix(namespace: str, pod_name: str, pod_claim_name: str) -> str:
    import hashlib  # deferred: only claims from templates need it (start-up, docs/performance.md)

    digest = hashlib.sha256(f"{namespace}/{pod_name}/{pod_claim_name}".encode()).digest()
    return "".join(_NAME_ALPHABET[b % len(_NAME_ALPHABET)] for b in digest[:5])


def claim_from_template(pod: model.Pod, pod_claim: model.PodResourceClaim,
                        template: model.ResourceClaimTemplate) -> model.ResourceClaim:
    meta = template.spec.metadata
    base = generated_claim_base(pod.metadata.name, pod_claim.name)
    annotations = dict(meta.annotations)
    annotations[POD_CLAIM_NAME_ANNOTATION] = pod_claim.name
    return model.ResourceClaim(
        metadata=model.ObjectMeta(
            name=base + _stable_suffix(pod.metadata.namespace, pod.metadata.name, pod_claim.name),
            generate_name=base,
            namespace=pod.metadata.namespace,
            labels=dict(meta.labels),
            annotations=annotations,
        ),
        spec=deep_copy_of(template.spec.spec),
    )


def claims_for_pod(pod: model.Pod, claims: list[model.ResourceClaim],
                   templates: list[model.ResourceClaimTemplate]) -> list[PodClaim]:
    """Resolve every pod claim; raises PodClaimError for a missing claim or template."""
    ns = pod.metadata.namespace
    claims_by_name = {c.metadata.name: c for c in claims if c.metadata.namespace == ns}
    templates_by_name = {t.metadata.name: t for t in templates if t.metadata.namespace == ns}
    out = []
    for pod_claim in pod.spec.resource_claims:
        if pod_claim.resource_claim_name:
            claim = claims_by_name.get(pod_claim.resource_claim_name)
            if claim is None:
                raise PodClaimError(f'pod "{pod.metadata.name}": resourceclaim "{pod_claim.resource_claim_name}" not found')
            out.append(PodClaim(pod_claim.name, claim))
        elif pod_claim.resource_claim_template_name:
            template = templates_by_name.get(pod_claim.resource_claim_template_name)
            if template is None:
                raise PodClaimError(f'pod "{pod.metadata.name}": resource claim template '
                                    f'"{pod_claim.resource_claim_template_name}" not found')
            out.append(PodClaim(pod_claim.name, claim_from_template(pod, pod_claim, template),
                                template_name=template.metadata.name))
        # An entry with neither source is a validation error, reported there.
    return out


def base_request(request_ref: str) -> str:
    """``req/sub`` belongs to ``req``."""
    return request_ref.split("/", 1)[0]


@record
class ContainerDevices:
    pod: str
    container: str
    init: bool
    pod_claim: str
    claim: str
    request: str  # "" means the whole claim
    devices: list[model.DeviceRequestAllocationResult] = field(default_factory=list)


def container_devices(pod: model.Pod, pod_claims: list[PodClaim],
                      allocations: dict[str, model.AllocationResult]) -> list[ContainerDevices]:
    """Per container and claim reference: the allocated devices it receives.

    ``allocations`` maps claim names to their allocation; claims without one
    give an empty device list.
    """
    by_pod_claim = {pc.pod_claim_name: pc for pc in pod_claims}
    out = []
    containers = [(c, True) for c in pod.spec.init_containers] + [(c, False) for c in pod.spec.containers]
    for container, init in containers:
        for ref in container.claims:
            pod_claim = by_pod_claim.get(ref.name)
            if pod_claim is None:
                continue  # a dangling reference is a validation error
            name = pod_claim.claim.metadata.name
            allocation = allocations.get(name)
            results = allocation.devices.results if allocation else []
            if ref.request:
                results = [r for r in results if base_request(r.request) == ref.request]
            out.append(ContainerDevices(pod=pod.metadata.name, container=container.name, init=init,
                                        pod_claim=ref.name, claim=name, request=ref.request, devices=list(results)))
    return out
