"""Extended resources backed by DRA (``DRAExtendedResource``: alpha 1.34-1.35, beta 1.36, GA 1.37).

A container may ask for an extended resource (``nvidia.com/gpu: 2``) in
``resources.requests``/``limits``. When a DeviceClass names that resource in
``spec.extendedResourceName``, or the resource is the class's implicit name
``deviceclass.resource.kubernetes.io/<class>``, the scheduler's DRA plugin
serves it on nodes whose ``status.allocatable`` does not: it builds one claim
per pod and node (``<pod>-extended-resources-`` as generateName, the
annotation ``resource.kubernetes.io/extended-resource-claim: "true"``, one
request per container and resource named ``container-<i>-request-<j>``),
allocates it together with the pod's own claims, placed after them, and
records in the pod's ``status.extendedResourceClaimStatus`` which request
serves which container.

What differs per release (read in the plugin at each release; the rules are
``releases.rules.ReleaseRules``' ``implicit_extended_names``,
``newest_class_serves_extended_name``, ``zero_allocatable_left_to_dra`` and
``init_containers_reuse_devices``):

- 1.34: a node that lists the resource in its allocatable at all serves it
  by device plugin; a resource's generated requests cover every resource the
  classes map, including those the node serves by device plugin, whenever
  the claim is built; only names outside ``kubernetes.io`` count (so the
  implicit ``deviceclass.resource.kubernetes.io/`` names are not served); a
  class with ``extendedResourceName`` has no implicit name; two classes with
  one name resolve in the informer's list order (unspecified: we take the
  first by name and say so).
- 1.35 onwards: a listing of 0 still leaves the resource to DRA; the implicit
  name of every class counts; two classes with one name: the newer
  (``creationTimestamp``) wins, equal times the lower name; init containers
  that are not sidecars reuse the devices of the containers started after
  them, and only the largest of their own requests is kept.

The device plugin side (noderesources) is modelled only as far as the node's
allocatable: other pods' use of it is not known here.
"""

from __future__ import annotations

from typing import Any

from allocator.allocation.allocator import AllocationOutcome, Allocator
from allocator.kube import model
from allocator.kube.quantity import Quantity
from allocator.reading.records import field, record
from allocator.releases.gates import FeatureGates

GATE = "DRAExtendedResource"
CLAIM_ANNOTATION = "resource.kubernetes.io/extended-resource-claim"
IMPLICIT_PREFIX = "deviceclass.resource.kubernetes.io/"
_NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"


def enabled(gates: FeatureGates) -> bool:
    return bool(gates.values.get(GATE, False))


def _is_native(name: str) -> bool:
    return "/" not in name or "kubernetes.io/" in name


def is_extended(name: str, gates: FeatureGates) -> bool:
    """Whether the plugin looks at ``name``: an extended resource (1.35+: or a class's implicit name)."""
    if not _is_native(name) and not name.startswith("requests."):
        return True
    return gates.release_rules.implicit_extended_names and name.startswith(IMPLICIT_PREFIX)


def _quantity(text: str) -> Quantity | None:
    try:
        return Quantity.parse(text)
    except ValueError:
        return None


def _count(text: str) -> int:
    """A request as a whole number (0 when it is not one, as the plugin skips it)."""
    q = _quantity(text)
    value = q.as_integer() if q is not None else None
    return value or 0


def _key_time(text: str) -> float:
    """A creationTimestamp in seconds; none (or unreadable) counts as the oldest."""
    # Deferred, as hashlib below: only pods asking for extended resources need it (start-up).
    from datetime import datetime

    try:
        stamp = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return float("-inf")
    return stamp.timestamp() if stamp.tzinfo is not None else float("-inf")


