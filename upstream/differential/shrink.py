"""Reduce a case on which we and upstream disagree to a small one that still shows the disagreement.

Greedy deletion: drop a gate override, a whole object, then any list item or mapping key inside an object
(devices, requests, selectors, attributes, constraints, config, taints ...), shallow parts first, keeping
each deletion after which ``still_differs`` holds, until no single deletion keeps it or the budget of
trials is spent. What identifies an object (apiVersion, kind, metadata.name, metadata.namespace) is kept, and
a Pod the apiserver would take stays one it takes (``pod_problems``): the engine does not check a Pod as the
apiserver does, so a Pod without containers would be a disagreement about an input no cluster stores. For
the same reason a device of a v1beta1 or v1alpha3 ResourceSlice keeps its ``basic`` (1.32's apiserver
refuses a device without it, "spec.devices[0].basic: Required value"; the engine's create does not).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator

# An object read as stored (uid, resourceVersion) stays stored: without them the engine would create it anew.
KEPT = {("apiVersion",), ("kind",), ("metadata",), ("metadata", "name"), ("metadata", "namespace"), ("spec",),
        ("metadata", "uid"), ("metadata", "resourceVersion")}


def shrink(case: dict, still_differs: Callable[[dict], bool], budget: int = 400) -> tuple[dict, int]:
    """The smallest case found and the number of trials it took."""
    current = copy.deepcopy(case)
    trials = 0
    progress = True
    while progress and trials < budget:  # passes over the candidates until one pass keeps nothing
        progress = False
        position = 0
        while trials < budget:
            # After a kept deletion the candidates are those of the smaller case, from the same position on.
            candidates = list(_smaller(current))
            if position >= len(candidates):
                break
            trials += 1
            if still_differs(candidates[position]):
                current, progress = candidates[position], True
            else:
                position += 1
    return current, trials


def _smaller(case: dict) -> Iterator[dict]:
    for gate in list(case.get("gates") or {}):
        if gate == "DynamicResourceAllocation":
            continue  # kept: off (1.33's default), resource.k8s.io is not served, which the harness does not model
        trial = copy.deepcopy(case)
        del trial["gates"][gate]
        yield trial
    objects = case.get("objects") or []
    for index in range(len(objects)):
        trial = copy.deepcopy(case)
        del trial["objects"][index]
        yield trial
    paths = sorted(((index, path) for index, obj in enumerate(objects) for path in _paths(obj)),
                   key=lambda item: (len(item[1]), item[0]))
    for index, path in paths:
        if path in KEPT or _keeps_basic(objects[index], path):
            continue
        trial = copy.deepcopy(case)
        parent = trial["objects"][index]
        for step in path[:-1]:
            parent = parent[step]
        del parent[path[-1]]
        if objects[index].get("kind") == "Pod" and pod_problems(trial["objects"][index]) \
                and not pod_problems(objects[index]):
            continue  # the apiserver would refuse the smaller Pod
        yield trial


def _keeps_basic(obj: dict, path: tuple) -> bool:
    """Whether ``path`` is a device's ``basic`` in a slice of a version where every device must have one."""
    return (obj.get("kind") == "ResourceSlice"
            and obj.get("apiVersion") in ("resource.k8s.io/v1beta1", "resource.k8s.io/v1alpha3")
            and len(path) == 4 and path[:2] == ("spec", "devices") and path[3] == "basic")


def pod_problems(pod: dict) -> list[str]:
    """What the apiserver's Pod validation would refuse among the parts the shrinker can remove: at least
    one container, each container's name and image, each pod claim's name and exactly one source, container
    claims naming a pod claim, and an extended resource's request equal to its limit."""
    spec = pod.get("spec") if isinstance(pod.get("spec"), dict) else {}
    problems = []
    if not spec.get("containers"):
        problems.append("spec.containers: Required value")
    claims = spec.get("resourceClaims") or []
    names = {c.get("name") for c in claims if isinstance(c, dict)}
    for i, claim in enumerate(claims):
        if not claim.get("name"):
            problems.append(f"spec.resourceClaims[{i}].name: Required value")
        if ("resourceClaimName" in claim) == ("resourceClaimTemplateName" in claim):
            problems.append(f"spec.resourceClaims[{i}]: must specify exactly one source")
    for kind in ("containers", "initContainers"):
        for i, container in enumerate(spec.get(kind) or []):
            where = f"spec.{kind}[{i}]"
            problems += [f"{where}.{key}: Required value" for key in ("name", "image") if not container.get(key)]
            resources = container.get("resources") or {}
            for j, claim in enumerate(resources.get("claims") or []):
                if claim.get("name") not in names:
                    problems.append(f"{where}.resources.claims[{j}].name: Not found")
            limits = resources.get("limits") or {}
            for resource, amount in (resources.get("requests") or {}).items():
                if "/" in resource and limits.get(resource) != amount:
                    problems.append(f"{where}.resources.requests[{resource}]: must equal the limit")
    return problems


def _paths(node, prefix: tuple = ()) -> Iterator[tuple]:
    """Every key of a mapping and every item of a list inside ``node``, as a path of steps."""
    if isinstance(node, dict):
        for key, child in node.items():
            yield (*prefix, key)
            yield from _paths(child, (*prefix, key))
    elif isinstance(node, list):
        # From the end, so that deleting one item leaves the paths of the earlier ones unchanged.
        for index in reversed(range(len(node))):
            yield (*prefix, index)
            yield from _paths(node[index], (*prefix, index))
