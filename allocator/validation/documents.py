"""Validating what ``read_documents`` returned, object by object, as the apiserver would on create."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from allocator.kube.model import ResourceClaim, ResourceClaimSpec, ResourceClaimTemplate
from allocator.kube.objects import Document, ReadResult
from allocator.reading import TYPE_CHECKING, records
from allocator.reading.diagnostics import PARSE, Diagnostic
from allocator.reading.records import deep_copy_of, record
from allocator.releases import fields as release_fields
from allocator.releases.gates import FeatureGates, make_gates
from allocator.releases.serving import not_served, read_errors
from allocator.validation import claims, classes, classic, defaults, slices
from allocator.validation.cel import ExpressionLocator
from allocator.validation.common import Context
from allocator.validation.errors import Errors, located

# (namespace, name) -> the claim spec of that claim or template, as ``pods.pod`` looks them up
SpecsByName = dict[tuple[str, str], ResourceClaimSpec]
if TYPE_CHECKING:
    from typing import TypeVar

    from _typeshed import DataclassInstance

    _T = TypeVar("_T", bound="DataclassInstance")


def validate_document(document: Document, gates: FeatureGates, text: str | None = None, *,
                      claim_specs: SpecsByName | None = None, template_specs: SpecsByName | None = None,
                      namespaces: dict[str, dict[str, str]] | None = None) -> list[Diagnostic]:
    """Errors and warnings of one ``Document``, located in ``text`` when given. ``namespaces`` holds the
    labels of the namespaces the input defines (``ReadResult.namespaces``), None for an object that is
    stored already (the apiserver checks a namespace's labels on create only)."""
    errs = Errors()
    ctx = Context(errs=errs, gates=gates, locator=ExpressionLocator(document, text), namespaces=namespaces)
    kind, obj = document.kind, document.obj
    if kind == "ResourceClaim":
        claim = _claim(document)
        spec = defaults.claim_spec(claim.spec, gates, errs, "spec")
        claims.resource_claim(ctx, _with(claim, spec=spec))
    elif kind == "ResourceClaimTemplate":
        template = _template(document)
        inner = defaults.claim_spec(template.spec.spec, gates, errs, "spec.spec")
        template_spec = _with(template.spec, spec=inner)
        claims.resource_claim_template(ctx, _with(template, spec=template_spec))
    elif kind == "DeviceClass":
        classes.device_class(ctx, defaults.device_class(obj, gates, errs))
    elif kind == "ResourceSlice":
        slices.resource_slice(ctx, defaults.resource_slice(obj, gates, errs), present=document.present,
                              without_basic=document.without_basic)
    elif kind == "DeviceTaintRule":
        # imported for the kinds that need them: most inputs have neither (start-up, docs/performance.md)
        from allocator.validation import taint_rules

        taint_rules.device_taint_rule(ctx, obj)
    elif kind == "Pod":
        from allocator.validation import pods

        pods.pod(errs, obj, claim_specs, template_specs)
    return located(errs, document)


def _with(original: _T, **changes: object) -> _T:
    return records.replace(original, **changes)


# The reader builds ``Document.obj`` from ``kind``, so the kind says the object's type.
def _claim(document: Document) -> ResourceClaim:
    claim: ResourceClaim = document.obj  # type: ignore[assignment]
    return claim


def _template(document: Document) -> ResourceClaimTemplate:
    template: ResourceClaimTemplate = document.obj  # type: ignore[assignment]
    return template


# What the outputs say of an object read as stored (``read_as_stored``).
STORED_NOTE = "read as stored: created earlier in the cluster"


def is_stored(document: Document) -> bool:
    """Whether an object stands for one the cluster already holds: the inventory (classes, slices, nodes,
    taint rules), claims with ``status.allocation``, and any claim or pod read from a cluster (``metadata.uid``
    or ``metadata.resourceVersion`` set, as ``kubectl get -o yaml`` prints it). Other pending claims and pods
    are what a user is writing, which the apiserver checks as a create. A template is always checked as a
    create: the claims the scheduler meets are made from it by the resource-claim controller, through the
    apiserver's create under the gates of now, however the template itself was stored."""
    if read_from_cluster(document):
        return True
    if document.kind in ("Pod", "ResourceClaimTemplate"):
        return False
    if document.kind == "ResourceClaim":
        return _claim(document).status.allocation is not None
    return True


def read_from_cluster(document: Document) -> bool:
    """Whether ``document`` is stored because it was read from a cluster; never a template (see ``is_stored``)."""
    return document.from_cluster and document.kind != "ResourceClaimTemplate"


@record(frozen=True)
class StoredObject:
    """An object of the user's read as stored (``storedObjects[]`` in the JSON)."""

    kind: str
    namespace: str
    name: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "namespace": self.namespace, "name": self.name}