@record
class ClassMapping:
    """Extended resource name -> the DeviceClass that serves it, with notes on names several classes share."""

    classes: dict[str, model.DeviceClass] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def class_mapping(classes: list[model.DeviceClass], gates: FeatureGates) -> ClassMapping:
    out = ClassMapping()
    explicit: dict[str, list[model.DeviceClass]] = {}
    rules = gates.release_rules
    for klass in sorted(classes, key=lambda c: c.metadata.name):
        name = klass.spec.extended_resource_name
        if name:
            explicit.setdefault(name, []).append(klass)
        if rules.implicit_extended_names or not name:
            out.classes[IMPLICIT_PREFIX + klass.metadata.name] = klass
    for name, candidates in explicit.items():
        if rules.newest_class_serves_extended_name:
            # the newest wins; at equal times the lower name
            winner = min(candidates, key=lambda c: (-_key_time(c.metadata.creation_timestamp), c.metadata.name))
            if len(candidates) > 1:
                out.notes.append(f"{name}: DeviceClasses {', '.join(c.metadata.name for c in candidates)} all name it; "
                                 f"{winner.metadata.name} serves it (the newest creationTimestamp, then the lowest name)")
        else:
            winner = candidates[0]
            if len(candidates) > 1:
                out.notes.append(f"{name}: DeviceClasses {', '.join(c.metadata.name for c in candidates)} all name it; "
                                 f"this release's scheduler takes whichever its informer lists last (unspecified); "
                                 f"shown with {winner.metadata.name}")
        out.classes[name] = winner
    return out


def _sidecar(container: model.Container, init: bool) -> bool:
    return init and container.restart_policy == "Always"


def pod_requests(pod: model.Pod) -> dict[str, int]:
    """The pod's effective request per resource (whole numbers), as the scheduler sums containers.

    Regular containers and sidecars add up; a plain init container runs alone
    (beside the sidecars started before it), so the pod needs the larger of the two.
    """
    total: dict[str, int] = {}
    init_peak: dict[str, int] = {}
    sidecars: dict[str, int] = {}
    for container in pod.spec.init_containers:
        if _sidecar(container, True):
            for name, text in container.requests.items():
                sidecars[name] = sidecars.get(name, 0) + _count(text)
                total[name] = total.get(name, 0) + _count(text)
        else:
            for name, text in container.requests.items():
                init_peak[name] = max(init_peak.get(name, 0), _count(text) + sidecars.get(name, 0))
    for container in pod.spec.containers:
        for name, text in container.requests.items():
            total[name] = total.get(name, 0) + _count(text)
    return {name: max(total.get(name, 0), init_peak.get(name, 0)) for name in set(total) | set(init_peak)}


@record
class Mapping:
    """One entry of ``status.extendedResourceClaimStatus.requestMappings``."""

    container: str
    resource: str
    request: str

    def to_dict(self) -> dict[str, str]:
        return {"containerName": self.container, "resourceName": self.resource, "requestName": self.request}


@record
class NodePlan:
    """What the plugin decides for one pod on one node."""

    dra: dict[str, int] = field(default_factory=dict)  # resource -> count served by DRA here
    device_plugin: dict[str, int] = field(default_factory=dict)  # resource -> count left to the device plugin
    unfit: str = ""  # why the node does not fit before any allocation
    # Every resource the scheduler's NodeResourcesFit finds short here, by name (its "Insufficient NAME")
    insufficient: list[str] = field(default_factory=list)
    claim: model.ResourceClaim | None = None
    mappings: list[Mapping] = field(default_factory=list)

    def key(self) -> tuple[Any, ...]:
        """Nodes with equal keys get the same generated claim."""
        if self.claim is None:
            return ()
        return tuple((r.name, _exactly(r).device_class_name, _exactly(r).count)
                     for r in self.claim.spec.devices.requests)


@record
class PodPlan:
    """The pod's extended resources that some DeviceClass maps (the plugin's PreFilter)."""

    pod: model.Pod
    requests: dict[str, int]
    mapping: ClassMapping


