"""What the plugin reads from the cluster, and nothing more.

Every read is listed in ``READS`` so the documented ClusterRole and the code
cannot drift apart (a test holds them to each other). ``resource.k8s.io`` is
read in the version the cluster prefers for each resource (discovery), so a
1.33 cluster's v1beta1 and a 1.37 cluster's v1 both arrive as served.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kubectl_dra.connection import Access, ClusterError, Connection, NotFound

GROUP = "resource.k8s.io"

# Everything any command reads: (verb, API group, resource, scope). The ClusterRole grants exactly these.
READS = (
    Access("get", "", "pods", "namespace"),
    Access("list", "", "nodes"),
    Access("list", GROUP, "deviceclasses"),
    Access("list", GROUP, "resourceslices"),
    Access("list", GROUP, "devicetaintrules"),
    Access("list", GROUP, "resourceclaims"),
    Access("get", GROUP, "resourceclaims", "namespace"),
    Access("list", GROUP, "resourceclaimtemplates"),
    Access("get", GROUP, "resourceclaimtemplates", "namespace"),
)
# Non-resource URLs: the release and, when allowed, the feature gates.
READS_NON_RESOURCE = ("/version", "/metrics")


@dataclass
class DraApi:
    """The group version the cluster serves each resource.k8s.io resource in."""

    versions: dict[str, str] = field(default_factory=dict)  # plural -> "resource.k8s.io/v1"

    def path(self, resource: str, namespace: str | None = None, name: str | None = None) -> str | None:
        version = self.versions.get(resource)
        if version is None:
            return None
        scope = f"/namespaces/{namespace}" if namespace else ""
        return f"/apis/{version}{scope}/{resource}" + (f"/{name}" if name else "")


def discover(connection: Connection) -> DraApi:
    """The versions of resource.k8s.io the cluster serves, preferred first, and which holds each resource."""
    try:
        group = connection.get(f"/apis/{GROUP}", Access("get", "", "nonResourceURLs /apis"))
    except NotFound:
        raise ClusterError(f"the cluster serves no {GROUP} API: Dynamic Resource Allocation is not enabled "
                           "on its apiserver") from None
    order = [group.get("preferredVersion", {}).get("groupVersion")]
    order += [v["groupVersion"] for v in group.get("versions", []) if v["groupVersion"] not in order]
    api = DraApi()
    for group_version in filter(None, order):
        listing = connection.get(f"/apis/{group_version}", Access("get", "", "nonResourceURLs /apis"))
        for resource in listing.get("resources", []):
            if "/" not in resource["name"] and "list" in resource.get("verbs", []):
                api.versions.setdefault(resource["name"], group_version)
    return api


@dataclass
class Inventory:
    """The cluster-wide objects the scheduler's DRA plugin reads, as served."""

    device_classes: list[dict] = field(default_factory=list)
    slices: list[dict] = field(default_factory=list)
    taint_rules: list[dict] = field(default_factory=list)
    nodes: list[dict] = field(default_factory=list)
    claims: list[dict] = field(default_factory=list)  # every namespace's; the allocated ones hold devices

    def allocated_claims(self, except_keys: set[tuple[str, str]] = frozenset()) -> list[dict]:
        return [c for c in self.claims if (c.get("status") or {}).get("allocation")
                and key(c) not in except_keys]

    @property
    def counts(self) -> dict[str, int]:
        return {"deviceClasses": len(self.device_classes), "resourceSlices": len(self.slices),
                "deviceTaintRules": len(self.taint_rules), "nodes": len(self.nodes),
                "resourceClaims": len(self.claims)}


def key(obj: dict) -> tuple[str, str]:
    metadata = obj.get("metadata") or {}
    return metadata.get("namespace") or "", metadata.get("name") or ""


def read_inventory(connection: Connection, api: DraApi) -> Inventory:
    """Classes, slices, taint rules, nodes and every claim, each list read page by page."""
    def dra_list(resource: str) -> list[dict]:
        path = api.path(resource)
        if path is None:  # e.g. DeviceTaintRules, served only with their alpha/beta version enabled
            return []
        return connection.list(path, Access("list", GROUP, resource), resource)

    inventory = Inventory(
        device_classes=dra_list("deviceclasses"),
        slices=dra_list("resourceslices"),
        taint_rules=dra_list("devicetaintrules"),
        nodes=connection.list("/api/v1/nodes", Access("list", "", "nodes"), "nodes"),
        claims=dra_list("resourceclaims"),
    )
    return inventory


def read_pod(connection: Connection, namespace: str, name: str) -> dict:
    try:
        pod = connection.get(f"/api/v1/namespaces/{namespace}/pods/{name}",
                             Access("get", "", "pods", namespace))
    except NotFound:
        raise ClusterError(f'pod "{name}" not found in namespace "{namespace}"') from None
    return {"apiVersion": "v1", "kind": "Pod", **{k: v for k, v in pod.items() if k not in ("apiVersion", "kind")}}


def read_named(connection: Connection, api: DraApi, resource: str, namespace: str, name: str) -> dict | None:
    """One claim or template by name, or None when it is not there (the analysis then says what is missing)."""
    path = api.path(resource, namespace, name)
    if path is None:
        return None
    try:
        obj = connection.get(path, Access("get", GROUP, resource, namespace))
    except NotFound:
        return None
    return obj


@dataclass
class PodClaims:
    """A pod's claims as the scheduler finds them, and the templates whose claim is not made yet."""

    claims: list[dict] = field(default_factory=list)
    templates: list[dict] = field(default_factory=list)
    generated: dict[str, str] = field(default_factory=dict)  # pod claim name -> claim made from its template
    missing: list[str] = field(default_factory=list)


def pod_claims(connection: Connection, api: DraApi, pod: dict) -> PodClaims:
    """The claims and templates a pod's ``spec.resourceClaims`` name.

    A template's claim that the resource-claim controller already made is in
    ``status.resourceClaimStatuses``: the scheduler uses that claim, so do we.
    """
    namespace = pod["metadata"].get("namespace") or "default"
    made = {s["name"]: s.get("resourceClaimName") for s in (pod.get("status") or {}).get("resourceClaimStatuses") or []}
    out = PodClaims()
    for entry in (pod.get("spec") or {}).get("resourceClaims") or []:
        claim_name = entry.get("resourceClaimName") or made.get(entry["name"])
        if claim_name:
            claim = read_named(connection, api, "resourceclaims", namespace, claim_name)
            if claim is None:
                out.missing.append(f"resourceclaim {namespace}/{claim_name}")
            else:
                out.claims.append(claim)
                if not entry.get("resourceClaimName"):
                    out.generated[entry["name"]] = claim_name
            continue
        template_name = entry.get("resourceClaimTemplateName")
        if template_name:
            template = read_named(connection, api, "resourceclaimtemplates", namespace, template_name)
            if template is None:
                out.missing.append(f"resourceclaimtemplate {namespace}/{template_name}")
            else:
                out.templates.append(template)
    return out


def as_scheduled(pod: dict, generated: dict[str, str]) -> dict:
    """The pod with each template entry whose claim exists pointing at that claim, as the scheduler reads it."""
    if not generated:
        return pod
    spec = dict(pod.get("spec") or {})
    spec["resourceClaims"] = [
        {"name": e["name"], "resourceClaimName": generated[e["name"]]} if e["name"] in generated else e
        for e in spec.get("resourceClaims") or []]
    return {**pod, "spec": spec}


def pod_condition(pod: dict, condition: str = "PodScheduled") -> dict | None:
    for entry in (pod.get("status") or {}).get("conditions") or []:
        if entry.get("type") == condition:
            return entry
    return None