def read_as_stored(documents: Iterable[Document]) -> list[StoredObject]:
    """Each pending claim that is stored only because it was read from a cluster, the only objects whose
    checks and allocation that changes (a pod's checks do not depend on the gates; the inventory and
    allocated claims are stored anyway)."""
    return [StoredObject(kind=d.kind, namespace=d.namespace, name=d.name) for d in documents
            if read_from_cluster(d) and d.kind == "ResourceClaim" and _claim(d).status.allocation is None]


def as_the_scheduler_sees(documents: Iterable[Document], gates: FeatureGates) -> list[Document]:
    """``documents`` with the claims the apiserver creates under ``gates`` as it stores them: the fields of
    disabled features dropped from pending claims that are not stored and from every template's claim (the
    controller creates it); stored claims keep theirs, and the allocator refuses them as upstream's does.
    A document is replaced only when something is dropped."""
    if not defaults.drops_claim_fields(gates):  # the usual case: nothing to copy
        return list(documents)
    out = []
    for document in documents:
        if document.kind == "ResourceClaim" and not is_stored(document):
            claim = _claim(document)
            spec = _dropped_spec(claim.spec, gates)
            if spec is not None:
                document = _with(document, obj=_with(claim, spec=spec))
        elif document.kind == "ResourceClaimTemplate":
            template = _template(document)
            spec = _dropped_spec(template.spec.spec, gates)
            if spec is not None:
                template_spec = _with(template.spec, spec=spec)
                document = _with(document, obj=_with(template, spec=template_spec))
        out.append(document)
    return out


def _dropped_spec(spec: ResourceClaimSpec, gates: FeatureGates) -> ResourceClaimSpec | None:
    """A copy of the claim spec without the fields of disabled features, or None when it has none."""
    dropped = Errors()
    kept = deep_copy_of(spec)
    defaults.drop_disabled_claim_fields(kept, gates, dropped, "spec")
    return kept if dropped.items else None


def validate_documents(read_result: ReadResult, gates: FeatureGates | None = None, text: str | None = None, *,
                       include_read_errors: bool = True, serving: FeatureGates | None = None,
                       stored_gates: FeatureGates | None = None, stored: Callable[[Document], bool] = is_stored,
                       namespaces: dict[str, dict[str, str]] | None = None) -> list[Diagnostic]:
    """All diagnostics of a ``ReadResult``: decoding errors first, then each object's.

    ``text`` is the YAML the result was read from; with it, CEL compile errors
    point at the line and column inside the expression. An object in a
    version the release does not serve (with the gates ``serving``, default
    ``gates``) gets that refusal alone, as the apiserver answers it before
    validating anything. With ``stored_gates``, stored objects (``is_stored``)
    are checked with those gates instead (fields of a gate that is off now are
    kept, as the scheduler sees them) and the rest as created under ``gates``;
    ``stored`` says which objects are stored (``read_from_cluster`` where only those are). ``namespaces``
    (default: the result's own) are the labels of the Namespaces the whole input defines, which decide
    whether a claim created in one may ask for admin access.
    """
    if namespaces is None:
        namespaces = read_result.namespaces
    gates = gates or make_gates()
    serving = serving or gates
    writing = gates
    out: list[Diagnostic] = read_errors(read_result, serving) if include_read_errors else []
    claim_specs = {(d.namespace, d.name): _claim(d).spec for d in read_result.documents if d.kind == "ResourceClaim"}
    template_specs = {(d.namespace, d.name): _template(d).spec.spec for d in read_result.documents
                      if d.kind == "ResourceClaimTemplate"}
    for document in read_result.documents:
        refused = not_served(document, serving)
        if refused is not None:
            out.append(refused)
            continue
        is_stored_now = stored_gates is not None and stored(document)
        gates = stored_gates if stored_gates is not None and is_stored_now else writing
        found = classic.diagnostics(document, gates)
        unknown = release_fields.unknown_fields(document, gates.release)
        if unknown or any(d.type == PARSE for d in found):
            # Fields the release's types lack: strict decoding refuses the object before validating it.
            out.extend(sorted(found + unknown, key=lambda d: (d.line or 0, d.column or 0)))
            continue
        out.extend(found)
        out.extend(validate_document(document, gates, text, claim_specs=claim_specs, template_specs=template_specs,
                                     namespaces=None if is_stored_now else namespaces))
    return out