def pod_plan(pod: model.Pod, mapping: ClassMapping, gates: FeatureGates) -> PodPlan | None:
    """None when the pod asks for no extended resource at all.

    With the gate off (or no class mapping any of them) the plan still checks
    each node's allocatable, as the scheduler's noderesources plugin does,
    but builds no claim.
    """
    requests = {name: count for name, count in pod_requests(pod).items() if count}
    if not enabled(gates):
        mapping = ClassMapping()
    if not any(is_extended(name, gates) if enabled(gates) else _classic_extended(name) for name in requests):
        return None
    if not any(is_extended(name, gates) and name in mapping.classes for name in requests):
        mapping = ClassMapping(notes=mapping.notes)  # the DRA plugin has nothing to do for this pod
    return PodPlan(pod=pod, requests=requests, mapping=mapping)


def _classic_extended(name: str) -> bool:
    return not _is_native(name) and not name.startswith("requests.")


def node_plan(plan: PodPlan, node: model.Node, gates: FeatureGates, has_user_claims: bool,
              used: dict[str, int] | None = None) -> NodePlan:
    """``used``: what the node's device plugin already gave out (capacity planning's earlier copies)."""
    out = NodePlan(insufficient=_insufficient(plan, node, gates, used))
    rules = gates.release_rules
    extended: dict[str, int] = {}  # resource -> count for DRA (0: served by device plugin, 1.34 keeps it)
    for name in sorted(plan.requests):
        count = plan.requests[name]
        if not (is_extended(name, gates) if enabled(gates) else _classic_extended(name)):
            continue
        listed = name in node.allocatable
        allocatable = _count(node.allocatable[name]) if listed else 0
        left = allocatable - (used or {}).get(name, 0)
        backed = name in plan.mapping.classes
        if backed and (allocatable == 0 if rules.zero_allocatable_left_to_dra else not listed):
            extended[name] = count
            out.dra[name] = count
        elif not listed:
            out.unfit = (f"Insufficient {name}: the node's allocatable does not list it"
                         + (" and no DeviceClass maps it" if enabled(gates) else f" ({GATE} is off)"))
            return out
        else:
            if backed:
                extended[name] = 0
            out.device_plugin[name] = count
            if count > left:
                out.unfit = (f"Insufficient {name}: the pod asks for {count}, the node's allocatable has {allocatable}"
                             + (f" of which {allocatable - left} in use" if left != allocatable else "") + " (device plugin)")
                return out
    if not out.dra and not has_user_claims:
        return out
    requests, out.mappings = (_requests_and_mappings(plan, out.dra) if rules.init_containers_reuse_devices
                              else _requests_134(plan, extended))
    if not requests:
        return out  # nothing for DRA to allocate (a claim without requests is not modelled)
    out.claim = generated_claim(plan.pod, requests)
    return out


def _insufficient(plan: PodPlan, node: model.Node, gates: FeatureGates, used: dict[str, int] | None) -> list[str]:
    """The resources NodeResourcesFit (which runs before the DRA plugin) finds short: every one the device
    plugin must serve (not left to DRA) whose request is more than the node's allocatable has left. It
    checks them all, where ``node_plan`` stops explaining at the first."""
    short = []
    for name in sorted(plan.requests):
        if not (is_extended(name, gates) if enabled(gates) else _classic_extended(name)):
            continue
        listed = name in node.allocatable
        allocatable = _count(node.allocatable[name]) if listed else 0
        left_to_dra = name in plan.mapping.classes and (
            allocatable == 0 if gates.release_rules.zero_allocatable_left_to_dra else not listed)
        if not left_to_dra and plan.requests[name] > allocatable - (used or {}).get(name, 0):
            short.append(name)
    return short


def _container_request(index: int, container: model.Container, resource: str, class_name: str,
                       reusable: list[model.DeviceRequest | None]) -> tuple[model.DeviceRequest | None, list[Mapping]]:
    """The request container ``index`` adds for ``resource`` after using ``reusable`` ones, and its mappings."""
    wanted = _count(container.requests.get(resource, "0"))
    if not wanted:
        return None, []
    mappings = []
    covered = 0
    for other in reusable:
        if other is None:
            continue
        covered += _exactly(other).count
        mappings.append(Mapping(container.name, resource, other.name))
        if covered >= wanted:
            return None, mappings
    position = sorted(container.requests).index(resource)
    name = f"container-{index}-request-{position}"
    request = model.DeviceRequest(name=name, exactly=model.ExactDeviceRequest(
        device_class_name=class_name, allocation_mode="ExactCount", count=wanted - covered))
    mappings.append(Mapping(container.name, resource, name))
    return request, mappings


