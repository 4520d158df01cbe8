"""What the chosen release's apiserver serves: objects in other versions are refused.

An apiserver that does not serve a kind in a version answers 404 before any
validation (kubectl says ``no matches for kind "ResourceClaim" in version
"resource.k8s.io/v1"``); alpha and beta versions are off by default, and
the model counts them as enabled (``--runtime-config``) exactly when
``DynamicResourceAllocation`` is on. This module turns that into
located diagnostics that name the versions the release does serve, and into
the one-line answer "DRA is off, turn on this gate" the page and the engine
show. With the gate off the apiserver still serves a stable version (1.34's
v1): its storage does not read the gate, only the scheduler's plugin and the
pod strategy do (``without_dra``). The data comes from ``releases``.
"""

from __future__ import annotations

from allocator.reading.diagnostics import NOT_SERVED, Diagnostic
from allocator.releases import fields as release_fields
from allocator.releases.gates import FeatureGates
from allocator.releases.table import DRA_GATE, GROUP, Release, off_by_default, release


def _versions(versions) -> str:
    return ", ".join(f"{GROUP}/{v}" for v in versions)


def _runtime_config_hint(versions) -> str | None:
    """Alpha and beta versions are off by default in the apiserver even with the gate on."""
    needed = [v for v in versions if off_by_default(v)]
    if not needed or len(needed) < len(versions):
        return None
    flags = ",".join(f"{GROUP}/{v}=true" for v in needed)
    return f"the apiserver serves {'this version' if len(needed) == 1 else 'these versions'} only with " \
           f"--runtime-config={flags}"


def dra_off_message(gates: FeatureGates) -> str | None:
    """Why the scheduler allocates nothing in this cluster, and what to turn on; None when DRA is on.

    The apiserver installs the resource.k8s.io storage whatever the gate says (kubernetes/kubernetes
    ``pkg/registry/resource/rest``, 1.31 to 1.37: "also without the corresponding feature gate [...] to
    allow cleaning them up"), so a stable version stays served with the gate off (v1 in 1.34, where the
    gate can still be set false). Before 1.34 every version is alpha or beta, off by default.
    """
    if gates.enabled(DRA_GATE):
        return None
    rel = release(gates.release)
    spec = rel.gate_spec(DRA_GATE)
    why = "set to false" if DRA_GATE in gates.overrides() else \
        f"{spec.stage.lower()} and off by default in Kubernetes {rel.name}"
    head = f"Dynamic Resource Allocation is off: the feature gate {DRA_GATE} is {why}"
    turn_on = f"Turn on {DRA_GATE} (--feature-gates={DRA_GATE}=true)"
    served = rel.served("ResourceClaim", gates.enabled)
    if served:
        return (f"{head}, so the scheduler allocates no ResourceClaim (its DynamicResources plugin is off) and "
                "the apiserver drops a pod's resourceClaims when it creates the pod: the pod goes to a node as if "
                f"it had none. The apiserver still serves {_versions(served)} (its storage does not read the "
                f"gate). {turn_on} to have claims allocated.")
    return (f"{head}, so the apiserver serves no {GROUP} API (its versions in Kubernetes {rel.name} are alpha "
            f"or beta, off by default) and the scheduler allocates no ResourceClaim. {turn_on} to get "
            f"{_versions(rel.could_serve('ResourceClaim'))}.")


def without_dra(documents: list) -> list:
    """``documents`` as the scheduler meets them while DynamicResourceAllocation is off: pods without their
    claims (the apiserver's pod strategy drops ``spec.resourceClaims`` and the containers' ``resources.claims``
    of a pod it creates), and no claim to allocate (the DynamicResources plugin is off). Allocated claims
    stay: their devices remain taken."""
    from allocator.reading.records import replace

    out = []
    for document in documents:
        if document.kind == "ResourceClaimTemplate" or (
                document.kind == "ResourceClaim" and document.obj.status.allocation is None):
            continue
        if document.kind == "Pod":
            spec = document.obj.spec
            spec = replace(spec, resource_claims=[],
                           containers=[replace(c, claims=[]) for c in spec.containers],
                           init_containers=[replace(c, claims=[]) for c in spec.init_containers])
            document = replace(document, obj=replace(document.obj, spec=spec))
        out.append(document)
    return out


# (id(gates), kind) -> (gates, versions served): asked once per document, a dump has thousands of them
_SERVED: dict[tuple[int, str], tuple[FeatureGates, tuple[str, ...]]] = {}


def _served(rel: Release, kind: str, gates: FeatureGates) -> tuple[str, ...]:
    found = _SERVED.get((id(gates), kind))
    if found is None or found[0] is not gates:
        if len(_SERVED) >= 1_000:
            _SERVED.clear()
        found = _SERVED[id(gates), kind] = (gates, rel.served(kind, gates.enabled))
    return found[1]


def not_served(document, gates: FeatureGates) -> Diagnostic | None:
    """The refusal of a ``resource.k8s.io`` document the release does not serve, or None when it is served."""
    group, _, version = document.api_version.rpartition("/")
    if group != GROUP:
        return None
    rel: Release = release(gates.release)
    served = _served(rel, document.kind, gates)
    if version in served:
        return None
    head = f'no matches for kind "{document.kind}" in version "{document.api_version}"'
    if served:
        detail = (f"{head}: not served by Kubernetes {rel.name}, which serves {document.kind} in "
                  f"{_versions(served)}")
        hint = _runtime_config_hint(served)
    elif not gates.enabled(DRA_GATE):
        could = rel.could_serve(document.kind)
        detail = (f"{head}: not served by Kubernetes {rel.name} while {DRA_GATE} is off; with it on, "
                  f"served versions: {_versions(could)}")
        hint = f"turn on the feature gate {DRA_GATE}"
    else:  # a kind whose own gate is off (DeviceTaintRule)
        detail = f"{head}: not served by Kubernetes {rel.name} with these feature gates"
        hint = None
    line, column = document.position("apiVersion") or (document.line, document.column)
    return Diagnostic(field="apiVersion", type=NOT_SERVED, detail=detail, kind=document.kind,
                      name=document.name, line=line, column=column, hint=hint)


def read_errors(read_result, gates: FeatureGates) -> list[Diagnostic]:
    """The reading errors of ``read_result``, where an object the release does not serve has its refusal instead.

    An apiserver that does not serve the version answers 404 before decoding
    anything, so the unknown fields of such an object are not its problem yet.
    Those of a served object include the fields the release's types lack
    (``release_fields``), which reading, not knowing the release, let pass.
    """
    refused: dict[int, Diagnostic | None] = {}
    also_unknown: dict[int, list[Diagnostic]] = {}  # after an object's last error
    for unreadable in read_result.unreadable:
        refusal = not_served(unreadable, gates)
        if refusal is not None:
            refused[id(unreadable.errors[0])] = refusal
            refused.update((id(d), None) for d in unreadable.errors[1:])
        else:
            also_unknown[id(unreadable.errors[-1])] = release_fields.unknown_fields(unreadable, gates.release)
    out = []
    for diagnostic in read_result.errors:
        if id(diagnostic) not in refused:
            out.append(diagnostic)
            out.extend(also_unknown.get(id(diagnostic), ()))
        elif refused[id(diagnostic)] is not None:
            out.append(refused[id(diagnostic)])
    return out
