"""Classic DRA (KEP-3063) as Kubernetes 1.31 still had it, behind ``DRAControlPlaneController``.

In 1.31, ``resource.k8s.io/v1alpha3`` kept four fields of classic DRA:
``ResourceClaimSpec.controller`` (the driver whose control-plane controller
allocates the claim), ``AllocationResult.controller``,
``DeviceClassSpec.suitableNodes`` and ``ResourceClaimStatus.deallocationRequested``.
``convert`` sets them aside; this module decides what they mean in the
chosen release, as kubernetes/kubernetes v1.31.0 did:

* with the gate on, they are valid (``spec.controller`` must be a driver
  name, ``pkg/apis/resource/validation``), and the scheduler does not
  allocate such a claim: it hands it to that controller through a
  PodSchedulingContext (``pkg/scheduler/framework/plugins/dynamicresources``).
  The playground does not simulate the controller, it says so;
* with the gate off, the apiserver drops them when the object is created
  (``dropDisabledDRAControlPlaneControllerFields`` in
  ``pkg/registry/resource/*/strategy.go``): a warning, and the claim is one
  the scheduler allocates;
* from 1.32 on the fields do not exist: strict decoding refuses them as
  unknown fields.
"""

from __future__ import annotations

from allocator.reading.diagnostics import PARSE, Diagnostic
from allocator.releases.gates import FeatureGates
from allocator.releases.table import CLASSIC_DRA_GATE, release
from allocator.validation.errors import Errors, located
from allocator.validation.names import driver_name

CLAIM_CONTROLLER = "spec.controller"
TEMPLATE_CONTROLLER = "spec.spec.controller"


def _exists(gates: FeatureGates) -> bool:
    return release(gates.release).exists(CLASSIC_DRA_GATE)


def _effective(gates: FeatureGates) -> bool:
    return _exists(gates) and gates.enabled(CLASSIC_DRA_GATE)


def diagnostics(document, gates: FeatureGates) -> list[Diagnostic]:
    """What the release says about the classic fields of one document (none when it has none)."""
    if not document.classic:
        return []
    if not _exists(gates):
        out = []
        for path, (_, _, removed) in document.classic.items():
            pos = document.classic_pos(path)
            line, column = pos if pos else (document.line, document.column)
            out.append(Diagnostic(field=path, type=PARSE, detail=f'unknown field "{path}": {removed}',
                                  kind=document.kind, name=document.name, line=line, column=column))
        return out
    errs = Errors()
    for path, (value, _, _) in document.classic.items():
        pos = document.classic_pos(path)
        found = Errors()
        if not gates.enabled(CLASSIC_DRA_GATE):
            found.warn(path, f"dropped on create: the feature gate {CLASSIC_DRA_GATE} is off in Kubernetes "
                             f"{gates.release}, so the apiserver removes this field"
                             + (" and the scheduler allocates the claim itself" if path.endswith("controller") else ""))
        elif path in (CLAIM_CONTROLLER, TEMPLATE_CONTROLLER):
            if isinstance(value, str):
                driver_name(found, value, path)
            else:
                found.invalid(path, value, "must be a string")
        for err in found.items:
            err.pos = pos  # the field is no longer in the decoded object: point at the key the user wrote
        errs.extend(found)
    return located(errs, document)


def controllers(documents, gates: FeatureGates) -> tuple[dict, dict]:
    """The claims and templates a control-plane controller allocates: (namespace, name) -> controller."""
    claims, templates = {}, {}
    if not _effective(gates):
        return claims, templates
    for doc in documents:
        if doc.kind == "ResourceClaim" and isinstance(doc.classic.get(CLAIM_CONTROLLER, (None,))[0], str):
            claims[(doc.namespace, doc.name)] = doc.classic[CLAIM_CONTROLLER][0]
        elif doc.kind == "ResourceClaimTemplate" and isinstance(doc.classic.get(TEMPLATE_CONTROLLER, (None,))[0], str):
            templates[(doc.namespace, doc.name)] = doc.classic[TEMPLATE_CONTROLLER][0]
    return claims, templates


def handed_to_controllers(work, documents, gates: FeatureGates) -> list[str]:
    """Why the scheduler allocates none of the pending claims: one line per claim a controller allocates."""
    by_claim, by_template = controllers(documents, gates)
    if not by_claim and not by_template:
        return []
    generated = {}
    for resolved in work.pod_claims.values():
        for pod_claim in resolved:
            if pod_claim.template_name is not None:
                claim = pod_claim.claim
                key = (claim.metadata.namespace, pod_claim.template_name)
                if key in by_template:
                    generated[(claim.metadata.namespace, claim.metadata.name)] = by_template[key]
    out = []
    for claim in work.pending:
        key = (claim.metadata.namespace, claim.metadata.name)
        controller = by_claim.get(key) or generated.get(key)
        if controller:
            out.append(f"claim {key[0]}/{key[1] or claim.metadata.generate_name} has spec.controller "
                       f"{controller}: in Kubernetes {gates.release} with {CLASSIC_DRA_GATE} the control-plane "
                       f"controller of that driver allocates it (through a PodSchedulingContext), not the scheduler; "
                       f"the playground does not simulate it")
    return out