def _requests_and_mappings(plan: PodPlan, dra: dict[str, int]) -> tuple[list[model.DeviceRequest], list[Mapping]]:
    """1.35 onwards: init containers reuse the devices of later long-lived containers."""
    pod = plan.pod
    containers = [(c, True) for c in pod.spec.init_containers] + [(c, False) for c in pod.spec.containers]
    long_lived = [i for i, (c, init) in enumerate(containers) if not init or _sidecar(c, init)]
    short_lived = [i for i, (c, init) in enumerate(containers) if init and not _sidecar(c, init)]
    requests: list[model.DeviceRequest] = []
    mappings: list[Mapping] = []
    for resource in sorted(dra):
        class_name = plan.mapping.classes[resource].metadata.name
        own: list[model.DeviceRequest | None] = [None] * len(containers)
        long_maps: list[Mapping] = []
        for i in long_lived:
            request, maps = _container_request(i, containers[i][0], resource, class_name, [])
            own[i] = request
            long_maps += maps
        largest: model.DeviceRequest | None = None
        short_names: set[str] = set()
        short_maps: list[Mapping] = []
        for i in short_lived:
            request, maps = _container_request(i, containers[i][0], resource, class_name, own[i:])
            if request is not None:
                short_names.add(request.name)
                if largest is None or _exactly(largest).count < _exactly(request).count:
                    largest = request
            short_maps += maps
        if largest is not None:
            for m in short_maps:
                if m.request in short_names:
                    m.request = largest.name
            requests.append(largest)
        requests += [r for r in own if r is not None]
        mappings += long_maps + short_maps
    requests.sort(key=lambda r: r.name)
    return requests, mappings


def _requests_134(plan: PodPlan, extended: dict[str, int]) -> tuple[list[model.DeviceRequest], list[Mapping]]:
    """1.34: one request per container and mapped resource, device-plugin-served ones included."""
    pod = plan.pod
    containers = list(pod.spec.init_containers) + list(pod.spec.containers)
    requests, mappings = [], []
    for resource in sorted(extended):
        class_name = plan.mapping.classes[resource].metadata.name
        for i, container in enumerate(containers):
            request, maps = _container_request(i, container, resource, class_name, [])
            if request is not None:
                requests.append(request)
                mappings += maps
    return requests, mappings


def _suffix(namespace: str, pod_name: str) -> str:
    import hashlib  # deferred: loads OpenSSL; only pods asking for extended resources need it (start-up)

    digest = hashlib.sha256(f"{namespace}/{pod_name}/extended-resources".encode()).digest()
    return "".join(_NAME_ALPHABET[b % len(_NAME_ALPHABET)] for b in digest[:5])


def generated_claim(pod: model.Pod, requests: list[model.DeviceRequest]) -> model.ResourceClaim:
    """The claim the scheduler creates; the apiserver's five random characters are derived from the pod."""
    base = f"{pod.metadata.name}-extended-resources-"
    return model.ResourceClaim(
        metadata=model.ObjectMeta(name=base + _suffix(pod.metadata.namespace, pod.metadata.name),
                                  generate_name=base, namespace=pod.metadata.namespace,
                                  annotations={CLAIM_ANNOTATION: "true"}),
        spec=model.ResourceClaimSpec(devices=model.DeviceClaim(requests=requests)))


def _exactly(request: model.DeviceRequest) -> model.ExactDeviceRequest:
    """The request's ``exactly``: every request of a generated claim has one."""
    assert request.exactly is not None, "a generated claim's requests are exact"
    return request.exactly


