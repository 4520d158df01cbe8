"""Validating what ``read_documents`` returned, object by object, as the apiserver would on create."""

from __future__ import annotations

from allocator.reading.diagnostics import PARSE, Diagnostic
from allocator.releases import fields as release_fields
from allocator.releases.gates import FeatureGates, make_gates
from allocator.releases.serving import not_served, read_errors
from allocator.validation import claims, classes, classic, defaults, pods, slices, taint_rules
from allocator.validation.cel import ExpressionLocator
from allocator.validation.common import Context
from allocator.validation.errors import Errors, located


def validate_document(document, gates: FeatureGates, text: str | None = None, *,
                      claim_specs: dict | None = None, template_specs: dict | None = None) -> list[Diagnostic]:
    """Errors and warnings of one ``Document``, located in ``text`` when given."""
    errs = Errors()
    ctx = Context(errs=errs, gates=gates, locator=ExpressionLocator(document, text))
    kind, obj = document.kind, document.obj
    if kind == "ResourceClaim":
        spec = defaults.claim_spec(obj.spec, gates, errs, "spec")
        claims.resource_claim(ctx, _with(obj, spec=spec))
    elif kind == "ResourceClaimTemplate":
        inner = defaults.claim_spec(obj.spec.spec, gates, errs, "spec.spec")
        template_spec = _with(obj.spec, spec=inner)
        claims.resource_claim_template(ctx, _with(obj, spec=template_spec))
    elif kind == "DeviceClass":
        classes.device_class(ctx, defaults.device_class(obj, gates, errs))
    elif kind == "ResourceSlice":
        slices.resource_slice(ctx, defaults.resource_slice(obj, gates, errs), present=document.present)
    elif kind == "DeviceTaintRule":
        taint_rules.device_taint_rule(ctx, obj)
    elif kind == "Pod":
        pods.pod(errs, obj, claim_specs, template_specs)
    return located(errs, document)


def _with(obj, **changes):
    import dataclasses

    return dataclasses.replace(obj, **changes)


def is_stored(document) -> bool:
    """Whether an object stands for one the cluster already holds: the inventory (classes, slices, nodes,
    taint rules) and claims with ``status.allocation``. Pending claims, templates and pods are what a user
    is writing, which the apiserver checks as a create."""
    if document.kind in ("Pod", "ResourceClaimTemplate"):
        return False
    if document.kind == "ResourceClaim":
        return document.obj.status.allocation is not None
    return True


def validate_documents(read_result, gates: FeatureGates | None = None, text: str | None = None, *,
                       include_read_errors: bool = True, serving: FeatureGates | None = None,
                       stored_gates: FeatureGates | None = None) -> list[Diagnostic]:
    """All diagnostics of a ``ReadResult``: decoding errors first, then each object's.

    ``text`` is the YAML the result was read from; with it, CEL compile errors
    point at the line and column inside the expression. An object in a
    version the release does not serve (with the gates ``serving``, default
    ``gates``) gets that refusal alone, as the apiserver answers it before
    validating anything. With ``stored_gates``, stored objects (``is_stored``)
    are checked with those gates instead (fields of a gate that is off now are
    kept, as the scheduler sees them) and the rest as created under ``gates``.
    """
    gates = gates or make_gates()
    serving = serving or gates
    writing = gates
    out: list[Diagnostic] = read_errors(read_result, serving) if include_read_errors else []
    claim_specs = {(d.namespace, d.name): d.obj.spec for d in read_result.documents if d.kind == "ResourceClaim"}
    template_specs = {(d.namespace, d.name): d.obj.spec.spec for d in read_result.documents
                      if d.kind == "ResourceClaimTemplate"}
    for document in read_result.documents:
        refused = not_served(document, serving)
        if refused is not None:
            out.append(refused)
            continue
        gates = stored_gates if stored_gates is not None and is_stored(document) else writing
        found = classic.diagnostics(document, gates)
        unknown = release_fields.unknown_fields(document, gates.release)
        if unknown or any(d.type == PARSE for d in found):
            # Fields the release's types lack: strict decoding refuses the object before validating it.
            out.extend(sorted(found + unknown, key=lambda d: (d.line or 0, d.column or 0)))
            continue
        out.extend(found)
        out.extend(validate_document(document, gates, text, claim_specs=claim_specs, template_specs=template_specs))
    return out