def pod_status(claim: model.ResourceClaim, mappings: list[Mapping]) -> dict[str, Any]:
    """The pod's ``status.extendedResourceClaimStatus`` once the claim is bound."""
    return {"extendedResourceClaimStatus": {"requestMappings": [m.to_dict() for m in mappings],
                                            "resourceClaimName": claim.metadata.name}}


def plans_for(pods: list[model.Pod], classes: list[model.DeviceClass], gates: FeatureGates) -> list[PodPlan]:
    """The pods that ask for extended resources (with the gate off, only the device plugin serves them)."""
    if not pods:
        return []
    mapping = class_mapping(classes, gates) if enabled(gates) else ClassMapping()
    return [plan for pod in pods if (plan := pod_plan(pod, mapping, gates)) is not None]


@record
class NodeChoice:
    """One node's plans (one per pod, in ``plans`` order) and the claims to allocate there."""

    node: model.Node
    plans: list[NodePlan]
    claims: list[model.ResourceClaim]
    pod_plans: list[PodPlan] = field(default_factory=list)

    @property
    def unfit(self) -> str:
        return "; ".join(p.unfit for p in self.plans if p.unfit)

    @property
    def insufficient(self) -> list[str]:
        """The resources NodeResourcesFit finds short on this node, over every pod's plan."""
        return list(dict.fromkeys(name for p in self.plans for name in p.insufficient))

    @property
    def generated(self) -> list[model.ResourceClaim]:
        return [p.claim for p in self.plans if p.claim is not None]


def node_choices(plans: list[PodPlan], nodes: list[model.Node], pending: list[model.ResourceClaim],
                 gates: FeatureGates, user_claims: dict[str, bool],
                 used: dict[str, dict[str, int]] | None = None) -> list[NodeChoice]:
    """Per node: the plugin's Filter decision, and the pending claims with the generated ones placed last.

    Nodes that get equal generated claims share the claim objects, so that the
    allocator can treat them as one search (``Allocator.allocate_every``).
    """
    shared: dict[tuple[Any, ...], list[model.ResourceClaim]] = {}
    out = []
    for node in nodes:
        in_use = (used or {}).get(node.metadata.name)
        node_plans = [node_plan(p, node, gates, user_claims.get(p.pod.metadata.name, False), in_use) for p in plans]
        key = tuple(p.key() for p in node_plans)
        if key not in shared:
            shared[key] = list(pending) + [p.claim for p in node_plans if p.claim is not None]
        claims = shared[key]
        for plan in node_plans:  # the shared claim objects stand for this node's too
            if plan.claim is not None:
                plan.claim = next(c for c in claims[len(pending):] if c.metadata.name == plan.claim.metadata.name)
        out.append(NodeChoice(node=node, plans=node_plans, claims=claims, pod_plans=plans))
    return out


def allocate_choices(allocator: Allocator, choices: list[NodeChoice]) -> list[AllocationOutcome]:
    """``Allocator.allocate_every`` over nodes whose claims differ: the outcomes in node order.

    A node the plugin's Filter refuses (a resource neither mapped nor
    listed, or more than the device plugin's allocatable) is not searched.
    Nodes with the same claims are searched together, so they still share
    answers as node views allow. An AllocatorError stops the walk, as there.
    """
    outcomes: dict[int, AllocationOutcome] = {}
    groups: dict[int, list[int]] = {}
    for index, choice in enumerate(choices):
        if choice.unfit:
            outcomes[index] = AllocationOutcome(node=choice.node, claims=choice.claims, allocated=False,
                                                reason=choice.unfit)
        elif not choice.claims:
            outcomes[index] = AllocationOutcome(node=choice.node, claims=[], allocated=True, _results=[])
        else:
            groups.setdefault(id(choice.claims), []).append(index)
    for indices in groups.values():
        nodes = [choices[i].node for i in indices]
        for i, outcome in zip(indices, allocator.allocate_every(nodes, choices[indices[0]].claims), strict=False):
            outcomes[i] = outcome
    return [outcomes[i] for i in range(len(choices))]


@record(frozen=True)
class GrantedDevice:
    """One device of the generated claim's allocation, as a container gets it."""

    request: str
    driver: str
    pool: str
    device: str

    def to_dict(self) -> dict[str, str]:
        return {"request": self.request, "driver": self.driver, "pool": self.pool, "device": self.device}


@record(frozen=True)
class ContainerGrant:
    """The devices one container gets from the generated claim for the extended resource it asks for."""

    pod: str
    container: str
    init: bool
    claim: str
    request: str
    resource: str
    devices: list[GrantedDevice]

    def to_dict(self) -> dict[str, Any]:
        return {"pod": self.pod, "container": self.container, "init": self.init, "podClaim": "",
                "claim": self.claim, "request": self.request, "extendedResource": self.resource,
                "devices": [d.to_dict() for d in self.devices]}


@record(frozen=True)
class GeneratedClaim:
    """The claim the scheduler generates for a pod's extended resources, with its container mapping."""

    name: str
    generate_name: str
    mappings: list[Mapping]
    status: dict[str, Any]  # the pod's status.extendedResourceClaimStatus, as Kubernetes writes it
    containers: list[ContainerGrant]


@record(frozen=True)
class PodResources:
    """Per pod, what DRA and the device plugin serve of its extended resources (resource name -> count)."""

    pod: str
    dra: dict[str, int]
    device_plugin: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"pod": self.pod, "dra": dict(self.dra), "devicePlugin": dict(self.device_plugin)}


@record(frozen=True)
class ExtendedSummary:
    """Per pod on the chosen node (``allocation.extendedResources[]`` in the JSON): what DRA and the device
    plugin serve, notes, and the generated claim, if DRA serves any."""

    served: PodResources
    notes: list[str]
    claim: GeneratedClaim | None

    def to_dict(self) -> dict[str, Any]:
        claim = self.claim
        out: dict[str, Any] = {**self.served.to_dict(), "notes": list(self.notes),
                               "claim": None if claim is None else claim.name,
                               "status": None if claim is None else claim.status,
                               "containers": [] if claim is None else [c.to_dict() for c in claim.containers]}
        if claim is not None:
            out["generateName"] = claim.generate_name
            out["requestMappings"] = [m.to_dict() for m in claim.mappings]
        return out


def summaries(choice: NodeChoice, allocations: dict[str, model.AllocationResult]) -> list[ExtendedSummary]:
    """Per pod, on the chosen node: what DRA and the device plugin serve, the generated claim and its mapping.

    ``allocations`` maps claim names to their allocation (the generated claim's among them).
    """
    out = []
    for pod_plan, plan in zip(choice.pod_plans, choice.plans, strict=True):
        pod = pod_plan.pod.metadata.name
        generated = None
        if plan.claim is not None:
            claim = plan.claim
            allocation = allocations.get(claim.metadata.name)
            results = allocation.devices.results if allocation else []
            init_names = {c.name for c in pod_plan.pod.spec.init_containers}
            generated = GeneratedClaim(
                name=claim.metadata.name, generate_name=claim.metadata.generate_name, mappings=list(plan.mappings),
                status=pod_status(claim, plan.mappings),
                containers=[ContainerGrant(
                    pod=pod, container=m.container, init=m.container in init_names, claim=claim.metadata.name,
                    request=m.request, resource=m.resource,
                    devices=[GrantedDevice(request=d.request, driver=d.driver, pool=d.pool, device=d.device)
                             for d in results if d.request == m.request]) for m in plan.mappings])
        out.append(ExtendedSummary(PodResources(pod, dict(plan.dra), dict(plan.device_plugin)),
                                   list(pod_plan.mapping.notes), generated))
    return out


def node_rows(choices: list[NodeChoice]) -> dict[str, list[PodResources]]:
    """Node name -> per pod, the resources DRA and the device plugin serve there (for the node table)."""
    return {c.node.metadata.name: [PodResources(pp.pod.metadata.name, dict(p.dra), dict(p.device_plugin))
                                   for pp, p in zip(c.pod_plans, c.plans, strict=True)] for c in choices}
